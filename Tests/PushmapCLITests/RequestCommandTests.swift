import Foundation
import Testing

/// `--request` and `--fcm-apns`: send-ready APNS requests from the built binary, and a team's
/// script with typos in its APNS fields caught with the path of each.
@Suite("pushmap translate and batch --request, --fcm-apns")
struct RequestCommandTests {
    static let intent = #"""
    {"title": "Score", "body": "2-1", "ttl": 600, "collapseKey": "match-7", "delivery": "high", "analyticsLabel": "goal",
     "ios": {"topic": "com.example.app", "localized": {"titleKey": "GOAL_TITLE", "titleArgs": ["Ada"]}},
     "target": {"fid": "fid-123"}}
    """#

    static func object(_ text: String) throws -> [String: Any] {
        try #require(CommandRunner.json(text) as? [String: Any])
    }

    @Test("APNS is written as {headers, payload}, header values strings, and the FCM message carries the same request")
    func requestAndFCMAPNS() throws {
        let result = try CommandRunner.run(["translate", "--request", "--fcm-apns", "--now", "1700000000", "--compact", "-"], input: Data(Self.intent.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let output = try Self.object(result.stdout)
        let apns = try #require(output["apns"] as? [String: Any])
        let headers = try #require(apns["headers"] as? [String: Any])
        #expect(headers.values.allSatisfy { $0 is String })
        #expect(headers["apns-push-type"] as? String == "alert")
        #expect(headers["apns-priority"] as? String == "10")
        #expect(headers["apns-collapse-id"] as? String == "match-7")
        #expect(headers["apns-topic"] as? String == "com.example.app")
        #expect(headers["apns-expiration"] as? String == "1700000600")
        let payload = try #require(apns["payload"] as? [String: Any])
        let alert = try #require((payload["aps"] as? [String: Any])?["alert"] as? [String: Any])
        #expect(alert["title-loc-key"] as? String == "GOAL_TITLE")
        #expect(alert["title-loc-args"] as? [String] == ["Ada"])

        let message = try #require((output["fcm"] as? [String: Any])?["message"] as? [String: Any])
        #expect((message["apns"] as? NSDictionary)?.isEqual(to: apns) == true)
        #expect(message["fid"] as? String == "fid-123")
        #expect((message["fcm_options"] as? [String: Any])?["analytics_label"] as? String == "goal")
        let android = try #require(message["android"] as? [String: Any])
        #expect(android["ttl"] as? String == "600s")
        #expect(android["collapse_key"] as? String == "match-7")
        #expect(android["priority"] as? String == "HIGH")
    }

    @Test("a silent push goes as background with priority 5; android's own settings win on FCM")
    func silent() throws {
        let intent = #"{"ios": {"contentAvailable": true, "topic": "com.example.app"}, "ttl": 0, "delivery": "high", "android": {"ttl": 60}, "data": {"sync": "1"}}"#
        let result = try CommandRunner.run(["translate", "--request", "--compact", "-"], input: Data(intent.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let output = try Self.object(result.stdout)
        let headers = try #require((output["apns"] as? [String: Any])?["headers"] as? [String: String])
        #expect(headers == ["apns-push-type": "background", "apns-priority": "5", "apns-expiration": "0", "apns-topic": "com.example.app"])
        let android = (((output["fcm"] as? [String: Any])?["message"] as? [String: Any])?["android"] as? [String: Any])
        #expect(android?["ttl"] as? String == "60s")
    }

    @Test("the topic gets the suffix of the push type the intent names")
    func pushTypeTopic() throws {
        let intent = #"{"title": "Call", "ios": {"pushType": "voip", "topic": "com.example.app"}}"#
        let result = try CommandRunner.run(["translate", "--request", "--platform", "apns", "--compact", "-"], input: Data(intent.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let headers = try #require(try Self.object(result.stdout)["headers"] as? [String: String])
        #expect(headers["apns-topic"] == "com.example.app.voip")
        #expect(headers["apns-push-type"] == "voip")
    }

    /// Source: Apple's "Sending notification requests to APNs" (a VoIP payload may be 5 KB);
    /// the thirty-seventh audit, F2: without --request the payload was held to 4096 bytes.
    @Test("a VoIP intent's payload may be 5120 bytes, with or without --request")
    func voipSize() throws {
        for (caller, fits) in [(String(repeating: "c", count: 4500), true), (String(repeating: "c", count: 5200), false)] {
            let intent = #"{"ios": {"pushType": "voip", "topic": "com.example.app"}, "data": {"caller": "\#(caller)"}}"#
            for request in [[], ["--request"]] {
                let result = try CommandRunner.run(["translate", "--platform", "apns", "-"] + request, input: Data(intent.utf8))
                #expect(result.status == (fits ? 0 : 1), "\(request) \(result.stderr)")
                #expect(fits || result.stderr.contains("APNs refuses payloads over 5120 bytes"), "\(result.stderr)")
            }
        }
    }

    @Test("without the flags the output is the bare payloads, as before")
    func bare() throws {
        let result = try CommandRunner.run(["translate", "--compact", "-"], input: Data(Self.intent.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let output = try Self.object(result.stdout)
        #expect((output["apns"] as? [String: Any])?["aps"] != nil)
        #expect((output["fcm"] as? [String: Any]).flatMap { ($0["message"] as? [String: Any])?["apns"] } == nil)
    }

    @Test("each flag touches only its own platform's output")
    func flagsPerPlatform() throws {
        // A flag for the platform not asked for does nothing, and says so in a note (the
        // twenty-fifth audit, F11: it was silent).
        let fcm = try CommandRunner.run(["translate", "--request", "--platform", "fcm", "--compact", "-"], input: Data(Self.intent.utf8))
        #expect(fcm.status == 0, "\(fcm.stderr)")
        #expect((try Self.object(fcm.stdout)["message"] as? [String: Any])?["apns"] == nil)
        #expect(fcm.stderr.hasPrefix("pushmap: translate: --request does nothing without the APNS payload"), "\(fcm.stderr)")
        let apns = try CommandRunner.run(["translate", "--fcm-apns", "--platform", "apns", "--compact", "-"], input: Data(Self.intent.utf8))
        #expect(apns.status == 0, "\(apns.stderr)")
        #expect(try Self.object(apns.stdout)["aps"] != nil)
        #expect(apns.stderr.hasPrefix("pushmap: translate: --fcm-apns does nothing without the FCM message"), "\(apns.stderr)")
        let batch = try CommandRunner.run(["batch", "--request", "--platform", "fcm", "-"], input: Data(#"{"title": "Hi", "body": "There"}"#.utf8 + [0x0A]))
        #expect(batch.status == 0, "\(batch.stderr)")
        #expect(batch.stderr.hasPrefix("pushmap: batch: --request does nothing"), "\(batch.stderr)")
        // --fcm-apns alone: FCM carries the request, APNS stays a bare payload.
        let both = try CommandRunner.run(["translate", "--fcm-apns", "--compact", "-"], input: Data(Self.intent.utf8))
        let output = try Self.object(both.stdout)
        #expect((output["apns"] as? [String: Any])?["aps"] != nil)
        #expect(((output["fcm"] as? [String: Any])?["message"] as? [String: Any])?["apns"] != nil)
    }

    @Test("an apnsHeaders that returns no table fails the translation with its file, exit 2")
    func brokenHeaders() throws {
        let folder = try temporaryFolder()
        let script = """
        local function apns(intent, ctx) return { aps = { alert = intent.title } } end
        local function apnsHeaders(intent, payload, ctx) return "alert" end
        return { name = "plain", api = 1, platforms = { "apns" }, apns = apns, apnsHeaders = apnsHeaders }
        """
        try script.write(to: folder.appendingPathComponent("plain.lua"), atomically: true, encoding: .utf8)
        let result = try CommandRunner.run(
            ["translate", "--scripts", folder.path, "--request", "--platform", "apns", "-"], input: Data(#"{"title": "t"}"#.utf8))
        #expect(result.status == 2)
        #expect(result.stderr.contains("plain.lua: apnsHeaders returned a string, expected a table"), "\(result.stderr)")
    }

    @Test("batch --request writes each line's APNS request; a line that fails says why, the others go on")
    func batch() throws {
        let lines = Self.intent.replacingOccurrences(of: "\n", with: " ") + "\n" + #"{"ios": {"pushType": "beep"}}"# + "\n"
        let result = try CommandRunner.run(["batch", "--request", "--fcm-apns", "-"], input: Data(lines.utf8))
        #expect(result.status == 1)
        let outputs = try result.stdout.split(separator: "\n").map { try Self.object(String($0)) }
        #expect(outputs.count == 2)
        let apns = try #require(outputs[0]["apns"] as? [String: Any])
        #expect((apns["headers"] as? [String: Any])?["apns-priority"] as? String == "10")
        #expect(((outputs[0]["fcm"] as? [String: Any])?["message"] as? [String: Any])?["apns"] != nil)
        #expect(outputs[1]["error"] != nil)
    }

    @Test("validate reads an APNS request and reports at its paths")
    func validateRequest() throws {
        let request = #"{"headers": {"apns-push-type": "background", "apns-priority": "10"}, "payload": {"aps": {"content-available": 1}}}"#
        let result = try CommandRunner.run(["validate", "--platform", "apns", "-"], input: Data(request.utf8))
        #expect(result.status == 1)
        let output = result.stdout + result.stderr
        #expect(output.contains(#"error: $.headers["apns-priority"]: a background push needs apns-priority 5"#), "\(output)")
    }

    static let typoScript = """
    -- A team's plain mapping with typos in its APNS fields.
    local function apns(intent, ctx)
      return { aps = { alert = { titel = intent.title, body = intent.body }, ["content-availabe"] = 1 } }
    end

