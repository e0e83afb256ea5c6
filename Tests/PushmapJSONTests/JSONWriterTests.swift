import PushmapJSON
import PushmapTestSupport
import Testing

@Suite("JSONWriter")
struct JSONWriterTests {
    private func text(_ value: JSONValue, _ style: JSONWriter.Style = .compact, sortKeys: Bool = true) -> String {
        JSONWriter(style: style, sortKeys: sortKeys).string(value)
    }

    @Test("U+2028 and U+2029 are escaped, in values and keys, at any place; other E2 characters are not", arguments: [
        ("\u{2028}", #""\u2028""#), ("a\u{2029}b", #""a\u2029b""#), ("12345678\u{2028}", #""12345678\u2028""#),
        ("…—€", #""…—€""#), ("x\u{2028}\u{2029}\n", #""x\u2028\u2029\n""#),
    ])
    func lineSeparators(input: String, written: String) throws {
        #expect(text(.string(input)) == written)
        #expect(text([input: 1]) == "{\(written):1}")
        #expect(JSONWriter.compactByteCount(.string(input)) == written.utf8.count)
        #expect(try JSONParser.parse(Array(written.utf8)) == .string(input))
    }

    @Test("pretty output matches the documented layout byte for byte")
    func prettySample() {
        let value: JSONValue = ["b": [:], "a": [1, 2.5]]
        let expected = """
            {
              "a": [
                1,
                2.5
              ],
              "b": {}
            }
            """
        #expect(JSONWriter(style: .pretty).write(value) == Array(expected.utf8))
    }

    @Test("pretty output nests, keeps empty containers short and adds no newline")
    func prettyNested() {
        let value: JSONValue = ["list": [[], ["k": nil], [[true]]], "s": "x"]
        let expected = """
            {
              "list": [
                [],
                {
                  "k": null
                },
                [
                  [
                    true
                  ]
                ]
              ],
              "s": "x"
            }
            """
        #expect(text(value, .pretty) == expected)
        #expect(text(1, .pretty) == "1")
        #expect(text([], .pretty) == "[]")
        #expect(text([:], .pretty) == "{}")
    }

    @Test("compact output has no whitespace")
    func compact() {
        let value: JSONValue = ["b": [1, "two", nil, false], "a": ["x": 1.5]]
        #expect(text(value) == #"{"a":{"x":1.5},"b":[1,"two",null,false]}"#)
    }

    @Test("keys are sorted by UTF-8 bytes by default and kept in order on request")
    func keySorting() {
        let value = JSONValue.object(JSONObject([("b", 1), ("a", 2), ("B", 3), ("\u{E9}", 4), ("aa", 5), ("", 6)]))
        #expect(text(value) == #"{"":6,"B":3,"a":2,"aa":5,"b":1,"é":4}"#)
        #expect(text(value, sortKeys: false) == #"{"b":1,"a":2,"B":3,"é":4,"aa":5,"":6}"#)
    }

    @Test("only quotes, backslashes and control characters are escaped")
    func escaping() {
        var all = ""
        for code in 0..<0x20 { all.unicodeScalars.append(Unicode.Scalar(UInt8(code))) }
        let expected = #""\u0000\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b\t\n\u000b\f\r\u000e\u000f"#
            + #"\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a\u001b\u001c\u001d\u001e\u001f""#
        #expect(text(.string(all)) == expected)
        #expect(text("a/b \"q\" \\ \u{7F} é € 😀") == "\"a/b \\\"q\\\" \\\\ \u{7F} é € 😀\"")
        var bytes: [UInt8] = []
        JSONWriter.escapeJSONString("long text without anything to escape, then \"one\"", into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #""long text without anything to escape, then \"one\"""#)
    }

    @Test("integers are decimal, extremes included")
    func integers() {
        #expect(text([0, -1, 42, .integer(Int64.max), .integer(Int64.min)]) == "[0,-1,42,9223372036854775807,-9223372036854775808]")
    }

    @Test("doubles are shortest round-trip text and always look like doubles")
    func doubles() throws {
        let cases: [(Double, String)] = [
            (3.0, "3.0"), (0.5, "0.5"), (-0.0, "-0.0"), (1e-7, "1e-07"), (5e20, "5e+20"), (1e16, "1e+16"),
            (0.1 + 0.2, "0.30000000000000004"), (.leastNonzeroMagnitude, "5e-324"), (1.7976931348623157e308, "1.7976931348623157e+308"),
            (100.0, "100.0"), (123456789.125, "123456789.125"),
        ]
        for (double, expected) in cases {
            #expect(text(.double(double)) == expected)
            #expect(try JSONParser.parse(expected) == .double(double))
        }
    }

    @Test("NaN and infinities, which parsing never yields, are written as null")
    func nonFinite() {
        #expect(text([.double(.nan), .double(.infinity), .double(-.infinity)]) == "[null,null,null]")
    }

    @Test("write(into:) appends to what is there")
    func appends() {
        var bytes = Array("x=".utf8)
        JSONWriter(style: .compact).write(["a": 1], into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #"x={"a":1}"#)
    }

    @Test("keys that share their first 16 bytes, or differ only by NULs, still sort by all their bytes")
    func longSharedPrefixes() {
        let keys = ["adb_clr_title_long_b", "adb_clr_title_long_a", "adb_clr_title_lon", "adb_clr_title_long", "a\u{0}", "a", "a\u{0}\u{0}", "adb_clr_body"]
        let value = JSONValue.object(JSONObject(keys.map { ($0, JSONValue.null) }))
        let expected = keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        guard case .object(let parsed)? = try? JSONParser.parse(JSONWriter(style: .compact).write(value)) else {
            Issue.record("the output does not parse back")
            return
        }
        #expect(parsed.keys == expected)
    }

    @Test("members with equal keys keep their order when sorted")
    func equalKeysKeepOrder() {
        var object = JSONObject()
        object.append(key: "k", value: 2)
        object.append(key: "a", value: 0)
        object.append(key: "k", value: 1)
        #expect(text(.object(object)) == #"{"a":0,"k":2,"k":1}"#)
    }

    @Test("compactByteCount is the length of the compact text, for a thousand random values")
    func compactByteCount() {
        var random = RandomJSON(seed: 0xC0FFEE)
        for _ in 0..<1000 {
            let value = random.value()
            #expect(JSONWriter.compactByteCount(value) == JSONWriter(style: .compact).write(value).count)
        }
    }
}
