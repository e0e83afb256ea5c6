@_spi(Engine) internal import PushmapJSON

/// Small text tests the checks share, written by hand to keep Foundation out of the library.
enum ValueFormat {
    /// A literal as a string, copied from its bytes (where interpolating it goes through its
    /// description).
    static func text(_ literal: StaticString) -> String {
        String(decoding: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount), as: UTF8.self)
    }

    // MARK: bytes in place (a payload's strings as the checks read them)

    /// Whether the bytes are exactly `word`'s.
    @inline(__always)
    static func equals(_ bytes: UnsafeRawBufferPointer, _ word: StaticString) -> Bool {
        JSONItems.same(bytes, word)
    }

    /// Whether two literals are the same bytes.
    static func equals(_ a: StaticString, _ b: StaticString) -> Bool {
        JSONItems.same(UnsafeRawBufferPointer(start: a.utf8Start, count: a.utf8CodeUnitCount), b)
    }

    /// Whether the bytes are one of `words`'.
    static func isOne(of words: [StaticString], _ bytes: UnsafeRawBufferPointer) -> Bool {
        for word in words where JSONItems.same(bytes, word) { return true }
        return false
    }

    /// Whether the bytes are `word`'s in any case of ASCII letters ("high" for "HIGH").
    static func equalsIgnoringCase(_ bytes: UnsafeRawBufferPointer, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        for i in 0..<bytes.count where lowered(bytes[i]) != lowered(word.utf8Start[i]) { return false }
        return true
    }

    /// Whether the bytes start with `prefix`, in any case of ASCII letters.
    static func hasPrefixIgnoringCase(_ bytes: UnsafeRawBufferPointer, _ prefix: StaticString) -> Bool {
        bytes.count >= prefix.utf8CodeUnitCount && equalsIgnoringCase(UnsafeRawBufferPointer(rebasing: bytes.prefix(prefix.utf8CodeUnitCount)), prefix)
    }

    /// The number of characters in `bytes` (valid UTF-8), or nil as soon as it surely is at most
    /// `limit`: text of at most `limit` bytes cannot have more characters, so most texts are never
    /// walked grapheme by grapheme.
    static func characterCount(_ bytes: UnsafeRawBufferPointer, over limit: Int) -> Int? {
        guard bytes.count > limit else { return nil }
        let count = String(decoding: bytes, as: UTF8.self).count
        return count > limit ? count : nil
    }

    /// 6 or 8 hex digits and nothing else.
    static func isHexColour(_ bytes: UnsafeRawBufferPointer) -> Bool {
        (bytes.count == 6 || bytes.count == 8) && bytes.allSatisfy(isHexDigit)
    }

    /// The value of a decimal integer with an optional sign, as Java's `Long.parseLong` reads it;
    /// nil when it is not one or does not fit in 64 bits.
    static func integer(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        integer(bytes: UnsafeBufferPointer(start: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), count: bytes.count)[...])
    }

    /// Whether a URL's scheme is https, in any case.
    static func isHTTPS(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let prefix: StaticString = "https://"
        guard bytes.count >= prefix.utf8CodeUnitCount else { return false }
        for i in 0..<prefix.utf8CodeUnitCount where lowered(bytes[i]) != prefix.utf8Start[i] { return false }
        return true
    }

    /// A string value quoted for a message, shortened so that a finding stays on one line: a
    /// line break in it is written as its escape (`"3\n4"`), so that the value shown is the one
    /// the payload holds (the twenty-fifth audit, F7; it was a blank).
    static func quoted(_ bytes: UnsafeRawBufferPointer) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        let shown = characterCount(bytes, over: 40) != nil ? String(text.prefix(40)) + "…" : text
        guard shown.contains(where: \.isNewline) else { return "\"" + shown + "\"" }
        var out = "\""
        for character in shown {
            guard character.isNewline else {
                out.append(character)
                continue
            }
            for scalar in character.unicodeScalars {
                switch scalar {
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                default: out += "\\u" + fourHexDigits(scalar.value)
                }
            }
        }
        return out + "\""
    }

    /// Four upper-case hex digits, as a JSON escape writes a scalar of the first plane.
    private static func fourHexDigits(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// A value as a message shows it: a string quoted; with `literals`, numbers and Booleans as
    /// written; anything else by its type.
    static func shown(_ value: JSONNode, literals: Bool) -> String {
        if let text = value.utf8 { return quoted(text) }
        if literals {
            if let number = value.integerValue { return decimal(number) }
            if let number = value.doubleValue { return "\(number)" }
            if let flag = value.boolValue { return String(flag) }
        }
        return withArticle(value.typeName)
    }

    /// Whether the value is the whole number `number`, however written (1.0 is 1).
    static func isInteger(_ value: JSONNode?, _ number: Int64) -> Bool {
        wholeNumber(value) == number
    }

    /// The whole number a JSON number is, written `1`, `1.0` or `1e0` alike: JSON has one kind
    /// of number, iOS reads each as the NSNumber it is, and FCM keeps apns.payload's numbers as
    /// doubles. nil for a fraction, a number past 64 bits, or no number.
    static func wholeNumber(_ value: JSONNode?) -> Int64? {
        guard let value else { return nil }
        if let integer = value.integerValue { return integer }
        guard let double = value.doubleValue, double.rounded() == double, abs(double) < 9.2e18 else { return nil }
        return Int64(double)
    }

    /// A number as protobuf's JSON reads one: a JSON number, or a string holding one in JSON's
    /// own grammar (`"1e5"`, `"2.50"`), or `"NaN"`, `"Infinity"`, `"-Infinity"` (the conformance
    /// suite's FloatFieldQuotedValue, Int32FieldQuotedExponentialValue). Nil for anything else:
    /// Swift's reader alone would take `"0x10"` and `"inf"`, which protobuf refuses.
    static func protobufNumber(_ value: JSONNode) -> Double? {
        if let integer = value.integerValue { return Double(integer) }
        if let double = value.doubleValue { return double }
        guard let text = value.utf8 else { return nil }
        if equals(text, "NaN") { return .nan }
        if equals(text, "Infinity") { return .infinity }
        if equals(text, "-Infinity") { return -.infinity }
        guard isJSONNumber(text) else { return nil }
        return Double(String(decoding: text, as: UTF8.self))
    }

    /// A whole number as protobuf's JSON reads one for an integer field or an enum: any of
    /// ``protobufNumber(_:)``'s forms with no fraction (`1.0`, `"1e2"`); a string of digits is
    /// read exactly, past what a double holds.
    static func protobufWholeNumber(_ value: JSONNode) -> Int64? {
        if let whole = wholeNumber(value) ?? value.utf8.flatMap(integer) { return whole }
        guard let double = protobufNumber(value), double.isFinite, double.rounded(.towardZero) == double, abs(double) < 9.2e18 else { return nil }
        return Int64(double)
    }

    /// Whether `text` is a number in JSON's grammar: `-`, digits with no leading zero, a fraction,
    /// an exponent.
    static func isJSONNumber(_ text: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        func digits() -> Int {
            let start = index
            while index < text.count, isDigit(text[index]) { index += 1 }
            return index - start
        }
        if index < text.count, text[index] == UInt8(ascii: "-") { index += 1 }
        let whole = digits()
        guard whole > 0, whole == 1 || text[index - whole] != UInt8(ascii: "0") else { return false }
        if index < text.count, text[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return false }
        }
        if index < text.count, text[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return false }
        }
        return index == text.count
    }

    /// Whether an APNS flag is set as iOS reads it: the number 1, or `true`, which iOS reads as 1
    /// (the flag rule warns of `true`, as Apple documents 1).
    static func isFlagSet(_ value: JSONNode?) -> Bool {
        wholeNumber(value) == 1 || value?.boolValue == true
    }

    // MARK: characters and numbers

    static func isHexDigit(_ byte: UInt8) -> Bool {
        byte.hexDigitValue != nil
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func integer(bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int64? {
        var bytes = bytes
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        guard !bytes.isEmpty else { return nil }
        var value: Int64 = 0
        for byte in bytes {
            guard isDigit(byte) else { return nil }
            let digit = Int64(byte - UInt8(ascii: "0"))
            let (times, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !overflowA, !overflowB else { return nil }
            value = sum
        }
        return value
    }

    /// A protobuf duration as FCM reads `android.ttl`: digits, an optional fraction of up to 9
    /// digits, then `s`. Gives the whole seconds and whether a non-zero fraction follows.
    /// Whether `text` is a duration but for a leading minus: "-10s".
    static func isNegativeDuration(_ text: UnsafeRawBufferPointer) -> Bool {
        text.first == UInt8(ascii: "-") && duration(UnsafeRawBufferPointer(rebasing: text.dropFirst())) != nil
    }

    /// Whether `text` is a duration but for seconds past protobuf's range (315576000000s).
    static func isDurationPastRange(_ text: UnsafeRawBufferPointer) -> Bool {
        guard text.last == UInt8(ascii: "s"), duration(text) == nil else { return false }
        let whole = text.dropLast().prefix { $0 != UInt8(ascii: ".") }.drop { $0 == UInt8(ascii: "-") }
        return !whole.isEmpty && whole.allSatisfy(isDigit) && (whole.count > 12 || (integer(UnsafeRawBufferPointer(rebasing: whole)) ?? 0) > 315_576_000_000)
    }

    static func duration(_ text: UnsafeRawBufferPointer) -> (seconds: Int64, fraction: Bool)? {
        if text.first == UInt8(ascii: "-") {
            // "-0s" is zero: protobuf's JSON parser reads it so (the twenty-ninth audit, F7).
            let rest = UnsafeRawBufferPointer(rebasing: text.dropFirst())
            guard rest.first != UInt8(ascii: "-"), let zero = duration(rest), zero.seconds == 0, !zero.fraction else { return nil }
            return zero
        }
        guard text.last == UInt8(ascii: "s") else { return nil }
        let number = text.dropLast()
        let parts = number.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(isDigit) else { return nil }
        var fraction = false
        if parts.count == 2 {
            let digits = parts[1]
            guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(isDigit) else { return nil }
            fraction = digits.contains { $0 != UInt8(ascii: "0") }
        }
        // Past protobuf's Duration range (10,000 years) the reader refuses it (conformance
        // DurationJsonInputTooLarge; the thirty-first audit).
        guard let seconds = integer(UnsafeRawBufferPointer(rebasing: whole)), seconds <= 315_576_000_000 else { return nil }
        return (seconds, fraction)
    }

    /// An RFC 3339 time as protobuf's JSON reads a timestamp: `YYYY-MM-DDTHH:MM:SS`, up to 9
    /// decimals, then `Z` or an offset `±HH:MM`.
    static func isTimestamp(_ text: UnsafeRawBufferPointer) -> Bool {
        let bytes = Array(text)
        func number(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[at..<at + count] {
                guard isDigit(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func byte(_ at: Int, _ expected: Character) -> Bool { at < bytes.count && bytes[at] == expected.asciiValue }
        guard let year = number(0, 4), year >= 1, byte(4, "-"), let month = number(5, 2), (1...12).contains(month), byte(7, "-"),
              let day = number(8, 2), day >= 1, byte(10, "T"), let hour = number(11, 2), hour < 24, byte(13, ":"),
              let minute = number(14, 2), minute < 60, byte(16, ":"), let second = number(17, 2), second < 60 else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day <= days[month - 1] else { return false }
        var at = 19
        if byte(at, ".") {
            at += 1
            let start = at
            while at < bytes.count, isDigit(bytes[at]) { at += 1 }
            guard (1...9).contains(at - start) else { return false }
        }
        if byte(at, "Z") { return at + 1 == bytes.count }
        guard byte(at, "+") || byte(at, "-"), let offsetHours = number(at + 1, 2), offsetHours < 24, byte(at + 3, ":"),
              let offsetMinutes = number(at + 4, 2), offsetMinutes < 60 else { return false }
        // Protobuf's range is 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z in UTC: an offset
        // that takes the first or last day past it is refused (the thirty-first audit, F6).
        let offset = (offsetHours * 60 + offsetMinutes) * (byte(at, "+") ? 1 : -1)
        let minuteOfDay = hour * 60 + minute
        if year == 1, month == 1, day == 1, minuteOfDay - offset < 0 { return false }
        if year == 9999, month == 12, day == 31, minuteOfDay - offset >= 24 * 60 { return false }
        return at + 6 == bytes.count
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    /// "an integer", "a string": a JSON type name for a message.
    static func withArticle(_ typeName: String) -> String {
        switch typeName.first {
        case "a", "e", "i", "o", "u": "an " + typeName
        case "n" where typeName == "null": "null"
        default: "a " + typeName
        }
    }

    /// `number` in decimal, as Swift writes it, for messages.
    static func decimal(_ number: Int64) -> String {
        var bytes: [UInt8] = []
        appendDecimal(number, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `number` in decimal.
    static func appendDecimal(_ number: Int64, to bytes: inout [UInt8]) {
        DecimalText.withDigits(of: number) { bytes.append(contentsOf: $0) }
    }
}
