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
}
