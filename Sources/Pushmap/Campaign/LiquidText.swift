internal import PushmapJSON

/// How a value shows in a rendering: strings as they are (never read as a template again),
/// whole numbers as their digits (beyond 64 bits too), fractions as Ruby writes them, `true`/`false`,
/// nil as nothing, an array as its elements one after the other (as Liquid joins them), an
/// object as compact JSON (a number beyond 64 bits in it with its digits too).
enum LiquidText {
    static func append(_ value: JSONValue, to output: inout String) {
        switch value {
        case .null: break
        case .string(let string): output += string
        case .bool(let bool): output += bool ? "true" : "false"
        case .integer(let integer): output += String(integer)
        case .double(let double): output += rubyFloat(double)
        case .object:
            if LiquidWholeNumber.isInside(value) {
                appendJSON(value, to: &output)
            } else {
                output += plain(value)
            }
        case .array(let array):
            if let number = LiquidWholeNumber(value) {
                output += number.digits
                return
            }
            for element in array { append(element, to: &output) }
        }
    }

    static func text(of value: JSONValue) -> String {
        if case .string(let string) = value { return string }
        var output = ""
        append(value, to: &output)
        return output
    }

    /// Compact JSON as JSONWriter writes it, but a whole number beyond 64 bits as its digits
    /// (JSONWriter has only the Double, which would print another number).
    private static func appendJSON(_ value: JSONValue, to output: inout String) {
        if let number = LiquidWholeNumber(value) {
            output += number.digits
            return
        }
        switch value {
        case .array(let items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                appendJSON(item, to: &output)
            }
            output += "]"
        case .object(let object):
            output += "{"
            for (index, member) in object.enumerated() {
                if index > 0 { output += "," }
                output += plain(.string(member.key)) + ":"
                appendJSON(member.value, to: &output)
            }
            output += "}"
        default:
            output += plain(value)
        }
    }

    /// A fraction as Ruby's `Float#to_s` writes it, which is what Liquid shows: the shortest
    /// digits that read back as the same double, written out from 0.0001 up (to below 10^15 for
    /// a whole number, to 10^16 for one with a fraction) and with an exponent of at least two
    /// digits beyond (`1.0e+15`, `1.5e-05`), always with a digit after the point. Checked
    /// against Ruby in the reference corpus.
    static func rubyFloat(_ value: Double) -> String {
        guard value.isFinite else { return value.description }
        // Swift's description has the shortest round-trip digits, as Ruby's dtoa gives them.
        let written = value.magnitude.description
        let sign = value.sign == .minus ? "-" : ""
        var digits: [UInt8] = []
        var point = 0 // where the decimal point goes: the value is 0.DIGITS times 10^point
        var exponent = 0, seenPoint = false, inExponent = false, exponentText: [UInt8] = []
        for byte in written.utf8 {
            switch byte {
            case UInt8(ascii: "e"): inExponent = true
            case _ where inExponent: exponentText.append(byte)
            case UInt8(ascii: "."): seenPoint = true
            default:
                if digits.isEmpty && byte == UInt8(ascii: "0") {
                    if seenPoint { point -= 1 } // a leading zero after the point moves it left
                } else {
                    digits.append(byte)
                    if !seenPoint { point += 1 }
                }
            }
        }
        if let read = Int(String(decoding: exponentText, as: UTF8.self)) { exponent = read }
        while digits.last == UInt8(ascii: "0") { digits.removeLast() }
        guard !digits.isEmpty else { return sign + "0.0" }
        point += exponent
        let text = String(decoding: digits, as: UTF8.self)
        // Digits on both sides of the point are written out; a whole number of more than 15
        // digits takes the exponent.
        if point > 0 && point < digits.count { return sign + text.prefix(point) + "." + text.dropFirst(point) }
        if point > 0 && point <= 15 { return sign + text + String(repeating: "0", count: point - digits.count) + ".0" }
        if point > -4 && point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + text }
        let power = point - 1
        let powerDigits = String(power.magnitude)
        return sign + text.prefix(1) + "." + (digits.count > 1 ? String(text.dropFirst()) : "0") + "e" + (power < 0 ? "-" : "+")
            + (powerDigits.count < 2 ? "0" : "") + powerDigits
    }

    /// A value as compact JSON, for a number or an object (and in messages), a whole number
    /// beyond 64 bits as its digits.
    static func plain(_ value: JSONValue) -> String {
        guard LiquidWholeNumber.isInside(value) else { return JSONWriter(style: .compact, sortKeys: false).string(value) }
        var output = ""
        appendJSON(value, to: &output)
        return output
    }
}
