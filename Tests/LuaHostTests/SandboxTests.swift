import LuaHost
import PushmapJSON
import Testing

@Suite("The sandbox")
struct SandboxTests {
    @Test("leaves out io, os, package, require, debug and coroutine", arguments: ["io", "os", "package", "require", "debug", "coroutine", "dofile", "loadfile"])
    func leavesOutDangerousGlobals(name: String) throws {
        let state = try makeState()
        #expect(try evaluate(state, "return type(\(name))") == .string("nil"))
    }

    @Test("type() names every kind of value as Lua's does, and asks for an argument")
    func typeNamesEveryKind() throws {
        // The sandbox's own type() (kept names, for speed) must answer as Lua 5.4's.
        let state = try makeState()
        let names = try evaluate(state, """
            return table.concat({ type(nil), type(true), type(1), type(1.5), type("s"), type({}), type(print) }, ",")
            """)
        #expect(names == .string("nil,boolean,number,number,string,table,function"))
        #expect(try evaluate(state, "return type(type)") == .string("function"))
        let error = luaError { _ = try evaluate(state, "local kind = type() return kind") }
        #expect(error?.message == "bad argument #1 to 'type' (value expected)")
        #expect(try stillWorks(state))
    }

    @Test("removes string.dump, also from the string metatable")
    func removesStringDump() throws {
        let state = try makeState()
        #expect(try evaluate(state, "return type(string.dump)") == .string("nil"))
        #expect(try evaluate(state, #"return type(("x").dump)"#) == .string("nil"))
    }

    @Test("refuses binary chunks in load")
    func refusesBinaryChunks() throws {
        let state = try makeState()
        let result = try evaluate(state, #"local f, err = load("\27Lua\84\0garbage") return err"#)
        #expect(result.stringValue?.contains("attempt to load a binary chunk") == true)
        // A mode asking for binary is overridden too.
        let forced = try evaluate(state, #"local f, err = load("\27Lua", "x", "b") return err"#)
        #expect(forced.stringValue?.contains("binary chunk") == true)
        #expect(try stillWorks(state))
    }

    @Test("keeps load of text chunks working")
    func loadsText() throws {
        let state = try makeState()
        #expect(try evaluate(state, #"return load("return 1 + 2")()"#) == .integer(3))
    }

    @Test("limits collectgarbage to \"count\"")
    func limitsCollectGarbage() throws {
        let state = try makeState()
        #expect(try evaluate(state, #"return type(collectgarbage("count"))"#) == .string("number"))
        let error = luaError { _ = try evaluate(state, #"collectgarbage("stop")"#) }
        #expect(error?.kind == .runtime)
        #expect(error?.message.contains("only \"count\" is allowed") == true)
        #expect(try stillWorks(state))
    }

    @Test("locks the string metatable")
    func locksStringMetatable() throws {
        let state = try makeState()
        #expect(try evaluate(state, #"return getmetatable("")"#) == .bool(false))
    }

    @Test("refuses __gc metamethods, whose finalizers would run without the instruction count")
    func refusesFinalizers() throws {
        let state = try makeState()
        let error = luaError { _ = try evaluate(state, "setmetatable({}, {__gc = function() while true do end end})") }
        #expect(error?.message.contains("'__gc' metamethods are not allowed") == true)
        #expect(try stillWorks(state))
    }

    @Test("seeds math.random with a constant, before every call")
    func seedsRandom() throws {
        let first = try evaluate(try makeState(), "return {math.random(1, 1000000), math.random(1, 1000000)}")
        let state = try makeState()
        #expect(try evaluate(state, "return {math.random(1, 1000000), math.random(1, 1000000)}") == first)
        #expect(try evaluate(state, "return {math.random(1, 1000000), math.random(1, 1000000)}") == first)
        #expect(try evaluate(state, "return type(math.randomseed)") == .string("nil"))
        // A call that draws nothing, one that draws and fails, one that draws inside pcall: the
        // next call still starts from the seed.
        #expect(try evaluate(state, "return 1") == .integer(1))
        #expect(try evaluate(state, "return {math.random(1, 1000000), math.random(1, 1000000)}") == first)
        #expect(luaError { _ = try evaluate(state, "math.random() error('after a draw')") } != nil)
        #expect(try evaluate(state, "return {math.random(1, 1000000), math.random(1, 1000000)}") == first)
        #expect(try evaluate(state, "pcall(math.random, 5) return 0") == .integer(0))
        #expect(try evaluate(state, "return {math.random(1, 1000000), math.random(1, 1000000)}") == first)
    }

    @Test("visits keys in pairs in sorted order, the same on every run")
    func sortsPairs() throws {
        let state = try makeState()
        let source = """
        local t = {zeta = 1, alpha = 2, [3] = 3, mid = 4, [1] = 5, beta = 6}
        local keys = {}
        for k in pairs(t) do keys[#keys + 1] = tostring(k) end
        return table.concat(keys, ",")
        """
        #expect(try evaluate(state, source) == .string("1,3,alpha,beta,mid,zeta"))
    }

    @Test("sends print to the host's logger rather than stdout")
    func printIsLogged() throws {
        let state = try makeState()
        #expect(try evaluate(state, "print('hello', 1) return 1") == .integer(1))
    }

    @Test("makes globals and library tables read-only once sealed")
    func sealsGlobals() throws {
        let state = try makeState()
        try state.seal()
        let assign = luaError { _ = try evaluate(state, "x = 1") }
        #expect(assign?.message.contains("cannot assign 'x'") == true)
        let patch = luaError { _ = try evaluate(state, "string.upper = nil") }
        #expect(patch?.message.contains("read-only") == true)
        let raw = luaError { _ = try evaluate(state, "rawset(_G, 'y', 1)") }
        #expect(raw?.message.contains("read-only") == true)
        #expect(try evaluate(state, "return string.upper('ok') .. math.floor(2.5)") == .string("OK2"))
        #expect(try evaluate(state, "local n = 0 for _ in pairs(math) do n = n + 1 end return n > 10") == .bool(true))
        #expect(try stillWorks(state))
    }
}