    local function apnsHeaders(intent, payload, ctx)
      return { ["apns-push-type"] = "alert", ["apns-prority"] = "10", ["apns-topic"] = "com.example.app" }
    end

    local function fcm(intent, ctx)
      return { message = { token = "t", data = { adb_title = intent.title, adb_body = intent.body },
        apns = { headers = { ["apns-priority"] = 10 }, payload = { aps = { alert = { titel = intent.title } } } } } }
    end

    return { name = "plain", api = 1, platforms = { "fcm", "apns" }, fcm = fcm, apns = apns, apnsHeaders = apnsHeaders }
    """

    @Test("a team's script with typos in APNS fields fails with the path of each: the keys they were meant for are missing")
    func teamScriptTypos() throws {
        let folder = try temporaryFolder()
        try Self.typoScript.write(to: folder.appendingPathComponent("plain.lua"), atomically: true, encoding: .utf8)
        let intent = Data(#"{"title": "Hi", "body": "there"}"#.utf8)

        // Each typo leaves the key it meant missing (no title, the app never woken, no priority):
        // an error at each path, no payload, and the script's failure at the line that wrote it.
        let apns = try CommandRunner.run(["translate", "--scripts", folder.path, "--request", "--platform", "apns", "-"], input: intent)
        #expect(apns.status == 2, "\(apns.stderr)")
        #expect(apns.stdout.isEmpty)
        #expect(apns.stderr.contains("written by \(folder.appendingPathComponent("plain.lua").path):3]"), "\(apns.stderr)")
        // The same request put into the FCM message by --fcm-apns: the apns mapping's line, not the fcm one's.
        let both = try CommandRunner.run(["translate", "--scripts", folder.path, "--fcm-apns", "--platform", "fcm", "-"], input: intent)
        #expect(both.status == 2, "\(both.stderr)")
        #expect(both.stderr.contains("script error: \(folder.appendingPathComponent("plain.lua").path):3:"), "\(both.stderr)")
        // What the fcm mapping wrote at message.apns (a numeric priority) is replaced, so not reported.
        #expect(!both.stderr.contains("must be a string, not 10"), "\(both.stderr)")
        // The title's value is the intent's unchanged, so the finding is at $.title too.
        #expect(apns.stderr.contains("error: $.title: aps.alert.titel is not one of"), "\(apns.stderr)")
        #expect(apns.stderr.contains("apns at $.payload.aps.alert.titel"), "\(apns.stderr)")
        #expect(apns.stderr.contains("did you mean title?"))
        #expect(apns.stderr.contains(#"error: $.payload.aps["content-availabe"]:"#))
        #expect(apns.stderr.contains("did you mean content-available?"))
        #expect(apns.stderr.contains(#"error: $.headers["apns-prority"]:"#))
        #expect(apns.stderr.contains("did you mean apns-priority?"))

        // Inside the FCM message: the alert has nothing left to show and the priority is a number.
        // The script wrote the failing values: a script failure (exit 2) at its line.
        let fcm = try CommandRunner.run(["translate", "--scripts", folder.path, "--platform", "fcm", "--format", "json", "-"], input: intent)
        #expect(fcm.status == 2)
        let report = try Self.object(fcm.stderr)
        #expect((report["scriptError"] as? [String: Any])?["script"] as? String == folder.appendingPathComponent("plain.lua").path, "\(report)")
        let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
        let found = Set(diagnostics.map { "\($0["severity"] ?? "") \($0["rule"] ?? "") \($0["payloadPath"] ?? $0["path"] ?? "")" })
        #expect(found.contains("error apns-alert-key $.message.apns.payload.aps.alert.titel"), "\(found)")
        // The typo's finding says the title is missing: no second one for the alert (twenty-fifth audit, F5).
        #expect(!found.contains("error apns-alert $.message.apns.payload.aps.alert"), "\(found)")
        // A number where FCM's model wants a string: FCM's finding, not a second one from the APNS checks.
        #expect(found.contains(#"error fcm-field-type $.message.apns.headers["apns-priority"]"#), "\(found)")
        #expect(!found.contains { $0.contains("apns-header-string") }, "\(found)")
    }

    /// A team's plain mapping whose headers function writes wrongly the header the intent's `bad`
    /// names, each on a line of its own; its fcm mapping may write a bad header of its own.
    static let headerScript = """
    local builtin, rep = pushmap.builtin, string.rep

