internal import HTTPTypes
internal import NIOCore
internal import NIOHTTP1
internal import NIOHTTPTypes
internal import NIOHTTPTypesHTTP1
internal import PushmapJSON

/// Answers a request NIO's HTTP/1 parser cannot read (an unknown method such as `FOO`, a head
/// past the size limits, bytes that are not HTTP) with the service's JSON error body, and closes
/// the connection. Hummingbird answers those itself with an empty 400 before any route or
/// middleware sees them, so this sits in the channel, after the HTTP codec.
///
/// It also puts ``HTTP10Close`` and ``ExpectContinue`` before the codec, the one place left to
/// put them, and drains the body of a request whose answer ended before it (below).
///
/// An error inside a request whose head was read (a bad chunk in its body) is left to
/// Hummingbird, which is answering that request. One after a request still being answered (the
/// next of a pipelined pair) waits for that answer's end, so that answers keep their order.
final class UnreadableRequestAnswer: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Puts ``HTTP10Close`` and ``ExpectContinue`` before the HTTP codec, where a request's
    /// version is still known and an informational answer can be written.
    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        if let codec = try? pipeline.handler(type: HTTP1ToHTTPServerCodec.self) {
            try? pipeline.addHandlers([HTTP10Close(), ExpectContinue(maxBodyBytes: maxBodyBytes)], position: .before(codec))
        }
        try? pipeline.addHandler(firstBytes, position: .first)
    }

    /// The connection's first bytes, for a first request the parser cannot read.
    private let firstBytes = FirstBytes()
    /// Whether a request's head has been read on this connection.
    private var readAnyHead = false

    /// `--max-body-bytes`, for ``ExpectContinue``.
    private let maxBodyBytes: Int

    init(maxBodyBytes: Int) {
        self.maxBodyBytes = maxBodyBytes
    }

    private var progress = RequestProgress()
    /// A parser error met while an answer was owed, answered after it.
    private var held: HTTPParserError?
    /// An answer ended while its request's body was still coming: a batch or a campaign stopped
    /// at its time limit, which ended the body's stream for Hummingbird too. The rest of the body
    /// is read here and dropped, so that a client still sending it finishes and reads the answer
    /// (the server has closed its side); read no more, it filled the socket and the client hung
    /// until the idle timeout. A client that sends nothing more is closed by that timeout.
    private var draining = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if draining {
            if case .end = part {
                draining = false
                progress.read(part)
            }
            return
        }
        progress.read(part)
        if case .head = part { readAnyHead = true }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // Hummingbird asks for no more reads once the body's stream has ended.
        if draining { context.read() }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        context.write(data, promise: promise)
        guard case .end = part else { return }
        if progress.requestOpen && !draining {
            draining = true
            context.read()
        }
        progress.wrote(part)
        if progress.unanswered == 0, let error = held {
            held = nil
            answer(error, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError, !progress.requestOpen, context.channel.isActive else {
            context.fireErrorCaught(error)
            return
        }
        if progress.unanswered > 0 {
            held = parserError
        } else {
            answer(parserError, context: context)
        }
    }

    private func answer(_ error: HTTPParserError, context: ChannelHandlerContext) {
        let (status, message) = Self.answer(error, firstBytes: readAnyHead ? nil : firstBytes.bytes)
        let requestID = RequestIDMiddleware.requestID(from: nil)
        let kind = status == .badRequest ? "bad request" : status.reasonPhrase.lowercased()
        let body = Answer.json(.object(["error": .object(["kind": .string(kind), "message": .string(message)]), "requestId": .string(requestID)]))
        var headers: HTTPFields = [.contentType: "application/json", .connection: "close", .contentLength: String(body.count)]
        headers[.requestID] = requestID
        context.write(wrapOutboundOut(.head(HTTPResponse(status: status, headerFields: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(bytes: body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }

    /// The status and the one-line message for what the parser met; `firstBytes`, the
    /// connection's first bytes when the request is its first.
    static func answer(_ error: HTTPParserError, firstBytes: [UInt8]? = nil) -> (HTTPResponse.Status, String) {
        switch error {
        case .invalidMethod where firstBytes.map(FirstBytes.isTLSHandshake) == true:
            (.badRequest, "the connection began with a TLS handshake: pushmap-server speaks plain HTTP (use http://, or put TLS in a proxy in front)")
        case .invalidMethod where firstBytes.map(FirstBytes.startsWithMethod) == false:
            // NIO's parser says "invalid method" of any first line it cannot read (`hello`): a
            // line with no method and space is no request at all (the twenty-fifth audit, F15).
            (.badRequest, "the request could not be read as HTTP/1.1: its first line is not METHOD TARGET HTTP/1.1")
        case .invalidMethod:
            // RFC 9110 15.6.2: a method the server does not know is 501.
            (.notImplemented, "the request's method is not one pushmap-server knows; its routes take GET, HEAD and POST")
        case .headerOverflow:
            (.init(code: 431, reasonPhrase: "Request Header Fields Too Large"),
             "the request's head is over the server's limits: 80 KiB a line or header, 80 KiB of headers in all, 1,000 headers")
        default:
            (.badRequest, "the request could not be read as HTTP/1.1: \(error.reason)")
        }
    }
}

/// Keeps the first bytes a connection sends, before the HTTP parser reads them, then leaves the
/// pipeline: the parser reports any first line it cannot read as an unknown method, and these
/// tell an unknown method (`FOO / HTTP/1.1`, 501) from bytes that are no request (`hello`, a TLS
/// handshake: 400).
final class FirstBytes: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// Enough for the longest method a client sends and the space after it.
    private static let kept = 32
    private(set) var bytes: [UInt8] = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        bytes += buffer.readableBytesView.prefix(max(0, Self.kept - bytes.count))
        context.fireChannelRead(data)
        if bytes.count >= Self.kept { context.pipeline.syncOperations.removeHandler(context: context, promise: nil) }
    }

    /// A TLS record of the handshake type (22) and major version 3: a client speaking HTTPS.
    static func isTLSHandshake(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x16 && bytes[1] == 0x03
    }

    /// Whether the bytes start as a request line does, with a method (a token, RFC 9110 5.6.2)
    /// up to the first space; true when they end inside one (the parser's verdict stands).
    static func startsWithMethod(_ bytes: [UInt8]) -> Bool {
        let method = bytes.prefix { $0 != UInt8(ascii: " ") }
        return !method.isEmpty && method.allSatisfy(isTokenByte)
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

/// An HTTP/1.0 request that does not ask to keep the connection alive closes it after its answer,
/// as HTTP/1.0 says. The codec after this handler writes requests as HTTPTypes, which carry no
/// version: Hummingbird then kept such a connection open until the idle timeout, and a client
/// reading to the end of the stream waited that long. It reads `Connection: close` instead. Its
/// answer goes out as HTTP/1.0 too: as 1.1, a streamed answer (batch, campaign) was chunked,
/// which a 1.0 client does not read (RFC 9112 6.1); as 1.0 it ends when the connection closes.
///
/// A `CONNECT` request closes it too. NIO's parser reads what follows its head as a tunnel's
/// bytes, not as requests, and its encoder sends the answer (405) with no body: kept open, the
/// connection held the client until the idle timeout and a request pipelined after it was never
/// answered (the twenty-first audit, N3). Closed, the client reads the 405 to its end.
final class HTTP10Close: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The request being answered is HTTP/1.0 and closes the connection.
    private var closing = false
    /// The request being answered is HTTP/1.0 and asks to keep the connection alive.
    private var keptAlive10 = false
    /// The answer being written is streamed to an HTTP/1.0 client: the connection closes after it.
    private var closeAfterEnd = false
    /// The request being answered is a CONNECT: its answer says the connection closes.
    private var connect = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        if head.method == .CONNECT {
            connect = true
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.fireChannelRead(wrapInboundOut(.head(head)))
            return
        }
        let http10 = head.version.major == 1 && head.version.minor == 0
        keptAlive10 = http10 && head.isKeepAlive
        guard http10, !head.isKeepAlive else {
            context.fireChannelRead(data)
            return
        }
        closing = true
        head.headers.replaceOrAdd(name: "connection", value: "close")
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where head.status != .continue && (closing || connect || keptAlive10):
            if connect {
                head.headers.replaceOrAdd(name: "connection", value: "close")
            } else if closing || !head.headers.contains(name: "content-length") {
                // A kept-alive 1.0 client's streamed answer (a batch, a campaign) has no length
                // to end it by and cannot be chunked: it ends, as a closing one's, with the
                // connection (the twenty-second audit, N5).
                head.version = .http1_0
                head.headers.remove(name: "transfer-encoding")
                if !closing {
                    head.headers.replaceOrAdd(name: "connection", value: "close")
                    closeAfterEnd = true
                }
            }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end where closeAfterEnd:
            closeAfterEnd = false
            let channel = context.channel
            context.writeAndFlush(data).whenComplete { result in
                promise?.completeWith(result)
                channel.close(promise: nil)
            }
        default:
            context.write(data, promise: promise)
        }
    }
}

/// Answers `Expect: 100-continue` with `100 Continue` at once (behind pipelined requests, once
/// their answers are written). curl asks it of a body over 1 MB and of `-T -`, then waits a
/// second for the answer before it sends: a second a large batch lost, counted against its time
/// limit (a 300 ms limit ended with no line read). A route that refuses the request answers it
/// all the same; the client then stops sending.
///
/// Not when the announced length is over `--max-body-bytes` on a route that reads one whole
/// body: that route answers 413 before reading a byte, and a 100 first asked the client to send
/// a body only to have it drained (the twenty-first audit, N6). RFC 9110 10.1.1 lets the server
/// answer with the final status alone; the request then says `Connection: close`, since a client
/// told no 100 may or may not send the body, and the connection cannot tell which came.
final class ExpectContinue: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let maxBodyBytes: Int
    /// Pipelined requests are read before the answers to the ones ahead of them are written.
    private var progress = RequestProgress()
    /// The answers still to end before the one to a request refused unread, which says the
    /// connection closes; and before a held `100 Continue`, which, sent at once, came before
    /// them (the twenty-fourth audit, S1 and S4).
    private var aheadOfClosing: Int?
    private var heldContinue: (ahead: Int, version: HTTPVersion)?

    init(maxBodyBytes: Int) {
        self.maxBodyBytes = maxBodyBytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        progress.read(part)
        guard case .head(var head) = part, head.version == .http1_1,
              head.headers["expect"].contains(where: Self.asksToContinue) else {
            context.fireChannelRead(data)
            return
        }
        head.headers.remove(name: "expect")
        let ahead = progress.unanswered - 1
        if refusedUnread(head) {
            aheadOfClosing = ahead
            head.headers.replaceOrAdd(name: "connection", value: "close")
        } else if ahead == 0 {
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))), promise: nil)
        } else {
            heldContinue = (ahead, head.version)
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        progress.wrote(part)
        switch part {
        case .head(var head) where head.status != .continue && aheadOfClosing == 0:
            aheadOfClosing = nil
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end:
            context.write(data, promise: promise)
            aheadOfClosing = aheadOfClosing.map { $0 - 1 }
            guard let held = heldContinue else { return }
            if held.ahead > 1 {
                heldContinue = (held.ahead - 1, held.version)
            } else {
                heldContinue = nil
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: held.version, status: .continue))), promise: nil)
            }
        default:
            context.write(data, promise: promise)
        }
    }

    /// Whether the route answers `head` with 413 for its announced length alone.
    private func refusedUnread(_ head: HTTPRequestHead) -> Bool {
        guard let length = head.headers["content-length"].first.flatMap({ Int($0) }), length > maxBodyBytes else { return false }
        return !PushmapAPI.streamedRoutes.contains(RouteTable.canonical(Self.path(of: head.uri)))
    }

    /// Whether an `Expect` value is `100-continue`, in any case, blanks around it allowed.
    private static func asksToContinue(_ value: String) -> Bool {
        value.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }) == ["100-continue"]
    }

    /// The path of a request target: its query left out, and the scheme and host of an
    /// absolute one (`POST http://host/v1/batch`, RFC 9112 3.2.2) too.
    private static func path(of target: String) -> Substring {
        var path = target.prefix { $0 != "?" }
        if !path.hasPrefix("/"), let colon = path.firstIndex(of: ":"), path[colon...].hasPrefix("://") {
            let authority = path[colon...].dropFirst(3)
            path = authority.firstIndex(of: "/").map { authority[$0...] } ?? "/"
        }
        return path
    }
}
