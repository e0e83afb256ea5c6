@_spi(Engine) import PushmapJSON
import PushmapTestSupport
import Testing

/// The tape parser is the fast path in front of ``JSONParser``: it may give up (nil), but what it
/// accepts must be exactly what the parser accepts, and read back as the parser's value.
@Suite("The tape parser against JSONParser")
struct JSONTapeTests {
    static let limits = JSONParser.Limits(maxDepth: 32, maxBytes: 1 << 20, maxStringBytes: 4096)

    /// The tape's reading of `bytes` agrees with the parser's, or the tape gave up.
    func agree(_ bytes: [UInt8], _ limits: JSONParser.Limits = limits, sourceLocation: SourceLocation = #_sourceLocation) {
        let tape = bytes.withUnsafeBufferPointer { JSONTape.parse($0, limits: limits) }
        switch Result(catching: { () throws(JSONParseError) in try JSONParser.parse(bytes, limits: limits) }) {
        case .success(let value):
            if let tape {
                var reader = tape.reader
                #expect(reader.value() == value, "\(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
                #expect(reader.position == tape.length, sourceLocation: sourceLocation)
            }
        case .failure(let error):
            #expect(tape == nil, "the tape accepted what the parser refuses (\(error.reason)): \(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
        }
    }

    @Test("random values written compactly and pretty read back the same, and the tape does not give up on them")
    func randomValues() {
        var random = RandomJSON(seed: 0x7A9E)
        var accepted = 0
        for _ in 0..<400 {
            let value = random.value()
            for style in [JSONWriter.Style.pretty, .compact] {
                let bytes = JSONWriter(style: style).write(value)
                agree(bytes, JSONParser.Limits())
                if bytes.withUnsafeBufferPointer({ JSONTape.parse($0, limits: JSONParser.Limits()) }) != nil { accepted += 1 }
            }
        }
        // It gives up only on numbers it cannot convert exactly and on very large objects.
        #expect(accepted > 600)
    }

    @Test("every one-byte change of valid texts is refused by both, or read alike")
    func mutations() {
        var random = RandomJSON(seed: 0xB17E)
        var generator = SeededGenerator(seed: 99)
        let alphabet = Array(#"{}[],:"\ -+.eE0123456789tfnul/ubx"#.utf8) + [0x00, 0x1F, 0x7F, 0xC3, 0xA9, 0xED, 0xA0, 0xF4, 0x90, 0xEF, 0xBB]
        for _ in 0..<150 {
            let original = JSONWriter(style: .compact).write(random.value())
            for _ in 0..<20 {
                var bytes = original
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[at] = alphabet.randomElement(using: &generator) ?? 0
                case 1: bytes.remove(at: at)
                default: bytes.insert(alphabet.randomElement(using: &generator) ?? 0, at: at)
                }
                if !bytes.isEmpty { agree(bytes) }
            }
        }
    }

    @Test("a string ends at its first quote, backslash or control byte wherever that falls in a word")
    func specialBytesAtEveryPosition() throws {
        // Plain runs of 0 to 17 bytes (ASCII, or with a two-byte character in them), then each
        // special byte: the run must end exactly there, the escape or the error must follow.
        let specials: [(String, String?)] = [("\"", nil), ("\\n", "\n"), ("\\\"", "\""), ("\u{1}", nil), ("\t", nil)]
        for length in 0...17 {
            for prefix in [String(repeating: "a", count: length), String(repeating: "b", count: max(0, length - 2)) + "é"] {
                for (special, decoded) in specials {
                    let text = "\"" + prefix + special + "z\""
                    agree(Array(text.utf8))
                    if special == "\"" {
                        // The string closes there; a value follows only in an array.
                        let array = "[\"" + prefix + "\",\"z\"]"
                        agree(Array(array.utf8))
                        #expect(try JSONParser.parse(array) == .array([.string(prefix), .string("z")]))
                    } else if let decoded {
                        #expect(try JSONParser.parse(text) == .string(prefix + decoded + "z"), "\(text)")
                    }
                }
            }
            // A byte that is not UTF-8 in the same word as the closing quote is still refused.
            let invalid = [UInt8(ascii: "\"")] + Array(repeating: UInt8(ascii: "a"), count: length) + [0xFF, UInt8(ascii: "\"")]
            #expect(invalid.withUnsafeBufferPointer { JSONTape.parse($0, limits: Self.limits) } == nil)
            #expect(throws: JSONParseError.self) { try JSONParser.parse(invalid) }
        }
    }

