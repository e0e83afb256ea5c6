import Foundation
import Testing

/// The real server binary on a free loopback port: every route, every error status.
@Suite("pushmap-server routes", .serialized)
struct ServerRouteTests {
    static let seed = (try? Data(contentsOf: ServerPaths.root.appendingPathComponent("examples/seeds/basic-fcm.json"))) ?? Data()
    /// One fixed time for the server and the command line it is compared with: the seed's
    /// remind-later time is before it, and that warning quotes the time, so two clocks a second
    /// apart would differ.
    static let now = ["--now", "1800000000"]

    @Test("translate answers as pushmap translate does, for each platform choice")
    func translate() throws {
        let server = try ServerUnderTest(Self.now)
        for platform in ["both", "fcm", "apns"] {
            let answer = try Curl.post("\(server.baseURL)/v1/translate?platform=\(platform)", Self.seed)
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.headers["content-type"] == "application/json")
            #expect((answer.headers["x-request-id"] ?? "").count == 32)
            let cli = try runCommand(
                ServerPaths.cli.path, ["translate", "--compact", "--format", "json", "--platform", platform, "-"] + Self.now, input: Self.seed)
            #expect(cli.status == 0)
            let expected = try JSONSerialization.jsonObject(with: cli.stdout) as? NSObject
            var served = answer.object
            // The command line prints the warnings on standard error, the server beside the payloads.
            let warnings = served.removeValue(forKey: "warnings") as? [[String: Any]] ?? []
            let printed = try JSONSerialization.jsonObject(with: Data(cli.stderr.utf8)) as? [String: Any]
            #expect(warnings.contains { $0["rule"] as? String == "android-remind-later-past" } == (platform != "apns"))
            #expect(NSArray(array: warnings).isEqual(to: printed?["diagnostics"] as? [Any] ?? []))
            if platform == "both" {
                #expect(NSDictionary(dictionary: served).isEqual(expected))
            } else {
                #expect((served[platform] as? NSObject)?.isEqual(expected) == true)
                #expect(served.count == 1)
            }
        }
    }

    @Test("translate?request=true&fcmApns=true answers as pushmap translate --request --fcm-apns; another value is 400")
    func translateRequest() throws {
        let server = try ServerUnderTest()
        let intent = Data(#"{"title":"Goal","body":"2-1","collapseKey":"match","ios":{"topic":"com.example.app"},"target":{"token":"t"}}"#.utf8)
        let answer = try Curl.post("\(server.baseURL)/v1/translate?request=true&fcmApns=true", intent)
        #expect(answer.status == 200, "\(answer.text)")
        let cli = try runCommand(ServerPaths.cli.path, ["translate", "--compact", "--request", "--fcm-apns", "-"], input: intent)
        #expect(cli.status == 0)
        let expected = try JSONSerialization.jsonObject(with: cli.stdout) as? NSObject
        var served = answer.object
        served.removeValue(forKey: "warnings")
        #expect(NSDictionary(dictionary: served).isEqual(expected))
        let headers = (served["apns"] as? [String: Any])?["headers"] as? [String: String]
        #expect(headers?["apns-collapse-id"] == "match" && headers?["apns-topic"] == "com.example.app")
        let bad = try Curl.post("\(server.baseURL)/v1/translate?request=yes", intent)
        #expect(bad.status == 400)
    }

    @Test("batch?request=true&fcmApns=true answers each line as pushmap batch --request --fcm-apns, byte for byte; another value is 400")
    func batchRequest() throws {
        let server = try ServerUnderTest(Self.now)
        let lines = #"""
            {"title":"Goal","body":"2-1","collapseKey":"match","ios":{"topic":"com.example.app"},"target":{"token":"t"}}
            {"tittle":"x"}
            {"title":"Half time","ttl":600,"ios":{"topic":"com.example.app"},"target":{"token":"u"}}

            """#
        let answer = try Curl.request(
            "POST", "\(server.baseURL)/v1/batch?request=true&fcmApns=true", body: Data(lines.utf8),
            headers: ["Content-Type": "application/x-ndjson"])
        #expect(answer.status == 200, "\(answer.text)")
        let cli = try runCommand(ServerPaths.cli.path, ["batch", "--request", "--fcm-apns", "-"] + Self.now, input: Data(lines.utf8))
        #expect(answer.text == String(decoding: cli.stdout, as: UTF8.self))
        #expect(answer.text.contains(#""apns-collapse-id":"match""#) && answer.text.contains(#""apns":{"headers":"#), "\(answer.text)")
        let bad = try Curl.request(
            "POST", "\(server.baseURL)/v1/batch?fcmApns=maybe", body: Data(lines.utf8), headers: ["Content-Type": "application/x-ndjson"])
        #expect(bad.status == 400, "\(bad.text)")
    }

    @Test("translate with no platform gives both, and warnings beside the payloads")
    func translateWarnings() throws {
        let server = try ServerUnderTest()
        // An image over http draws a warning from the checks but still translates.
        let intent = Data(#"{"title":"a","body":"b","image":"http://example.com/a.png"}"#.utf8)
        let answer = try Curl.post("\(server.baseURL)/v1/translate", intent)
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.object["fcm"] != nil && answer.object["apns"] != nil)
        let cli = try runCommand(ServerPaths.cli.path, ["translate", "--format", "json", "-"], input: intent)
        #expect((answer.object["warnings"] as? [Any])?.isEmpty == false || cli.stderr.isEmpty)
    }

    @Test("a body that is not JSON is 400, an invalid intent 422 with its diagnostics, both with the request id")
    func badBodies() throws {
        let server = try ServerUnderTest()
        let notJSON = try Curl.post("\(server.baseURL)/v1/translate", Data("not json".utf8), headers: ["X-Request-Id": "test-123"])
        #expect(notJSON.status == 400)
        #expect(notJSON.headers["x-request-id"] == "test-123")
        #expect(notJSON.object["requestId"] as? String == "test-123")
        #expect((notJSON.object["error"] as? [String: Any])?["kind"] as? String == "invalid json")

        let invalid = try Curl.post("\(server.baseURL)/v1/translate", Data(#"{"tittle":"Hi"}"#.utf8))
        #expect(invalid.status == 422)
        let error = invalid.object["error"] as? [String: Any]
        #expect(error?["kind"] as? String == "invalid intent")
        let diagnostics = error?["diagnostics"] as? [[String: Any]] ?? []
        #expect(diagnostics.contains { $0["rule"] as? String == "unknown-field" && $0["path"] as? String == "$.tittle" })
        #expect(invalid.object["requestId"] as? String == invalid.headers["x-request-id"])

        let badPlatform = try Curl.post("\(server.baseURL)/v1/translate?platform=web", Self.seed)
        #expect(badPlatform.status == 400)
        let missingPlatform = try Curl.post("\(server.baseURL)/v1/validate", Data("{}".utf8))
        #expect(missingPlatform.status == 400)

        let unknown = try Curl.get("\(server.baseURL)/v2/nothing")
        #expect(unknown.status == 404)
        #expect((unknown.object["error"] as? [String: Any])?["kind"] as? String == "not found")
        #expect(unknown.headers["x-request-id"] != nil)
    }

    @Test("a path the router reads as a route's (a trailing or doubled slash) is that route: its 405 and its metrics label")
    func slashes() throws {
        let server = try ServerUnderTest()
        let intent = Data(#"{"title":"a"}"#.utf8)
        for path in ["/v1/translate/", "//v1//translate"] {
            #expect(try Curl.post("\(server.baseURL)\(path)", intent).status == 200, "\(path)")
            let get = try Curl.get("\(server.baseURL)\(path)")
            #expect(get.status == 405, "\(path): \(get.text)")
            #expect(get.headers["allow"] == "POST", "\(path)")
            #expect((get.object["error"] as? [String: Any])?["message"] as? String == "/v1/translate takes POST", "\(path): \(get.text)")
        }
        #expect(try Curl.get("\(server.baseURL)/v1/nothing/").status == 404)
        let metrics = try Curl.get("\(server.baseURL)/metrics").text
        #expect(metrics.contains(#"pushmap_http_requests_total{route="/v1/translate",status="200"} 2"#), "\(metrics)")
        #expect(metrics.contains(#"pushmap_http_requests_total{route="/v1/translate",status="405"} 2"#), "\(metrics)")
        #expect(metrics.contains(#"pushmap_http_requests_total{route="unmatched",status="404"} 1"#), "\(metrics)")
    }

    @Test("a body over the limit is 413, with or without a length given up front")
    func tooLarge() throws {
        let server = try ServerUnderTest(["--max-body-bytes", "1000"])
        let big = Data(#"{"title":""#.utf8 + Data(repeating: UInt8(ascii: "a"), count: 5000) + Data(#""}"#.utf8))
        let answer = try Curl.post("\(server.baseURL)/v1/translate", big)
        #expect(answer.status == 413)
        #expect((answer.object["error"] as? [String: Any])?["kind"] as? String == "too large")
        let chunked = try Curl.post("\(server.baseURL)/v1/validate?platform=fcm", big, headers: ["Transfer-Encoding": "chunked"])
        #expect(chunked.status == 413)
        #expect(chunked.object["requestId"] != nil)
        // The default limit is 1 MiB.
        let defaults = try ServerUnderTest()
        let huge = Data(repeating: UInt8(ascii: " "), count: (1 << 20) + 10)
        #expect(try Curl.post("\(defaults.baseURL)/v1/translate", huge).status == 413)
    }

    @Test("validate answers as pushmap validate --format json does: 200 valid, 422 invalid")
    func validate() throws {
        let server = try ServerUnderTest()
        let payload = try Data(contentsOf: ServerPaths.root.appendingPathComponent("examples/seed-payloads").appendingPathComponent(
            try FileManager.default.contentsOfDirectory(atPath: ServerPaths.root.appendingPathComponent("examples/seed-payloads").path)
                .sorted().first { $0.contains("apns") } ?? "missing"))
        let valid = try Curl.post("\(server.baseURL)/v1/validate?platform=apns", payload)
        #expect(valid.status == 200, "\(valid.text)")
        #expect(valid.object["valid"] as? Bool == true)
        let broken = Data(#"{"aps":{"badge":"3","alert":{"title":""}}}"#.utf8)
        let invalid = try Curl.post("\(server.baseURL)/v1/validate?platform=apns", broken)
        #expect(invalid.status == 422)
        #expect(invalid.object["valid"] as? Bool == false)
        let cli = try runCommand(ServerPaths.cli.path, ["validate", "--platform", "apns", "--format", "json", "-"], input: broken)
        let expected = try JSONSerialization.jsonObject(with: cli.stdout) as? [String: Any]
        #expect(NSArray(array: invalid.object["diagnostics"] as? [Any] ?? []).isEqual(to: expected?["diagnostics"] as? [Any] ?? [1]))
        let notJSON = try Curl.post("\(server.baseURL)/v1/validate?platform=fcm", Data("{".utf8))
        #expect(notJSON.status == 400)
    }

    @Test("batch writes the same bytes as pushmap batch, bad lines included")
    func batch() throws {
        let server = try ServerUnderTest(["--max-body-bytes", "2000"] + Self.now)
        let seedLine = String(decoding: Self.seed, as: UTF8.self).replacingOccurrences(of: "\n", with: "")
        var input = ""
        for index in 0..<300 {
            switch index % 5 {
            case 0: input += "not json\n"
            case 1: input += "\n"
            case 2: input += #"{"tittle":"x"}"# + "\r\n"
            case 3: input += #"{"title":""# + String(repeating: "a", count: 3000) + "\"}\n"
            default: input += seedLine + "\n"
            }
        }
        input += #"{"title":"last","body":"no newline"}"#
        let answer = try Curl.request(
            "POST", "\(server.baseURL)/v1/batch?platform=both", body: Data(input.utf8), headers: ["Content-Type": "application/x-ndjson"])
        #expect(answer.status == 200)
        #expect(answer.headers["content-type"] == "application/x-ndjson")
        // The command line with the same line limit: the server's body limit is its batch line limit.
        let cli = try runCommand(ServerPaths.cli.path, ["batch", "--platform", "both", "-"] + Self.now, input: Data(input.utf8))
        let cliLines = String(decoding: cli.stdout, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let servedLines = answer.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(servedLines.count == 302)
        // Lines of 3000 bytes are over the server's 2000 but not the command line's 1 MiB; all others are byte for byte.
        for (index, line) in servedLines.enumerated() where index % 5 != 3 && index < cliLines.count {
            #expect(line == cliLines[index], "line \(index + 1)")
        }
        #expect(servedLines[3].contains(#""rule":"too-large""#))
    }

    @Test("a large batch streams: 6,000 lines in one body, the bytes pushmap batch writes, each bad line's error in its place")
    func largeBatch() throws {
        let server = try ServerUnderTest(Self.now)
        let seedLine = String(decoding: Self.seed, as: UTF8.self).replacingOccurrences(of: "\n", with: "")
        // About 5 MB, so many chunks of the body, translated in many runs on the workers: each
        // line's answer must still come out where its line went in.
        let input = (1...6_000).map { index in
            switch index % 101 {
            case 0: "not json \(index)"
            case 50: #"{"tittle":"line \#(index)"}"#
            default: seedLine.replacingOccurrences(of: "game request", with: "game request \(index)")
            }
        }.joined(separator: "\n") + "\n"
        let answer = try Curl.request(
            "POST", "\(server.baseURL)/v1/batch?platform=both", body: Data(input.utf8), headers: ["Content-Type": "application/x-ndjson"],
            maxSeconds: 120)
        #expect(answer.status == 200)
        let cli = try runCommand(ServerPaths.cli.path, ["batch", "--platform", "both", "-"] + Self.now, input: Data(input.utf8))
        #expect(answer.body == cli.stdout)
        let lines = answer.text.split(separator: "\n")
        #expect(lines.count == 6_000)
        #expect(lines[4_998].hasPrefix(#"{"line":4999,"error":"#) && lines[4_998].contains(#""rule":"unknown-field""#))
        #expect(lines[5_958].hasPrefix(#"{"line":5959,"error":"#) && lines[5_958].contains(#""rule":"json-syntax""#))
        #expect(lines[5_999].hasPrefix(#"{"line":6000,"#) && lines[5_999].contains("game request 6000"))
    }

    @Test("a batch answers each line as it comes: a client that sends a line and waits for its answer gets it before it sends the next")
    func batchLineByLine() throws {
        let server = try ServerUnderTest(Self.now)
        let request = try StreamingRequest(port: server.port, path: "/v1/batch?platform=fcm", contentType: "application/x-ndjson")
        for number in 1...3 {
            try request.send(#"{"title":"line \#(number)","body":"b"}"# + "\n")
            #expect(request.read(until: #"{"line":\#(number),"fcm":"#, seconds: 10), "line \(number)'s answer before line \(number + 1) is sent")
        }
        try request.send("not json\n")
        #expect(request.read(until: #"{"line":4,"error":"#, seconds: 10))
        try request.finish()
        // The chunked answer's last chunk.
        #expect(request.read(until: "\r\n0\r\n\r\n", seconds: 10))
        #expect(String(decoding: request.received, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
    }

    /// Source: the seventh audit: a batch's access log line was written when its answer began,
    /// its time a few milliseconds whatever the stream took; service.md: "one line per request
    /// with its status and time".
    @Test("a streamed batch's access log line is written when the stream ends, with the whole stream's time")
    func batchAccessLogTime() throws {
        let server = try ServerUnderTest(Self.now)
        let request = try StreamingRequest(port: server.port, path: "/v1/batch?platform=fcm", contentType: "application/x-ndjson")
        try request.send(#"{"title":"one","body":"b"}"# + "\n")
        #expect(request.read(until: #"{"line":1,"fcm":"#, seconds: 10))
        Thread.sleep(forTimeInterval: 0.8)
        try request.send(#"{"title":"two","body":"b"}"# + "\n")
        try request.finish()
        #expect(request.read(until: "\r\n0\r\n\r\n", seconds: 10))
        var logged: Substring?
        for _ in 0..<50 where logged == nil {
            logged = server.running.stderr.split(separator: "\n").first { $0.contains("path=/v1/batch") && $0.contains("status=200") }
            if logged == nil { Thread.sleep(forTimeInterval: 0.1) }
        }
        let line = try #require(logged, "\(server.running.stderr)")
        let milliseconds = line.split(separator: " ").first { $0.hasPrefix("ms=") }.flatMap { Double($0.dropFirst(3)) }
        #expect((milliseconds ?? 0) >= 800, "\(line)")
    }

    /// Source: the ninth audit (its finding 1): a client still sending when its batch stopped at
    /// the time limit hung until the idle timeout (61 s), the server reading no more of the body.
    @Test("a batch stopped at its time limit while its client still sends: the rest of the body is read and dropped, and the client finishes")
    func timedOutBatchDrainsTheBody() throws {
        let server = try ServerUnderTest(Self.now + ["--batch-timeout-ms", "500"])
        let request = try StreamingRequest(port: server.port, path: "/v1/batch?platform=fcm", contentType: "application/x-ndjson")
        let line = #"{"title":"one","body":"b"}"# + "\n"
        try request.send(line)
        #expect(request.read(until: "the batch took longer than its limit", seconds: 10))
        #expect(request.read(until: "\r\n0\r\n\r\n", seconds: 10))
        // 32 MB more, far past what the sockets' buffers hold: it goes only if the server reads it.
        let megabyte = String(repeating: line, count: 1 << 20 / line.utf8.count)
        var sent = 0
        while sent < 32, request.send(megabyte, within: 10) { sent += 1 }
        #expect(sent == 32, "the server stopped reading after \(sent) MB")
        try request.finish()
    }

    /// Source: the ninth audit (its finding 3): an empty batch body was a 400 sent with
    /// `Content-Length: 0` and a 200 with no line sent chunked; a campaign's is a 400 both ways.
    @Test("an empty batch body is a 400 however it is sent, chunked too")
    func emptyChunkedBatch() throws {
        let server = try ServerUnderTest(Self.now)
        let request = try StreamingRequest(port: server.port, path: "/v1/batch?platform=fcm", contentType: "application/x-ndjson")
        try request.finish()
        #expect(request.read(until: "a batch needs a body of NDJSON lines", seconds: 10))
        #expect(String(decoding: request.received, as: UTF8.self).hasPrefix("HTTP/1.1 400"))
    }

    /// Source: the ninth audit (its finding 2): curl sends `Expect: 100-continue` with a body over
    /// 1 MB and with `-T -`, and waited a second for an answer that never came before sending it;
    /// a 300 ms batch limit ended with no line read.
    @Test("Expect: 100-continue is answered with 100 Continue before the body is sent")
    func expectContinue() throws {
        let server = try ServerUnderTest(Self.now)
        let head = "POST /v1/translate?platform=fcm HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(Self.seed.count)\r\nExpect: 100-continue\r\n\r\n"
        let request = try StreamingRequest(port: server.port, raw: head)
        #expect(request.read(until: "HTTP/1.1 100 Continue\r\n\r\n", seconds: 10))
        try request.sendRaw(Array(Self.seed))
        #expect(request.read(until: "HTTP/1.1 200 OK", seconds: 10))
        #expect(request.read(until: #""adb_title":"#, seconds: 10))
    }

    /// Source: the twenty-first audit (N6) and RFC 9110 10.1.1: a translate request announcing a
    /// body over --max-body-bytes got `100 Continue`, then the body it asked for was drained only
    /// to answer 413. The 413 now comes alone and closes the connection; a batch, whose body has
    /// no size limit, still gets its 100.
    @Test("Expect: 100-continue over the body limit gets the 413 alone, and a batch still its 100")
    func expectContinueOverLimit() throws {
        let server = try ServerUnderTest(Self.now + ["--max-body-bytes", "1000"])
        let head = "POST //v1/translate/?platform=fcm HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Content-Length: 2000000\r\nExpect: 100-continue\r\n\r\n"
        let refused = try StreamingRequest(port: server.port, raw: head)
        #expect(refused.readToClose(seconds: 10))
        let answer = String(decoding: refused.received, as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer)")
        #expect(answer.lowercased().contains("connection: close"))
        #expect(answer.contains("the body exceeds the limit of 1000 bytes"))

        let batch = try StreamingRequest(
            port: server.port,
            raw: "POST /v1/batch?platform=fcm HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\nExpect: 100-continue\r\n\r\n")
        #expect(batch.read(until: "HTTP/1.1 100 Continue\r\n\r\n", seconds: 10))
    }

    /// Source: the twenty-fourth audit (S1, S2, S4): behind two pipelined requests, the refused
    /// request's `connection: close` went on the first answer; a `100 Continue` for a pipelined
    /// request came before the answer ahead of it; an absolute target (`POST http://host/v1/batch`)
    /// was not known as the batch route.
    @Test("Expect: 100-continue with pipelined requests: the close and the 100 go with their own request")
    func expectContinuePipelined() throws {
        let server = try ServerUnderTest(Self.now + ["--max-body-bytes", "2000"])
        let seed = String(decoding: Self.seed, as: UTF8.self).replacingOccurrences(of: "\n", with: "")
        let translate = "POST /v1/translate?platform=fcm HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(seed.utf8.count)\r\n"
        let refused = "POST /v1/translate HTTP/1.1\r\nHost: x\r\nContent-Length: 5000000\r\nExpect: 100-continue\r\n\r\n"
        let pipelined = try StreamingRequest(port: server.port, raw: translate + "\r\n" + seed + translate + "\r\n" + seed + refused)
        #expect(pipelined.readToClose(seconds: 10))
        let heads = String(decoding: pipelined.received, as: UTF8.self).components(separatedBy: "HTTP/1.1 ").dropFirst()
            .map { String($0.prefix(3)) + ($0.lowercased().prefix { $0 != "{" }.contains("connection: close") ? " close" : "") }
        #expect(heads == ["200", "200", "413 close"])

        let held = try StreamingRequest(port: server.port, raw: translate + "\r\n" + seed + translate + "Expect: 100-continue\r\n\r\n")
        #expect(held.read(until: "HTTP/1.1 100 Continue\r\n\r\n", seconds: 10))
        let answer = String(decoding: held.received, as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 200"), "the 100 came before the answer ahead of it: \(answer)")

        let absolute = try StreamingRequest(
            port: server.port,
            raw: "POST http://127.0.0.1/v1/batch?platform=fcm HTTP/1.1\r\nHost: x\r\nContent-Length: 5000000\r\nExpect: 100-continue \r\n\r\n")
        #expect(absolute.read(until: "HTTP/1.1 100 Continue\r\n\r\n", seconds: 10))
    }

    @Test("a batch whose client stops sending ends at --batch-timeout-ms with the time-out line, and frees its slot")
    func stalledBatchTimesOut() throws {
        let server = try ServerUnderTest(Self.now + ["--batch-timeout-ms", "1500", "--max-concurrent-requests", "1"])
        let request = try StreamingRequest(port: server.port, path: "/v1/batch?platform=fcm", contentType: "application/x-ndjson")
        try request.send(#"{"title":"one","body":"b"}"# + "\n")
        #expect(request.read(until: #"{"line":1,"fcm":"#, seconds: 10))
        // Nothing more is sent, and the body is never finished: the answer ends all the same.
        #expect(request.read(until: "\r\n0\r\n\r\n", seconds: 10), "\(String(decoding: request.received, as: UTF8.self))")
        #expect(String(decoding: request.received, as: UTF8.self).contains(#"{"error":{"kind":"timeout","#))
        #expect(try Curl.get("\(server.baseURL)/v1/templates").status == 200)
    }

    /// Source: the thirty-third audit, F6: a stream whose client reset the connection before the
    /// answer began never gave its slot back, and enough of them left every request a 503.
    @Test("batch and campaign streams whose clients reset the connection give their slots back", arguments: ["/v1/batch", "/v1/campaign"])
    func resetStreamsFreeTheirSlots(path: String) throws {
        let server = try ServerUnderTest(Self.now + ["--max-concurrent-requests", "1", "--batch-timeout-ms", "3000", "--request-timeout-ms", "2000"])
        let lines = path == "/v1/batch" ? #"{"title":"a","body":"b"}"# + "\n" : #"{"title":"a"}"# + "\n" + #"{"id":"r"}"# + "\n"
        for round in 1...40 {
            let request = try StreamingRequest(port: server.port, raw: "POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n\(lines)")
            request.reset()
            usleep(300_000)
            // A slot given back may take a moment after the reset; a lost one never comes back.
            var status = 0
            for _ in 0..<20 {
                status = try Curl.post("\(server.baseURL)/v1/translate", Self.seed).status
                if status == 200 { break }
                usleep(100_000)
            }
            #expect(status == 200, "after \(round) reset streams")
            if status != 200 { break }
        }
    }

    /// Source: the thirty-third audit, F7: a client that reset the connection while sending a
    /// translate body was counted as a 500 and logged as an internal error.
    @Test("a client that resets the connection while its body comes is not counted as the server's failure")
    func resetBodyIsNotA500() throws {
        let server = try ServerUnderTest(Self.now)
        for _ in 1...3 {
            let request = try StreamingRequest(port: server.port, raw: "POST /v1/translate HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"ti")
            usleep(100_000)
            request.reset()
        }
        var metrics = ""
        for _ in 0..<50 {
            metrics = String(decoding: try Curl.get("\(server.baseURL)/metrics").body, as: UTF8.self)
            if metrics.contains(#"route="/v1/translate",status="400"} 3"#) { break }
            usleep(100_000)
        }
        #expect(metrics.contains(#"route="/v1/translate",status="400"} 3"#), "\(metrics.split(separator: "\n").filter { $0.contains("requests_total") })")
        #expect(!metrics.contains(#"status="500""#))
        #expect(!server.running.stderr.contains("internal error"), "\(server.running.stderr)")
    }

    /// Source: the twenty-first audit (N2): a batch client that stopped reading for longer than the
    /// idle time filled the socket; the server read no more of the body it could not answer and
    /// closed the connection as idle, the client reset after about a hundred of 20,000 lines.
    @Test("a batch client that stops reading for longer than --idle-timeout-ms still gets every line")
    func slowReaderKeepsItsBatch() throws {
        // A second of idle time, not less: on a loaded machine (the whole suite at once) the
        // sending thread itself could start later than half a second, and the connection was
        // rightly closed as idle before the test began.
        let server = try ServerUnderTest(Self.now + ["--idle-timeout-ms", "1000"])
        let intent = String(decoding: try JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: Self.seed)), as: UTF8.self)
        let count = 6_000
        let body = Array(String(repeating: intent + "\n", count: count).utf8)
        let request = try StreamingRequest(
            port: server.port, raw: "POST /v1/batch?platform=both HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: \(body.count)\r\n\r\n")
        // The body goes on another thread: the server stops reading it while its answer waits.
        nonisolated(unsafe) let sender = request
        let sent = DispatchSemaphore(value: 0)
        Thread {
            try? sender.sendRaw(body)
            sent.signal()
        }.start()
        #expect(request.read(until: #"{"line":1,"#, seconds: 20))
        Thread.sleep(forTimeInterval: 3)
        #expect(request.readToClose(seconds: 120))
        #expect(sent.wait(timeout: .now() + 10) == .success)
        let answer = request.received
        let lines = answer.indices.dropLast(8).filter { answer[$0] == UInt8(ascii: "{") && answer[$0 + 1] == UInt8(ascii: "\"") && answer[($0 + 2)...($0 + 7)].elementsEqual("line\":".utf8) }
        #expect(lines.count == count)
        #expect(answer.suffix(7).elementsEqual("\r\n0\r\n\r\n".utf8))
    }

    /// Source: the second audit (slowloris): 3,000 connections that sent part of a head were held
    /// for good. An answer being written is not idle: a batch longer than the idle time is whole.
    @Test("a connection that sends part of a request's head, or nothing, is closed after --idle-timeout-ms")
    func idleConnectionsClose() throws {
        let server = try ServerUnderTest(["--idle-timeout-ms", "1000"])
        let partial = try StreamingRequest(port: server.port, raw: "POST /v1/translate HTTP/1.1\r\nHost: x\r\n")
        let silent = try StreamingRequest(port: server.port, raw: "")
        #expect(partial.closed(within: 8))
        #expect(silent.closed(within: 8))
        #expect(try Curl.get("\(server.baseURL)/v1/templates").status == 200)
    }

    /// Source: the second audit: an unknown method or a 100 kB path got Hummingbird's bare 400 with
    /// an empty body. RFC 9110 15.6.2 (501 for an unknown method) and RFC 6585 5 (431).
    @Test("a request NIO's parser cannot read gets a JSON error: 501 for an unknown method, 431 for a head over the limits, 400 else")
    func unreadableRequests() throws {
        let server = try ServerUnderTest()
        let long = String(repeating: "a", count: 100_000)
        let cases: [(raw: String, status: String, kind: String)] = [
            ("FOO /v1/translate HTTP/1.1\r\nHost: x\r\n\r\n", "501 Not Implemented", "not implemented"),
            ("GET /\(long) HTTP/1.1\r\nHost: x\r\n\r\n", "431 Request Header Fields Too Large", "request header fields too large"),
            ("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Long: \(long)\r\n\r\n", "431 Request Header Fields Too Large", "request header fields too large"),
            ("GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n", "400 Bad Request", "bad request"),
            // The twenty-fifth audit, F15: a first line with no method was said to be an
            // unknown method (501); so was a TLS handshake sent to the plain port.
            ("hello\r\n\r\n", "400 Bad Request", "bad request"),
            ("\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\u{00}\u{01}\u{fc}\u{03}\u{03}", "400 Bad Request", "bad request"),
            // A bad chunk in a body: the route is answering, and says the body could not be read.
            ("POST /v1/translate HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "400 Bad Request", "bad request"),
        ]
        var messages: [String: String] = [:]
        for (raw, status, kind) in cases {
            let connection = try StreamingRequest(port: server.port, raw: raw)
            #expect(connection.read(until: "}\n", seconds: 10), "\(raw.prefix(40))")
            let text = String(decoding: connection.received, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 \(status)\r\n"), "\(raw.prefix(40)): \(text.prefix(200))")
            #expect(text.contains(#"{"error":{"kind":"\#(kind)","message":""#), "\(text.prefix(300))")
            #expect(text.contains(#""requestId":""#))
            messages[String(raw.prefix(5))] = text
        }
        #expect(messages["hello"]?.contains("its first line is not METHOD TARGET HTTP/1.1") == true, "\(messages["hello"] ?? "")")
        #expect(messages["\u{16}\u{03}\u{01}\u{02}\u{00}"]?.contains("TLS handshake: pushmap-server speaks plain HTTP") == true)
        // After an answered request on the same connection, the unreadable one is answered second.
        let pipelined = try StreamingRequest(port: server.port, raw: "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nFOO / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(pipelined.read(until: "not implemented", seconds: 10))
        let both = String(decoding: pipelined.received, as: UTF8.self)
        let ok = try #require(both.range(of: "HTTP/1.1 200 OK"))
        let refused = try #require(both.range(of: "HTTP/1.1 501 Not Implemented"))
        #expect(ok.lowerBound < refused.lowerBound)
        #expect(pipelined.closed(within: 5))
        #expect(try Curl.get("\(server.baseURL)/healthz").status == 200)
        // The seventh audit: a bad chunk in a batch's body cut its 200 stream short, the line
        // read before it lost. The line is answered, and an error line ends the stream.
        for (route, unit) in [("batch", "lines"), ("campaign", "recipients")] {
            let first = route == "batch" ? #"{"title":"a","body":"b"}"# + "\n" : #"{"title":"a","body":"b"}"# + "\n{}\n"
            let raw = "POST /v1/\(route)?platform=apns HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                + String(first.utf8.count, radix: 16) + "\r\n" + first + "\r\nzz\r\nabc\r\n0\r\n\r\n"
            let stream = try StreamingRequest(port: server.port, raw: raw)
            #expect(stream.read(until: "\r\n0\r\n\r\n", seconds: 10), "\(route)")
            let text = String(decoding: stream.received, as: UTF8.self)
            #expect(text.contains(#"{"line":1,"apns":"#), "\(route): \(text)")
            #expect(text.contains(#"{"error":{"kind":"bad request","message":"the request's body could not be read as HTTP/1.1"#), "\(route): \(text)")
            #expect(text.contains("\(unit) after 1 were not read"), "\(route): \(text)")
        }
    }

    @Test("preview draws the page pushmap preview draws, or its text form; an invalid intent is 422 and no page")
    func preview() throws {
        let server = try ServerUnderTest(Self.now)
        let page = try Curl.post("\(server.baseURL)/v1/preview", Self.seed)
        #expect(page.status == 200, "\(page.text)")
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.text.contains("data-platform=\"fcm\"") && page.text.contains("data-platform=\"apns\""))
        #expect(page.text.contains("game request"))
        let text = try Curl.post("\(server.baseURL)/v1/preview?format=text&platform=apns", Self.seed)
        #expect(text.status == 200, "\(text.text)")
        let cli = try runCommand(ServerPaths.cli.path, ["preview", "--platform", "apns", "-"] + Self.now, input: Self.seed)
        // The same drawing at the same time; only the first line's name of the input differs (intent, <stdin>).
        let cliText = String(decoding: cli.stdout, as: UTF8.self)
        #expect(text.text.hasPrefix("intent: template basic, arriving at 2027-01-15 08:00 UTC\n"))
        #expect(text.text.split(separator: "\n").dropFirst() == cliText.split(separator: "\n").dropFirst())
        let invalid = try Curl.post("\(server.baseURL)/v1/preview", Data(#"{"tittle": "Hi"}"#.utf8))
        #expect(invalid.status == 422, "\(invalid.text)")
        #expect(try Curl.post("\(server.baseURL)/v1/preview?format=pdf", Self.seed).status == 400)
    }

    @Test("templates, schema, health, readiness, metrics and the OpenAPI document")
    func readRoutes() throws {
        let server = try ServerUnderTest()
        let templates = try Curl.get("\(server.baseURL)/v1/templates")
        #expect(templates.status == 200)
        let names = (templates.json as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(names == ["basic", "carousel", "cat", "icon", "input", "plain", "rate", "timer", "zb"])

        let schema = try Curl.get("\(server.baseURL)/v1/schema")
        #expect(schema.status == 200)
        let file = try JSONSerialization.jsonObject(with: Data(contentsOf: ServerPaths.root.appendingPathComponent("schema/intent.schema.json"))) as? NSObject
        #expect((schema.json as? NSObject)?.isEqual(file) == true)

        #expect(try Curl.get("\(server.baseURL)/healthz").object["status"] as? String == "ok")
        #expect(try Curl.get("\(server.baseURL)/readyz").status == 200)

        let document = try Curl.get("\(server.baseURL)/openapi.yaml")
        #expect(document.status == 200)
        #expect(document.body == (try Data(contentsOf: ServerPaths.root.appendingPathComponent("Server/Sources/PushmapServer/openapi.yaml"))))

        _ = try Curl.post("\(server.baseURL)/v1/translate", Self.seed)
        _ = try Curl.post("\(server.baseURL)/v1/translate", Data("x".utf8))
        let metrics = try Curl.get("\(server.baseURL)/metrics")
        #expect(metrics.status == 200)
        for name in [
            #"pushmap_http_requests_total{route="/v1/translate",status="200"} 1"#,
            #"pushmap_http_requests_total{route="/v1/translate",status="400"} 1"#,
            "pushmap_translation_duration_seconds_bucket", "pushmap_script_failures_total 0",
            #"pushmap_script_reloads_total{result="failed"} 0"#, "pushmap_scripts_in_force 9",
        ] {
            #expect(metrics.text.contains(name), "\(name)")
        }
        #expect(server.running.stderr.contains("request_id="))
    }

    @Test("a script that fails is a 500 that names the script and counts in /metrics, with no internals")
    func scriptFailure() throws {
        let scratch = try ServerPaths.scratch("scripts")
        let scripts = scratch.appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        try ScriptSources.failing.write(to: scripts.appendingPathComponent("boom.lua"), atomically: true, encoding: .utf8)
        let server = try ServerUnderTest(["--scripts", scripts.path], scratch: scratch)
        let answer = try Curl.post("\(server.baseURL)/v1/translate", Data(#"{"template":"boom","title":"a","body":"b"}"#.utf8))
        #expect(answer.status == 500, "\(answer.text)")
        let error = answer.object["error"] as? [String: Any]
        #expect(error?["kind"] as? String == "script failed")
        #expect((error?["scriptError"] as? [String: Any])?["script"] as? String != nil)
        #expect(!answer.text.contains("Swift") && !answer.text.contains(".swift"))
        #expect(try Curl.get("\(server.baseURL)/metrics").text.contains("pushmap_script_failures_total 1"))
    }

    /// Source: the second audit: at the default log level, one request to a script printing in a
    /// loop put 1,274 lines (2.5 MB) in the log. docs/service.md: --log-level info logs a line a request.
    @Test("what a script prints reaches the log at --log-level debug only")
    func scriptPrintsAtDebug() throws {
        for level in ["info", "debug"] {
            let scratch = try ServerPaths.scratch("prints-\(level)")
            let scripts = scratch.appendingPathComponent("scripts")
            try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
            let source = "return { name = 'chatty', api = 1, platforms = {'fcm'}, fcm = function(intent, ctx) print('chatty says hi') return { message = { data = {} } } end }\n"
            try source.write(to: scripts.appendingPathComponent("chatty.lua"), atomically: true, encoding: .utf8)
            let server = try ServerUnderTest(["--scripts", scripts.path, "--log-level", level], scratch: scratch)
            #expect(try Curl.post("\(server.baseURL)/v1/translate?platform=fcm", Data(#"{"template":"chatty"}"#.utf8), headers: ["X-Request-Id": "one-\(level)"]).status == 200)
            #expect(try Curl.post("\(server.baseURL)/v1/batch?platform=fcm", Data("{\"template\":\"chatty\"}\n".utf8), headers: ["X-Request-Id": "many-\(level)"]).status == 200)
            #expect(server.running.stderr.contains("chatty says hi") == (level == "debug"), "\(level): \(server.running.stderr.suffix(300))")
            guard level == "debug" else { continue }
            // The seventh audit: these lines named no request, translated or batched.
            let printed = server.running.stderr.split(separator: "\n").filter { $0.contains("chatty says hi") }
            #expect(printed.contains { $0.contains("request_id=one-debug") }, "\(printed)")
            #expect(printed.contains { $0.contains("request_id=many-debug") }, "\(printed)")
        }
    }

    @Test("with --token-file, 401 without the token or with a wrong one; probes need none")
    func token() throws {
        let scratch = try ServerPaths.scratch("token")
        let tokenFile = scratch.appendingPathComponent("token")
        try Data("s3cret-token\n".utf8).write(to: tokenFile)
        let server = try ServerUnderTest(["--token-file", tokenFile.path], scratch: scratch)
        let none = try Curl.post("\(server.baseURL)/v1/translate", Self.seed)
        #expect(none.status == 401)
        #expect((none.object["error"] as? [String: Any])?["kind"] as? String == "unauthorized")
        // Which of the three it is (the thirty-third audit, F4: a wrong token was told it had none).
        #expect((none.object["error"] as? [String: Any])?["message"] as? String == "a bearer token is needed: send Authorization: Bearer TOKEN")
        let basic = try Curl.post("\(server.baseURL)/v1/translate", Self.seed, headers: ["Authorization": "Basic czNjcmV0"])
        #expect((basic.object["error"] as? [String: Any])?["message"] as? String == "the Authorization header is not Bearer TOKEN")
        let wrong = try Curl.post("\(server.baseURL)/v1/translate", Self.seed, headers: ["Authorization": "Bearer s3cret-tokeX"])
        #expect(wrong.status == 401)
        #expect((wrong.object["error"] as? [String: Any])?["message"] as? String == "the bearer token is not the server's (see --token-file)")
        #expect(wrong.headers.first { $0.key.lowercased() == "www-authenticate" }?.value == #"Bearer error="invalid_token""#, "\(wrong.headers)")
        #expect(try Curl.post("\(server.baseURL)/v1/translate", Self.seed, headers: ["Authorization": "Bearer s3cret"]).status == 401)
        #expect(try Curl.post("\(server.baseURL)/v1/translate", Self.seed, headers: ["Authorization": "Bearer s3cret-token"]).status == 200)
        // The scheme in any case (RFC 9110 11.1); the token as written.
        #expect(try Curl.post("\(server.baseURL)/v1/translate", Self.seed, headers: ["Authorization": "bearer s3cret-token"]).status == 200)
        #expect(try Curl.post("\(server.baseURL)/v1/translate", Self.seed, headers: ["Authorization": "BEARER s3cret-token"]).status == 200)
        #expect(try Curl.post("\(server.baseURL)/v1/translate", Self.seed, headers: ["Authorization": "bearer S3CRET-TOKEN"]).status == 401)
        #expect(try Curl.get("\(server.baseURL)/metrics").status == 401)
        #expect(try Curl.get("\(server.baseURL)/healthz").status == 200)
        #expect(try Curl.get("\(server.baseURL)/readyz").status == 200)
    }

    @Test("a request slower than the time limit is 408; over the concurrency limit, 503")
    func limits() throws {
        let server = try ServerUnderTest(["--request-timeout-ms", "1500", "--max-concurrent-requests", "1"])
        // curl sends 2,000 bytes at 500 bytes a second: four seconds, over the 1.5 s limit.
        let body = Data(#"{"title":""#.utf8 + Data(repeating: UInt8(ascii: "a"), count: 2000) + Data(#""}"#.utf8))
        let slow = try RunningProcess(
            URL(fileURLWithPath: "/usr/bin/curl"),
            ["-s", "-H", "Expect:", "--max-time", "10", "--limit-rate", "500", "-H", "Content-Type: application/json", "-o", "/dev/null", "-w", "%{http_code}",
             "--data-binary", String(decoding: body, as: UTF8.self), "\(server.baseURL)/v1/translate"],
            scratch: server.scratch, label: "slow")
        defer { slow.stop() }
        // While the slow one holds the only slot, another request is turned away.
        usleep(500_000)
        let busy = try Curl.post("\(server.baseURL)/v1/translate", Self.seed)
        #expect(busy.status == 503)
        #expect(busy.headers["retry-after"] == "1")
        #expect(slow.wait(seconds: 10) != nil)
        #expect(slow.stdout == "408")
        #expect(try Curl.post("\(server.baseURL)/v1/translate", Self.seed).status == 200)
    }
}

/// Lua sources for custom templates in the tests.
enum ScriptSources {
    static func template(_ name: String, title: String) -> String {
        """
        return {
          name = "\(name)",
          api = 1,
          platforms = { "fcm", "apns" },
          fcm = function(intent, ctx)
            return { message = { data = { adb_title = "\(title)", adb_body = intent.body or "" } } }
          end,
          apns = function(intent, ctx)
            return { aps = { alert = { title = "\(title)", body = intent.body or "" } } }
          end,
        }
        """
    }

    static let failing = """
        return {
          name = "boom",
          api = 1,
          platforms = { "fcm", "apns" },
          fcm = function(intent, ctx) error("this mapping always fails") end,
          apns = function(intent, ctx) error("this mapping always fails") end,
        }
        """

    static let broken = "return { this is not Lua"
}
