internal import PushmapJSON

/// A whole number beyond 64 bits, such as a 20-digit order number in a recipient's `vars`, or a
/// literal of a template (`truncate: 9223372036854775808`).
///
/// JSONValue holds such a number as a Double, which prints another number
/// (`12345678901234567890` as `1.2345678901234567e+19`); Liquid prints it exactly. So its digits
/// are read from the recipient's line, and before rendering the value is replaced by a mark that
/// carries them: printed and given to text filters as those digits, compared exactly with whole
/// numbers, and refused, naming the variable, where an exact answer cannot be had.
struct LiquidWholeNumber: Sendable, Equatable {
    /// The digits as written, with a leading `-` when negative.
    let digits: String
    /// The variable's path in `vars`, as a template writes it (`order.ids[0]`), for messages; the
    /// digits themselves for a literal of the template.
    let path: String

    /// Where one such number is in `vars`: its place among the numbers of `vars` in the order
    /// written (objects keep their members' order), and its digits.
    struct Written: Sendable, Equatable {
        let ordinal: Int
        let digits: String
    }

    /// The mark standing for the number among the template's values: an array opened by NaN,
    /// which no parsed value holds (the JSON parser never gives NaN).
    var mark: JSONValue { .array([.double(.nan), .string(digits), .string(path)]) }

    /// The number a mark stands for; nil for any other value.
    init?(_ value: JSONValue) {
        guard case .array(let items) = value, items.count == 3, case .double(let opening) = items[0], opening.isNaN,
              case .string(let digits) = items[1], case .string(let path) = items[2] else { return nil }
        self.digits = digits
        self.path = path
    }

    init(digits: String, path: String) {
        self.digits = digits
        self.path = path
    }

    /// The sentence for a use that cannot be exact.
    func refusal(_ use: String) -> String {
        let named = path == digits ? digits : "\(path) is \(digits),"
        return "\(named) a whole number beyond 64 bits: \(use) cannot use it exactly."
    }

    /// The order of this number and `other`, exact: nil when `other` is no whole number (a
    /// string, say); a fractional number is refused, since a Double cannot hold this one.
    func order(against other: JSONValue) throws(LiquidFailure) -> Int? {
        switch other {
        case .integer:
            // Beyond 64 bits, so past every Int64 on its side of zero.
            return digits.hasPrefix("-") ? -1 : 1
        case .double:
            throw LiquidFailure(message: refusal("a comparison with \(LiquidText.plain(other))"))
        default:
            guard let number = Self(other) else { return nil }
            return Self.order(digits, number.digits)
        }
    }

    /// Two integers' texts (no leading zeros, as JSON writes them) in numeric order.
    private static func order(_ a: String, _ b: String) -> Int {
        let negativeA = a.hasPrefix("-"), negativeB = b.hasPrefix("-")
        if negativeA != negativeB { return negativeA ? -1 : 1 }
        let magnitudeA = a.utf8.drop { $0 == UInt8(ascii: "-") }, magnitudeB = b.utf8.drop { $0 == UInt8(ascii: "-") }
        var order = magnitudeA.count != magnitudeB.count
            ? (magnitudeA.count < magnitudeB.count ? -1 : 1)
            : (magnitudeA.elementsEqual(magnitudeB) ? 0 : magnitudeA.lexicographicallyPrecedes(magnitudeB) ? -1 : 1)
        if negativeA { order = -order }
        return order
    }

    /// `value` with each mark made the same for the same digits (a mark also names where its
    /// number was), for sets of values such as `uniq`'s. Infinity, which no parsed value holds,
    /// opens the result, so it equals no other value.
    static func comparable(_ value: JSONValue) -> JSONValue {
        if let number = Self(value) { return .array([.double(.infinity), .string(number.digits)]) }
        switch value {
        case .array(let items) where items.contains(where: isInside): return .array(items.map(comparable))
        case .object(let object) where isInside(value):
            var copy = JSONObject()
            for member in object { copy.append(key: member.key, value: comparable(member.value)) }
            return .object(copy)
        default: return value
        }
    }

    /// Whether a mark is in `value` (or is it), which JSONWriter would print as another number.
    static func isInside(_ value: JSONValue) -> Bool {
        switch value {
        case .array(let items): Self(value) != nil || items.contains(where: isInside)
        case .object(let object): object.contains { isInside($0.value) }
        default: false
        }
    }

