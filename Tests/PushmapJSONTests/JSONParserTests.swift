import PushmapJSON
import Testing

@Suite("JSONParser: accepted input")
struct JSONParserTests {
    private func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(text) }

    private func roundTrip(_ value: JSONValue) throws {
        for style in [JSONWriter.Style.pretty, .compact] {
            let written = JSONWriter(style: style).write(value)
            #expect(try JSONParser.parse(written) == value)
        }
    }

    @Test("every kind of value parses and survives a round trip")
    func everyKind() throws {
        let text = #" { "n" : null, "t": true, "f": false, "i": -12, "d": 0.25, "s": "x", "a": [ ], "o": { }, "deep": [[{"k": [1]}]] } "#
        let value = try parse(text)
        let expected: JSONValue = ["n": nil, "t": true, "f": false, "i": -12, "d": 0.25, "s": "x", "a": [], "o": [:], "deep": [[["k": [1]]]]]
        #expect(value == expected)
        try roundTrip(value)
        for scalar in ["null", "true", "false", "0", "-1", "1.5", "\"\""] {
            let parsed = try parse(scalar)
            #expect(JSONWriter(style: .compact).string(parsed) == scalar)
        }
    }

    @Test("members keep the input's order")
    func memberOrder() throws {
        #expect(try parse(#"{"z":1,"a":2,"m":3}"#).objectValue?.keys == ["z", "a", "m"])
    }

    @Test("integers stay integers and doubles stay doubles")
    func integersAndDoubles() throws {
        #expect(try parse("3") == .integer(3))
        #expect(try parse("3.0") == .double(3.0))
        #expect(JSONWriter(style: .compact).string(try parse("3.0")) == "3.0")
        #expect(try parse("-0") == .integer(0))
        #expect(try parse("-0.0") == .double(-0.0))
        #expect(try parse("1E2") == .double(100))
        #expect(try parse("1e+2") == .double(100))
        #expect(try parse("9223372036854775807") == .integer(Int64.max))
        #expect(try parse("-9223372036854775808") == .integer(Int64.min))
        #expect(try parse("9223372036854775808") == .double(9223372036854775808.0))
        #expect(try parse("-9223372036854775809") == .double(-9223372036854775809.0))
        #expect(try parse("123456789012345678901234567890") == .double(1.2345678901234568e29))
        #expect(try parse("9007199254740993") == .integer(9_007_199_254_740_993))
        #expect(try parse("1e-400") == .double(0))
    }

    /// Source: RFC 8259 section 6 (numbers past IEEE 754 double precision are valid JSON, and
    /// readers may round them); Python's json keeps such integers exactly, JavaScript rounds.
    @Test("notes each number whose digits do not survive, at its path, and no other")
    func inexactNumbers() throws {
        let text = #"{"a": 12345678901234567890, "b": [1, -92233720368547758090, 0.12345678901234567890123], "c": {"d": 9999999999999999999999}, "ok": [1e20, 100000000000000000000, 9223372036854775807, 1.2345678901234567e+19, 0.30000000000000004, 9007199254740993, 1.5e-7, 12345678901234567000]}"#
        var inexact: [JSONParser.InexactNumber] = []
        let value = try JSONParser.parse(Array(text.utf8), inexact: &inexact)
        #expect(value["a"] == .double(12345678901234567168))
        #expect(inexact.map(\.path.description) == ["$.a", "$.b[1]", "$.b[2]", "$.c.d"])
        #expect(inexact.map(\.text) == ["12345678901234567890", "-92233720368547758090", "0.12345678901234567890123", "9999999999999999999999"])
        #expect(inexact.first?.value == 12345678901234567168)
        // A long literal is cut in the note.
        _ = try JSONParser.parse(Array("[\(String(repeating: "7", count: 60))]".utf8), inexact: &inexact)
        #expect(inexact.map(\.text) == [String(repeating: "7", count: 40) + "..."])
    }

    @Test("doubles are correctly rounded, on the fast path and off it")
    func doubleRounding() throws {
        let texts = [
            "0.1", "0.30000000000000004", "2.2250738585072014e-308", "2.2250738585072011e-308", "4.9e-324", "5e-324",
            "1.7976931348623157e308", "9007199254740993.0", "1e22", "1e23", "8.98846567431158e307", "0.000001",
            "123.456e-5", "1.00000000000000011102230246251565404236316680908203125", "3.14159265358979323846264338327950288",
            "-7.5e-1", "0.0000000000000000000000000000000000000001e40", "100000000000000000000000.5",
        ]
        for text in texts {
            let expected = try #require(Double(text))
            #expect(try parse(text) == .double(expected), "\(text)")
        }
    }

    @Test("strings unescape, including surrogate pairs and NUL")
    func strings() throws {
        #expect(try parse(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{8}\u{C}\n\r\t"))
        #expect(try parse(#""\u0000x\u0000""#) == .string("\u{0}x\u{0}"))
        #expect(try parse(#""\ud83d\ude00 \uD83D\uDE00 😀""#) == .string("😀 😀 😀"))
        #expect(try parse(#""\u00e9\u20AC\uffff""#) == .string("é€\u{FFFF}"))
        #expect(try parse("\"\u{7F} é 中 👍🏽\"") == .string("\u{7F} é 中 👍🏽"))
        let long = String(repeating: "abcdefgh", count: 100) + "\\n" + String(repeating: "é", count: 50)
        #expect(try parse("\"\(long)\"") == .string(String(repeating: "abcdefgh", count: 100) + "\n" + String(repeating: "é", count: 50)))
    }

    @Test("strings with NUL bytes, emoji and every control character round-trip")
    func stringRoundTrip() throws {
        var controls = ""
        for code in 0..<0x20 { controls.unicodeScalars.append(Unicode.Scalar(UInt8(code))) }
        let value: JSONValue = [.string(controls), "nul\u{0}inside", "emoji 😀👍🏽🇫🇷", "quote \" backslash \\ slash /", ["\u{0}key": "\u{1F}"]]
        try roundTrip(value)
    }

    @Test("escaped keys are unescaped")
    func escapedKeys() throws {
        #expect(try parse(#"{"a\nb": 1, "\u00e9": 2}"#) == ["a\nb": 1, "é": 2])
    }

    @Test("whitespace is allowed around every token")
    func whitespace() throws {
        #expect(try parse(" \t\r\n[ 1 , { \"a\" : 2 } ] \n") == [1, ["a": 2]])
    }

    @Test("every entry point reads the same bytes")
    func overloads() throws {
        let text = #"{"a":[1,"é"]}"#
        let bytes = Array(text.utf8)
        let expected: JSONValue = ["a": [1, "é"]]
        #expect(try JSONParser.parse(text) == expected)
        #expect(try JSONParser.parse(bytes) == expected)
        #expect(try JSONParser.parse(Array("xx".utf8 + bytes)[2...]) == expected)
        #expect(try bytes.withUnsafeBytes { raw throws(JSONParseError) in try JSONParser.parse(raw) } == expected)
        #expect(try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in try JSONParser.parse(buffer) } == expected)
    }

    @Test("nesting up to the depth limit is fine")
    func depthLimit() throws {
        let deep = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSONParser.parse(deep) }
        let limits = JSONParser.Limits(maxDepth: 2)
        #expect(try JSONParser.parse(#"{"a":[1]}"#, limits: limits) == ["a": [1]])
        #expect(try JSONParser.parse("7", limits: JSONParser.Limits(maxDepth: 0)) == 7)
    }

    @Test("large objects still find every member and reject duplicates")
    func largeObjects() throws {
        let members = (0..<500).map { "\"k\($0)\":\($0)" }
        let value = try parse("{" + members.joined(separator: ",") + "}")
        #expect(value.objectValue?.count == 500)
        #expect(value["k499"] == 499)
        #expect(throws: JSONParseError.self) { try JSONParser.parse("{" + members.joined(separator: ",") + ",\"k7\":0}") }
    }
}