    @Test("hand-picked edges are refused or read as the parser reads them")
    func edges() {
        let texts = [
            #"{"a":1,"a":2}"#, #"{"a":1,"\u0061":2}"#, #"{"é":1,"\u00e9":2}"#, #"{"a":{"a":1},"b":[{"a":1,"a":2}]}"#,
            #"{"a":1,"b":2,"c":{"a":1}}"#, #"["\ud83d\ude00","\u00e9\n\t\"\\\/\b\f\r"]"#, #"["\ud83d"]"#, #"["\ude00"]"#,
            #"["\ud83dx"]"#, #"["\u12"]"#, #"["\x"]"#, "[\"\u{1}\"]", #"["a\"#, #"{"a" 1}"#, #"{"a":1,}"#, "[1,]", "[01]",
            "-", "-0", "-0.0", "1e400", "-1e-400", "123456789012345678901234567890", "9223372036854775807",
            "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "0.1", "1.5e10", "1E+2", "1.e3",
            "true", "truex", "false", "fals", "null", "nul", " [ ] ", "{}", "[[]]", "[] x", "\u{FEFF}[]", "\"\"",
            #"{"":""}"#, "[1 2]", "{1:2}", "[\"\(String(repeating: "x", count: 5000))\"]",
            String(repeating: "[", count: 40) + String(repeating: "]", count: 40),
            String(repeating: "[", count: 32) + String(repeating: "]", count: 32),
            String(repeating: "[", count: 33) + String(repeating: "]", count: 33),
            "{" + (0..<60).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}",
            "{" + (0..<60).map { "\"k\($0 % 50)\":\($0)" }.joined(separator: ",") + "}",
        ]
        for text in texts { agree(Array(text.utf8)) }
        // Invalid UTF-8, raw and beside escapes, and a cut sequence.
        for bytes: [UInt8] in [[0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0x5C, 0x6E, 0xFF, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22]] {
            agree(bytes)
        }
    }

    @Test("a text nested and keyed beyond the room the tape parser starts with reads back as the parser's value")
    func grownStacks() throws {
        let keys = (0..<40).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        let text = String(repeating: #"[{"a":"#, count: 12) + "{" + keys + "}" + String(repeating: "}]", count: 12)
        let tape = try #require(Array(text.utf8).withUnsafeBufferPointer { JSONTape.parse($0, limits: Self.limits) })
        var reader = tape.reader
        #expect(try reader.value() == JSONParser.parse(Array(text.utf8), limits: Self.limits))
    }

    @Test("a tape read in place reads back as the parser's value, short, grown past its first room, or long")
    func parsedInPlace() throws {
        let numbers = "[" + (0..<100).map { _ in "1" }.joined(separator: ",") + "]"
        let long = "[" + (0..<40).map { #"{"label":"button \#($0)","type":"DEEPLINK"}"# }.joined(separator: ",") + "]"
        for text in [#"[{"label":"accept","uri":"https://x.test/1"}]"#, numbers, long] {
            let bytes = Array(text.utf8)
            var read: JSONValue?
            let parsed = bytes.withUnsafeBufferPointer { input in
                JSONTape.withParsed(input, limits: Self.limits) { reader in
                    var reader = reader
                    read = reader.value()
                }
            }
            #expect(parsed)
            #expect(try read == JSONParser.parse(bytes, limits: Self.limits), "\(text)")
        }
        let refused = Array(#"{"a":1,"a":2}"#.utf8).withUnsafeBufferPointer { JSONTape.withParsed($0, limits: Self.limits) { _ in Issue.record("read a refused text") } }
        #expect(!refused)
    }

    @Test("limits on bytes, depth and string length hold for the tape as for the parser")
    func limits() {
        let small = JSONParser.Limits(maxDepth: 2, maxBytes: 20, maxStringBytes: 4)
        for text in [#"["abcd"]"#, #"["abcde"]"#, #"["ab\ncd"]"#, #"["ab\nd"]"#, "[[1]]", "[[[1]]]", "[1,2,3,4,5,6,7,8,9,10]"] {
            agree(Array(text.utf8), small)
        }
    }
}
