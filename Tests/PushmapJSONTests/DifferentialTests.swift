import Foundation
import PushmapJSON
import PushmapTestSupport
import Testing

@Suite("Random values against the writer, the parser and Foundation")
struct DifferentialTests {
    static let count = 400

    @Test("parse(write(v)) == v for both styles, sorted or not")
    func roundTrip() throws {
        var random = RandomJSON(seed: 0x5EED)
        for _ in 0..<Self.count {
            let value = random.value()
            for style in [JSONWriter.Style.pretty, .compact] {
                for sortKeys in [true, false] {
                    let written = JSONWriter(style: style, sortKeys: sortKeys).write(value)
                    let parsed = try JSONParser.parse(written)
                    #expect(parsed == value)
                    if !sortKeys {
                        // Unsorted output keeps the exact member order too.
                        #expect(JSONWriter(style: .compact, sortKeys: false).write(parsed) == JSONWriter(style: .compact, sortKeys: false).write(value))
                    }
                }
            }
        }
    }

    @Test("Foundation's JSONSerialization reads the written text as the same value")
    func foundationAgrees() throws {
        var random = RandomJSON(seed: 0xF00D)
        for _ in 0..<Self.count {
            let value = random.value()
            for style in [JSONWriter.Style.pretty, .compact] {
                let written = JSONWriter(style: style).write(value)
                let object = try JSONSerialization.jsonObject(with: Data(written), options: [.fragmentsAllowed])
                #expect(Self.matches(object, value), "\(String(decoding: written, as: UTF8.self))")
            }
        }
    }

    @Test("the parser reads written doubles back bit for bit, as Double(String) does")
    func doublesExact() throws {
        var random = RandomJSON(seed: 0xD0B1E)
        for _ in 0..<2_000 {
            let double = random.double()
            let text = JSONWriter(style: .compact).string(.double(double))
            let parsed = try JSONParser.parse(text)
            #expect(parsed.doubleValue?.bitPattern == double.bitPattern || (double == 0 && parsed.doubleValue == 0), "\(text)")
            #expect(parsed.doubleValue == Double(text))
        }
    }

    @Test("Foundation and the parser agree on hand-picked documents")
    func foundationAgreesOnSamples() throws {
        let documents = [
            #"{"a":[1,2.5,-0.0,1e2,1E-2,"x\u00e9\ud83d\ude00",true,false,null],"b":{"c":{}}}"#,
            #"[9223372036854775807,-9223372036854775808,0.1,123456.789e3,"\/\b\f\n\r\t\"\\"]"#,
        ]
        for document in documents {
            let object = try JSONSerialization.jsonObject(with: Data(document.utf8), options: [.fragmentsAllowed])
            #expect(Self.matches(object, try JSONParser.parse(document)))
        }
    }

    /// Equal, or a few units in the last place apart: Foundation on Linux rounds some
    /// 17-digit numbers one or two ulps off, while the parser matches `Double(String)`,
    /// which is correctly rounded (the round-trip test checks that bit for bit).
    static func nearlyEqual(_ a: Double, _ b: Double) -> Bool {
        if a == b { return true }
        guard a.sign == b.sign else { return false }
        let (x, y) = (a.bitPattern, b.bitPattern)
        return (x > y ? x - y : y - x) <= 4
    }

    /// Whether Foundation's reading equals the value (numbers compared by value, since
    /// Foundation does not keep integers and doubles apart the same way).
    static func matches(_ object: Any, _ value: JSONValue) -> Bool {
        switch value {
        case .null:
            return object is NSNull
        case .bool(let bool):
            guard let number = object as? NSNumber, String(cString: number.objCType) == "c" else { return false }
            return number.boolValue == bool
        case .integer(let integer):
            guard let number = object as? NSNumber, String(cString: number.objCType) != "c" else { return false }
            return number.int64Value == integer && number.doubleValue == Double(integer)
        case .double(let double):
            guard let number = object as? NSNumber, String(cString: number.objCType) != "c" else { return false }
            return nearlyEqual(number.doubleValue, double)
        case .string(let string):
            guard let other = object as? String else { return false }
            return Array(other.utf8) == Array(string.utf8)
        case .array(let array):
            guard let others = object as? [Any], others.count == array.count else { return false }
            return zip(others, array).allSatisfy { matches($0, $1) }
        case .object(let members):
            guard let others = object as? [String: Any], others.count == members.count else { return false }
            return members.allSatisfy { member in others[member.key].map { matches($0, member.value) } ?? false }
        }
    }
}
