import LuaHost
import PushmapJSON
import Testing

/// string.format answers `"%d"` with an integer itself (sandbox.c) and hands every other call to
/// Lua's own: the text, and the errors a script sees, must be Lua's, named and placed as if the
/// script had called Lua's format directly (expected messages are Lua 5.4's own wording).
@Suite("string.format")
struct FormatTests {
    @Test("writes an integer with %d as Lua does", arguments: [
        ("0", "0"), ("7", "7"), ("-42", "-42"), ("math.maxinteger", "9223372036854775807"),
        ("math.mininteger", "-9223372036854775808"), ("3.0", "3"), ("'12'", "12"),
    ])
    func writesIntegers(value: String, text: String) throws {
        let state = try makeState()
        #expect(try evaluate(state, "return string.format('%d', \(value))") == .string(text))
        #expect(try evaluate(state, "return ('%d'):format(\(value))") == .string(text))
    }

    @Test("leaves every other format to Lua's own")
    func otherFormats() throws {
        let state = try makeState()
        #expect(try evaluate(state, "return string.format('%5.1f|%s|%d', 2.5, 'x', 3)") == .string("  2.5|x|3"))
        #expect(try evaluate(state, "return string.format('%ds', 60)") == .string("60s"))
        #expect(try evaluate(state, "return string.format('%d', 1, 'ignored')") == .string("1"))
        #expect(try evaluate(state, "return string.format('%q', 'a\\nb')") == .string("\"a\\\nb\""))
    }

    @Test("words an argument error with the name and place the script called it by")
    func argumentErrors() throws {
        let state = try makeState()
        let float = luaError { _ = try evaluate(state, "local x = 1\nreturn string.format('%d', 1.5)", name: "f.lua") }
        #expect(float?.message == "bad argument #2 to 'format' (number has no integer representation)")
        #expect(float?.line == 2)
        let method = luaError { _ = try evaluate(state, "return ('%d'):format('x')", name: "f.lua") }
        #expect(method?.message == "bad argument #1 to 'format' (number expected, got string)")
        #expect(method?.line == 1)
        let missing = luaError { _ = try evaluate(state, "return string.format('%s %s', 1)", name: "f.lua") }
        #expect(missing?.message == "bad argument #3 to 'format' (no value)")
        #expect(try stillWorks(state))
    }

    @Test("places format's other errors at the script's line, and leaves a __tostring's error at its own")
    func otherErrors() throws {
        let state = try makeState()
        let conversion = luaError { _ = try evaluate(state, "\nreturn string.format('%y', 1)", name: "f.lua") }
        #expect(conversion?.message == "invalid conversion '%y' to 'format'")
        #expect(conversion?.line == 2)
        let source = """
        local t = setmetatable({}, { __tostring = function()
          error("no text")
        end })
        return string.format("%s", t)
        """
        let inner = luaError { _ = try evaluate(state, source, name: "f.lua") }
        #expect(inner?.message == "no text")
        #expect(inner?.line == 2)
        #expect(try stillWorks(state))
    }
}
