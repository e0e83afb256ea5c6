import Foundation
import Testing

/// What a team writing its own mappings meets through the binary: a bad value blamed on the line
/// that wrote it, a fixed clock, fixtures that fail for every reason they should, the contract's
/// required and shared fields, and the schema and editor files made from the scripts.
@Suite("Script authoring through the command line")
struct ScriptAuthoringTests {
    /// A fresh folder holding `files` (path: contents); removed by the caller.
    static func folder(_ files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushmap-authoring-\(UUID().uuidString)")
        for (path, contents) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static let etaScript = """
        local map = pushmap.map

        return {
          name = "eta",
          api = 1,
          platforms = { "fcm", "apns" },
          fields = { eta = "integer" },
          fcm = function(intent, ctx)
            local payload = map("basic", "fcm", intent, ctx)
            local data = payload.message.data
            data.eta = intent.eta
            return payload
          end,
          apns = function(intent, ctx)
            local payload = map("basic", "apns", intent, ctx)
            payload.aps.badge = "soon"
            return payload
          end,
        }

        """

    @Test("a bad value a team's script wrote names the script's file and line and the payload path, exit 2")
    func blamesTheLine() throws {
        let folder = try Self.folder([
            "m/eta.lua": Self.etaScript,
            "intent.json": #"{"template": "eta", "title": "Hi", "body": "There", "eta": 12}"#,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandRunner.run(["translate", "--platform", "fcm", "--scripts", "m", "intent.json"], directory: folder)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("$.message.data.eta"), "\(result.stderr)")
        #expect(result.stderr.contains("written by m/eta.lua:11]"), "\(result.stderr)")
        #expect(result.stderr.contains("script error: m/eta.lua:11: wrote a value that fails the fcm check fcm-data-string at $.message.data.eta [bad value]"), "\(result.stderr)")
        // The value is the intent's eta unchanged, so that path is named; no invented $.data.eta.
        #expect(result.stderr.hasPrefix("intent.json: error: $.eta: "), "\(result.stderr)")
        #expect(!result.stderr.contains("$.data.eta"), "\(result.stderr)")

        // A value the script made up is placed at the payload path alone, in JSON too.
        let apns = try CommandRunner.run(["translate", "--platform", "apns", "--format", "json", "--scripts", "m", "intent.json"], directory: folder)
        #expect(apns.status == 2, "\(apns.stderr)")
        let report = try #require(CommandRunner.json(apns.stderr) as? [String: Any])
        let diagnostic = try #require((report["diagnostics"] as? [[String: Any]])?.first)
        #expect(diagnostic["path"] as? String == "$.aps.badge")
        #expect(diagnostic["script"] as? String == "m/eta.lua:16")
        let scriptError = try #require(report["scriptError"] as? [String: Any])
        #expect(scriptError["script"] as? String == "m/eta.lua")
        #expect(scriptError["line"] as? Int == 16)
    }

    @Test("a bad value from the intent through a built-in template stays the intent's error, exit 1")
    func intentValuesStayTheIntents() throws {
        let folder = try Self.folder([
            "m/basic.lua": """
                local builtin = pushmap.builtin
                return {
                  name = "basic", api = 1, platforms = { "fcm", "apns" },
                  fcm = function(intent, ctx) return builtin("basic", "fcm", intent, ctx) end,
                  apns = function(intent, ctx) return builtin("basic", "apns", intent, ctx) end,
                }

                """,
            "intent.json": #"{"template": "basic", "title": "Hi", "body": "There", "colors": {"title": "nothex"}}"#,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandRunner.run(["translate", "--platform", "fcm", "--scripts", "m", "intent.json"], directory: folder)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("error: $.colors.title: "), "\(result.stderr)")
        #expect(!result.stderr.contains("written by"), "\(result.stderr)")
    }

    static let stampScript = """
        local date, format = pushmap.date, string.format

        return {
          name = "stamp",
          api = 1,
          platforms = { "fcm" },
          fcm = function(intent, ctx)
            local payload = pushmap.map("basic", "fcm", intent, ctx)
            local data = payload.message.data
            data.sent_at = date(ctx.now)
            data.sent_day = date(ctx.now, "%a %d %b %Y %H:%M")
            data.sent_epoch = format("%d", ctx.now)
            return payload
          end,
        }

        """

    @Test("--now gives the same bytes on every run, to translate and batch; pushmap.date formats it in UTC")
    func fixedClock() throws {
        let folder = try Self.folder([
            "m/stamp.lua": Self.stampScript,
            "intent.json": #"{"template": "stamp", "title": "Hi", "body": "There"}"#,
            "intents.ndjson": #"{"template": "stamp", "title": "Hi", "body": "There"}"# + "\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = ["translate", "--platform", "fcm", "--compact", "--now", "1704067200", "--scripts", "m", "intent.json"]
        let first = try CommandRunner.run(arguments, directory: folder)
        Thread.sleep(forTimeInterval: 1.1) // the system clock moves on; --now does not
        let second = try CommandRunner.run(arguments, directory: folder)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdoutBytes == second.stdoutBytes)
        #expect(first.stdout.contains(#""sent_at":"2024-01-01T00:00:00Z""#), "\(first.stdout)")
        #expect(first.stdout.contains(#""sent_day":"Mon 01 Jan 2024 00:00""#), "\(first.stdout)")
        #expect(first.stdout.contains(#""sent_epoch":"1704067200""#), "\(first.stdout)")
        let batch = ["batch", "--platform", "fcm", "--now", "1704067200", "--scripts", "m", "intents.ndjson"]
        let batches = try [CommandRunner.run(batch, directory: folder), CommandRunner.run(batch, directory: folder)]
        #expect(batches[0].status == 0 && batches[0].stdoutBytes == batches[1].stdoutBytes)
        #expect(batches[0].stdout.contains("2024-01-01T00:00:00Z"), "\(batches[0].stdout)")

        // A conversion that depends on the machine is refused with the line that asked for it.
        let local = try Self.folder(["m/local.lua": """
            return { name = "local", api = 1, platforms = { "fcm" },
              fcm = function(intent, ctx) return { message = { data = { d = pushmap.date(ctx.now, "%c") } } } end }

            """])
        defer { try? FileManager.default.removeItem(at: local) }
        let refused = try CommandRunner.run(["translate", "--platform", "fcm", "--scripts", "m"], input: Data(#"{"template": "local"}"#.utf8), directory: local)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("m/local.lua:2: pushmap.date: unsupported conversion '%c'"), "\(refused.stderr)")
    }

    static let promoScript = """
        return {
          name = "promo",
          api = 1,
          platforms = { "fcm" },
          fcm = function(intent, ctx) return pushmap.map("basic", "fcm", intent, ctx) end,
        }

        """

    /// The FCM payload basic writes for title "a", body "b" and a remind-later time `at`.
    static func remindPayload(_ at: Int) -> String {
        #"{"message": {"data": {"adb_body": "b", "adb_rem_ts": "\#(at)", "adb_rem_txt": "L", "adb_template_type": "basic", "adb_title": "a", "adb_version": "1"}}}"#
    }

    static func remindIntent(_ at: Int) -> String {
        #"{"template": "promo", "title": "a", "body": "b", "remindLater": {"label": "L", "at": \#(at)}}"#
    }

    @Test("scripts check: every way a fixture fails is one FAIL with its reason, and the run goes on")
    func fixtureFailures() throws {
        let folder = try Self.folder([
            "m/promo.lua": Self.promoScript,
            "m/lonely.lua": Self.promoScript.replacingOccurrences(of: "\"promo\"", with: "\"lonely\""),
            "m/promo.test/a-typo.json": #"{"intent": \#(Self.remindIntent(1)), "apsn": {"aps": {}}, "fcm": \#(Self.remindPayload(1))}"#,
            "m/promo.test/b-broken.json": #"{"intent": {"template": "promo""#,
            "m/promo.test/c-not-object.json": #"["intent"]"#,
            "m/promo.test/d-bad-now.json": #"{"intent": \#(Self.remindIntent(1)), "now": "soon", "fcm": {}}"#,
            "m/promo.test/e-bad-warnings.json": #"{"intent": \#(Self.remindIntent(1)), "warnings": "some", "fcm": {}}"#,
            "m/promo.test/f-warned.json": #"{"intent": \#(Self.remindIntent(1)), "fcm": \#(Self.remindPayload(1)), "warnings": ["tapping remind later cancels"]}"#,
            "m/promo.test/g-warning-missing.json": #"{"intent": \#(Self.remindIntent(1900000000)), "fcm": \#(Self.remindPayload(1900000000)), "warnings": ["tapping remind later cancels"]}"#,
            "m/promo.test/h-no-warnings.json": #"{"intent": \#(Self.remindIntent(1)), "fcm": \#(Self.remindPayload(1)), "warnings": []}"#,
            "m/promo.test/i-fine.json": #"{"intent": \#(Self.remindIntent(1900000000)), "fcm": \#(Self.remindPayload(1900000000)), "warnings": []}"#,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandRunner.run(["scripts", "check", "m"], directory: folder)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let expected = [
            "FAIL m/promo.test/a-typo.json\n     unknown key \"apsn\"; did you mean \"apns\"? (the keys are intent, now, fcm, apns, error, warnings)",
            "FAIL m/promo.test/b-broken.json\n     not JSON: 1:32: unexpected end of input",
            "FAIL m/promo.test/c-not-object.json\n     a fixture is a JSON object",
            "FAIL m/promo.test/d-bad-now.json\n     \"now\" must be an integer",
            "FAIL m/promo.test/e-bad-warnings.json\n     \"warnings\" must be a list of strings",
            "PASS m/promo.test/f-warned.json",
            "FAIL m/promo.test/g-warning-missing.json\n     expected a warning containing \"tapping remind later cancels\", got none",
            "FAIL m/promo.test/h-no-warnings.json\n     unexpected warning: $.remindLater.at: adb_rem_ts 1 is at or before now (1704067200)",
            "PASS m/promo.test/i-fine.json",
            "FAIL m/lonely.lua: no fixtures (write them as m/lonely.test/CASE.json)",
            "2 passed, 8 failed",
        ]
        for piece in expected {
            #expect(result.stdout.contains(piece), "missing: \(piece)\n\(result.stdout)")
        }

        // The same run as one JSON object, for CI tools.
        let json = try CommandRunner.run(["scripts", "check", "--format", "json", "m"], directory: folder)
        #expect(json.status == 1)
        let report = try #require(CommandRunner.json(json.stdout) as? [String: Any], "\(json.stdout)")
        #expect(report["passed"] as? Int == 2)
        #expect(report["failed"] as? Int == 8)
        let fixtures = try #require(report["fixtures"] as? [[String: Any]])
        #expect(fixtures.count == 9)
        let typo = try #require(fixtures.first { $0["path"] as? String == "m/promo.test/a-typo.json" })
        #expect(typo["passed"] as? Bool == false)
        #expect((typo["differences"] as? [String])?.first?.contains("did you mean \"apns\"") == true)
        let untested = try #require(report["untested"] as? [[String: Any]])
        #expect(untested.map { $0["template"] as? String } == ["lonely"])
        #expect((report["templates"] as? [[String: Any]])?.count == 2)

        // --now is the time of the fixtures that name none: the "fine" one's remind-later time is past then.
        let later = try CommandRunner.run(["scripts", "check", "--now", "1950000000", "m"], directory: folder)
        #expect(later.stdout.contains("FAIL m/promo.test/i-fine.json\n     unexpected warning: $.remindLater.at: adb_rem_ts 1900000000 is at or before now (1950000000)"), "\(later.stdout)")
    }
}
