import PushmapJSON
@_spi(Tools) @testable import Pushmap
import Testing

@Suite("Hostile scripts")
struct HostileScriptTests {
    /// A template whose FCM mapping body is `body`.
    static func template(_ body: String) -> String {
        "return { name = 'evil', api = 1, platforms = {'fcm'}, fcm = function(intent, ctx)\n\(body)\nend }"
    }

    static let cases: [(String, String, ScriptError.Kind)] = [
        ("loops", "while true do end", .instructionLimit),
        ("loops inside pcall", "while true do pcall(function() while true do end end) end", .instructionLimit),
        ("allocates without end", "local t = {} local i = 0 while true do i = i + 1 t[i] = ('x'):rep(1000) .. i end", .memoryLimit),
        ("returns a string", "return 'payload'", .runtime),
        ("returns a function inside", "return { message = { data = { x = print } } }", .badValue),
        ("returns a cycle", "local t = {} t.message = t return t", .badValue),
        ("returns deep nesting", "local t = {} for i = 1, 200 do t = {message = t} end return t", .badValue),
        ("reaches for files", "return io.open('/etc/passwd')", .runtime),
        ("reaches for the environment", "return os.getenv('HOME')", .runtime),
        ("reaches for the process", "return os.exit(1)", .runtime),
        ("loads native code", "return require('ffi')", .runtime),
        ("loads bytecode", "return load('\\27Lua')()", .runtime),
        ("changes globals", "string = nil return {}", .runtime),
        ("builds a 1 GiB string", "return ('x'):rep(1 << 30)", .runtime),
    ]

    @Test("each ends in a clear error quickly, and the next translation is right", arguments: cases.map(\.0))
    func hostile(name: String) throws {
        let (_, body, kind) = try #require(Self.cases.first { $0.0 == name })
        let translator = try Translator(scripts: scripts(["evil": Self.template(body)]), logger: quietLogger)
        let clock = ContinuousClock()
        let started = clock.now
        let error = translationError { _ = try translator.translate(Array(#"{"template": "evil"}"#.utf8), platforms: [.fcm]) }
        // The limits stop each within milliseconds (scripts/bench reports the times); this bound
        // only catches a hang, with room for sanitizers and a loaded machine.
        #expect(clock.now - started < .seconds(10))
        #expect(error?.kind == .scriptFailed)
        #expect(error?.scriptError?.kind == kind, "\(String(describing: error))")
        #expect(error?.scriptError?.script == "custom/evil.lua")
        let good = try translator.translate(Array(#"{"title": "after", "body": "ok"}"#.utf8), platforms: [.fcm])
        #expect(data(good.payloads[.fcm])?["adb_title"] == .string("after"))
    }
}
