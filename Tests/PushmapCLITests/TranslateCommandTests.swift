import Foundation
import Testing

/// The seed payloads in examples/seed-payloads, compared as their README defines equal.
enum SeedPayloads {
    static let folder = CommandRunner.root.appendingPathComponent("examples/seed-payloads")

    static var names: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// Equal as JSON values, FCM's android.data merged into data, JSON-encoded strings decoded.
    static func normalized(_ value: Any) -> Any {
        guard var object = value as? [String: Any] else { return value }
        if var message = object["message"] as? [String: Any] {
            var data = message["data"] as? [String: Any] ?? [:]
            if var android = message["android"] as? [String: Any], let inner = android["data"] as? [String: Any] {
                data.merge(inner) { first, _ in first }
                android["data"] = nil
                message["android"] = android
            }
            for key in ["adb_act", "adb_items"] {
                if let text = data[key] as? String, let decoded = try? JSONSerialization.jsonObject(with: Data(text.utf8)) {
                    data[key] = decoded
                }
            }
            message["data"] = data
            object["message"] = message
        }
        return object
    }

    static func equal(_ actual: String, _ expected: Data) -> Bool {
        guard let left = try? JSONSerialization.jsonObject(with: Data(actual.utf8)),
              let right = try? JSONSerialization.jsonObject(with: expected) else { return false }
        return (normalized(left) as? NSObject)?.isEqual(normalized(right)) == true
    }
}

@Suite("pushmap translate")
struct TranslateCommandTests {
    @Test("turns each seed example intent into its seed payload", arguments: SeedPayloads.names)
    func seeds(name: String) throws {
        let platform = name.contains("-fcm") ? "fcm" : "apns"
        // At 2023-12-01, while Adobe's examples still ran: the timer seed ends on 2023-12-25, and
        // Android drops a timer already over on arrival (an error).
        let result = try CommandRunner.run(["translate", "--platform", platform, "--now", "1701388800", "examples/seeds/\(name).json"])
        #expect(result.status == 0, "\(result.stderr)")
        let expected = try Data(contentsOf: SeedPayloads.folder.appendingPathComponent("\(name).json"))
        #expect(SeedPayloads.equal(result.stdout, expected), "\(result.stdout)")
        #expect(!result.stderr.contains("error"))
    }

    @Test("finds all nine seed payloads")
    func nineSeeds() {
        #expect(SeedPayloads.names.count == 9)
    }

    @Test("writes both platforms as one object, pretty, keys sorted, the same bytes every run")
    func both() throws {
        let first = try CommandRunner.run(["translate", "examples/seeds/basic-fcm.json"])
        #expect(first.status == 0)
        let object = try #require(CommandRunner.json(first.stdout) as? [String: Any])
        #expect(Set(object.keys) == ["fcm", "apns"])
        #expect(first.stdout.hasPrefix("{\n  \"apns\": {\n"))
        let second = try CommandRunner.run(["translate", "examples/seeds/basic-fcm.json"])
        #expect(first.stdoutBytes == second.stdoutBytes)
    }

