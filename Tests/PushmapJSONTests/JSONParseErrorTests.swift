import PushmapJSON
import Testing

/// One rejected input and everything the error must say about it.
struct RejectedInput: Sendable, CustomTestStringConvertible {
    let bytes: [UInt8]
    let reason: String
    let line: Int
    let column: Int
    let path: String

    init(_ text: String, _ reason: String, _ line: Int, _ column: Int, _ path: String) {
        self.init(bytes: Array(text.utf8), reason, line, column, path)
    }

    init(bytes: [UInt8], _ reason: String, _ line: Int, _ column: Int, _ path: String) {
        self.bytes = bytes
        self.reason = reason
        self.line = line
        self.column = column
        self.path = path
    }

    var testDescription: String { String(decoding: bytes.prefix(40), as: UTF8.self).debugDescription }

    static let all: [RejectedInput] = [
        RejectedInput(#"{"a": [1, 2,]}"#, "trailing comma not allowed", 1, 13, "$.a[2]"),
        RejectedInput(#"{"a":1,}"#, "trailing comma not allowed", 1, 8, "$"),
        RejectedInput(#"{"a" 1}"#, "expected ':' after object key", 1, 6, "$.a"),
        RejectedInput("[1] x", "unexpected 'x' after the JSON value", 1, 5, "$"),
        RejectedInput("{} {}", "unexpected '{' after the JSON value", 1, 4, "$"),
        RejectedInput(bytes: Array(#"{"k": "ab"#.utf8) + [0xFF] + Array(#"c"}"#.utf8), "invalid UTF-8 byte 0xFF in string", 1, 10, "$.k"),
        RejectedInput(bytes: [0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x5D], "invalid UTF-8 byte 0xC0 in string", 1, 3, "$[0]"),
        RejectedInput(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], "invalid UTF-8 byte 0xED in string", 1, 2, "$"),
        RejectedInput(bytes: [0x22, 0x61, 0xE2, 0x82, 0x22], "invalid UTF-8 byte 0xE2 in string", 1, 3, "$"),
        RejectedInput(bytes: Array(#"{"\n"#.utf8) + [0x80] + Array(#"":1}"#.utf8), "invalid UTF-8 byte 0x80 in string", 1, 5, "$"),
        RejectedInput("[\u{E9}]", "expected a value but found byte 0xC3", 1, 2, "$[0]"),
        RejectedInput(#""\ud800""#, #"lone surrogate \ud800 in string"#, 1, 2, "$"),
        RejectedInput(#"["\udc00"]"#, #"lone surrogate \udc00 in string"#, 1, 3, "$[0]"),
        RejectedInput(#""x\uD800\u0041""#, #"lone surrogate \uD800 in string"#, 1, 3, "$"),
        RejectedInput(#""\ud800 ""#, #"lone surrogate \ud800 in string"#, 1, 2, "$"),
        RejectedInput("1e400", "number out of range", 1, 1, "$"),
        RejectedInput(#"{"n": [-1e400]}"#, "number out of range", 1, 8, "$.n[0]"),
        RejectedInput(#"{"x":1,"x":2}"#, "duplicate key 'x'", 1, 8, "$.x"),
        RejectedInput(#"{"a":1,"\u0061":2}"#, "duplicate key 'a'", 1, 8, "$.a"),
        RejectedInput("\u{FEFF}{}", "byte order mark not allowed: write the UTF-8 without one", 1, 1, "$"),
        RejectedInput("", "empty input", 1, 1, "$"),
        RejectedInput(" \n ", "empty input", 2, 2, "$"),
        RejectedInput("\"a\tb\"", "unescaped control character U+0009 in string", 1, 3, "$"),
        RejectedInput("[\"a\nb\"]", "unescaped control character U+000A in string", 1, 4, "$[0]"),
        RejectedInput("\"\u{0}\"", "unescaped control character U+0000 in string", 1, 2, "$"),
        RejectedInput("{\n  \"a\": 1,\n  \"b\": tru\n}", "expected 'true'", 3, 8, "$.b"),
        RejectedInput("[01]", "leading zeros not allowed", 1, 2, "$[0]"),
        RejectedInput("-", "expected digit after '-'", 1, 2, "$"),
        RejectedInput("[1.]", "expected digit after '.'", 1, 4, "$[0]"),
        RejectedInput("1e+", "expected digit in exponent", 1, 4, "$"),
        RejectedInput(".5", "expected a value but found '.'", 1, 1, "$"),
        RejectedInput("not json", "not JSON: it starts with 'not json'; a JSON object starts with {", 1, 1, "$"),
        RejectedInput("  hello world, this line goes on and on", "not JSON: it starts with 'hello world, this line g...'; a JSON object starts with {", 1, 3, "$"),
        RejectedInput("+1", "leading '+' not allowed", 1, 1, "$"),
        RejectedInput("[NaN]", "NaN not allowed", 1, 2, "$[0]"),
        RejectedInput("Infinity", "Infinity not allowed", 1, 1, "$"),
        RejectedInput("-Infinity", "Infinity not allowed", 1, 1, "$"),
        RejectedInput("{'a': 1}", "single quotes not allowed", 1, 2, "$"),
        RejectedInput(#"{"a": 'b'}"#, "single quotes not allowed", 1, 7, "$.a"),
        RejectedInput("[1 /* no */]", "comments not allowed", 1, 4, "$[0]"),
        RejectedInput("// no\n1", "comments not allowed", 1, 1, "$"),
        RejectedInput("[1, 2", "unexpected end of input", 1, 6, "$[1]"),
        RejectedInput("[", "unexpected end of input", 1, 2, "$[0]"),
        RejectedInput(#"{"a":"#, "unexpected end of input", 1, 6, "$.a"),
        RejectedInput(#"["abc"#, "unterminated string", 1, 6, "$[0]"),
        RejectedInput(#"["abc\"#, "unterminated string", 1, 7, "$[0]"),
        RejectedInput(#"[1 2]"#, "expected ',' or ']' after array element but found '2'", 1, 4, "$[0]"),
        RejectedInput(#"{"a":1 "b":2}"#, "expected ',' or '}' after object member but found '\"'", 1, 8, "$.a"),
        RejectedInput(#"{"a":1]"#, "expected ',' or '}' after object member but found ']'", 1, 7, "$.a"),
        RejectedInput("{1:2}", "expected string key but found '1'", 1, 2, "$"),
        RejectedInput(#"{"a":}"#, "expected a value but found '}'", 1, 6, "$.a"),
        RejectedInput(#""\q""#, #"invalid escape \q in string"#, 1, 2, "$"),
        RejectedInput(#""\u12G4""#, #"invalid \u escape, expected 4 hex digits"#, 1, 2, "$"),
        RejectedInput(#"{"k":[true,nul]}"#, "expected 'null'", 1, 12, "$.k[1]"),
        RejectedInput(#"{"a b":{"c":[x]}}"#, "expected a value but found 'x'", 1, 14, "$[\"a b\"].c[0]"),
    ]
}

@Suite("JSONParser: rejected input")
struct JSONParseErrorTests {
    @Test("each rejection names its reason, line, column and path", arguments: RejectedInput.all)
    func rejection(_ input: RejectedInput) {
        #expect {
            try JSONParser.parse(input.bytes)
        } throws: { error in
            guard let error = error as? JSONParseError else { return false }
            #expect(error.reason == input.reason)
            #expect(error.line == input.line)
            #expect(error.column == input.column)
            #expect(error.path.description == input.path)
            #expect(error.description == "\(input.line):\(input.column): \(input.reason) at \(input.path)")
            return true
        }
    }

    private func rejection(of bytes: [UInt8], limits: JSONParser.Limits = .init()) -> JSONParseError? {
        do {
            _ = try JSONParser.parse(bytes, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test("100,000 open brackets hit the depth limit instead of the stack")
    func deepNesting() throws {
        let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        let error = try #require(rejection(of: bytes))
        #expect(error.reason == "nesting deeper than 64 levels")
        #expect(error.offset == 64)
        #expect(error.column == 65)
        #expect(error.path.components.count == 64)
        let objects = Array(String(repeating: #"{"a":"#, count: 100_000).utf8)
        #expect(rejection(of: objects)?.reason == "nesting deeper than 64 levels")
        #expect(rejection(of: Array("[[[1]]]".utf8), limits: JSONParser.Limits(maxDepth: 2))?.description == "1:3: nesting deeper than 2 levels at $[0][0]")
    }

    @Test("size limits apply to the input and to each string")
    func sizeLimits() {
        let limits = JSONParser.Limits(maxBytes: 20, maxStringBytes: 4)
        #expect(rejection(of: Array("[1,2,3,4,5,6,7,8,9,0]".utf8), limits: limits)?.reason == "input larger than 20 bytes")
        #expect(rejection(of: Array(#"["abcde"]"#.utf8), limits: limits)?.reason == "string longer than 4 bytes")
        #expect(rejection(of: Array(#"["ab\ncd"]"#.utf8), limits: limits)?.reason == "string longer than 4 bytes")
        #expect(rejection(of: Array(#"{"abcde":1}"#.utf8), limits: limits)?.description == "1:2: string longer than 4 bytes at $")
        #expect(rejection(of: Array(#"["abcd"]"#.utf8), limits: limits) == nil)
        #expect(rejection(of: Array(#"["\u00e9\n"]"#.utf8), limits: limits) == nil)
    }

    @Test("duplicate keys are caught in objects too big for the linear check")
    func duplicateInLargeObject() throws {
        let members = (0..<100).map { "\"key\($0)\":\($0)" }.joined(separator: ",")
        let error = try #require(rejection(of: Array("{\"o\":{\(members),\"key50\":1}}".utf8)))
        #expect(error.reason == "duplicate key 'key50'")
        #expect(error.path.description == "$.o.key50")
    }

    @Test("asked for them, repeated keys are listed and read as their last value in the first one's place, small and large objects alike")
    func repeatedKeysTaken() throws {
        var repeated: [JSONParseError] = []
        let value = try JSONParser.parse(Array(#"{"a":1,"b":2,"a":3,"\u0061":4}"#.utf8), repeatedKeys: &repeated)
        #expect(value.objectValue?.members.map(\.key) == ["a", "b"])
        #expect(value.objectValue?["a"] == .integer(4))
        #expect(repeated.map(\.description) == ["1:14: duplicate key 'a' at $.a", "1:20: duplicate key 'a' at $.a"])
        // Compared as bytes: a precomposed é and e with a combining accent are two keys.
        let accents = try JSONParser.parse(Array("{\"\u{E9}\":1,\"e\u{301}\":2}".utf8), repeatedKeys: &repeated)
        #expect(accents.objectValue?.members.count == 2 && repeated.isEmpty)
        let members = (0..<100).map { "\"key\($0)\":\($0)" }.joined(separator: ",")
        let large = try JSONParser.parse(Array("{\"o\":{\(members),\"key50\":-1}}".utf8), repeatedKeys: &repeated)
        #expect(large.objectValue?["o"]?.objectValue?.members.count == 100)
        #expect(large.objectValue?["o"]?.objectValue?["key50"] == .integer(-1))
        #expect(repeated.map(\.path.description) == ["$.o.key50"])
    }

    @Test("the snippet shows the line with a caret under the column")
    func snippet() throws {
        let text = #"{"a" 1}"#
        let error = try #require(rejection(of: Array(text.utf8)))
        #expect(error.snippet(in: text) == "{\"a\" 1}\n     ^")
        #expect(error.snippet(in: Array(text.utf8)) == "{\"a\" 1}\n     ^")
    }

    @Test("the snippet picks the right line of several")
    func snippetLine() throws {
        let text = "{\n  \"a\": 1,\n  \"b\": tru\n}"
        let error = try #require(rejection(of: Array(text.utf8)))
        #expect(error.snippet(in: text) == "  \"b\": tru\n       ^")
    }

    @Test("the snippet shows non-printables as '?' and keeps the caret aligned after non-ASCII")
    func snippetCharacters() throws {
        let bytes: [UInt8] = Array("[\"\u{E9}\t\u{E9}\"".utf8) + [0xFF] + Array(" x]".utf8)
        let error = try #require(rejection(of: bytes))
        #expect(error.reason == "unescaped control character U+0009 in string")
        #expect(error.snippet(in: bytes) == "[\"\u{E9}?\u{E9}\"? x]\n   ^")
        let bad: [UInt8] = Array("\"ab".utf8) + [0xFF] + Array("\"".utf8)
        let second = try #require(rejection(of: bad))
        #expect(second.snippet(in: bad) == "\"ab?\"\n   ^")
    }

    @Test("the snippet of a long line is cut around the column")
    func snippetLong() throws {
        let text = "[" + String(repeating: "1,", count: 100) + "x" + String(repeating: ",1", count: 100) + "]"
        let error = try #require(rejection(of: Array(text.utf8)))
        #expect(error.column == 202)
        let lines = error.snippet(in: text).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2)
        #expect(lines[0] == "..." + String(repeating: "1,", count: 20) + "x" + String(repeating: ",1", count: 19) + ",...")
        #expect(lines[1] == String(repeating: " ", count: 43) + "^")
    }

    @Test("the snippet of an error at the end points past the last character")
    func snippetAtEnd() throws {
        let text = "[1,"
        let error = try #require(rejection(of: Array(text.utf8)))
        #expect(error.snippet(in: text) == "[1,\n   ^")
        #expect(JSONParseError(offset: 0, line: 1, column: 1, path: .root, reason: "empty input").snippet(in: "") == "\n^")
    }

    /// Source: the twelfth audit (case 8): a recipient line whose `vars` held a lone surrogate or
    /// an invalid byte lost its readable `id` on the error line.
    @Test("the top-level id of a line that goes wrong after it is still read; never a nested one or one cut short")
    func topLevelString() throws {
        let cases: [(String, String?)] = [
            (#"{"id": "u-2", "vars": {"name": "\udc00Bo"}}"#, "u-2"),
            (#"{"vars": {"id": "inner"}, "id": "u-\"3\"", "x": [1,]}"#, #"u-"3""#),
            (#"{"x": "id", "y": {"id": "no"}, "z": [1,]}"#, nil),
            (#"{"id": 7, "x": [1,]}"#, nil),
            (#"{"x": [1,], "id": "after"}"#, nil),
            (#"[{"id": "a"}, ]"#, nil),
            (#"{"id": "\udc00"}"#, nil),
        ]
        for (text, id) in cases {
            let error = try #require(rejection(of: Array(text.utf8)), "\(text)")
            #expect(error.topLevelString("id", in: Array(text.utf8)) == id, "\(text)")
        }
    }
}
