@testable import LuaHost
import PushmapJSON
import PushmapTestSupport
import Testing

/// Random JSON values with the awkward parts the encoder must get right.
struct ValueMaker {
    var random: SeededGenerator

    /// Every control character, the two escaped ASCII characters, DEL, `/`, and multi-byte UTF-8.
    static let pieces: [String] = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) } + [
        "\"", "\\", "/", "\u{7F}", "a", "Z", "0", " ", "é", "ß", "✓", "€", "日本", "🎉", "\u{10FFFF}", "\u{FEFF}",
        "plain text of some length, longer than a word", "\u{0}\u{0}",
    ]

    /// Keys that share long prefixes, are prefixes of one another, or differ only in high bytes.
    static let keyStems = ["", "a", "aa", "ab", "b", "key", "keyz", "key\u{0}", "é", "e",
                           "a_long_shared_prefix_of_more_than_sixteen_bytes",
                           "a_long_shared_prefix_of_more_than_sixteen_bytes_",
                           "a_long_shared_prefix_of_more_than_sixteen_bytes\u{1}"]

    static let doubles: [Double] = [
        -0.0, 0.0, 0.1, 0.5, 1.0, -1.0, 1e300, -1e300, .leastNonzeroMagnitude, 2.2250738585072014e-308, 1.7976931348623157e308,
        1e16, 1e15, 123456789012345680.0, 1e-5, 1e-4, 3.0, 2.5, 1.0 / 3.0, 9007199254740993.0, 0.1 + 0.2,
    ]

    mutating func int(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }

    mutating func string(maxPieces: Int = 6) -> String {
        (0..<int(maxPieces + 1)).map { _ in Self.pieces[int(Self.pieces.count)] }.joined()
    }

    mutating func double() -> Double {
        if int(2) == 0 { return Self.doubles[int(Self.doubles.count)] }
        // Any finite bit pattern: subnormals, huge and tiny exponents alike.
        while true {
            let value = Double(bitPattern: random.next())
            if value.isFinite { return value }
        }
    }

    mutating func scalar() -> JSONValue {
        switch int(8) {
        case 0: return .null
        case 1: return .bool(int(2) == 0)
        case 2: return .integer([Int64.min, Int64.max, 0, -1, 1, 1 << 53, -(1 << 53) - 1][int(7)])
        case 3: return .integer(Int64(bitPattern: random.next()))
        case 4: return .double(double())
        default: return .string(string())
        }
    }

    mutating func value(depth: Int) -> JSONValue {
        guard depth > 0, int(3) != 0 else { return scalar() }
        if int(2) == 0 {
            return .array((0..<int(6)).map { _ in value(depth: depth - 1) })
        }
        var object = JSONObject()
        var used = Set<[UInt8]>()
        for _ in 0..<int(20) {
            let key = Self.keyStems[int(Self.keyStems.count)] + (int(2) == 0 ? string(maxPieces: 2) : "")
            guard used.insert(Array(key.utf8)).inserted else { continue }  // a Lua table has each key once
            object.append(key: key, value: value(depth: depth - 1))
        }
        return .object(object)
    }
}