    local function apnsHeaders(intent, payload, ctx)
      local bad = intent.bad
      local headers = { ["apns-push-type"] = "alert", ["apns-priority"] = "10" }
      if bad == "priority" then headers["apns-priority"] = "7" end
      if bad == "push-type" then headers["apns-push-type"] = "beep" end
      if bad == "expiration" then headers["apns-expiration"] = "soon" end
      if bad == "collapse-id" then headers["apns-collapse-id"] = rep("x", 65) end
      if bad == "returned" then return { ["apns-push-type"] = "alert", ["apns-priority"] = true } end
      return headers
    end

    local function fcm(intent, ctx)
      local payload = builtin("plain", "fcm", intent, ctx)
      if intent.bad == "fcm-own" then payload.message.apns = { headers = { ["apns-priority"] = "7" } } end
      return payload
    end

    return {
      name = "plain", api = 1, platforms = { "fcm", "apns" }, fields = { bad = "string" },
      fcm = fcm, apns = function(intent, ctx) return builtin("plain", "apns", intent, ctx) end, apnsHeaders = apnsHeaders,
    }
    """

    @Test("a bad header a team's apnsHeaders wrote names its line, in the APNS request and in the FCM message: exit 2")
    func headerBlame() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.headerScript.write(to: folder.appendingPathComponent("plain.lua"), atomically: true, encoding: .utf8)
        let script = folder.appendingPathComponent("plain.lua").path
        func translate(_ bad: String, _ arguments: [String]) throws -> CommandRunner.Result {
            let intent = Data(#"{"title": "Hi", "body": "there", "bad": "\#(bad)"}"#.utf8)
            return try CommandRunner.run(["translate", "--scripts", folder.path, "--now", "1700000000"] + arguments + ["-"], input: intent)
        }
        // Each header, at its path in each request form, on the line that wrote it.
        let cases: [(bad: String, header: String, rule: String, line: Int)] = [
            ("priority", "apns-priority", "apns-priority", 6),
            ("push-type", "apns-push-type", "apns-push-type", 7),
            ("expiration", "apns-expiration", "apns-expiration", 8),
            ("collapse-id", "apns-collapse-id", "apns-collapse-id", 9),
            ("returned", "apns-priority", "apns-header-string", 10),
        ]
        let forms: [(arguments: [String], base: String, platform: String)] = [
            (["--request", "--platform", "apns"], "$.headers", "apns"),
            (["--fcm-apns", "--platform", "fcm"], "$.message.apns.headers", "fcm"),
            (["--fcm-apns", "--platform", "both"], "$.message.apns.headers", "apns"),
        ]
        for (bad, header, rule, line) in cases {
            for (arguments, base, platform) in forms {
                let result = try translate(bad, arguments)
                let path = "\(base)[\"\(header)\"]"
                #expect(result.status == 2, "\(bad) \(arguments): \(result.stderr)")
                #expect(result.stdout.isEmpty)
                #expect(result.stderr.contains("error: \(path): "), "\(bad) \(arguments): \(result.stderr)")
                #expect(result.stderr.contains("[\(rule), \(platform), written by \(script):\(line)]"), "\(bad) \(arguments): \(result.stderr)")
                #expect(result.stderr.contains("script error: \(script):\(line): wrote a value that fails the \(platform) check \(rule) at \(path) [bad value]"),
                    "\(bad) \(arguments): \(result.stderr)")
            }
        }

        // JSON: the finding's script field, and the script error's file and line.
        let json = try translate("priority", ["--request", "--platform", "apns", "--format", "json"])
        #expect(json.status == 2)
        let report = try Self.object(json.stderr)
        let diagnostic = try #require((report["diagnostics"] as? [[String: Any]])?.first { $0["rule"] as? String == "apns-priority" })
        #expect(diagnostic["script"] as? String == "\(script):6", "\(report)")
        #expect(diagnostic["path"] as? String == #"$.headers["apns-priority"]"#, "\(report)")
        let scriptError = try #require(report["scriptError"] as? [String: Any])
        #expect(scriptError["script"] as? String == script)
        #expect(scriptError["line"] as? Int == 6)

        // The fcm mapping's own message.apns headers are its lines', unless --fcm-apns replaces them.
        let own = try translate("fcm-own", ["--platform", "both", "--request"])
        #expect(own.status == 2, "\(own.stderr)")
        #expect(own.stderr.contains(#"error: $.message.apns.headers["apns-priority"]: "#), "\(own.stderr)")
        #expect(own.stderr.contains("[apns-priority, fcm, written by \(script):16]"), "\(own.stderr)")
        let replaced = try translate("fcm-own", ["--platform", "fcm", "--fcm-apns"])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(!replaced.stderr.contains("written by"), "\(replaced.stderr)")
    }
}

extension RequestCommandTests {
    /// Source: the thirty-first audit, left open since: `validate` refused a payload that repeats
    /// a key as not JSON. JSON allows it (RFC 8259 4: names "SHOULD be unique"); protobuf's JSON
    /// readers refuse it, so FCM's v1 API does; no Apple page says what APNs does.
    @Test("validate: a repeated key is an error for FCM, a warning for an APNS payload with the last value checked, an error for a repeated header")
    func repeatedKeys() throws {
        let fcm = try CommandRunner.run(["validate", "--platform", "fcm", "-"], input: Data(#"{"message": {"token": "t", "data": {"a": "1", "a": "2"}}}"#.utf8))
        #expect(fcm.status == 1 && fcm.stderr.contains("$.message.data.a: 1:47: duplicate key 'a' [json-syntax]"), "\(fcm.stderr)")
        let payload = try CommandRunner.run(["validate", "--platform", "apns", "-"], input: Data(#"{"aps": {"badge": 1, "badge": -1}}"#.utf8))
        #expect(payload.status == 1, "\(payload.stdout)")
        #expect(payload.stdout.contains("$.aps.badge: 1:22: duplicate key 'badge': Apple does not say whether APNs refuses the payload"), "\(payload.stdout)")
        #expect(payload.stdout.contains("[apns-duplicate-key, apns]"), "\(payload.stdout)")
        // The last value is the one checked: -1 is a badge iOS does not set, the only thing to show.
        #expect(payload.stdout.contains("aps.badge must be a whole number of 0 or more, not -1"), "\(payload.stdout)")
        let clean = try CommandRunner.run(["validate", "--platform", "apns", "-"], input: Data(#"{"aps": {"badge": -1, "badge": 1}}"#.utf8))
        #expect(clean.status == 0 && clean.stdout.contains("valid apns payload: 0 errors, 1 warning"), "\(clean.stdout)")
        let request = #"{"headers": {"apns-push-type": "alert", "apns-push-type": "alert"}, "payload": {"aps": {"alert": "Hi"}}}"#
        let header = try CommandRunner.run(["validate", "--platform", "apns", "-"], input: Data(request.utf8))
        #expect(header.status == 1, "\(header.stdout)")
        #expect(header.stdout.contains(#"$.headers["apns-push-type"]: 1:41: duplicate key 'apns-push-type': APNs refuses a repeated header (DuplicateHeaders)"#), "\(header.stdout)")
    }
}
