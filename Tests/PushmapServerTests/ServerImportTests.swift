import Foundation
import Testing

/// `POST /v1/import` on the real binary: held to `pushmap import --format json`, and the intent it
/// gives translated back by the same server into the payload it came from.
@Suite("pushmap-server import", .serialized)
struct ServerImportTests {
    /// 2023-12-01, while the example payloads' times (2023-12-25) are still ahead: translated back
    /// later, the timer's would be over, which Android drops on arrival (an error).
    static let now = ["--now", "1701388800"]

    /// Payloads to import: the example payloads, and payloads with keys the intent cannot say.
    static var payloads: [(name: String, platform: String, body: Data)] {
        let folder = ServerPaths.root.appendingPathComponent("examples/seed-payloads")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        var found = names.map { name in
            (name, name.contains("-apns") ? "apns" : "fcm", (try? Data(contentsOf: folder.appendingPathComponent(name))) ?? Data())
        }
        found.append(("fcm with an unknown key", "fcm", Data(#"""
            {"message":{"token":"t1","webpush":{"headers":{"TTL":"60"}},"data":{"adb_template_type":"basic","adb_version":"1",
            "adb_title":"Hi","adb_body":"There","adb_clr_bg":"#FFFFFF","order":"42"}}}
            """#.utf8)))
        found.append(("apns with an unknown key", "apns", Data(#"""
            {"aps":{"alert":{"title":"t","body":"b"},"mutable-content":1,"sound-name":"ping"},"adb_template_type":"basic","adb_version":"1",
            "adb_act":[{"label":"Go","type":"WEBURL","uri":"https://e.com"}]}
            """#.utf8)))
        // An order id of 20 digits, which no JSON number here keeps exactly (RFC 8259 section 6).
        found.append(("apns with a 20-digit number", "apns", Data(#"{"aps":{"alert":{"title":"t","body":"b"}},"order":12345678901234567890}"#.utf8)))
        return found
    }

    /// What the command line gives for `payload` at the tests' fixed time: its exit status, the
    /// intent on standard output (nil when none) and the diagnostics of its JSON line on standard error.
    static func commandLine(_ payload: Data, platform: String) throws -> (status: Int32, intent: NSObject?, diagnostics: [Any]) {
        let result = try runCommand(
            ServerPaths.cli.path, ["import", "--platform", platform, "--format", "json", "-"] + Self.now, input: payload)
        let intent = result.stdout.isEmpty ? nil : try JSONSerialization.jsonObject(with: result.stdout) as? NSObject
        let report = result.stderr.isEmpty ? nil : try JSONSerialization.jsonObject(with: Data(result.stderr.utf8)) as? [String: Any]
        return (result.status, intent, report?["diagnostics"] as? [Any] ?? [])
    }

    /// Every leaf of a JSON value by its path, written as the diagnostics write paths. The lists
    /// FCM carries as JSON text (adb_act, adb_items, adb_rate_act) are compared as what they
    /// encode, as the phone reads them: the order of their keys is not a difference.
    static func leaves(_ value: Any, at path: String = "$") -> [String: NSObject] {
        if ["adb_act", "adb_items", "adb_rate_act"].contains(where: { path.hasSuffix(".data." + $0) }), let text = value as? String,
            let decoded = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSObject
        {
            return [path: decoded]
        }
        if let object = value as? [String: Any], !object.isEmpty {
            return object.reduce(into: [:]) { found, member in
                let plain = member.key.range(of: "^[A-Za-z_][A-Za-z0-9_]*$", options: .regularExpression) != nil
                let quoted = (try? JSONSerialization.data(withJSONObject: member.key, options: [.fragmentsAllowed, .withoutEscapingSlashes]))
                    .map { String(decoding: $0, as: UTF8.self) } ?? member.key
                found.merge(leaves(member.value, at: plain ? path + "." + member.key : path + "[" + quoted + "]")) { first, _ in first }
            }
        }
        if let array = value as? [Any], !array.isEmpty {
            return array.enumerated().reduce(into: [:]) { found, element in
                found.merge(leaves(element.element, at: path + "[\(element.offset)]")) { first, _ in first }
            }
        }
        return [path: value as? NSObject ?? NSNull()]
    }

    @Test("import answers as pushmap import --format json does, and the intent translates back to the payload")
    func matchesCommandLine() throws {
        let server = try ServerUnderTest(Self.now)
        var warned = 0, exact = 0
        for (name, platform, payload) in Self.payloads {
            let answer = try Curl.post("\(server.baseURL)/v1/import?platform=\(platform)", payload)
            let cli = try Self.commandLine(payload, platform: platform)
            #expect(cli.status == 0, "\(name)")
            #expect(answer.status == 200, "\(name): \(answer.text)")
            #expect(answer.headers["content-type"] == "application/json", "\(name)")
            #expect((answer.headers["x-request-id"] ?? "").count == 32, "\(name)")
            let intent = try #require(answer.object["intent"] as? [String: Any], "\(name): \(answer.text)")
            #expect(NSDictionary(dictionary: intent).isEqual(cli.intent), "\(name)")
            let warnings = answer.object["warnings"] as? [[String: Any]] ?? []
            // Beside the intent only when there are some, as /v1/translate writes them.
            #expect((answer.object["warnings"] == nil) == warnings.isEmpty, "\(name)")
            #expect(NSArray(array: warnings).isEqual(to: cli.diagnostics), "\(name): \(warnings) vs \(cli.diagnostics)")
            #expect(warnings.allSatisfy { $0["severity"] as? String == "warning" && $0["platform"] as? String == platform }, "\(name)")

            // Round trip through the server: every key that comes back different is one a warning names.
            let back = try Curl.post(
                "\(server.baseURL)/v1/translate?platform=\(platform)", try JSONSerialization.data(withJSONObject: intent))
            #expect(back.status == 200, "\(name): \(back.text)")
            let translated = try #require(back.object[platform], "\(name): \(back.text)")
            let before = Self.leaves(try JSONSerialization.jsonObject(with: payload)), after = Self.leaves(translated)
            let differing = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
            let warnedPaths = warnings.compactMap { $0["path"] as? String }
            for path in differing {
                let named = warnedPaths.contains { path == $0 || path.hasPrefix($0 + ".") || path.hasPrefix($0 + "[") }
                #expect(named, "\(name): \(path) comes back as \(after[path].map { "\($0)" } ?? "nothing"), not \(before[path].map { "\($0)" } ?? "nothing"), and no warning names it")
            }
            if differing.isEmpty { exact += 1 }
            if !warnings.isEmpty { warned += 1 }
        }
        // Both kinds are covered: payloads that come back exactly and payloads with keys warned about.
        #expect(exact > 0 && warned >= 2, "exact \(exact), warned \(warned)")
        let metrics = try Curl.get("\(server.baseURL)/metrics").text
        #expect(metrics.contains(#"pushmap_http_requests_total{route="/v1/import",status="200"} \#(Self.payloads.count)"#), "\(metrics)")
    }

    @Test("a payload with nothing to import is 422 with the command line's diagnostics; not JSON, or a bad platform, is 400")
    func refusals() throws {
        let server = try ServerUnderTest(Self.now)
        for (platform, body) in [("fcm", #"{"message":"not an object"}"#), ("apns", #"{"aps":[1]}"#), ("fcm", "[1]")] {
            let answer = try Curl.post("\(server.baseURL)/v1/import?platform=\(platform)", Data(body.utf8), headers: ["X-Request-Id": "import-1"])
            #expect(answer.status == 422, "\(body): \(answer.text)")
            #expect(answer.object["requestId"] as? String == "import-1" && answer.headers["x-request-id"] == "import-1")
            let error = answer.object["error"] as? [String: Any]
            #expect(error?["kind"] as? String == "invalid payload", "\(answer.text)")
            let cli = try Self.commandLine(Data(body.utf8), platform: platform)
            #expect(cli.status == 1 && cli.intent == nil, "\(body)")
            let diagnostics = error?["diagnostics"] as? [[String: Any]] ?? []
            #expect(diagnostics.contains { $0["rule"] as? String == "import-payload" && $0["severity"] as? String == "error" }, "\(answer.text)")
            #expect(NSArray(array: diagnostics).isEqual(to: cli.diagnostics), "\(body)")
        }

        let broken = Data(#"{"message": {"token": "t1""#.utf8)
        let notJSON = try Curl.post("\(server.baseURL)/v1/import?platform=fcm", broken)
        #expect(notJSON.status == 400, "\(notJSON.text)")
        let error = notJSON.object["error"] as? [String: Any]
        #expect(error?["kind"] as? String == "invalid json")
        let cli = try Self.commandLine(broken, platform: "fcm")
        #expect(cli.status == 1)
        let syntax = NSArray(array: error?["diagnostics"] as? [Any] ?? [])
        #expect(syntax.isEqual(to: cli.diagnostics), "\(notJSON.text) vs \(cli.diagnostics)")

        let payload = Data(#"{"aps":{"alert":"hi"}}"#.utf8)
        for query in ["", "?platform=both", "?platform=web"] {
            let answer = try Curl.post("\(server.baseURL)/v1/import\(query)", payload)
            #expect(answer.status == 400, "\(query)")
            #expect((answer.object["error"] as? [String: Any])?["message"] as? String == "platform is needed: fcm or apns", "\(query)")
        }
        #expect(try Curl.get("\(server.baseURL)/v1/import?platform=apns").status == 405)
        let metrics = try Curl.get("\(server.baseURL)/metrics").text
        #expect(metrics.contains(#"pushmap_http_requests_total{route="/v1/import",status="422"} 3"#), "\(metrics)")
        #expect(metrics.contains(#"pushmap_http_requests_total{route="/v1/import",status="400"} 4"#), "\(metrics)")
    }

    @Test("a mapping script that fails on the imported intent is a 500 naming the script, as the command line's exit 2")
    func scriptFails() throws {
        let scratch = try ServerPaths.scratch("import-script")
        let scripts = scratch.appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        try ScriptSources.failing.replacingOccurrences(of: #"name = "boom""#, with: #"name = "basic""#)
            .write(to: scripts.appendingPathComponent("basic.lua"), atomically: true, encoding: .utf8)
        let server = try ServerUnderTest(["--scripts", scripts.path] + Self.now, scratch: scratch)
        let payload = try Data(contentsOf: ServerPaths.root.appendingPathComponent("examples/seed-payloads/basic-fcm.json"))
        let answer = try Curl.post("\(server.baseURL)/v1/import?platform=fcm", payload)
        #expect(answer.status == 500, "\(answer.text)")
        let error = answer.object["error"] as? [String: Any]
        #expect(error?["kind"] as? String == "script failed")
        let cli = try runCommand(
            ServerPaths.cli.path, ["import", "--platform", "fcm", "--format", "json", "--scripts", scripts.path, "-"] + Self.now,
            input: payload)
        #expect(cli.status == 2 && cli.stdout.isEmpty, "\(cli.stderr)")
        let printed = try JSONSerialization.jsonObject(with: Data(cli.stderr.utf8)) as? [String: Any]
        let served = try #require(error?["scriptError"] as? [String: Any])
        #expect(NSDictionary(dictionary: served).isEqual(printed?["scriptError"]), "\(served) vs \(cli.stderr)")
        #expect((served["script"] as? String)?.hasSuffix("basic.lua") == true)
        #expect(try Curl.get("\(server.baseURL)/metrics").text.contains("pushmap_script_failures_total 1"))
    }

    @Test("import is held to the token and the body limit as the other routes are")
    func limits() throws {
        let scratch = try ServerPaths.scratch("import")
        let tokenFile = scratch.appendingPathComponent("token")
        try Data("imp0rt-token\n".utf8).write(to: tokenFile)
        let server = try ServerUnderTest(["--token-file", tokenFile.path, "--max-body-bytes", "1000"], scratch: scratch)
        let payload = Data(#"{"aps":{"alert":{"title":"t","body":"b"}}}"#.utf8)
        #expect(try Curl.post("\(server.baseURL)/v1/import?platform=apns", payload).status == 401)
        let token = ["Authorization": "Bearer imp0rt-token"]
        let answer = try Curl.post("\(server.baseURL)/v1/import?platform=apns", payload, headers: token)
        #expect(answer.status == 200, "\(answer.text)")
        #expect((answer.object["intent"] as? [String: Any])?["title"] as? String == "t")
        let big = Data(#"{"aps":{"alert":{"title":""#.utf8) + Data(repeating: UInt8(ascii: "a"), count: 5000) + Data("\"}}}".utf8)
        let tooLarge = try Curl.post("\(server.baseURL)/v1/import?platform=apns", big, headers: token)
        #expect(tooLarge.status == 413)
        #expect((tooLarge.object["error"] as? [String: Any])?["kind"] as? String == "too large")
        let chunked = try Curl.post("\(server.baseURL)/v1/import?platform=apns", big, headers: token.merging(["Transfer-Encoding": "chunked"]) { $1 })
        #expect(chunked.status == 413)
    }
}
