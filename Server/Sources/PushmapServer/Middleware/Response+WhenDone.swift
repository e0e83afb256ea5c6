internal import Hummingbird
internal import Synchronization

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
        let done = DoneAction(action)
        streamed.body = ResponseBody { writer in
            defer { done.run() }
            try await body.write(writer)
        }
        return streamed
    }
}

/// An action run once: when the streamed body has been written, or when the body goes away
/// unwritten. A client that reset the connection before the answer began never gets its body
/// written, and the slot it held was never given back: enough such streams left every request
/// answered 503 for good (the thirty-third audit, F6).
private final class DoneAction: Sendable {
    private let action: @Sendable () -> Void
    private let done = Atomic<Bool>(false)

    init(_ action: @escaping @Sendable () -> Void) { self.action = action }

    func run() {
        if !done.exchange(true, ordering: .acquiringAndReleasing) { action() }
    }

    deinit { run() }
}
