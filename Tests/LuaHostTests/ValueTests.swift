@testable import LuaHost
import PushmapJSON
import Testing

@Suite("Values crossing the boundary")
struct ValueTests {
    /// Passes a value in and returns it unchanged.
    func roundTrip(_ value: JSONValue) throws -> JSONValue {
        try evaluate(try makeState(), "return ...", [value])
    }

    @Test("come back unchanged", arguments: [
        JSONValue.null, .bool(true), .bool(false), .integer(0), .integer(-7), .integer(Int64.max), .integer(Int64.min),
        .double(2.5), .double(-0.125), .double(1e300), .string(""), .string("héllo ✓ 🎉"),
        .array([.integer(1), .string("two"), .null, .array([])]),
        .object(JSONObject([("a", .integer(1)), ("b", .object(JSONObject([("c", .array([.bool(true)]))])))])),
    ])
    func roundTrips(value: JSONValue) throws {
        #expect(try roundTrip(value) == value)
    }

    @Test("keep integers and floats apart: 3 stays 3, 3.0 stays 3.0")
    func integersAndFloats() throws {
        let state = try makeState()
        #expect(try evaluate(state, "return ...", [.integer(3)]) == .integer(3))
        #expect(try evaluate(state, "return ...", [.double(3.0)]) == .double(3.0))
        #expect(try evaluate(state, "return math.type(...)", [.integer(3)]) == .string("integer"))
        #expect(try evaluate(state, "return math.type(...)", [.double(3.0)]) == .string("float"))
        #expect(try evaluate(state, "return 4 / 2") == .double(2.0))
        #expect(try evaluate(state, "return 4 // 2") == .integer(2))
    }

    @Test("refuse NaN and infinities")
    func refusesNonFinite() throws {
        let state = try makeState()
        #expect(luaError { _ = try evaluate(state, "return 0/0") }?.kind == .badValue)
        #expect(luaError { _ = try evaluate(state, "return {x = math.huge}") }?.message.contains("$.x") == true)
        #expect(luaError { _ = try evaluate(state, "return 1", [.double(.infinity)]) }?.kind == .badValue)
        #expect(try stillWorks(state))
    }

    @Test("keep NUL bytes in strings")
    func nulBytes() throws {
        let text = "a\u{0}b\u{0}"
        #expect(try roundTrip(.string(text)) == .string(text))
        #expect(try evaluate(try makeState(), "return #(...)", [.string(text)]) == .integer(4))
    }

    @Test("keep an empty array and an empty object apart, with marks scripts can set and test")
    func emptyContainers() throws {
        let state = try makeState()
        #expect(try evaluate(state, "return ...", [.array([])]) == .array([]))
        #expect(try evaluate(state, "return ...", [.object(JSONObject())]) == .object(JSONObject()))
        #expect(try evaluate(state, "return json.isarray(...)", [.array([])]) == .bool(true))
        #expect(try evaluate(state, "return json.isobject(...)", [.object(JSONObject())]) == .bool(true))
        #expect(try evaluate(state, "return json.array({})") == .array([]))
        #expect(try evaluate(state, "return json.object({})") == .object(JSONObject()))
        // An unmarked empty table is an object.
        #expect(try evaluate(state, "return {}") == .object(JSONObject()))
    }

    @Test("pass JSON null as a sentinel that is not nil")
    func nullSentinel() throws {
        let state = try makeState()
        #expect(try evaluate(state, "local v = ... return v == json.null", [.null]) == .bool(true))
        let object = JSONValue.object(JSONObject([("gone", .null)]))
        #expect(try evaluate(state, "return (...).gone == json.null", [object]) == .bool(true))
        #expect(try evaluate(state, "return {x = json.null}") == .object(JSONObject([("x", .null)])))
    }

    @Test("tell arrays from objects by their keys")
    func arraysAndObjects() throws {
        let state = try makeState()
        #expect(try evaluate(state, "return {10, 20, 30}") == .array([.integer(10), .integer(20), .integer(30)]))
        #expect(try evaluate(state, "return {a = 1}") == .object(JSONObject([("a", .integer(1))])))
        let holes = luaError { _ = try evaluate(state, "return {[1] = 1, [3] = 3}") }
        #expect(holes?.message == "the array at $ has holes: 2 items but a largest key of 3")
        let mixed = luaError { _ = try evaluate(state, "return {x = {1, 2, a = 3}}") }
        #expect(mixed?.message.hasPrefix("the table at $.x mixes array and object keys") == true)
        let zero = luaError { _ = try evaluate(state, "return {[0] = 1}") }
        #expect(zero?.message.contains("has the key 0") == true)
    }

