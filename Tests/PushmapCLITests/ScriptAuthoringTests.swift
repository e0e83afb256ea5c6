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
}