    /// `variables` with each written number replaced by its mark.
    static func mark(_ variables: JSONValue, _ written: [Written]) -> JSONValue {
        guard !written.isEmpty else { return variables }
        var marking = Marking(written: written)
        return marking.walk(variables, path: "")
    }

    /// Numbers of `vars` in the order written, replacing those listed.
    private struct Marking {
        let written: [Written]
        var next = 0
        var ordinal = 0

        mutating func walk(_ value: JSONValue, path: String) -> JSONValue {
            switch value {
            case .integer, .double:
                defer { ordinal += 1 }
                guard next < written.count, written[next].ordinal == ordinal else { return value }
                next += 1
                return LiquidWholeNumber(digits: written[next - 1].digits, path: path).mark
            case .array(let items):
                return .array(items.enumerated().map { walk($0.element, path: "\(path)[\($0.offset)]") })
            case .object(let object):
                var marked = JSONObject()
                for member in object {
                    marked.append(key: member.key, value: walk(member.value, path: path.isEmpty ? member.key : "\(path).\(member.key)"))
                }
                return .object(marked)
            default:
                return value
            }
        }
    }

    /// Where the whole numbers beyond 64 bits are in the `vars` of a recipient's line, which
    /// parsed to `value`. The line is walked as the value says it is built; a line that is not
    /// as expected gives none.
    static func written(in line: [UInt8], parsed value: JSONValue) -> [Written] {
        // Int64's longest is 19 digits: a line with no run that long has none.
        var run = 0, longest = 0
        for byte in line {
            run = LiquidMarkupLexer.isDigit(byte) ? run + 1 : 0
            longest = max(longest, run)
        }
        guard longest >= 19, case .object(let object) = value else { return [] }
        var reading = LineReading(bytes: line)
        guard reading.enter(UInt8(ascii: "{")) else { return [] }
        for member in object {
            guard reading.key() else { return [] }
            reading.recording = member.key == "vars"
            guard reading.walk(member.value) else { return [] }
            reading.separator()
        }
        return reading.found
    }

    /// A cursor over a line already known to be valid JSON.
    private struct LineReading {
        let bytes: [UInt8]
        var position = 0
        var recording = false
        var ordinal = 0
        var found: [Written] = []

        private var byte: UInt8 { position < bytes.count ? bytes[position] : 0 }

        mutating func walk(_ value: JSONValue) -> Bool {
            skipSpace()
            switch value {
            case .object(let object):
                guard enter(UInt8(ascii: "{")) else { return false }
                for member in object {
                    guard key(), walk(member.value) else { return false }
                    separator()
                }
                return leave(UInt8(ascii: "}"))
            case .array(let items):
                guard enter(UInt8(ascii: "[")) else { return false }
                for item in items {
                    guard walk(item) else { return false }
                    separator()
                }
                return leave(UInt8(ascii: "]"))
            case .string:
                return string()
            default:
                let start = position
                while position < bytes.count, !Self.ends(byte) { position += 1 }
                guard position > start else { return false }
                switch value {
                case .integer, .double:
                    let token = bytes[start..<position]
                    if recording, case .double = value, !token.contains(where: { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }) {
                        found.append(Written(ordinal: ordinal, digits: String(decoding: token, as: UTF8.self)))
                    }
                    if recording { ordinal += 1 }
                default:
                    break
                }
                return true
            }
        }

        mutating func enter(_ opening: UInt8) -> Bool {
            skipSpace()
            guard byte == opening else { return false }
            position += 1
            return true
        }

        private mutating func leave(_ closing: UInt8) -> Bool {
            enter(closing)
        }

        /// A member's key and its colon.
        mutating func key() -> Bool {
            skipSpace()
            guard string() else { return false }
            return enter(UInt8(ascii: ":"))
        }

        mutating func separator() {
            skipSpace()
            if byte == UInt8(ascii: ",") { position += 1 }
        }

        private mutating func string() -> Bool {
            guard byte == UInt8(ascii: "\"") else { return false }
            position += 1
            while position < bytes.count {
                switch byte {
                case UInt8(ascii: "\\"): position += 2
                case UInt8(ascii: "\""): position += 1; return true
                default: position += 1
                }
            }
            return false
        }

        private mutating func skipSpace() {
            while byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
        }

        private static func ends(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")
                || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }
    }
}
