import LuaHost
import PushmapJSON
import Testing

@Suite("Errors")
struct ErrorTests {
    @Test("a syntax error names the script and line")
    func syntaxError() throws {
        let state = try makeState()
        let error = luaError { _ = try state.load("local x = 1\nlocal y = = 2\n", name: "templates/basic.lua") }
        #expect(error?.kind == .syntax)
        #expect(error?.script == "templates/basic.lua")
        #expect(error?.line == 2)
        #expect(error?.description.hasPrefix("templates/basic.lua:2: unexpected symbol near '='") == true)
    }

    @Test("a runtime error reads like Lua's, with a traceback")
    func runtimeError() throws {
        let state = try makeState()
        let source = "local intent = {}\n\nreturn intent.carousel.items"
        let error = luaError { _ = try evaluate(state, source, name: "templates/basic.lua") }
        #expect(error?.kind == .runtime)
        #expect(error?.description == "templates/basic.lua:3: attempt to index a nil value (field 'carousel')")
        #expect(error?.traceback?.contains("templates/basic.lua:3") == true)
        #expect(error?.snippet(in: source) == "3 | return intent.carousel.items\n  | " + String(repeating: "^", count: 28))
    }

    @Test("a script's message is one line: control characters escaped, cut at 2,000 bytes between characters")
    func oneLineMessages() throws {
        let state = try makeState()
        let error = luaError { _ = try evaluate(state, #"error("a\nb\r\tc\27[31m\127x" .. ("é"):rep(1500))"#, name: "s.lua") }
        let message = try #require(error?.message)
        #expect(message.hasPrefix(#"a\nb\r\tc\u001B[31m\u007Fxé"#), "\(message.prefix(40))")
        #expect(!message.contains("\n") && !message.contains("\u{1B}"))
        // 13 bytes before the é's, 26 once escaped; 2,000 bytes shown hold 987 é's and the cut
        // never splits one: 3,013 - 13 - 1,974 bytes left out.
        #expect(message.hasSuffix("é… (1026 bytes more)"), "\(message.suffix(40))")
        #expect(message.utf8.count <= 2_000 + "… (1026 bytes more)".utf8.count)
        #expect(LogLine("plain").description == "plain")
    }

    @Test("a long script name is restored from Lua's shortened form")
    func longNames() throws {
        let state = try makeState()
        let name = "/a/very/long/directory/name/that/lua/would/cut/short/templates/custom-template.lua"
        let error = luaError { _ = try evaluate(state, "error('boom')", name: name) }
        #expect(error?.script == name)
        #expect(error?.line == 1)
        #expect(error?.message == "boom")
    }

    @Test("an error object that is not a string is described by its type and the line that raised it, without running its code")
    func nonStringErrorObject() throws {
        let state = try makeState()
        let source = "local t = 1\nerror(setmetatable({}, {__tostring = function() while true do end end}))"
        let error = luaError { _ = try evaluate(state, source, name: "s.lua") }
        #expect(error?.kind == .runtime)
        #expect(error?.description == #"s.lua:2: the error raised is a table, not a message: raise a string, error("...")"#)
        let none = luaError { _ = try evaluate(state, "error()", name: "s.lua") }
        #expect(none?.description == #"s.lua:1: the error raised is a nil, not a message: raise a string, error("...")"#)
    }

    /// Lua leaves the place out at level 0; the host puts the line of the `error` call, as the
    /// script contract promises for every error of a script (the forty-fourth audit, scripts F5).
    @Test("an error with level 0 is placed on the line of the error call")
    func levelZeroPlaced() throws {
        let state = try makeState()
        let error = luaError { _ = try evaluate(state, "local a = 1\nerror('plain message', 0)", name: "s.lua") }
        #expect(error?.script == "s.lua")
        #expect(error?.line == 2)
        #expect(error?.description == "s.lua:2: plain message")
    }

    @Test("an instruction-limit error names the line where the script was stopped")
    func instructionLimitLine() throws {
        let state = try makeState()
        let error = luaError { _ = try evaluate(state, "local a = 1\nlocal b = 2\nwhile true do a = a + b end", name: "spin.lua") }
        #expect(error?.description == "spin.lua:3: instruction limit of 200000 exceeded")
    }

    @Test("a memory-limit error names the line that was growing the memory when it neared the cap")
    func memoryLimitError() throws {
        let state = try makeState(LuaLimits(instructions: 50_000_000, memoryBytes: 2 << 20))
        let error = luaError { _ = try evaluate(state, "local t = {}\nwhile true do\n  t[#t + 1] = ('x'):rep(1000) .. #t\nend", name: "grow.lua") }
        #expect(error?.kind == .memoryLimit)
        #expect(error?.description == "grow.lua:3: memory limit of 2097152 bytes exceeded")
    }

    @Test("a memory-limit error Lua raises on one refused allocation (a string that doubles past the cap) has no line")
    func memoryLimitErrorWithoutLine() throws {
        let state = try makeState(LuaLimits(instructions: 50_000_000, memoryBytes: 2 << 20))
        let error = luaError { _ = try evaluate(state, "local s = 'x'\nwhile true do s = s .. s end", name: "double.lua") }
        #expect(error?.kind == .memoryLimit)
        #expect(error?.line == nil && error?.traceback == nil, "\(String(describing: error))")
    }

    /// Source: the thirty-second audit, F4: `table.create(1e9)` named no line.
    @Test("table.create asked for room past the memory limit fails with the limit at its line", arguments: [(1_000_000_000, 0), (0, 100_000), (100_000, 100_000)])
    func tableCreatePastTheLimit(sequence: Int, rest: Int) throws {
        let state = try makeState(LuaLimits(instructions: 50_000_000, memoryBytes: 2 << 20))
        let error = luaError { _ = try evaluate(state, "local n, m = \(sequence), \(rest)\nlocal t = table.create(n, m)", name: "big.lua") }
        #expect(error?.kind == .memoryLimit)
        #expect(error?.description == "big.lua:2: memory limit of 2097152 bytes exceeded", "\(String(describing: error))")
        // Room within the limit is given.
        #expect(try evaluate(state, "return #table.create(1000, 100)") == .integer(0))
    }

    /// Source: the thirty-second audit, F4: a function calling itself without end read as a plain
    /// memory limit, as the calls' stack takes the memory long before Lua's own stack overflow.
    @Test("a memory limit met with a deep stack says the stack is the likely cause")
    func memoryLimitOnDeepStack() throws {
        let state = try makeState(LuaLimits(instructions: 50_000_000, memoryBytes: 2 << 20))
        let error = luaError { _ = try evaluate(state, "local function f(n)\n  return f(n + 1) + 1\nend\nf(1)", name: "deep.lua") }
        #expect(error?.kind == .memoryLimit)
        #expect(error?.description == "deep.lua:2: memory limit of 2097152 bytes exceeded with over 10000 calls on the stack: does a function call itself without end?", "\(String(describing: error))")
    }

    @Test("a bad value names where it was found")
    func badValueError() throws {
        let state = try makeState()
        let error = luaError { _ = try evaluate(state, "return {message = {data = {x = print}}}") }
        #expect(error?.kind == .badValue)
        #expect(error?.message == "a function value at $.message.data.x cannot be converted to JSON")
    }
}
