internal import PushmapJSON

/// A number as Liquid's math filters read their value and argument (Ruby's `Utils.to_number`):
/// an integer stays one, a fraction (a JSON number with one, or a text such as `"2.50"`) is an
/// exact decimal, as Ruby's BigDecimal is, so `0.1 | plus: 0.2` gives 0.3; any other text is its
/// leading integer (`"12 items"` is 12, `"abc"` 0), and nil, true or a list is 0.
///
/// Where Liquid would go on with a number beyond 64 bits, the filter fails instead, naming it:
/// a notification never shows a number rounded on the way.
enum LiquidNumber: Equatable {
    case integer(Int64)
    /// `mantissa` × 10^-`scale`, exact.
    case decimal(mantissa: Int64, scale: Int)
    /// A fraction too long for the exact form, as Ruby's `to_f` would give it.
    case double(Double)

    static func apply(_ filter: LiquidStandardFilter, to value: JSONValue, _ arguments: [JSONValue], name: String) throws(LiquidFailure) -> JSONValue {
        let input = try read(value, name)
        let operand = try arguments.first.map { (argument) throws(LiquidFailure) in try read(argument, name) }
        switch filter {
        case .plus, .minus, .times, .dividedBy, .modulo:
            return try input.combined(with: operand ?? .integer(0), filter).checked()
        case .abs:
            switch input {
            case .integer(let integer):
                guard integer != .min else { throw LiquidFailure(message: "The result is beyond 64 bits.") }
                return .integer(Swift.abs(integer))
            case .decimal(let mantissa, let scale):
                guard mantissa != .min else { return .double(Swift.abs(input.double)) }
                return LiquidNumber.decimal(mantissa: Swift.abs(mantissa), scale: scale).value
            case .double(let double): return .double(Swift.abs(double))
            }
        case .ceil, .floor:
            return try input.rounded(to: 0, filter == .ceil ? .up : .down).checked()
        case .round:
            // As Liquid, the places are a number as any other (nil, false or a word: 0), its
            // fraction dropped; past 400 either way, every number this reads rounds the same.
            // Places past 32 bits Ruby cannot take (a RangeError): the recipient fails, as there.
            // Its range holds the number before its fraction is dropped: -2147483648.5 is past it
            // (the twenty-second audit, N11), 2147483647.9 is not.
            if let places = operand?.double, places >= Double(Int32.max) + 1 || places < Double(Int32.min) {
                throw LiquidFailure(message: "The number of places of 'round' must fit in 32 bits.")
            }
            let given = operand.map { (places: LiquidNumber) -> Int in
                let double = places.double
                return double.isNaN ? 0 : Int(Swift.min(Swift.max(double.rounded(.towardZero), -400), 400))
            } ?? 0
            let rounded = try input.rounded(to: given, .toNearestOrAwayFromZero)
            // A fraction rounded to places stays one, as Ruby's to_f gives it.
            if case .decimal = rounded { return .double(rounded.double) }
            return try rounded.checked()
        case .atLeast, .atMost:
            let bound = operand ?? .integer(0)
            let past = filter == .atLeast ? bound.exceeds(input) : input.exceeds(bound)
            return try (past ? bound : input).checked()
        default:
            return value
        }
    }

    /// `increment`'s or `decrement`'s count from `value` (nil: none yet), and the next: Ruby adds
    /// the step to the value as it is, so a fraction goes on as one (5.5, then 6.5) and nil or
    /// false start at 0. What Ruby cannot add to (text, true, a list; a TypeError stops Liquid),
    /// a whole number past 64 bits and a count that would pass it fail the recipient.
    static func counted(_ value: JSONValue?, by step: Int64, name: String) throws(LiquidFailure) -> (current: JSONValue, next: JSONValue) {
        let tag = step > 0 ? "increment" : "decrement"
        if let number = value.flatMap(LiquidWholeNumber.init) { throw LiquidFailure(message: number.refusal("'\(tag)'")) }
        switch value {
        case nil, .null, .bool(false):
            return (.integer(0), .integer(step))
        case .integer(let integer):
            let (next, overflow) = integer.addingReportingOverflow(step)
            if overflow { throw LiquidFailure(message: "'\(tag) \(name)' would pass 64 bits: \(name) is \(integer).") }
            return (.integer(integer), .integer(next))
        case .double(let double):
            return (.double(double), .double(double + Double(step)))
        case let other?:
            throw LiquidFailure(message: "'\(tag) \(name)' counts from a number, and \(name) is \(LiquidText.plain(other)).")
        }
    }

