public import PushmapJSON

/// A seeded generator (SplitMix64), so the random tests are the same on every run, and a
/// failing case can be replayed from its seed.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random JSON values that reach the awkward corners: extreme and subnormal numbers,
/// every control character, quotes, backslashes, NUL, multi-byte text and emoji.
public struct RandomJSON {
    public var generator: SeededGenerator

    public init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    private static let pieces: [String] = {
        var pieces = (0..<0x20).map { String(Unicode.Scalar(UInt8($0))) }
        pieces += ["a", "b", "z", "Z", "0", "9", " ", "_", "\"", "\\", "/", "'", "\u{7F}", "é", "ü", "€", "中", "\u{2028}", "\u{FFFD}", "😀", "👍🏽", "🇫🇷"]
        pieces += ["hello", "world", "title", "body", "\\u0041", "{}", "[]", ":", ","]
        return pieces
    }()

    public mutating func string(maxPieces: Int = 12) -> String {
        let count = Int.random(in: 0...maxPieces, using: &generator)
        var text = ""
        for _ in 0..<count { text += Self.pieces.randomElement(using: &generator) ?? "" }
        return text
    }

    public mutating func integer() -> Int64 {
        switch Int.random(in: 0..<5, using: &generator) {
        case 0: [Int64.max, Int64.min, 0, -1, 1, Int64(1) << 53, -(Int64(1) << 53) - 1].randomElement(using: &generator) ?? 0
        case 1: Int64.random(in: Int64.min...Int64.max, using: &generator)
        default: Int64.random(in: -100_000...100_000, using: &generator)
        }
    }

    public mutating func double() -> Double {
        switch Int.random(in: 0..<6, using: &generator) {
        case 0:
            let specials: [Double] = [0, -0.0, 1, 3, -2.5, 0.1, 1e-7, 5e20, 1e22, 1e23, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
                                      .leastNormalMagnitude, -.greatestFiniteMagnitude, 9007199254740994, 1e300, 123456789012345680]
            return specials.randomElement(using: &generator) ?? 0
        case 1:
            // Any finite bit pattern, subnormals included.
            while true {
                let candidate = Double(bitPattern: generator.next())
                if candidate.isFinite { return candidate }
            }
        case 2:
            return Double(Int.random(in: -1_000_000...1_000_000, using: &generator)) / 100
        default:
            return Double.random(in: -1e6...1e6, using: &generator)
        }
    }

    public mutating func value(depth: Int = 0) -> JSONValue {
        let containers = depth < 4
        switch Int.random(in: 0..<(containers ? 9 : 6), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .integer(integer())
        case 3: return .double(double())
        case 4, 5: return .string(string())
        case 6, 7:
            return .array((0..<Int.random(in: 0...5, using: &generator)).map { _ in value(depth: depth + 1) })
        default:
            var object = JSONObject()
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                let key = string(maxPieces: 4)
                if object[key] == nil { object.append(key: key, value: value(depth: depth + 1)) }
            }
            return .object(object)
        }
    }
}