/// A Lua function that builds a random table from a seed with its own generator (math.random is
/// reseeded before every call), through Lua's own table code: keys inserted in scripts' orders,
/// arrays grown by appending, strings made by string.char and utf8.char.
let luaTableMaker = #"""
local seed = ...
local function rand(n)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n
end
local function text()
  local parts = {}
  for i = 1, rand(5) do
    local pick = rand(6)
    if pick == 0 then parts[#parts + 1] = string.char(rand(32))
    elseif pick == 1 then parts[#parts + 1] = utf8.char(rand(0x10FFFF - 0xE000) + 0xE000)
    elseif pick == 2 then parts[#parts + 1] = ({'"', '\\', '/', '\127', 'é', '🎉'})[rand(6) + 1]
    else parts[#parts + 1] = string.rep("abcdefghij", rand(3) + 1):sub(1, rand(30) + 1) end
  end
  return table.concat(parts)
end
local function value(depth)
  local pick = rand(depth > 0 and 12 or 8)
  if pick == 0 then return json.null
  elseif pick == 1 then return rand(2) == 0
  elseif pick == 2 then return rand(2000000) - 1000000
  elseif pick == 3 then return ({math.mininteger, math.maxinteger, 0, -0.0, 1/3, 2^63, 1e300, 5e-324, 0.1, 3.0})[rand(10) + 1]
  elseif pick == 4 then return rand(1000) / 7
  elseif pick < 8 then return text()
  elseif pick < 10 then
    local t = {}
    for i = 1, rand(6) do t[#t + 1] = value(depth - 1) end
    if #t == 0 and rand(2) == 0 then json.array(t) end
    return t
  else
    local t = {}
    for i = 1, rand(24) do
      t[({"", "k", "key", "a_long_shared_prefix_of_more_than_sixteen_bytes", "é"})[rand(5) + 1] .. text()] = value(depth - 1)
    end
    if next(t) == nil and rand(2) == 0 then json.object(t) end
    return t
  end
end
return value(5)
"""#

@Suite("Compact JSON from C")
struct CompactJSONTests {
    /// The writer's text, which every path must give byte for byte.
    func written(_ value: JSONValue) -> [UInt8] { JSONWriter(style: .compact).write(value) }

    @Test("random values pushed into Lua encode in C exactly as the Swift writer writes them")
    func randomValuesMatchTheWriter() throws {
        let state = try makeState(LuaLimits(instructions: 10_000_000, memoryBytes: 64 << 20))
        let identity = try state.load("return ...", name: "identity.lua")
        let viaJSON = try state.load("return json.json(...)", name: "json.lua")
        var maker = ValueMaker(random: SeededGenerator(seed: 0x70757368))
        for round in 0..<600 {
            let value = maker.value(depth: round % 7)
            let expected = written(value)
            // Plain Booleans keep a failure's report short: the texts run to kilobytes.
            let sameInC = try state.compactJSONFromC(identity, [.value(value)]) == expected
            #expect(sameInC, "round \(round): \(String(decoding: expected, as: UTF8.self).prefix(200))")
            let sameThroughJSON = try state.call(viaJSON, [.value(value)]) == [.string(String(decoding: expected, as: UTF8.self))]
            #expect(sameThroughJSON, "round \(round)")
        }
    }

    @Test("every double, special or random, is written as the writer writes it")
    func doublesMatchTheWriter() throws {
        let state = try makeState()
        let identity = try state.load("return ...", name: "identity.lua")
        var maker = ValueMaker(random: SeededGenerator(seed: 7))
        var doubles = ValueMaker.doubles + ValueMaker.doubles.map { -$0 }
        doubles += [.leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, .ulpOfOne, 100, 1e21, 1e22, 1e-7]
        for _ in 0..<2000 { doubles.append(maker.double()) }
        // In batches of 100, one array each: many doubles per call.
        for start in stride(from: 0, to: doubles.count, by: 100) {
            let value = JSONValue.array(doubles[start..<min(start + 100, doubles.count)].map { .double($0) })
            #expect(try state.compactJSONFromC(identity, [.value(value)]) == written(value))
        }
    }

    @Test("tables that Lua scripts build encode in C exactly as the reader and writer give them")
    func luaMadeTablesMatchTheReaderAndWriter() throws {
        let state = try makeState(LuaLimits(instructions: 10_000_000, memoryBytes: 64 << 20))
        let maker = try state.load(luaTableMaker, name: "maker.lua")
        let viaJSON = try state.load("local make, seed = ... return json.json(make(seed))", name: "json.lua")
        let makerReference = try state.callForReference(try state.load("return function(...) \(luaTableMaker) end", name: "wrap.lua"))
        for seed in 1...300 {
            let value = try state.call(maker, [.value(.integer(Int64(seed)))])[0]
            let expected = written(value)
            let sameInC = try state.compactJSONFromC(maker, [.value(.integer(Int64(seed)))]) == expected
            #expect(sameInC, "seed \(seed)")
            let encoded = try state.call(viaJSON, [.reference(makerReference), .value(.integer(Int64(seed)))])
            let sameThroughJSON = encoded == [.string(String(decoding: expected, as: UTF8.self))]
            #expect(sameThroughJSON, "seed \(seed)")
        }
    }

    /// The value and text `callWithText` gives for the first result of `function`.
    func readWithText(_ state: LuaState, _ function: LuaReference, _ arguments: [LuaArgument]) throws -> (value: JSONValue, text: [UInt8]?) {
        try state.callWithText(function, arguments, resultCount: 1, textFrom: 0)[0]
    }

    @Test("the text read with a value is what the writer writes for that value, for random values and Lua-made tables")
    func textReadWithTheValueIsTheWritersText() throws {
        let state = try makeState(LuaLimits(instructions: 10_000_000, memoryBytes: 64 << 20))
        let identity = try state.load("return ...", name: "identity.lua")
        var maker = ValueMaker(random: SeededGenerator(seed: 0x74657874))
        for round in 0..<400 {
            let pushed = maker.value(depth: round % 7)
            let read = try readWithText(state, identity, [.value(pushed)])
            #expect(read.value == pushed, "round \(round)")
            let same = read.text == written(read.value)
            #expect(same, "round \(round): \(String(decoding: written(read.value), as: UTF8.self).prefix(200))")
        }
        let luaMaker = try state.load(luaTableMaker, name: "maker.lua")
        for seed in 1...300 {
            let read = try readWithText(state, luaMaker, [.value(.integer(Int64(seed)))])
            let same = read.text == written(read.value)
            #expect(same, "seed \(seed)")
        }
    }

    @Test("results read through C's item list are the values and texts the Swift reader gives, members in the same order")
    func resultsReadInCMatchTheReader() throws {
        let state = try makeState(LuaLimits(instructions: 10_000_000, memoryBytes: 64 << 20))
        let identity = try state.load("return ...", name: "identity.lua")
        let luaMaker = try state.load(luaTableMaker, name: "maker.lua")
        var maker = ValueMaker(random: SeededGenerator(seed: 0x6974656D))
        var calls: [(LuaReference, LuaArgument)] = (0..<300).map { round in (identity, .value(maker.value(depth: round % 7))) }
        calls += (1...300).map { seed in (luaMaker, .value(.integer(Int64(seed)))) }
        for (index, (function, argument)) in calls.enumerated() {
            state.readsResultsInC = true
            let inC = try state.callWithText(function, [argument], resultCount: 1, textFrom: 0)[0]
            state.readsResultsInC = false
            let inSwift = try state.callWithText(function, [argument], resultCount: 1, textFrom: 0)[0]
            #expect(inC.value == inSwift.value, "call \(index)")
            #expect(inC.text == inSwift.text, "call \(index)")
            // Objects compare whatever their members' order; the writer keeps the order it is given.
            let sameOrder = written(inC.value) == written(inSwift.value)
            #expect(sameOrder, "call \(index)")
        }
        state.readsResultsInC = true
        #expect(try stillWorks(state))
    }

    @Test("results handed over as nodes read as the reader's values, whether lent from C's items or read by Swift")
    func resultsAsNodesMatchTheReader() throws {
        let state = try makeState(LuaLimits(instructions: 10_000_000, memoryBytes: 64 << 20))
        let identity = try state.load("return 'first', ...", name: "identity.lua")
        let luaMaker = try state.load("local function make(...)\n\(luaTableMaker)\nend\nreturn 'first', make(...)", name: "maker.lua")
        var maker = ValueMaker(random: SeededGenerator(seed: 0x6E6F6465))
        var calls: [(LuaReference, LuaArgument)] = (0..<200).map { round in (identity, .value(maker.value(depth: round % 7))) }
        calls += (1...200).map { seed in (luaMaker, .value(.integer(Int64(seed)))) }
        for (index, (function, argument)) in calls.enumerated() {
            var seen: [(value: JSONValue, text: [UInt8], order: [UInt8])] = []
            for inC in [true, false] {
                state.readsResultsInC = inC
                var node: (value: JSONValue, text: [UInt8], order: [UInt8])?
                let first = try state.callWithItems(function, [argument], resultCount: 2, itemsFrom: 1) { position, root, text in
                    #expect(position == 1)
                    let value = root.value()
                    node = (value, Array(text), written(value))
                }
                #expect(first == [.string("first")])
                if let node { seen.append(node) }
            }
            #expect(seen.count == 2, "call \(index)")
            for other in seen.dropFirst() {
                #expect(other.value == seen[0].value, "call \(index)")
                #expect(other.text == seen[0].text, "call \(index)")
                #expect(other.order == seen[0].order, "call \(index): members in the same order")
            }
            #expect(seen.first.map { written($0.value) == $0.text } ?? false, "call \(index): the text is the value's")
        }
        state.readsResultsInC = true
        #expect(try stillWorks(state))
    }

    @Test("results before textFrom come without text, and a refused value still gives the reader's error")
    func textOnlyWhereAskedAndErrorsUnchanged() throws {
        let state = try makeState()
        let two = try state.load("return {b = 1, a = json.array({})}, {z = json.null, y = {true, 2.5}}", name: "two.lua")
        let results = try state.callWithText(two, [], resultCount: 2, textFrom: 1)
        #expect(results[0].text == nil)
        #expect(results[0].value == .object(["a": .array([]), "b": .integer(1)]))
        #expect(results[1].text.map { String(decoding: $0, as: UTF8.self) } == #"{"y":[true,2.5],"z":null}"#)
        let cycle = try state.load("local t = {x = {}} t.x.back = t return t", name: "cycle.lua")
        let message = luaError { _ = try state.callWithText(cycle, [], resultCount: 1, textFrom: 0) }?.description ?? ""
        #expect(message.contains("the table at $.x.back contains itself (a cycle)"), "\(message)")
    }

    @Test("hand-written tables: marks, null, shared tables, many keys, extreme numbers")
    func handWrittenTables() throws {
        let state = try makeState()
        let cases: [(String, String)] = [
            ("return {}", "{}"),
            ("return json.array({})", "[]"),
            ("return json.object({})", "{}"),
            ("return json.array({1, 2})", "[1,2]"),
            ("return json.null", "null"),
            ("return {json.null, false, true}", "[null,false,true]"),
            ("return {b = 1, a = 2, [''] = 3, ab = 4, aa = 5}", #"{"":3,"a":2,"aa":5,"ab":4,"b":1}"#),
            ("local s = {1} return {x = s, y = s}", #"{"x":[1],"y":[1]}"#),
            ("return {math.mininteger, math.maxinteger, -0.0, 2^53, 1e300}", "[-9223372036854775808,9223372036854775807,-0.0,9007199254740992.0,1e+300]"),
            ("return {'\\0\\1\\31 \"\\\\/\\127é'}", #"["\u0000\u0001\u001f \"\\/\#u{7F}é"]"#),
            ("local t = {} for i = 40, 1, -1 do t['k' .. i] = i end return t", ""),
        ]
        let identity = try state.load("local f = load(...) return f()", name: "run.lua")
        for (source, text) in cases {
            let value = try evaluate(state, source)
            let expected = written(value)
            if !text.isEmpty { #expect(String(decoding: expected, as: UTF8.self) == text, "\(source)") }
            #expect(try state.compactJSONFromC(identity, [.value(.string(source))]) == expected, "\(source)")
            #expect(try readWithText(state, identity, [.value(.string(source))]).text == expected, "\(source)")
        }
    }

    /// The message `json()` raises for the script `source`.
    func jsonError(_ state: LuaState, _ source: String) -> String? {
        luaError { _ = try evaluate(state, source, name: "enc.lua") }?.description
    }

    @Test("values the reader refuses give the reader's own error through json(), and C falls back for them")
    func refusedValuesKeepTheirErrors() throws {
        let state = try makeState()
        let refused: [(String, String)] = [
            ("local t = {x = {}} t.x.back = t return t", "the table at argument.x.back contains itself (a cycle)"),
            ("return {a = {b = {math.floor}}}", "a function value at argument.a.b[0] cannot be converted to JSON"),
            ("return {[1] = 1, [3] = 3}", "the array at argument has holes: 2 items but a largest key of 3"),
            ("return {x = {1, 2, a = 3}}", "the table at argument.x mixes array and object keys"),
            ("return {[0] = 1}", "the table at argument has the key 0: an array's keys are 1...n"),
            ("return {[true] = 1}", "the table at argument has a key of type boolean: object keys must be strings"),
            ("return {[1.5] = 1}", "the table at argument mixes array and object keys (key 1.5)"),
            ("return {'\\255'}", "the string at argument[0] is not valid UTF-8"),
            ("return {['\\237\\160\\128'] = 1}", "is not valid UTF-8"),
            ("return {x = 0/0}", "NaN at argument.x is not a JSON number"),
            ("return {x = math.huge}", "infinity at argument.x is not a JSON number"),
            ("return {x = -math.huge}", "-infinity at argument.x is not a JSON number"),
            ("return json.array({a = 1})", "the table at argument is marked as an array but has string keys"),
            ("return json.object({1})", "the table at argument is marked as an object but has array keys"),
            ("local t = {} for i = 1, 65 do t = {t} end return t", "value nested deeper than 64 levels at argument"),
        ]
        let viaC = try state.load("local f = load(...) return f()", name: "run.lua")
        for (source, message) in refused {
            let described = jsonError(state, "return json.json((function() \(source) end)())")
            #expect(described?.hasPrefix("enc.lua:1: json.json: ") == true, "\(source): \(described ?? "no error")")
            #expect(described?.contains(message) == true, "\(source): \(described ?? "no error")")
            #expect(try state.compactJSONFromC(viaC, [.value(.string(source))]) == nil, "\(source)")
        }
        #expect(try stillWorks(state))
    }

    @Test("the same refused values give the same messages through json() as the Swift reader gives")
    func refusalsMatchTheReader() throws {
        let state = try makeState()
        let sources = [
            "local t = {x = {}} t.x.back = t return t", "return {a = {b = {print}}}", "return {[1] = 1, [3] = 3}",
            "return {x = {1, 2, a = 3}}", "return {['\\255'] = 1}", "return {{{0/0}}}",
            "local t = {} for i = 1, 65 do t = {t} end return t",
        ]
        for source in sources {
            // The reader's message for a result, with its root renamed as json() names it.
            let read = luaError { _ = try evaluate(state, source) }?.message.replacing("$", with: "argument")
            let encoded = jsonError(state, "return json.json((function() \(source) end)())")
            #expect(read != nil)
            #expect(encoded == "enc.lua:1: json.json: \(read ?? "")", "\(source)")
        }
    }

    @Test("depth: 64 levels encode in C; deeper than C's own cap falls back to Swift, which still encodes")
    func depthLimits() throws {
        let state = try makeState()
        let run = try state.load("local f = load(...) return f()", name: "run.lua")
        let deepest = "local t = {} for i = 1, 63 do t = {t} end return t"
        let expected = String(repeating: "[", count: 63) + "{}" + String(repeating: "]", count: 63)
        #expect(try state.compactJSONFromC(run, [.value(.string(deepest))]).map { String(decoding: $0, as: UTF8.self) } == expected)
        #expect(try evaluate(state, "return json.json((function() \(deepest) end)())") == .string(expected))

        let roomy = try makeState(LuaLimits(instructions: 200_000, memoryBytes: 8 << 20, maxValueDepth: 300))
        let roomyRun = try roomy.load("local f = load(...) return f()", name: "run.lua")
        let deep = "local t = {} for i = 1, 249 do t = {t} end return t"
        let deepText = String(repeating: "[", count: 249) + "{}" + String(repeating: "]", count: 249)
        #expect(try roomy.compactJSONFromC(roomyRun, [.value(.string(deep))]) == nil)
        #expect(try evaluate(roomy, "return json.json((function() \(deep) end)())") == .string(deepText))
    }

    /// Objects of 8 to 48 keys take an order kept from an earlier object with the same keys met
    /// in the same order (members.c). Keys alike but for one byte past the first eight, in the
    /// middle of a longer key, or at the end, and keys too long to keep, in turns: each object
    /// must still come out in its own order.
    @Test("objects with keys alike but for one byte, built again and again, keep their own key order")
    func keptKeyOrdersNeverMixUpKeys() throws {
        let state = try makeState(LuaLimits(instructions: 10_000_000, memoryBytes: 64 << 20))
        let maker = try state.load(#"""
            local round = ...
            local count = 8 + (round // 5) % 19
            local variant = round % 5
            local t = {}
            for i = 1, count do
              -- All keys start alike: the eight bytes the sort compares first.
              local a, z = string.char(96 + i), string.char(123 - i)
              local key
              if variant == 0 then key = "adb_key_" .. a                                  -- 9 bytes: the last differs
              elseif variant == 1 then key = "adb_key_" .. z
              elseif variant == 2 then key = "adb_key_" .. a .. "_same_ending_pa"         -- 24 bytes: the ninth differs
              elseif variant == 3 then key = "adb_key_" .. z .. "_same_ending_pa"
              else key = "adb_key_" .. a .. "_longer_than_twenty_four" end              -- not kept
              t[key] = i
            end
            return t
            """#, name: "alike.lua")
        // Five shapes of each size in turn, each encoded twice in a row (the second time takes
        // the kept order).
        for round in 0..<(19 * 5 * 2) {
            let argument = LuaArgument.value(.integer(Int64(round)))
            // The expected text from the keys sorted here, by their bytes: the reader sorts
            // through the same C code.
            guard case .object(let object) = try state.call(maker, [argument])[0] else {
                Issue.record("round \(round): not an object")
                continue
            }
            let members = object.members.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
            let expected = "{" + members.map { "\"\($0.key)\":\(String(decoding: written($0.value), as: UTF8.self))" }.joined(separator: ",") + "}"
            for time in 1...2 {
                let text = try state.compactJSONFromC(maker, [argument]).map { String(decoding: $0, as: UTF8.self) }
                #expect(text == expected, "round \(round), time \(time)")
            }
        }
    }

    @Test("encoding leaves the stack as it found it, through many calls")
    func stackStaysBalanced() throws {
        let state = try makeState()
        let chunk = try state.load("local s = ... local t = {} for i = 1, 50 do t['k' .. i] = {i, s} end return json.json(t), t", name: "many.lua")
        for i in 0..<200 {
            _ = try state.call(chunk, [.value(.string("v\(i)"))], resultCount: 2)
        }
        #expect(try stillWorks(state))
    }
}