    @Test("refuse non-string object keys, functions, userdata and cycles, naming where")
    func refusesWhatJSONCannotHold() throws {
        let state = try makeState()
        #expect(luaError { _ = try evaluate(state, "return {[true] = 1}") }?.message == "the table at $ has a key of type boolean: object keys must be strings")
        #expect(luaError { _ = try evaluate(state, "return {a = {b = {math.floor}}}") }?.message == "a function value at $.a.b[0] cannot be converted to JSON")
        #expect(luaError { _ = try evaluate(state, "return {['odd key'] = print}") }?.message == "a function value at $[\"odd key\"] cannot be converted to JSON")
        let cycle = luaError { _ = try evaluate(state, "local t = {x = {}} t.x.back = t return t") }
        #expect(cycle?.message == "the table at $.x.back contains itself (a cycle)")
        // The same table twice, but not inside itself, is fine.
        #expect(try evaluate(state, "local s = {1} return {a = s, b = s}") == .object(JSONObject([("a", .array([.integer(1)])), ("b", .array([.integer(1)]))])))
        #expect(luaError { _ = try evaluate(state, "return ('\\255')") }?.message == "the string at $ is not valid UTF-8")
    }

    @Test("encode values as JSON text for scripts, keys sorted")
    func encodesJSON() throws {
        let state = try makeState()
        #expect(try evaluate(state, #"return json.json({b = 1, a = {true, json.null, "x\"y"}})"#) == .string(#"{"a":[true,null,"x\"y"],"b":1}"#))
        let error = luaError { _ = try evaluate(state, "return json.json({f = print})", name: "enc.lua") }
        #expect(error?.description == "enc.lua:1: json.json: a function value at argument.f cannot be converted to JSON")
        #expect(try stillWorks(state))
    }

    @Test("are passed in the tape format the C host reads, the parsed intent's bytes included")
    func tapeFormatAgreesWithTheHost() {
        #expect(LuaValueTape.formatAgrees)
    }

    @Test("keep object keys exact call after call, for keys a cache would confuse, across collections")
    func objectKeysStayExact() throws {
        let state = try makeState()
        // Each key, its length, and a Lua-made copy: the script sees the key's own bytes.
        let keys = try state.load("""
            local t = ... local out = {}
            for k, v in next, t do out[#out + 1] = k .. '=' .. #k .. '=' .. v end
            table.sort(out) return out
            """, name: "keys.lua")
        // The same length and the same first and last eight bytes; a NUL inside; a short key and
        // its prefix; a key longer than Lua's short strings.
        let families = [
            ["aaaaaaaaXbbbbbbbb", "aaaaaaaaYbbbbbbbb", "aaaaaaaaZbbbbbbbb"],
            ["k\u{0}1", "k\u{0}2", "k"],
            ["title", "titl", "title2"],
            [String(repeating: "long", count: 12), String(repeating: "long", count: 12) + "!"],
        ]
        for round in 0..<40 {
            for (index, family) in families.enumerated() {
                let key = family[(round + index) % family.count]
                let object = JSONValue.object(JSONObject([(key, .string("v\(round)")), ("fixed", .integer(1))]))
                let expected = [key + "=\(key.utf8.count)=v\(round)", "fixed=5=1"].sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
                #expect(try state.call(keys, [.value(object)]) == [.array(expected.map { .string($0) })], "round \(round): \(key)")
            }
            if round % 10 == 9 { state.collectGarbage() }
        }
        #expect(try stillWorks(state))
    }

    @Test("pass references to values the state holds")
    func references() throws {
        let state = try makeState()
        let maker = try state.load("return {greet = function(name) return 'hi ' .. name end}", name: "lib.lua")
        let table = try state.callForReference(maker)
        let greet = try #require(try state.field("greet", of: table))
        #expect(try state.call(greet, [.value(.string("ana"))]) == [.string("hi ana")])
        #expect(state.definitionLine(of: greet) == 1)
        #expect(try state.field("missing", of: table) == nil)
        let user = try state.load("local lib, name = ... return lib.greet(name)", name: "user.lua")
        #expect(try state.call(user, [.reference(table), .value(.string("bo"))]) == [.string("hi bo")])
    }
}
