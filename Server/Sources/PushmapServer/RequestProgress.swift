internal import NIOHTTPTypes

/// Where a connection's requests and answers stand, from the parts read and written: what the
/// channel handlers that judge a connection (``UnreadableRequestAnswer``, ``IdleTimeout``) ask.
struct RequestProgress {
    /// A request's head was read and its end not yet.
    private(set) var requestOpen = false
    /// Requests whose head was read and whose answer has not ended.
    private(set) var unanswered = 0

    mutating func read(_ part: HTTPRequestPart) {
        switch part {
        case .head:
            requestOpen = true
            unanswered += 1
        case .end: requestOpen = false
        case .body: break
        }
    }

    mutating func wrote(_ part: HTTPResponsePart) {
        if case .end = part { unanswered = max(0, unanswered - 1) }
    }
}
