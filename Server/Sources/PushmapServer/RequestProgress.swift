internal import NIOHTTP1
internal import NIOHTTPTypes

/// Where a connection's requests and answers stand, from the parts read and written: what the
/// channel handlers that judge a connection (``UnreadableRequestAnswer``, ``IdleTimeout``,
/// ``ExpectContinue``) ask.
struct RequestProgress {
    /// A request's head was read and its end not yet.
    private(set) var requestOpen = false
    /// Requests whose head was read and whose answer has not ended.
    private(set) var unanswered = 0

    mutating func read(_ part: HTTPRequestPart) {
        switch part {
        case .head: readHead()
        case .end: requestOpen = false
        case .body: break
        }
    }

    mutating func wrote(_ part: HTTPResponsePart) {
        if case .end = part { wroteEnd() }
    }

    /// The same for NIO's HTTP/1 parts, as a handler before the HTTP codec sees them.
    mutating func read(_ part: HTTPServerRequestPart) {
        switch part {
        case .head: readHead()
        case .end: requestOpen = false
        case .body: break
        }
    }

    mutating func wrote(_ part: HTTPServerResponsePart) {
        if case .end = part { wroteEnd() }
    }

    private mutating func readHead() {
        requestOpen = true
        unanswered += 1
    }

    private mutating func wroteEnd() {
        unanswered = max(0, unanswered - 1)
    }
}
