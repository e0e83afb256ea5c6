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
            return try input.combined(with: operand ?? .integer(0), filter).value
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
            return try input.rounded(to: 0, filter == .ceil ? .up : .down).value
        case .round:
            guard let given = LiquidFilter.integer(arguments.first ?? .integer(0)) else {
                throw LiquidFailure(message: "The places of 'round' must be a whole number.")
            }
            // Past 400 places either way, every number this reads rounds the same.
            let places = min(max(given, -400), 400)
            let rounded = try input.rounded(to: places, .toNearestOrAwayFromZero)
            // As Liquid: rounded to 0 places, a whole number; to others, a fraction stays one.
            if places == 0 || input.isInteger { return rounded.value }
            return .double(rounded.double)
        case .atLeast, .atMost:
            let bound = operand ?? .integer(0)
            let past = filter == .atLeast ? bound.double > input.double : bound.double < input.double
            return (past ? bound : input).value
        default:
            return value
        }
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
        return .decimal(mantissa: negative ? -mantissa : mantissa, scale: scale - exponentSign * exponent)
    }

    /// Ruby's `String#to_i`: blanks, a sign, then digits (single `_` between them allowed), up to
    /// the first other character; 0 when there are none.
    private static func leadingInteger(_ text: String) throws(LiquidFailure) -> LiquidNumber {
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

    var isInteger: Bool {
        if case .integer = self { true } else { false }
    }

    var double: Double {
        switch self {
        case .integer(let integer): Double(integer)
        case .decimal(let mantissa, let scale): Double("\(mantissa)e\(-scale)") ?? .nan
        case .double(let double): double
        }
    }

    /// Both as decimals of one scale, or nil when that does not fit 64 bits.
    private static func aligned(_ a: LiquidNumber, _ b: LiquidNumber) -> (Int64, Int64, scale: Int)? {
        func parts(_ number: LiquidNumber) -> (Int64, Int)? {
            switch number {
            case .integer(let integer): (integer, 0)
            case .decimal(let mantissa, let scale): (mantissa, scale)
            case .double: nil
            }
        }
        guard var (x, xs) = parts(a), var (y, ys) = parts(b) else { return nil }
        func widen(_ value: inout Int64, _ scale: inout Int, to target: Int) -> Bool {
            while scale < target {
                let (next, overflow) = value.multipliedReportingOverflow(by: 10)
                if overflow { return false }
                value = next
                scale += 1
            }
            return true
        }
        let scale = max(xs, ys)
        guard widen(&x, &xs, to: scale), widen(&y, &ys, to: scale) else { return nil }
        return (x, y, scale)
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
                guard !(a == .min && b == -1) else { throw beyond }
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
        if let (a, b, scale) = Self.aligned(self, other) {
            switch filter {
            case .plus, .minus:
                let (sum, overflow) = filter == .plus ? a.addingReportingOverflow(b) : a.subtractingReportingOverflow(b)
                if !overflow { return .decimal(mantissa: sum, scale: scale) }
            case .times:
                let (product, overflow) = a.multipliedReportingOverflow(by: b)
                if !overflow { return .decimal(mantissa: product, scale: scale * 2) }
            case .modulo:
                var remainder = a.remainderReportingOverflow(dividingBy: b).partialValue
                if remainder != 0, (remainder < 0) != (b < 0) { remainder += b }
                return .decimal(mantissa: remainder, scale: scale)
            default:
                break
            }
        }
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

    /// Rounded to `places` decimal places (negative: to tens, hundreds...) in `rule`; an integer
    /// stays one, a decimal stays a decimal.
    private func rounded(to places: Int, _ rule: FloatingPointRoundingRule) throws(LiquidFailure) -> LiquidNumber {
        switch self {
        case .integer(let integer):
            guard places < 0 else { return self }
            guard places > -19 else { return .integer(0) }
            var unit: Int64 = 1
            for _ in 0 ..< -places { unit *= 10 }
            return try LiquidNumber.decimal(mantissa: integer, scale: 0).dividedRounded(by: unit, rule, scale: places)
        case .decimal(let mantissa, let scale):
            guard scale > places else { return self }
            let drop = scale - places
            guard drop < 19 else { return .decimal(mantissa: 0, scale: max(places, 0)) }
            var unit: Int64 = 1
            for _ in 0..<drop { unit *= 10 }
            return try LiquidNumber.decimal(mantissa: mantissa, scale: scale).dividedRounded(by: unit, rule, scale: places)
        case .double(let double):
            var scale = 1.0
            for _ in 0..<Swift.min(Swift.abs(places), 308) { scale *= 10 }
            let result = places >= 0 ? (double * scale).rounded(rule) / scale : (double / scale).rounded(rule) * scale
            if places == 0 {
                guard let integer = Int64(exactly: result) else { throw LiquidFailure(message: "The result is beyond 64 bits.") }
                return .integer(integer)
            }
            return .double(result)
        }
    }

    /// The mantissa divided by `unit` and rounded in `rule`, at the scale `places`: an integer
    /// at scale 0 or less.
    private func dividedRounded(by unit: Int64, _ rule: FloatingPointRoundingRule, scale places: Int) throws(LiquidFailure) -> LiquidNumber {
        guard case .decimal(let mantissa, _) = self else { return self }
        var (quotient, remainder) = mantissa.quotientAndRemainder(dividingBy: unit)
        if remainder != 0 {
            let away: Bool
            switch rule {
            case .up: away = remainder > 0
            case .down: away = remainder < 0
            case .towardZero: away = false
            default: away = Swift.abs(remainder) >= unit - Swift.abs(remainder)
            }
            if away { quotient += remainder > 0 ? 1 : -1 }
            remainder = 0
        }
        if places <= 0 {
            var integer = quotient
            for _ in 0 ..< -places {
                let (next, overflow) = integer.multipliedReportingOverflow(by: 10)
                if overflow { throw LiquidFailure(message: "The result is beyond 64 bits.") }
                integer = next
            }
            return .integer(integer)
        }
        return .decimal(mantissa: quotient, scale: places)
    }
}
