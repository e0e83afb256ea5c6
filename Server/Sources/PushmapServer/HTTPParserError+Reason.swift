internal import NIOHTTP1

extension HTTPParserError {
    /// What NIO's HTTP/1 parser met, said so that a client can fix it. NIO's own descriptions
    /// ("invalid constant string", "paused (swift-http-parser error)") name the parser's state,
    /// not the request's fault (the twenty-first audit, N7). One wording for a head and a body.
    var reason: String {
        switch self {
        case .invalidVersion, .lfExpected:
            "a line of its head is not ended by CR LF, or its request line does not end in HTTP/1.0 or HTTP/1.1"
        case .invalidConstant:
            "its request line is not a method, a target and the version, one space apart"
        case .invalidURL, .invalidPath, .invalidQueryString, .invalidFragment, .invalidHost, .invalidPort:
            "its target is not a valid path"
        case .invalidHeaderToken:
            "a header is not a name with no spaces, a colon and a value"
        case .invalidContentLength:
            // llhttp says the same of a Content-Length after a Transfer-Encoding (the
            // thirty-third audit, F5: `identity` beside a valid length was blamed on the length).
            "its Content-Length is not a number of bytes within 64 bits, or it comes with a Transfer-Encoding (RFC 9112 6.3): send one length"
        case .unexpectedContentLength:
            "it has Content-Length more than once, or beside Transfer-Encoding (RFC 9112 6.3): send one length"
        case .invalidChunkSize:
            "a chunk's size is not a hexadecimal number within 64 bits"
        case .paused:
            "it is HTTP/2 or asks to switch protocols; pushmap-server serves HTTP/1.1"
        case .unknown:
            // llhttp's faults NIO names no case for: Transfer-Encoding beside Content-Length, a
            // coding list not ending in chunked, a CR not followed by LF.
            "its framing is not HTTP/1.1's: Transfer-Encoding beside Content-Length, a Transfer-Encoding that does not end in chunked, or a CR without LF"
        default:
            "\(self)"
        }
    }
}
