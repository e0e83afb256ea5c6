import Foundation
import Testing

/// Strict intent access as a team meets it through the binary: a read of a field nothing declares
/// is a warning naming the script's line and the nearest declared field, a write to the intent is
/// an error at its line, free-form maps read freely; and pushmap's own scripts, run as a team's
/// copy, read only declared fields.
@Suite("Strict intent access through the command line")
struct IntentAccessTests {
    static let order = """
        return {
          name = "order",
          api = 1,
          platforms = { "fcm" },
          fields = { orderId = "string" },
          fcm = function(intent, ctx)
            local id = intent.orderID
            local again = intent.orderID
            local campaign = intent.data and intent.data.anything
            return { message = { token = "t", data = { order = id or again or "none", campaign = campaign } } }
          end,
        }

        """

    static let writer = """
        return {
          name = "writer",
          api = 1,
          platforms = { "fcm" },
          fcm = function(intent, ctx)
            local payload = pushmap.builtin("plain", "fcm", intent, ctx)
            intent.title = "changed"
            return payload
          end,
        }

        """

    @Test("an undeclared field read names the file, the line and the declared field meant, once; exit 0")
    func undeclaredRead() throws {
        let folder = try ScriptAuthoringTests.folder([
            "m/order.lua": Self.order,
            "intent.json": #"{"template": "order", "orderId": "A-17", "data": {"anything": "spring"}}"#,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandRunner.run(["translate", "--platform", "fcm", "--scripts", "m", "intent.json"], directory: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let warning = "intent.json: warning: $.orderID: intent.orderID is not a declared field; did you mean orderId? (read at m/order.lua:7) [undeclared-field, fcm]"
        #expect(result.stderr.components(separatedBy: "\n").filter { $0.contains("orderID") } == [warning], "\(result.stderr)")
        // The undeclared field reads nil; data, a free-form map, is read without a word.
        #expect(result.stdout.contains(#""order" : "none""#) || result.stdout.contains(#""order": "none""#), "\(result.stdout)")
        #expect(result.stdout.contains("spring"), "\(result.stdout)")
        #expect(!result.stderr.contains("anything"), "\(result.stderr)")
    }

    @Test("a write to a field the intent has is an error at the script's line, exit 2", arguments: [
        #"{"template": "writer", "title": "Hi", "body": "There"}"#, // title present
        #"{"template": "writer", "body": "There"}"#,                // title absent
    ])
    func write(intent: String) throws {
        let folder = try ScriptAuthoringTests.folder(["m/writer.lua": Self.writer, "intent.json": intent])
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandRunner.run(["translate", "--platform", "fcm", "--scripts", "m", "intent.json"], directory: folder)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("m/writer.lua:7: intent.title is read-only"), "\(result.stderr)")
    }

    /// Source: the twenty-sixth audit, F2 and F3: rawset went around __newindex (a new key added
    /// unseen, which the APNS mapping then read; a changed one sent the check into runs without
    /// end, reported as the instruction limit in pushmap's own files), and table.sort likewise.
    /// The thirty-second audit, F3: table.sort and table.remove named no line (the list's length
    /// left out the keys held apart, so the second run wrote nothing), or, on a list of one, the
    /// impossible path intent.buttons[-1].
    @Test("a write that goes around __newindex is an error too, at its line: rawset, table.sort, table.remove", arguments: [
        ("rawset(intent, 'image', 'https://example.com/leak.png')", "m/sneaky.lua:7: rawset: the intent is read-only"),
        ("rawset(intent, 'title', 'changed')", "m/sneaky.lua:7: rawset: the intent is read-only"),
        ("table.sort(intent.buttons, function(a, b) return a.label > b.label end)", "m/sneaky.lua:7: intent.buttons[0] is read-only"),
        ("table.remove(intent.buttons)", "m/sneaky.lua:7: intent.buttons[1] is read-only"),
        ("table.remove(intent.buttons, 1)", "m/sneaky.lua:7: intent.buttons[0] is read-only"),
        ("table.remove(intent.ios.localized.titleArgs)", "m/sneaky.lua:7: intent.ios.localized.titleArgs[0] is read-only"),
    ])
    func writeAroundNewIndex(write: String, expected: String) throws {
        let sneaky = """
            return {
              name = "sneaky",
              api = 1,
              platforms = { "fcm", "apns" },
              fcm = function(intent, ctx)
                local payload = pushmap.builtin("plain", "fcm", intent, ctx)
                \(write)
                return payload
              end,
              apns = function(intent, ctx) return pushmap.builtin("plain", "apns", intent, ctx) end,
            }

            """
        let intent = #"{"template": "sneaky", "title": "Hi", "body": "There", "buttons": [{"label": "a"}, {"label": "b"}], "ios": {"localized": {"titleKey": "T", "titleArgs": ["only"]}}}"#
        let folder = try ScriptAuthoringTests.folder(["m/sneaky.lua": sneaky, "intent.json": intent])
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandRunner.run(["translate", "--scripts", "m", "intent.json"], directory: folder)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(expected), "\(result.stderr)")
        #expect(!result.stderr.contains("instruction limit"), "\(result.stderr)")
    }

    @Test("pushmap's own scripts, run as a team's copy on every fixture, read only declared fields and write nothing")
    func builtinsReadDeclaredFields() throws {
        let folder = try ScriptAuthoringTests.folder([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        let export = try CommandRunner.run(["scripts", "export", "copy"], directory: folder)
        #expect(export.status == 0, "\(export.stderr)")
        let copy = folder.appendingPathComponent("copy")
        var fixtures = 0
        for folderName in try FileManager.default.contentsOfDirectory(atPath: copy.path) where folderName.hasSuffix(".test") {
            let tests = copy.appendingPathComponent(folderName)
            for name in try FileManager.default.contentsOfDirectory(atPath: tests.path) where name.hasSuffix(".json") {
                let fixture = try JSONSerialization.jsonObject(with: Data(contentsOf: tests.appendingPathComponent(name))) as? [String: Any]
                let intent = try JSONSerialization.data(withJSONObject: try #require(fixture?["intent"]))
                let result = try CommandRunner.run(["translate", "--platform", "both", "--scripts", "copy"], input: intent, directory: folder)
                #expect(!result.stderr.contains("undeclared-field"), "\(folderName)/\(name): \(result.stderr)")
                #expect(!result.stderr.contains("read-only"), "\(folderName)/\(name): \(result.stderr)")
                fixtures += 1
            }
        }
        #expect(fixtures > 40)
    }
}
