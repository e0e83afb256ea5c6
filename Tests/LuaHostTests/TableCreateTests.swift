import LuaHost
import PushmapJSON
import Testing

/// table.create (sandbox.c), Lua 5.5's function in the 5.4 sandbox: an empty table with room made
/// in advance, which the built-in plain template uses for the maps templates add keys to.
@Suite("table.create")
struct TableCreateTests {
    @Test("makes an empty table that fills and reads like any other")
    func emptyTable() throws {
        let state = try makeState()
        let source = """
        local t = table.create(3, 4)
        local empty = #t == 0 and next(t) == nil
        for i = 1, 5 do t[i] = i * 10 end
        t.a, t.b = "x", "y"
        return tostring(empty) .. " " .. #t .. " " .. t[5] .. " " .. t.a .. t.b
        """
        #expect(try evaluate(state, source) == .string("true 5 50 xy"))
        #expect(try evaluate(state, "local t = table.create(0) t.k = 1 return t.k") == .integer(1))
        #expect(try evaluate(state, "return #table.create(0, 0)") == .integer(0))
    }

    @Test("refuses a size that is not a whole number from 0 up", arguments: [
        ("-1", "#1", "out of range"), ("1.5", "#1", "number has no integer representation"),
        ("'x'", "#1", "number expected, got string"), ("0, -2", "#2", "out of range"),
        ("2147483648", "#1", "out of range"),
    ])
    func refusesBadSizes(arguments: String, position: String, reason: String) throws {
        let state = try makeState()
        let error = luaError { _ = try evaluate(state, "return table.create(\(arguments))", name: "t.lua") }
        #expect(error?.message == "bad argument \(position) to 'create' (\(reason))")
        #expect(error?.line == 1)
        #expect(try stillWorks(state))
    }

    @Test("stops a room larger than the memory cap with the memory limit's error")
    func capsMemory() throws {
        let state = try makeState(LuaLimits(instructions: 50_000, memoryBytes: 4 << 20))
        let error = luaError { _ = try evaluate(state, "return table.create(0, 1 << 30)") }
        #expect(error?.kind == .memoryLimit)
        #expect(try stillWorks(state))
    }
}
