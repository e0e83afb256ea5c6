internal import Hummingbird

extension Response {
    /// The response, with `action` run once its answer is done: at once for a body of known
    /// length, when the stream ends for a streamed one (a batch's, a campaign's), which the
    /// handler returned long before. The concurrency slot is held, and the access log times the
    /// request, to that point.
    func whenDone(_ action: @escaping @Sendable () -> Void) -> Response {
        guard body.contentLength == nil else {
            action()
            return self
        }
        var streamed = self
        let body = self.body
        streamed.body = ResponseBody { writer in
            defer { action() }
            try await body.write(writer)
        }
        return streamed
    }
}
