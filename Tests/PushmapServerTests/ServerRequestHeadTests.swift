import Foundation
import Testing

/// What the real server binary does with a request's head: an answer's media type is its
/// route's, whatever the client accepts; a body is read whatever type the client names (curl's
/// default is form-encoded); HEAD is answered on every GET route.
@Suite("pushmap-server request heads", .serialized)
struct ServerRequestHeadTests {
    static let intent = Data(#"{"title":"Goal","body":"2-1"}"#.utf8)

    @Test("every Accept gets the route's answer and type, application/json included (once a 500)")
    func accept() throws {
        let server = try ServerUnderTest()
        let plain = try Curl.post("\(server.baseURL)/v1/translate?platform=fcm", Self.intent)
        #expect(plain.status == 200)
        for accept in ["application/json", "application/json, text/plain", "text/html", "*/*", "application/*", "not a media type"] {
            let answer = try Curl.post("\(server.baseURL)/v1/translate?platform=fcm", Self.intent, headers: ["Accept": accept])
            #expect(answer.status == 200, "Accept: \(accept): \(answer.text)")
            #expect(answer.headers["content-type"] == "application/json", "Accept: \(accept)")
            #expect(answer.text == plain.text, "Accept: \(accept)")
        }
        let metrics = try Curl.get("\(server.baseURL)/metrics", headers: ["Accept": "application/openmetrics-text; version=1.0.0"])
        #expect(metrics.status == 200)
        #expect(metrics.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
    }

    @Test("a body is read whatever its Content-Type says")
    func contentType() throws {
        let server = try ServerUnderTest()
        for type in ["application/json", "text/plain", "application/x-www-form-urlencoded", "garbage;;"] {
            let answer = try Curl.post("\(server.baseURL)/v1/translate?platform=apns", Self.intent, headers: ["Content-Type": type])
            #expect(answer.status == 200, "Content-Type: \(type): \(answer.text)")
            #expect(answer.object["apns"] != nil, "Content-Type: \(type)")
        }
    }

    @Test("HEAD on a GET route answers as GET does, without the body; HEAD on a POST route is 405")
    func head() throws {
        let server = try ServerUnderTest()
        for path in ["/healthz", "/v1/templates", "/openapi.yaml"] {
            let get = try Curl.get("\(server.baseURL)\(path)")
            let head = try Curl.request("HEAD", "\(server.baseURL)\(path)", extra: ["-I"])
            #expect(head.status == 200, "HEAD \(path)")
            // With -I curl writes the head where the body would go: nothing may follow it.
            #expect(String(decoding: head.body, as: UTF8.self).hasSuffix("\r\n\r\n"), "HEAD \(path)")
            #expect(head.headers["content-type"] == get.headers["content-type"], "HEAD \(path)")
            #expect(head.headers["content-length"] == String(get.body.count), "HEAD \(path)")
        }
        let post = try Curl.request("HEAD", "\(server.baseURL)/v1/translate", extra: ["-I"])
        #expect(post.status == 405)
        #expect(post.headers["allow"] == "POST")
        // The seventh audit: a GET route's 405 said Allow: GET, though HEAD is answered too.
        let wrong = try Curl.request("POST", "\(server.baseURL)/v1/templates")
        #expect(wrong.status == 405)
        #expect(wrong.headers["allow"] == "GET, HEAD", "\(wrong.headers)")
    }

    /// Source: the seventh audit, and RFC 9112 9.3: an HTTP/1.0 request without keep-alive was
    /// answered and its connection kept open until the idle timeout (60 s).
    @Test("an HTTP/1.0 request closes its connection after the answer unless it asks to keep it alive")
    func http10() throws {
        let server = try ServerUnderTest()
        let plain = try StreamingRequest(port: server.port, raw: "GET /healthz HTTP/1.0\r\n\r\n")
        #expect(plain.read(until: "}\n", seconds: 10))
        #expect(plain.closed(within: 5))
        let kept = try StreamingRequest(port: server.port, raw: "GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(kept.read(until: "}\n", seconds: 10))
        #expect(!kept.closed(within: 1))
    }

    /// Source: the twenty-first audit (N4), RFC 9112 6.1: a streamed answer to an HTTP/1.0
    /// request came chunked, its chunk sizes mixed into the NDJSON a 1.0 client reads.
    @Test("a batch asked for over HTTP/1.0 is answered as HTTP/1.0: not chunked, ended by closing the connection")
    func http10Stream() throws {
        let server = try ServerUnderTest()
        let body = #"{"title":"a","body":"b"}"# + "\n"
        let request = try StreamingRequest(port: server.port, raw: "POST /v1/batch?platform=fcm HTTP/1.0\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
        #expect(request.read(until: "}}}}\n", seconds: 10))
        #expect(request.closed(within: 5))
        let answer = String(decoding: request.received, as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.0 200"), "\(answer)")
        #expect(!answer.lowercased().contains("transfer-encoding"), "\(answer)")
        #expect(answer.hasSuffix("\r\n\r\n" + #"{"line":1,"fcm":{"message":{"data":{"adb_body":"b","adb_title":"a"}}}}"# + "\n"), "\(answer)")
        // The twenty-second audit (N5): asked with keep-alive, the stream was chunked all the
        // same. It has no length to end it by, so it ends with the connection too.
        let kept = try StreamingRequest(
            port: server.port, raw: "POST /v1/batch?platform=fcm HTTP/1.0\r\nConnection: keep-alive\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
        #expect(kept.read(until: "}}}}\n", seconds: 10))
        #expect(kept.closed(within: 5))
        let keptAnswer = String(decoding: kept.received, as: UTF8.self)
        #expect(keptAnswer.hasPrefix("HTTP/1.0 200"), "\(keptAnswer)")
        #expect(!keptAnswer.lowercased().contains("transfer-encoding"), "\(keptAnswer)")
        #expect(keptAnswer.hasSuffix("\r\n\r\n" + #"{"line":1,"fcm":{"message":{"data":{"adb_body":"b","adb_title":"a"}}}}"# + "\n"), "\(keptAnswer)")
    }
}

extension ServerRequestHeadTests {
    /// Source: the twenty-first audit (N3): CONNECT got a 405 head with no body and its
    /// connection was held until the idle timeout (60 s); a request pipelined after it was never
    /// answered. NIO reads what follows a CONNECT as a tunnel, so the connection closes instead.
    @Test("CONNECT is answered 405 with Allow and the connection closes at once")
    func connect() throws {
        let server = try ServerUnderTest()
        let request = try StreamingRequest(
            port: server.port, raw: "CONNECT /v1/translate HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(request.read(until: "\r\n\r\n", seconds: 10))
        #expect(request.closed(within: 5))
        let answer = String(decoding: request.received, as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 405"), "\(answer)")
        // The pipelined GET is not answered: NIO read it as the tunnel's bytes.
        #expect(!answer.contains("200"), "\(answer)")
        #expect(answer.lowercased().contains("allow: post\r\n"), "\(answer)")
        #expect(answer.lowercased().contains("connection: close\r\n"), "\(answer)")
    }
}

extension ServerRequestHeadTests {
    /// Source: the twenty-first audit (N7): a head NIO cannot read was answered with NIO's name
    /// for its parser's state ("paused (swift-http-parser error)", "invalid constant string"),
    /// a bare-LF HTTP/1.1 line was said not to be HTTP/1.1, and the 501 left HEAD out.
    @Test("a head that cannot be read is answered with what is wrong in it")
    func unreadableReasons() throws {
        let server = try ServerUnderTest()
        let cases: [(raw: String, says: String)] = [
            ("GET /healthz HTTP/1.1\nHost: x\n\n", "a line of its head is not ended by CR LF"),
            ("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "it is HTTP/2 or asks to switch protocols"),
            ("GET /x /y HTTP/1.1\r\nHost: x\r\n\r\n", "its request line is not a method, a target and the version, one space apart"),
            ("POST /v1/translate HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n", "its Content-Length is not a number of bytes within 64 bits"),
            ("POST /v1/translate HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "Transfer-Encoding beside Content-Length"),
            // The thirty-third audit (F5): a coding beside a valid length was blamed on the length alone.
            ("POST /v1/translate HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: identity\r\nContent-Length: 13\r\n\r\n{\"title\":\"a\"}", "or it comes with a Transfer-Encoding"),
            // The twenty-third audit (A2): two lengths were said to be a length and a coding.
            ("POST /v1/translate HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", "it has Content-Length more than once"),
            ("GET /healthz HTTP/1.1\r\nBad Header: x\r\n\r\n", "a header is not a name with no spaces, a colon and a value"),
            ("POST /v1/translate HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFF\r\n", "a chunk's size is not a hexadecimal number within 64 bits"),
            ("FOO / HTTP/1.1\r\nHost: x\r\n\r\n", "its routes take GET, HEAD and POST"),
        ]
        for (raw, says) in cases {
            let connection = try StreamingRequest(port: server.port, raw: raw)
            #expect(connection.read(until: "}\n", seconds: 10), "\(raw.prefix(40))")
            let text = String(decoding: connection.received, as: UTF8.self)
            #expect(text.contains(says), "\(raw.prefix(40)): \(text)")
            #expect(!text.contains("parser error") && !text.contains("constant string"), "\(text)")
        }
    }
}
