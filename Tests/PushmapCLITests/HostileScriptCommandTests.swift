import Foundation
import Testing

/// Hostile template scripts given to the real binary with --scripts: each ends in one clear line
/// naming its file, with the documented status, and the same process goes on serving.
@Suite("Hostile scripts through the command line")
struct HostileScriptCommandTests {
    /// name, FCM mapping body, status, a piece of the one error line.
    static let cases: [(String, String, Int32, String)] = [
        ("loops", "while true do end", 2, "instruction limit of 2000000 exceeded"),
        ("pcall-loops", "while true do pcall(function() while true do end end) end", 2, "instruction limit"),
        ("hogs", "local t = {} local i = 0 while true do i = i + 1 t[i] = ('x'):rep(1000) .. i end", 2, "memory limit of 33554432 bytes exceeded"),
        ("huge-table", "local t = {} for i = 1, 1e8 do t[i] = i end return { message = { data = t } }", 2, "limit"),
        ("huge-payload", "local d = {} for i = 1, 5000 do d['key' .. i] = 'value' end return { message = { data = d } }", 1, "[fcm-size"),
        ("deep", "local t = {} for i = 1, 200 do t = { message = t } end return t", 2, "nested deeper than"),
        ("cycle", "local t = {} t.message = t return t", 2, "contains itself"),
        ("function-value", "return { message = { data = { x = print } } }", 2, "cannot be converted to JSON"),
        ("wrong-type", "return 'payload'", 2, "returned a string, expected a table"),
        ("mixed-keys", "return { message = { data = { 'a', b = 'c' } } }", 2, "mixes array and object keys"),
        ("files", "return io.open('/etc/passwd')", 2, "io"),
        ("environment", "return os.getenv('HOME')", 2, "os"),
        ("process", "return os.execute('true')", 2, "os"),
        ("require", "return require('ffi')", 2, "require"),
        ("debug", "return debug.getinfo(1)", 2, "debug"),
        ("bytecode", "return assert(load('\\27Lua'))()", 2, "binary chunk"),
        ("dump", "return string.dump(function() end)", 2, "dump"),
        ("globals", "string = nil return {}", 2, "read-only"),
        ("giant-string", "return { message = { data = { x = ('x'):rep(1 << 30) } } }", 2, "string.rep"),
    ]

    /// A folder `evil` holding one template per case.
    static func scriptFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushmap-hostile-\(UUID().uuidString)")
        let evil = folder.appendingPathComponent("evil")
        try FileManager.default.createDirectory(at: evil, withIntermediateDirectories: true)
        for (name, body, _, _) in cases {
            let source = "return { name = '\(name)', api = 1, platforms = {'fcm'}, fcm = function(intent, ctx)\n\(body)\nend }\n"
            try Data(source.utf8).write(to: evil.appendingPathComponent("\(name).lua"))
        }
        return folder
    }

    @Test("each ends in one line naming its file, with its status, and never hangs", arguments: cases.map(\.0))
    func translate(name: String) throws {
        let (_, _, status, piece) = try #require(Self.cases.first { $0.0 == name })
        let folder = try Self.scriptFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let intent = Data(#"{"template": "\#(name)", "title": "t", "body": "b"}"#.utf8)
        let clock = ContinuousClock()
        let started = clock.now
        let result = try CommandRunner.run(["translate", "--platform", "fcm", "--scripts", "evil"], input: intent, directory: folder)
        let elapsed = clock.now - started
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(piece), "\(result.stderr)")
        if status == 2 { #expect(result.stderr.contains("evil/\(name).lua"), "\(result.stderr)") }
        // The limits stop a script within milliseconds (scripts/bench measures them); this bound
        // only catches a hang, with room for a loaded CI machine running cases in parallel.
        #expect(elapsed < .seconds(10), "\(name) took \(elapsed)")
    }

    @Test("a batch answers each hostile line with an error and the next good line with its payload")
    func batchKeepsServing() throws {
        let folder = try Self.scriptFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = #"{"template": "basic", "title": "after", "body": "ok"}"#
        var lines: [String] = []
        for (name, _, _, _) in Self.cases {
            lines.append(#"{"template": "\#(name)", "title": "t", "body": "b"}"#)
            lines.append(good)
        }
        let result = try CommandRunner.run(["batch", "--platform", "fcm", "--scripts", "evil"], input: Data((lines.joined(separator: "\n") + "\n").utf8), directory: folder)
        #expect(result.status == 1)
        let outputs = result.stdout.split(separator: "\n").map(String.init)
        #expect(outputs.count == lines.count)
        let alone = try CommandRunner.run(["translate", "--compact", "--platform", "fcm"], input: Data(good.utf8))
        let expected = alone.stdout.trimmingCharacters(in: .newlines)
        for (index, output) in outputs.enumerated() {
            let object = CommandRunner.json(output) as? [String: Any]
            #expect(object?["line"] as? Int == index + 1)
            if index % 2 == 0 {
                let name = Self.cases[index / 2].0
                #expect(object?["error"] != nil, "line \(index + 1) (\(name)): \(output)")
            } else {
                #expect(output == "{\"line\":\(index + 1),\"fcm\":\(expected)}", "line \(index + 1), after \(Self.cases[index / 2].0)")
            }
        }
    }
}