    @Test("writes compact JSON on request")
    func compact() throws {
        let result = try CommandRunner.run(["translate", "--platform", "fcm", "--compact", "examples/seeds/plain-fcm.json"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("{\"message\":{"))
        #expect(result.stdout.split(separator: "\n").count == 1)
    }

    @Test("reads the intent from standard input")
    func standardInput() throws {
        let intent = Data(#"{"title": "Hi", "body": "There"}"#.utf8)
        let result = try CommandRunner.run(["translate", "--platform", "apns", "-"], input: intent)
        #expect(result.status == 0)
        #expect(result.stdout.contains("\"title\": \"Hi\""))
    }

    @Test("names an unknown field with its path and a did-you-mean, exit 1")
    func unknownField() throws {
        let result = try CommandRunner.run(["translate", "-"], input: Data(#"{"tittle": "Hi", "body": "x"}"#.utf8))
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "<stdin>: error: $.tittle: unknown field 'tittle' at $; did you mean 'title'? [unknown-field]\n")
    }

    /// Source: the twenty-fifth audit, F7: a U+2028 in a key printed raw made Python's
    /// splitlines see two lines, and a newline in a value was shown as a blank.
    @Test("a line separator in a key or a newline in a value is written escaped: one finding, one line")
    func lineBreaksEscaped() throws {
        let key = try CommandRunner.run(["translate", "-"], input: Data(#"{"titl\u2028e": "x", "title": "a"}"#.utf8))
        #expect(key.status == 1)
        #expect(key.stderr == #"<stdin>: error: $["titl\u2028e"]: unknown field 'titl\u2028e' at $; did you mean 'title'? [unknown-field]"# + "\n")
        let value = try CommandRunner.run(["validate", "--platform", "apns", "-"], input: Data(#"{"aps": {"alert": "Hi", "badge": "3\n4"}}"#.utf8))
        #expect(value.status == 0)
        #expect(value.stdout.contains(#"not "3\n4": iOS does not set the badge"#), "\(value.stdout)")
        #expect(value.stdout.split(separator: "\n").count == 2)
    }

    /// Source: the forty-fourth audit, after the forty-third's CLI F6: one unknown key of 900 KB
    /// made a line of 1.8 MB, the key in full in the path and again in the message.
    @Test("a key of 900 KB is quoted by its first 200 characters and an ellipsis, in every check that names it", arguments: [
        (["translate", "-"], #"{"title": "a", "body": "b", "KEY": 1}"#, "unknown field 'KEY' at $"),
        (["translate", "-"], #"{"title": "a", "body": "b", "data": {"adb_KEY": "1"}}"#, "data key 'adb_KEY' collides"),
        (["validate", "--platform", "fcm", "-"], #"{"message": {"token": "t", "android": {"KEY": 1}}}"#, "KEY is not a field of AndroidConfig"),
        (["validate", "--platform", "apns", "-"], #"{"aps": {"alert": {"title": "a", "KEY": 1}}}"#, "aps.alert.KEY is not one of"),
    ])
    func longKeyClipped(arguments: [String], template: String, expected: String) throws {
        let key = String(repeating: "k", count: 900_000)
        let shown = String(repeating: "k", count: 200) + "…"
        let result = try CommandRunner.run(arguments, input: Data(template.replacingOccurrences(of: "KEY", with: key).utf8))
        let output = result.stdout + result.stderr
        #expect(output.contains(expected.replacingOccurrences(of: "KEY", with: String(shown.dropFirst(expected.hasPrefix("data key") ? 4 : 0)))), "\(output.prefix(600))")
        #expect(output.utf8.count < 6_000, "\(output.utf8.count) bytes")
    }

    /// Source: the twenty-fifth audit, F3: an FCM data map may hold aps (validate passed the
    /// payload), only the APNS payload's aps is the mapping's.
    @Test("a data key aps is refused on APNS only")
    func dataKeyAps() throws {
        let intent = Data(#"{"title": "a", "body": "b", "data": {"aps": "x"}}"#.utf8)
        let fcm = try CommandRunner.run(["translate", "--platform", "fcm", "--compact", "-"], input: intent)
        #expect(fcm.status == 0, "\(fcm.stderr)")
        #expect(fcm.stdout.contains(#""aps":"x""#))
        let apns = try CommandRunner.run(["translate", "--platform", "apns", "-"], input: intent)
        #expect(apns.status == 1)
        #expect(apns.stderr.contains("$.data.aps: data key 'aps' collides with the aps dictionary pushmap writes [script, apns]"), "\(apns.stderr)")
    }

    @Test("reports malformed JSON with line, column and path, exit 1")
    func malformed() throws {
        let result = try CommandRunner.run(["translate", "-"], input: Data("{\n  \"title\": \"x\",\n  \"body\": }".utf8))
        #expect(result.status == 1)
        #expect(result.stderr.contains("<stdin>: error: $.body: 3:11:"))
        #expect(result.stderr.contains("[json-syntax]"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test("gives one clear line for bad files and bad bytes, exit 1", arguments: [
        ("missing", ["translate", "no/such/file.json"], Data(), "no/such/file.json: no such file or directory"),
        ("directory", ["translate", "examples"], Data(), "examples: is a directory, not a file"),
        ("empty", ["translate", "-"], Data(), "<stdin>: error: $: 1:1: empty input [json-syntax]"),
        ("utf8", ["translate", "-"], Data([0x7B, 0x22, 0x74, 0x69, 0x74, 0x6C, 0x65, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D]), "invalid UTF-8"),
        ("nested", ["translate", "-"], Data((String(repeating: "[", count: 100_000)).utf8), "nesting deeper than 32 levels"),
        ("huge", ["translate", "-"], Data(("{\"title\":\"" + String(repeating: "x", count: 2_000_000) + "\"}").utf8), "limit"),
        ("array", ["translate", "-"], Data("[1, 2]".utf8), "an intent is a JSON object, got array"),
    ])
    func badInput(name: String, arguments: [String], input: Data, expected: String) throws {
        let result = try CommandRunner.run(arguments, input: input)
        #expect(result.status == 1, "\(name): \(result.stderr)")
        #expect(result.stderr.contains(expected), "\(name): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(name): \(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
    }

    /// Source: the twenty-first audit: with --format json an empty input was a line of text on
    /// standard error, where text that is not JSON was a JSON report.
    @Test("an empty input is a json-syntax finding in the format asked for")
    func emptyInputAsJSON() throws {
        for arguments in [["translate", "--format", "json", "-"], ["import", "--platform", "fcm", "--format", "json", "-"]] {
            let result = try CommandRunner.run(arguments, input: Data())
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr == #"{"diagnostics":[{"message":"1:1: empty input","path":"$","rule":"json-syntax","severity":"error"}],"file":"<stdin>"}"# + "\n", "\(arguments)")
        }
        let validate = try CommandRunner.run(["validate", "--platform", "apns", "--format", "json", "-"], input: Data("not json".utf8))
        #expect(validate.status == 1, "\(validate.stderr)")
        #expect(validate.stdout.contains(#""rule":"json-syntax""#) && validate.stdout.contains(#""valid":false"#), "\(validate.stdout)")
    }

    @Test("fails a check with exit 1 and the intent path")
    func failedCheck() throws {
        // FCM refuses a topic name with a space.
        let intent = ##"{"template": "basic", "title": "t", "body": "b", "target": {"topic": "news 2"}}"##
        let result = try CommandRunner.run(["translate", "--platform", "fcm", "-"], input: Data(intent.utf8))
        #expect(result.status == 1)
        #expect(result.stderr.contains("error: $.target.topic:"))
        #expect(result.stderr.contains("[fcm-topic, fcm at $.message.topic]"))
    }

    /// Source: RFC 8259 section 6: a number past a double's precision is valid JSON that a reader
    /// may round. An order number of 20 digits in `data` cannot reach the phone as written.
    @Test("warns at its path about a number that loses digits, and still translates, exit 0")
    func inexactNumber() throws {
        let intent = #"{"title": "t", "body": "b", "data": {"order": 12345678901234567890, "price": 1.5}}"#
        let result = try CommandRunner.run(["translate", "--platform", "fcm", "-"], input: Data(intent.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("warning: $.data.order: 12345678901234567890 has more digits than a number keeps"), "\(result.stderr)")
        #expect(result.stderr.contains("it is read as 1.2345678901234567e+19; write it as a string to keep every digit [inexact-number]"), "\(result.stderr)")
        // The same number out of an integer field's range is one error, not a warning besides.
        let badge = try CommandRunner.run(["translate", "--platform", "apns", "-"], input: Data(#"{"title": "t", "badge": 123456789012345678901}"#.utf8))
        #expect(badge.status == 1)
        #expect(badge.stderr == "<stdin>: error: $.badge: expected an integer, got 1.2345678901234568e+20: beyond what a 64-bit integer holds [wrong-type]\n", "\(badge.stderr)")
    }

    @Test("reports a failing script with its file and line, exit 2")
    func scriptFailure() throws {
        let folder = try temporaryFolder()
        try "return {\n  name = 'basic', api = 1, platforms = {'fcm'},\n  fcm = function(intent, ctx)\n    return intent.carousel.items\n  end,\n}\n"
            .write(to: folder.appendingPathComponent("basic.lua"), atomically: true, encoding: .utf8)
        let intent = #"{"template": "basic", "title": "t", "body": "b"}"#
        let result = try CommandRunner.run(["translate", "--platform", "fcm", "--scripts", folder.path, "-"], input: Data(intent.utf8))
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(folder.path)/basic.lua:4: attempt to index a nil value (field 'carousel')"))
    }

    @Test("reports a script that does not compile, exit 2")
    func syntaxError() throws {
        let folder = try temporaryFolder()
        try "return {\n  name = = 'x'\n}\n".write(to: folder.appendingPathComponent("broken.lua"), atomically: true, encoding: .utf8)
        let result = try CommandRunner.run(["translate", "--scripts", folder.path, "-"], input: Data(#"{"title":"t"}"#.utf8))
        #expect(result.status == 2)
        #expect(result.stderr.contains("broken.lua:2: unexpected symbol near '='"))
    }

    @Test("writes diagnostics as JSON with --format json")
    func jsonDiagnostics() throws {
        let result = try CommandRunner.run(["translate", "--format", "json", "-"], input: Data(#"{"badge": -1}"#.utf8))
        #expect(result.status == 1)
        let object = try #require(CommandRunner.json(result.stderr) as? [String: Any])
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.first?["path"] as? String == "$.badge")
        #expect(diagnostics.first?["rule"] as? String == "out-of-range")
    }

    /// Source: the twenty-sixth audit, F22: a script's loop that wrote 3,000 numbers into a data
    /// map gave 3,001 error lines, against one finding per fault.
    @Test("a rule failing on many values says the first 20 and counts the rest, in the intent and in a script's payload")
    func repeatsCounted() throws {
        let fields = (0..<100).map { #""bogus\#($0)": 1"# }.joined(separator: ", ")
        let intent = try CommandRunner.run(["translate", "--platform", "fcm", "-"], input: Data(#"{"title": "t", \#(fields)}"#.utf8))
        #expect(intent.status == 1)
        let lines = intent.stderr.split(separator: "\n")
        #expect(lines.count == 21, "\(intent.stderr)")
        #expect(lines.last?.hasSuffix("error: $: and 80 more findings of this rule like those above, each on a value of its own [unknown-field]") == true, "\(lines.last ?? "")")

        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("m"), withIntermediateDirectories: true)
        try """
            return { name = "loop", api = 1, platforms = { "fcm" },
              fcm = function(intent, ctx)
                local data = {}
                for i = 1, 3000 do data["k" .. i] = i end
                return { message = { data = data } }
              end }
            """.write(to: folder.appendingPathComponent("m/loop.lua"), atomically: true, encoding: .utf8)
        let script = try CommandRunner.run(["translate", "--platform", "fcm", "--scripts", "m", "-"], input: Data(#"{"template": "loop"}"#.utf8), directory: folder)
        #expect(script.status != 0)
        let said = script.stderr.split(separator: "\n").filter { $0.contains("[fcm-data-string") }
        #expect(said.count == 21, "\(said.count) lines")
        #expect(said.last?.contains("and 2980 more findings of this rule") == true, "\(said.last ?? "")")
    }

    /// Source: the forty-fifth audit, translate H1, M1, M3 and L2, against intent.md ("a data key
    /// that collides with a key the mapping writes ... is an error"; Campaign Classic's ids come
    /// from campaignClassic), commands.md (a finding names the intent's path), basic.lua (iOS
    /// templates open adb_uri on a tap) and client-rules.md (the catalog's four button keys):
    /// data._mId replaced campaignClassic's id in silence; an iOS catalog item's image was said at
    /// $.carousel; a DISMISS link's uri opened on an iOS tap; a catalog with no button was four
    /// errors.
    @Test("data never replaces a key the mapping writes; findings at the intent's own fields; an iOS template sends no DISMISS uri")
    func translatedAsTheIntentSays() throws {
        func translate(_ intent: String, _ platform: String = "both") throws -> CommandRunner.Result {
            try CommandRunner.run(["translate", "--platform", platform, "--now", "1800000000", "-"], input: Data(intent.utf8))
        }
        let collision = try translate(#"{"template": "basic", "title": "t", "body": "b", "campaignClassic": {"messageId": "m", "deliveryId": "d"}, "data": {"_mId": "x"}}"#)
        #expect(collision.status == 1)
        #expect(collision.stderr == "<stdin>: error: $.data._mId: data key '_mId' is a key the mapping writes from another field: data may not replace it [script]\n")

        let item = #"{"title": "R", "body": "C", "image": "drw", "price": "1", "uri": "s://r"}"#
        let others = (1...2).map { #"{"title": "T", "body": "B", "image": "https://e.com/\#($0).png", "price": "1", "uri": "s://\#($0)"}"# }.joined(separator: ", ")
        let button = #""button": {"label": "Buy", "uri": "https://s/c", "color": "2d5a4b", "textColor": "ffffff"}"#
        let catalog = try translate(#"{"template": "cat", "title": "t", "body": "b", "catalog": {"layout": "vertical", \#(button), "items": [\#(item), \#(others)]}}"#, "apns")
        #expect(catalog.stderr.contains("warning: $.catalog.items[0].image: carousel item 0's img \"drw\" is not https"), "\(catalog.stderr)")
        #expect(!catalog.stderr.contains("$.carousel"), "\(catalog.stderr)")
        let noButton = try translate(#"{"template": "cat", "title": "t", "body": "b", "catalog": {"layout": "vertical", "items": [\#(item), \#(others)]}}"#, "fcm")
        #expect(noButton.status == 1)
        #expect(noButton.stderr == "<stdin>: error: $.catalog: missing required field 'button' [missing-field]\n")

        // L6: plain with Campaign Classic's ids, whose extension draws it as basic.
        let plainClassic = try translate(#"{"title": "t", "body": "b", "expandedBody": "more", "campaignClassic": {"messageId": "m", "deliveryId": "d"}}"#, "fcm")
        #expect(plainClassic.stderr.contains(#"warning: $.expandedBody: 'expandedBody' is not written by plain, which writes only the generic keys: for Campaign Classic, which draws it as basic, give template "basic" [script, fcm]"#), "\(plainClassic.stderr)")

        // L4: an image in a silent push, as its subtitle is.
        let silent = try translate(#"{"image": "https://e.com/a.png", "ios": {"contentAvailable": true}}"#, "apns")
        #expect(silent.status == 0)
        #expect(silent.stdout.contains("\"content-available\": 1") && !silent.stdout.contains("adb_media") && !silent.stdout.contains("mutable-content"), "\(silent.stdout)")
        #expect(silent.stderr == "<stdin>: warning: $.image: a silent push (ios.contentAvailable without title or body) shows no alert: the image is not sent [script, apns]\n")

        let dismiss = try translate(#"{"template": "basic", "title": "t", "body": "b", "link": {"uri": "https://e.com", "type": "DISMISS"}}"#, "apns")
        #expect(dismiss.status == 0)
        #expect((CommandRunner.json(dismiss.stdout) as? [String: Any])?["adb_uri"] == nil, "\(dismiss.stdout)")
        #expect(dismiss.stderr.contains("warning: $.link.uri: a DISMISS link's uri is not sent: iOS templates open adb_uri on a tap"), "\(dismiss.stderr)")

        // Forty-fifth audit, translate L3: intent.md gives a link with neither type nor uri OPENAPP.
        let emptyLink = try translate(#"{"template": "basic", "title": "t", "body": "b", "link": {}}"#, "fcm")
        #expect(emptyLink.status == 0 && emptyLink.stderr.isEmpty, "\(emptyLink.stderr)")
        #expect(emptyLink.stdout.contains(#""adb_a_type": "OPENAPP""#), "\(emptyLink.stdout)")

        // Forty-sixth audit, cli F4: Adobe's Android SDK reads adb_n_count with Integer.parseInt.
        let bigBadge = try translate(#"{"title": "t", "body": "b", "badge": 2147483648}"#, "fcm")
        #expect(bigBadge.stderr == "<stdin>: warning: $.badge: adb_n_count 2147483648 is past Android's 32-bit integer (2147483647 at most): Android uses 0 [android-badge-count, fcm at $.message.data.adb_n_count]\n")
        #expect(try translate(#"{"title": "t", "body": "b", "badge": 2147483647}"#, "fcm").stderr.isEmpty)
    }

    @Test("answers a usage error with ArgumentParser's status 64")
    func usageError() throws {
        let result = try CommandRunner.run(["translate", "--platform", "web"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--platform"))
    }

    @Test("works when the binary is copied anywhere on its own")
    func copiedBinary() throws {
        let folder = try temporaryFolder()
        let copy = folder.appendingPathComponent("pushmap")
        try FileManager.default.copyItem(at: CommandRunner.binary, to: copy)
        let process = Process()
        process.executableURL = copy
        process.arguments = ["templates"]
        process.currentDirectoryURL = folder
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        for name in ["plain", "basic", "carousel", "timer"] { #expect(text.contains(name)) }
    }
}

/// A new empty folder under the system's temporary folder.
func temporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushmap-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}
