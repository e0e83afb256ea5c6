import PushmapJSON
import Testing

@Suite("JSONValue and JSONObject")
struct JSONValueTests {
    @Test("literals build the matching cases and keep a dictionary literal's order")
    func literals() {
        let value: JSONValue = ["b": 1, "a": [true, nil, 2.5, "x"]]
        guard case .object(let object) = value else {
            Issue.record("not an object")
            return
        }
        #expect(object.keys == ["b", "a"])
        #expect(value["b"] == .integer(1))
        #expect(value["a"] == .array([.bool(true), .null, .double(2.5), .string("x")]))
    }

    @Test("accessors return the payload of their own kind only")
    func accessors() {
        let value: JSONValue = ["s": "text", "i": 3, "d": 3.5, "b": false, "n": nil, "a": [1, 2], "o": ["k": "v"]]
        #expect(value["s"]?.stringValue == "text")
        #expect(value["i"]?.integerValue == 3)
        #expect(value["i"]?.doubleValue == 3.0)
        #expect(value["d"]?.doubleValue == 3.5)
        #expect(value["d"]?.integerValue == nil)
        #expect(value["b"]?.boolValue == false)
        #expect(value["n"]?.isNull == true)
        #expect(value["s"]?.isNull == false)
        #expect(value["a"]?.arrayValue?.count == 2)
        #expect(value["a"]?[1] == .integer(2))
        #expect(value["a"]?[2] == nil)
        #expect(value["a"]?[-1] == nil)
        #expect(value["o"]?.objectValue?["k"] == "v")
        #expect(value["missing"] == nil)
        #expect(value[0] == nil)
        #expect(JSONValue.string("x")["k"] == nil)
        #expect(value["s"]?.integerValue == nil)
    }

    @Test("type names are the ones used in messages")
    func typeNames() {
        let values: [JSONValue] = [nil, true, 1, 1.5, "s", [], [:]]
        #expect(values.map(\.typeName) == ["null", "boolean", "integer", "number", "string", "array", "object"])
    }

    @Test("integers and doubles with the same number are different values")
    func integerIsNotDouble() {
        #expect(JSONValue.integer(3) != JSONValue.double(3))
        #expect(Set<JSONValue>([.integer(3), .double(3)]).count == 2)
    }

    @Test("objects compare and hash the same whatever their member order")
    func objectOrder() {
        let a: JSONValue = ["x": 1, "y": ["z": [1, 2], "w": nil]]
        let b: JSONValue = ["y": ["w": nil, "z": [1, 2]], "x": 1]
        let c: JSONValue = ["y": ["w": nil, "z": [2, 1]], "x": 1]
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != c)
        #expect(Set([a, b, c]).count == 2)
        #expect(JSONValue(dictionaryLiteral: ("x", 1)) != JSONValue(dictionaryLiteral: ("x", 1), ("y", 2)))
        #expect(JSONValue(dictionaryLiteral: ("x", 1)) != JSONValue(dictionaryLiteral: ("y", 1)))
    }

    @Test("strings compare by bytes, not by canonical equivalence")
    func stringBytes() {
        let composed = JSONValue.string("\u{E9}")
        let decomposed = JSONValue.string("e\u{301}")
        #expect(composed != decomposed)
        #expect(Set([composed, decomposed]).count == 2)
        var object = JSONObject()
        object["\u{E9}"] = 1
        object["e\u{301}"] = 2
        #expect(object.count == 2)
        #expect(object["e\u{301}"] == 2)
    }

    @Test("an object's subscript sets, replaces and removes members")
    func objectSubscript() {
        var object: JSONObject = ["a": 1, "b": 2]
        object["c"] = 3
        object["a"] = 10
        #expect(object.keys == ["a", "b", "c"])
        #expect(object["a"] == 10)
        object["b"] = nil
        #expect(object.keys == ["a", "c"])
        #expect(object.count == 2)
        #expect(!object.isEmpty)
        #expect(JSONObject().isEmpty)
        object.append(key: "a", value: 11)
        #expect(object.count == 3)
        #expect(object["a"] == 10)
        object["a"] = nil
        #expect(object.keys == ["c"])
    }

    @Test("members, iteration and sortedByKey")
    func objectMembers() {
        let object = JSONObject([("b", 1), ("a", 2), ("B", 3), ("\u{E9}", 4), ("aa", 5)])
        #expect(object.members.map(\.key) == ["b", "a", "B", "\u{E9}", "aa"])
        #expect(object.map(\.value) == [1, 2, 3, 4, 5])
        #expect(object.sortedByKey().keys == ["B", "a", "aa", "b", "\u{E9}"])
        #expect(object.sortedByKey() == object)
    }

    @Test("paths use the dot form for identifiers and quoted brackets otherwise")
    func paths() {
        #expect(JSONPath.root.description == "$")
        #expect(JSONPath.root.appending("a").description == "$.a")
        #expect(JSONPath.root.appending("a").appending(0).description == "$.a[0]")
        #expect(JSONPath.root.appending("b c").description == "$[\"b c\"]")
        #expect(JSONPath.root.appending("_x9").appending("1abc").description == "$._x9[\"1abc\"]")
        #expect(JSONPath.root.appending("a\"b").appending("").description == "$[\"a\\\"b\"][\"\"]")
        #expect(JSONPath.root.appending("\u{E9}t\u{E9}").description == "$[\"\u{E9}t\u{E9}\"]")
        #expect(JSONPath([.key("buttons"), .index(1), .key("label")]).description == "$.buttons[1].label")
    }

    @Test("a path's text reads back as the path, and finds its value")
    func parsedPaths() throws {
        let paths = [
            JSONPath([.key("buttons"), .index(1), .key("label")]), JSONPath([.key("a\"b]"), .key(""), .index(0)]),
            JSONPath([.key("apns-priority"), .key("\u{E9}t\u{E9}")]), JSONPath.root,
        ]
        for path in paths { #expect(JSONPath(parsing: path.description) == path, "\(path)") }
        for text in ["", "a", "$.", "$[", "$[x]", "$[\"a\"", "$..a"] { #expect(JSONPath(parsing: text) == nil, "\(text)") }
        let value: JSONValue = ["buttons": [["label": "a"], ["label": "b"]]]
        #expect(value[path: try #require(JSONPath(parsing: "$.buttons[1].label"))] == "b")
        #expect(value[path: try #require(JSONPath(parsing: "$.buttons[2].label"))] == nil)
    }
}
