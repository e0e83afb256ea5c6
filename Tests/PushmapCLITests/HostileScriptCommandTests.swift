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
        // The eighth audit: each used to be "attempt to index a nil value (global 'io')".
        ("files", "return io.open('/etc/passwd')", 2, "io is not available in pushmap's sandbox"),
        ("environment", "return os.getenv('HOME')", 2, "os is not available in pushmap's sandbox"),
        ("process", "return os.execute('true')", 2, "os"),
        ("require", "return require('ffi')", 2, "require is not available in pushmap's sandbox"),
        ("debug", "return debug.getinfo(1)", 2, "debug is not available in pushmap's sandbox"),
        ("bytecode", "return assert(load('\\27Lua'))()", 2, "binary chunk"),
        ("dump", "return string.dump(function() end)", 2, "dump"),
        ("globals", "string = nil return {}", 2, "read-only"),
        ("giant-string", "return { message = { data = { x = ('x'):rep(1 << 30) } } }", 2, "string.rep"),
        // The cases below come from an audit of the sandbox against docs/script-contract.md
        // ("The sandbox": limits per translation and per state) and lua-host-notes.md (§Time: a
        // long C call is not interrupted, so cap it; §Memory: count what the host allocates).
        // A table met many times is written each time: 2^28 leaves from a few kilobytes of Lua.
        ("shared-subtree", "local t = {'x'} for i = 1, 28 do t = {t, t} end return { message = { data = { x = t } } }", 2, "bytes, the memory limit, as JSON"),
        ("json-shared-subtree", "local t = {'x'} for i = 1, 28 do t = {t, t} end return { message = { data = { x = pushmap.json(t) } } }", 2, "bytes, the memory limit, as JSON"),
        // Each call is under the pattern cap, and takes about 0.4 s in C, out of the count's sight.
        ("pattern-loop", "local s = ('a'):rep(9000) while true do s:find('.-b') end", 2, "time limit of 10000 ms exceeded"),
        ("rep-loop", "while true do local s = string.rep('x', 1 << 20) end", 2, "instruction limit"),
        ("compare-loop", "local a = ('x'):rep(1 << 20) .. 'a' local b = ('x'):rep(1 << 20) .. 'b' while a ~= b do end", 2, "time limit of 10000 ms exceeded"),
        ("sort-long", "local s = ('x'):rep(1 << 20) local u = s .. 'y' local t = {} for i = 1, 20000 do t[i] = i % 2 == 0 and s or u end table.sort(t)", 2, "instruction limit"),
        // A script's message is one line: no line of its own that reads as pushmap's, no escape sequence.
        ("error-lines", "error('first\\nerror: second\\27[31m')", 2, "first\\nerror: second\\u001B[31m"),
        // Nor is the text after a NUL lost (the third audit's F7: the traceback read a C string).
        ("error-nul", "error('before\\0after')", 2, "before\\u0000after [runtime]"),
        ("rules", "pushmap.rules.carousel.ignores.buttons = nil", 2, "read-only"),
        // The second data map's keys were each looked for among the first's: minutes (a second audit).
        ("wide-payload", "local d, a = {}, {} for i = 1, 60000 do d['k' .. i] = 'v' a['k' .. i] = 'w' end return { message = { data = d, android = { data = a } } }", 1, "[fcm-size"),
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
        // The limits stop a script within milliseconds (scripts/bench measures them), the time
        // limit within its ten seconds; this bound only catches a hang, with room for a loaded CI
        // machine running cases in parallel.
        #expect(elapsed < .seconds(piece.hasPrefix("time limit") ? 30 : 10), "\(name) took \(elapsed)")
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

    /// Writes one template, `probe`, whose FCM mapping runs `body`, into a new folder.
    static func probe(_ body: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushmap-probe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("s"), withIntermediateDirectories: true)
        let source = "local kept = {}\nreturn { name = 'probe', api = 1, platforms = {'fcm'}, fields = { mode = 'string' }, fcm = function(intent, ctx)\n\(body)\nend }\n"
        try Data(source.utf8).write(to: folder.appendingPathComponent("s/probe.lua"))
        return folder
    }

    /// Source: docs/commands.md, exit codes ("2: ... a check failing on a value a script of yours
    /// wrote, named with its file"); the sandbox audit found `return {}` an invalid intent (1).
    @Test("a mapping that returns a payload lacking what the platform needs fails as the script's, exit 2, naming it")
    func returnsEmpty() throws {
        let folder = try Self.probe("return {}")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandRunner.run(["translate", "--platform", "fcm", "--scripts", "s"], input: Data(#"{"template": "probe"}"#.utf8), directory: folder)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("[fcm-message-object, fcm, written by s/probe.lua]"), "\(result.stderr)")
        #expect(result.stderr.contains("script error: s/probe.lua: returned an fcm payload that fails the check fcm-message-object at $.message [bad value]"), "\(result.stderr)")
        // A payload the built-in templates wrote stays the intent's to fix: exit 1, no script named.
        let topic = try CommandRunner.run(["translate", "--platform", "fcm"], input: Data(#"{"title": "t", "target": {"topic": "news 2"}}"#.utf8))
        #expect(topic.status == 1 && !topic.stderr.contains("written by"), "\(topic.stderr)")
    }

    /// Source: the eighth audit's 135-apns-size (an FCM payload over its size named the line that
    /// wrote message; an APNS one, whose size finding is at the root, named no script).
    @Test("an APNS payload a team's mapping made too big fails as the script's, exit 2, naming it")
    func apnsTooBig() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushmap-probe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("s"), withIntermediateDirectories: true)
        let source = "return { name = 'big', api = 1, platforms = {'apns'}, apns = function(intent, ctx)\n  return { aps = { alert = 'hi' }, big = string.rep('x', 5000) }\nend }\n"
        try Data(source.utf8).write(to: folder.appendingPathComponent("s/big.lua"))
        let result = try CommandRunner.run(["translate", "--platform", "apns", "--scripts", "s"], input: Data(#"{"template": "big"}"#.utf8), directory: folder)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("[apns-size, apns, written by s/big.lua]"), "\(result.stderr)")
        #expect(result.stderr.contains("script error: s/big.lua: returned an apns payload that fails the check apns-size at $ [bad value]"), "\(result.stderr)")
        // The twenty-second audit (N3): in a send-ready request the payload is at $.payload, or
        // inside FCM's message, and the same payload named no script there (exit 1).
        let request = try CommandRunner.run(["translate", "--platform", "apns", "--request", "--scripts", "s"], input: Data(#"{"template": "big"}"#.utf8), directory: folder)
        #expect(request.status == 2, "\(request.stderr)")
        #expect(request.stderr.contains("returned an apns payload that fails the check apns-size at $.payload [bad value]"), "\(request.stderr)")
        let both = "return { name = 'big', api = 1, platforms = {'fcm', 'apns'}, fcm = function() return { message = { data = { a = 'b' } } } end, apns = function(intent, ctx)\n  return { aps = { alert = 'hi' }, big = string.rep('x', 5000) }\nend }\n"
        try Data(both.utf8).write(to: folder.appendingPathComponent("s/big.lua"))
        let inFCM = try CommandRunner.run(["translate", "--platform", "fcm", "--fcm-apns", "--scripts", "s"], input: Data(#"{"template": "big"}"#.utf8), directory: folder)
        #expect(inFCM.status == 2, "\(inFCM.stderr)")
        #expect(inFCM.stderr.contains("fails the check apns-size at $.message.apns.payload [bad value]"), "\(inFCM.stderr)")
    }

    /// Source: the sandbox audit (print read the text after the collector freed it: a multi-MB
    /// print was a segmentation fault, and a batch with one such line wrote none of its lines).
    @Test("print of megabytes goes to the log as one line of bounded length, and the translation goes on")
    func printBig() throws {
        let folder = try Self.probe("local s = string.rep('c', 1 << 20) print(s, s, s, s, s, s, s, s) print('a\\nb') return { message = { data = { ok = 'yes' } } }")
        defer { try? FileManager.default.removeItem(at: folder) }
        let intent = Data(#"{"template": "probe"}"#.utf8)
        let quiet = try CommandRunner.run(["translate", "--compact", "--platform", "fcm", "--scripts", "s"], input: intent, directory: folder)
        #expect(quiet.status == 0 && quiet.stdout == #"{"message":{"data":{"ok":"yes"}}}"# + "\n", "\(quiet.stderr)")
        #expect(quiet.stderr.isEmpty, "what scripts print shows with --verbose only: \(quiet.stderr.prefix(200))")
        let verbose = try CommandRunner.run(["translate", "--verbose", "--compact", "--platform", "fcm", "--scripts", "s"], input: intent, directory: folder)
        #expect(verbose.status == 0)
        let lines = verbose.stderr.split(separator: "\n")
        #expect(lines.count == 2, "\(verbose.stderr.prefix(300))")
        #expect(lines.first?.hasSuffix("… (8386615 bytes more)") == true, "\(lines.first?.suffix(80) ?? "")")
        #expect(lines.last?.hasSuffix(#"a\nb"#) == true, "\(lines.last ?? "")")
        let batch = try CommandRunner.run(
            ["batch", "--platform", "fcm", "--scripts", "s"], input: Data(String(repeating: #"{"template": "probe"}"# + "\n", count: 3).utf8),
            directory: folder)
        #expect(batch.status == 0 && batch.stdout.split(separator: "\n").count == 3, "\(batch.stderr.prefix(200))")
    }

    /// Source: the sandbox audit. A script that keeps what it makes at file level fills its Lua
    /// state; the next intents that state ran failed on the memory limit, pushmap's own templates
    /// too, and which ones depended on --jobs.
    @Test("a state a script has filled is not used again: later lines, built-in or not, translate, the same with any --jobs")
    func filledStateRetired() throws {
        let folder = try Self.probe("if intent.mode == 'fill' then for i = 1, 24000 do kept[#kept + 1] = ('k'):rep(1000) .. i end end return { message = { data = { n = tostring(#kept) } } }")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fill = #"{"template": "probe", "mode": "fill"}"#, probe = #"{"template": "probe"}"#, plain = #"{"title": "t", "body": "b"}"#
        let lines = [probe, fill, plain, probe, fill, probe, plain] + Array(repeating: plain, count: 20)
        var outputs: [String] = []
        for jobs in ["1", "2"] {
            let result = try CommandRunner.run(
                ["batch", "--platform", "fcm", "--jobs", jobs, "--scripts", "s"], input: Data((lines.joined(separator: "\n") + "\n").utf8), directory: folder)
            #expect(result.status == 0, "--jobs \(jobs): \(result.stdout.prefix(600))")
            #expect(!result.stdout.contains("memory limit"), "--jobs \(jobs): \(result.stdout.prefix(600))")
            // Each line after a fill runs on a new state: nothing kept.
            #expect(result.stdout.split(separator: "\n")[3].contains(#""n":"0""#), "\(result.stdout.split(separator: "\n")[3])")
            outputs.append(result.stdout)
        }
        #expect(outputs[0] == outputs[1])
    }

    /// Source: docs/lua-api.md, pushmap.rules: "read-only (every translation shares it)";
    /// the sandbox audit emptied the carousel's rules from one line and changed what the built-in
    /// carousel wrote on a later line.
    @Test("pushmap.rules cannot be changed: reading it works as documented, and a later line's built-in translation is as before")
    func rulesReadOnly() throws {
        let folder = try Self.probe("""
            local r = pushmap.rules.carousel
            local refused = {} for _, field in ipairs(r.refuses) do refused[#refused + 1] = field end
            local changed = pcall(function() r.ignores.buttons = nil end) or pcall(rawset, pushmap.rules, 'x', 1) or pcall(table.remove, r.refuses)
            return { message = { data = { n = tostring(#r.refuses), refused = table.concat(refused, ','), owner = r.owners.timer, changed = tostring(changed) } } }
            """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let carousel = #"{"template": "carousel", "title": "t", "body": "b", "buttons": [{"label": "Go"}], "carousel": {"mode": "manual", "items": [{"image": "https://e.com/1.png"}, {"image": "https://e.com/2.png"}, {"image": "https://e.com/3.png"}]}}"#
        let lines = [carousel, #"{"template": "probe"}"#, carousel]
        let result = try CommandRunner.run(
            ["batch", "--platform", "fcm", "--jobs", "1", "--scripts", "s"], input: Data((lines.joined(separator: "\n") + "\n").utf8), directory: folder)
        let outputs = result.stdout.split(separator: "\n").map(String.init)
        #expect(outputs.count == 3)
        #expect(outputs[1].contains(#""changed":"false""#) && outputs[1].contains(#""owner":"timer""#), "\(outputs[1])")
        #expect(outputs[1].contains(#""n":"8""#) && outputs[1].contains(#""refused":"catalog,icons,reply,rating,timer,expired,colors.timer,zeroBezel""#), "\(outputs[1])")
        #expect(outputs[0].replacingOccurrences(of: #""line":1"#, with: "") == outputs[2].replacingOccurrences(of: #""line":3"#, with: ""))
        #expect(outputs[0].contains("buttons are ignored"), "\(outputs[0])")
    }
}