    /// The values added as numbers, as Liquid's `sum` adds them: 0 for none.
    static func sum(_ values: [JSONValue], name: String) throws(LiquidFailure) -> JSONValue {
        var total = LiquidNumber.integer(0)
        for value in values { total = try total.combined(with: try read(value, name), .plus) }
        return try total.checked()
    }

    /// The number a value stands for, as Ruby's `Utils.to_number` reads it.
    static func read(_ value: JSONValue, _ name: String) throws(LiquidFailure) -> LiquidNumber {
        if let number = LiquidWholeNumber(value) { throw LiquidFailure(message: number.refusal("'\(name)'")) }
        switch value {
        case .integer(let integer):
            return .integer(integer)
        case .double(let double):
            guard double.isFinite else { throw LiquidFailure(message: "The number is not finite.") }
            // The shortest text that reads back as this Double, as Ruby's BigDecimal(float.to_s).
            return decimal(String(double)) ?? .double(double)
        case .string(let text):
            let trimmed = LiquidTextEdit.stripped(text, leading: true, trailing: true)
            if isFraction(trimmed) { return decimal(trimmed) ?? .double(Double(trimmed) ?? 0) }
            return try leadingInteger(text)
        default:
            return .integer(0)
        }
    }

    /// Whether the text is `-?digits.digits`, the only fraction Liquid reads from a text.
    private static func isFraction(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        guard let dot = bytes.firstIndex(of: UInt8(ascii: ".")) else { return false }
        let whole = bytes[..<dot], fraction = bytes[bytes.index(after: dot)...]
        let digits = { (part: Substring.UTF8View.SubSequence) in !part.isEmpty && part.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        return digits(whole) && digits(fraction)
    }

    /// `[-]digits[.digits][e[+-]digits]` as an exact decimal, or nil when it does not fit 64 bits.
    private static func decimal(_ text: String) -> LiquidNumber? {
        var mantissa: Int64 = 0, scale = 0, negative = false, exponent = 0, exponentSign = 1
        var state = 0 // 0 whole digits, 1 fraction digits, 2 exponent
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "-") where state == 2: exponentSign = -1
            case UInt8(ascii: "-"): negative = true
            case UInt8(ascii: "+"): break
            case UInt8(ascii: "."): state = 1
            case UInt8(ascii: "e"), UInt8(ascii: "E"): state = 2
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = Int64(byte - UInt8(ascii: "0"))
                if state == 2 {
                    exponent = exponent * 10 + Int(digit)
                    if exponent > 400 { return nil }
                    continue
                }
                let (times, overflowA) = mantissa.multipliedReportingOverflow(by: 10)
                let (sum, overflowB) = times.addingReportingOverflow(digit)
                if overflowA || overflowB { return nil }
                mantissa = sum
                if state == 1 { scale += 1 }
            default:
                return nil
            }
        }
        // Trailing zeros dropped (2.50 is 2.5), so that aligning two numbers overflows less often.
        var exactScale = scale - exponentSign * exponent
        while exactScale > 0, mantissa != 0, mantissa % 10 == 0 {
            mantissa /= 10
            exactScale -= 1
        }
        return .decimal(mantissa: negative ? -mantissa : mantissa, scale: exactScale)
    }

    /// Ruby's `String#to_i`: blanks, a sign, then digits (single `_` between them allowed), up to
    /// the first other character; 0 when there are none.
    static func leadingInteger(_ text: String) throws(LiquidFailure) -> LiquidNumber {
        var bytes = text.utf8.drop(while: LiquidSourceText.isSpace)
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var value: Int64 = 0
        var last: UInt8 = 0
        for byte in bytes {
            if byte == UInt8(ascii: "_"), last >= 0x30, last <= 0x39 {
                last = byte
                continue
            }
            guard byte >= 0x30, byte <= 0x39 else { break }
            let digit = Int64(byte - 0x30)
            let (times, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            if overflowA || overflowB {
                throw LiquidFailure(message: "\(LiquidText.plain(.string(text))) holds a whole number beyond 64 bits.")
            }
            value = sum
            last = byte
        }
        return .integer(value)
    }

    /// The number as a JSON value: a decimal as the Double nearest it, as Ruby's `to_f`.
    var value: JSONValue {
        switch self {
        case .integer(let integer): .integer(integer)
        case .decimal, .double: .double(double)
        }
    }

    /// The value, or a failure where it is no finite number: Ruby would write Infinity or NaN.
    func checked() throws(LiquidFailure) -> JSONValue {
        let result = value
        if case .double(let double) = result, !double.isFinite {
            throw LiquidFailure(message: "The result is too large to show.")
        }
        return result
    }

    var double: Double {
        switch self {
        case .integer(let integer): Double(integer)
        case .decimal(let mantissa, let scale): Double("\(mantissa)e\(-scale)") ?? .nan
        case .double(let double): double
        }
    }

    /// Whether this is greater than `other`, exactly where both are exact (Ruby compares
    /// BigDecimals): in Doubles, `"0.999999999999999999" | at_least: 1` was a tie, and kept the
    /// fraction (the twenty-fourth audit, A7).
    private func exceeds(_ other: LiquidNumber) -> Bool {
        if let (a, b, _) = Self.aligned(self, other, as: Int128.self) { return a > b }
        return double > other.double
    }

    /// The number as mantissa × 10^-scale, nil for a Double.
    private var exactParts: (mantissa: Int64, scale: Int)? {
        switch self {
        case .integer(let integer): (integer, 0)
        case .decimal(let mantissa, let scale): (mantissa, scale)
        case .double: nil
        }
    }

    /// Both as decimals of one scale, or nil when that does not fit `Integer`: 64 bits for the
    /// exact decimal, 128 for a result past it (``wide(_:_:_:)``).
    private static func aligned<Integer: FixedWidthInteger & SignedInteger>(
        _ a: LiquidNumber, _ b: LiquidNumber, as _: Integer.Type
    ) -> (Integer, Integer, scale: Int)? {
        guard let (xm, xs) = a.exactParts, let (ym, ys) = b.exactParts else { return nil }
        var (x, y) = (Integer(xm), Integer(ym))
        func widen(_ value: inout Integer, from scale: Int, to target: Int) -> Bool {
            for _ in scale..<target {
                let (next, overflow) = value.multipliedReportingOverflow(by: 10)
                if overflow { return false }
                value = next
            }
            return true
        }
        let scale = max(xs, ys)
        guard widen(&x, from: xs, to: scale), widen(&y, from: ys, to: scale) else { return nil }
        return (x, y, scale)
    }

    /// The exact result, as Ruby's BigDecimal has it, of what overflowed 64 bits on the way:
    /// worked out in 128 bits, then kept as a decimal when it fits 64 bits, else the Double
    /// nearest it (its `to_f`). Any product of two 64-bit mantissas fits; a sum, a remainder or
    /// a quotient does while the scales are close enough. Nil past that (the Doubles are used).
    /// The twentieth audit (N1): `1.2345678901234567 | times: 3` was worked out in Doubles,
    /// 3.70370367037037 where Liquid shows 3.7037036703703703.
    private static func wide(_ a: LiquidNumber, _ b: LiquidNumber, _ filter: LiquidStandardFilter) -> LiquidNumber? {
        let result: Int128, scale: Int
        if filter == .times {
            guard let (x, xs) = a.exactParts, let (y, ys) = b.exactParts else { return nil }
            (result, scale) = (Int128(x) * Int128(y), xs + ys)
        } else {
            guard let (x, y, common) = aligned(a, b, as: Int128.self) else { return nil }
            switch filter {
            case .plus, .minus:
                let (sum, overflow) = filter == .plus ? x.addingReportingOverflow(y) : x.subtractingReportingOverflow(y)
                if overflow { return nil }
                result = sum
            case .modulo:
                var remainder = x % y
                if remainder != 0, (remainder < 0) != (y < 0) { remainder += y }
                result = remainder
            case .dividedBy:
                return .double(quotient(x, y))
            default:
                return nil
            }
            scale = common
        }
        if let mantissa = Int64(exactly: result) { return .decimal(mantissa: mantissa, scale: scale) }
        return .double(Double("\(result)e\(-scale)") ?? .nan)
    }

    /// Ruby's `+ - * / %`: on two integers an integer (division and remainder rounded toward
    /// minus infinity), else the exact decimal.
    private func combined(with other: LiquidNumber, _ filter: LiquidStandardFilter) throws(LiquidFailure) -> LiquidNumber {
        let beyond = LiquidFailure(message: "The result is beyond 64 bits.")
        if case .integer(let a) = self, case .integer(let b) = other {
            let result: (Int64, Bool)
            switch filter {
            case .plus: result = a.addingReportingOverflow(b)
            case .minus: result = a.subtractingReportingOverflow(b)
            case .times: result = a.multipliedReportingOverflow(by: b)
            default:
                guard b != 0 else { throw LiquidFailure(message: "Division by zero.") }
                // The one quotient past 64 bits; its remainder is 0.
                guard !(a == .min && b == -1) else {
                    if filter == .modulo { return .integer(0) }
                    throw beyond
                }
                let (quotient, remainder) = a.quotientAndRemainder(dividingBy: b)
                let floors = remainder != 0 && (remainder < 0) != (b < 0)
                result = filter == .dividedBy ? (floors ? quotient - 1 : quotient, false) : (floors ? remainder + b : remainder, false)
            }
            if result.1 { throw beyond }
            return .integer(result.0)
        }
        if other.double == 0, filter == .dividedBy || filter == .modulo {
            // Liquid writes Infinity or NaN here; no notification should show either.
            throw LiquidFailure(message: "Division by zero.")
        }
        if let (a, b, scale) = Self.aligned(self, other, as: Int64.self) {
            switch filter {
            case .plus, .minus:
                let (sum, overflow) = filter == .plus ? a.addingReportingOverflow(b) : a.subtractingReportingOverflow(b)
                if !overflow { return .decimal(mantissa: sum, scale: scale) }
            case .times:
                let (product, overflow) = a.multipliedReportingOverflow(by: b)
                if !overflow { return .decimal(mantissa: product, scale: scale * 2) }
            case .dividedBy:
                return .double(Self.quotient(a, b))
            case .modulo:
                var remainder = a.remainderReportingOverflow(dividingBy: b).partialValue
                if remainder != 0, (remainder < 0) != (b < 0) { remainder += b }
                return .decimal(mantissa: remainder, scale: scale)
            default:
                break
            }
        }
        if let exact = Self.wide(self, other, filter) { return exact }
        let a = double, b = other.double
        switch filter {
        case .plus: return .double(a + b)
        case .minus: return .double(a - b)
        case .times: return .double(a * b)
        case .dividedBy: return .double(a / b)
        default:
            let remainder = a.truncatingRemainder(dividingBy: b)
            return .double(remainder != 0 && (remainder < 0) != (b < 0) ? remainder + b : remainder)
        }
    }

    /// a / b (b not 0) as the Double nearest the decimal quotient, as Ruby's BigDecimal division
    /// then `to_f` gives it: long division to 20 significant digits, read as a Double.
    private static func quotient<Integer: FixedWidthInteger & SignedInteger>(_ a: Integer, _ b: Integer) -> Double {
        let divisor = b.magnitude
        let (whole, first) = a.magnitude.quotientAndRemainder(dividingBy: divisor)
        var text = (a < 0) != (b < 0) ? "-" : ""
        text += String(whole) + "."
        var significant = whole == 0 ? 0 : String(whole).count
        var digits = 0
        var remainder = first
        while remainder != 0, significant < 20, digits < 400 {
            // remainder < divisor, so remainder × 10 / divisor is one digit.
            let (digit, rest) = divisor.dividingFullWidth(remainder.multipliedFullWidth(by: 10))
            remainder = rest
            text += String(digit)
            if significant > 0 || digit != 0 { significant += 1 }
            digits += 1
        }
        return Double(text + (digits == 0 ? "0" : "")) ?? .nan
    }

    /// Rounded to `places` decimal places (negative: to tens, hundreds...) in `rule`: to 0 places
    /// or fewer a whole number, as Ruby's `ceil`, `floor` and `round` give; to more, an integer
    /// stays one and a decimal stays a decimal.
    private func rounded(to places: Int, _ rule: FloatingPointRoundingRule) throws(LiquidFailure) -> LiquidNumber {
        let beyond = LiquidFailure(message: "The result is beyond 64 bits.")
        var mantissa: Int64, scale: Int
        switch self {
        case .integer(let integer):
            if places >= 0 { return self }
            (mantissa, scale) = (integer, 0)
        case .decimal(let given, let givenScale):
            (mantissa, scale) = (given, givenScale)
        case .double(let double):
            // Only a fraction too long for the exact form: its digits past 17 are lost already.
            let unit = (0..<Swift.min(Swift.abs(places), 308)).reduce(1.0) { value, _ in value * 10 }
            let result = places >= 0 ? (double * unit).rounded(rule) / unit : (double / unit).rounded(rule) * unit
            if places > 0 { return .double(result) }
            guard let integer = Int64(exactly: result) else { throw beyond }
            return .integer(integer)
        }
        if scale > places {
            mantissa = Self.rounded(mantissa, dropping: scale - places, rule)
            scale = places
        }
        if places > 0 { return .decimal(mantissa: mantissa, scale: scale) }
        // A whole number: the mantissa times ten for each place the scale is below zero.
        for _ in 0 ..< -scale where mantissa != 0 {
            let (next, overflow) = mantissa.multipliedReportingOverflow(by: 10)
            if overflow { throw beyond }
            mantissa = next
        }
        return .integer(mantissa)
    }

    /// The mantissa with its last `drop` digits rounded away in `rule`; a `drop` past its digits
    /// leaves 0, or ±1 where the rule rounds away from zero.
    private static func rounded(_ mantissa: Int64, dropping drop: Int, _ rule: FloatingPointRoundingRule) -> Int64 {
        let magnitude = mantissa.magnitude
        // 10^drop, or nil when it passes every magnitude (10^20 > 2^64).
        var unit: UInt64? = 1
        for _ in 0..<drop {
            guard let current = unit else { break }
            let (next, overflow) = current.multipliedReportingOverflow(by: 10)
            unit = overflow ? nil : next
        }
        let quotient = unit.map { magnitude / $0 } ?? 0
        let remainder = unit.map { magnitude % $0 } ?? magnitude
        var away = false
        if remainder != 0 {
            switch rule {
            case .up: away = mantissa > 0
            case .down: away = mantissa < 0
            case .towardZero: away = false
            default: away = unit.map { remainder >= $0 - remainder } ?? false
            }
        }
        let result = Int64(quotient) + (away ? 1 : 0)
        return mantissa < 0 ? -result : result
    }
}
