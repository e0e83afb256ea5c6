/// The lexing both parsers share, ``JSONParser`` (to ``JSONValue``) and ``JSONTape`` (to the Lua
/// host's tape): one definition of what a string run, an escape and a number are. Failures come
/// back as kinds; ``JSONParser`` turns them into its messages, the tape parser gives up.
enum JSONLexing {
    /// Whether `byte` is one a JSON string cannot hold as it is: a quote, a backslash or a control
    /// byte. The parser ends a plain run at it; the writer escapes it.
    @inline(__always)
    static func isSpecial(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20
    }

    /// Whether any of the eight bytes of `word` ``isSpecial(_:)``, tested at once.
    @inline(__always)
    static func hasSpecial(_ word: UInt64) -> Bool {
        specialMask(word) != 0
    }

    /// The top bit of each byte of `word` that ``isSpecial(_:)`` may be set; the lowest one set
    /// is exact (a borrow only marks bytes above a true one), so for a word read little-endian
    /// its trailing zeros count the plain bytes before the first special one.
    @inline(__always)
    static func specialMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let tops: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 0x20) & ~word & tops
        let q = word ^ (ones &* 0x22)
        let quote = (q &- ones) & ~q & tops
        let b = word ^ (ones &* 0x5C)
        let backslash = (b &- ones) & ~b & tops
        return control | quote | backslash
    }

    /// The end of the run of plain string bytes from `from`: the first quote, backslash or control
    /// byte. `high` collects the bytes, so a run with no byte over 0x7F skips the UTF-8 check.
    /// Eight bytes at a time while none of them ends the run.
    @inline(__always)
    static func stringRunEnd(_ bytes: UnsafeBufferPointer<UInt8>, _ base: UnsafeRawPointer, from: Int, high: inout UInt64) -> Int {
        let end = bytes.count
        var i = from
        while i + 8 <= end {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            let mask = specialMask(word)
            if mask != 0 {
                // The run ends inside this word: count its plain bytes, no byte-by-byte walk.
                let plain = mask.trailingZeroBitCount >> 3
                high |= word & ((1 &<< UInt64(plain &* 8)) &- 1)
                return i + plain
            }
            high |= word
            i += 8
        }
        while i < end {
            let byte = bytes[i]
            if isSpecial(byte) { break }
            high |= UInt64(byte)
            i += 1
        }
        return i
    }

    /// The offset of the first byte at or after `from` that is not JSON whitespace.
    @inline(__always)
    static func whitespaceEnd(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        var i = from
        while i < bytes.count {
            let byte = bytes[i]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return i }
            i += 1
        }
        return i
    }

    /// A key's bit in a 64-bit duplicate-key filter, from its ``KeyPrint`` (overlapping loads, no
    /// walk): a key whose bit is clear in its object's filter is new
    /// without comparing it to the others, and equal keys get equal bits, which is all a filter needs.
    @inline(__always)
    static func keyFilterBit(bytes key: UnsafeRawBufferPointer) -> UInt64 {
        let print = KeyPrint(bytes: key)
        let mixed = (print.head ^ (print.tail &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(print.length)) &* 0xFF51_AFD7_ED55_8CCD
        return 1 &<< (mixed >> 58)
    }

    // MARK: escapes

    /// What one backslash escape stands for.
    enum Escape {
        /// The escape's UTF-8 bytes (1 to 4, first in the low byte) and the offset after it.
        case bytes(UInt32, count: Int, next: Int)
        /// The input ends inside the escape.
        case unterminated
        /// A `\u` escape without 4 hex digits, and where it starts (a pair's second half has its own).
        case badHex(at: Int)
        /// A surrogate without its partner.
        case loneSurrogate
        /// A backslash followed by this byte, which starts no escape.
        case invalid(UInt8)
    }

    /// Reads the escape whose backslash is at `at`.
    static func escape(_ bytes: UnsafeBufferPointer<UInt8>, at: Int) -> Escape {
        let end = bytes.count
        guard at + 1 < end else { return .unterminated }
        let byte = bytes[at + 1]
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return .bytes(UInt32(byte), count: 1, next: at + 2)
        case UInt8(ascii: "b"): return .bytes(0x08, count: 1, next: at + 2)
        case UInt8(ascii: "f"): return .bytes(0x0C, count: 1, next: at + 2)
        case UInt8(ascii: "n"): return .bytes(0x0A, count: 1, next: at + 2)
        case UInt8(ascii: "r"): return .bytes(0x0D, count: 1, next: at + 2)
        case UInt8(ascii: "t"): return .bytes(0x09, count: 1, next: at + 2)
        case UInt8(ascii: "u"):
            guard var scalar = hexQuad(bytes, at: at + 2) else { return .badHex(at: at) }
            var next = at + 6
            if scalar >= 0xDC00 && scalar <= 0xDFFF { return .loneSurrogate }
            if scalar >= 0xD800 && scalar <= 0xDBFF {
                // A high surrogate must be followed at once by an escaped low one.
                guard next + 1 < end, bytes[next] == UInt8(ascii: "\\"), bytes[next + 1] == UInt8(ascii: "u") else {
                    return .loneSurrogate
                }
                guard let low = hexQuad(bytes, at: next + 2) else { return .badHex(at: next) }
                guard low >= 0xDC00 && low <= 0xDFFF else { return .loneSurrogate }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                next += 6
            }
            let (packed, count) = utf8(scalar)
            return .bytes(packed, count: count, next: next)
        default:
            return .invalid(byte)
        }
    }

    private static func hexQuad(_ bytes: UnsafeBufferPointer<UInt8>, at: Int) -> UInt32? {
        guard at + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for i in at..<(at + 4) {
            guard let digit = bytes[i].hexDigitValue else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// A scalar's UTF-8 bytes, the first in the low byte, and how many there are.
    private static func utf8(_ scalar: UInt32) -> (UInt32, Int) {
        switch scalar {
        case 0..<0x80:
            return (scalar, 1)
        case 0x80..<0x800:
            return ((0xC0 | scalar >> 6) | (0x80 | scalar & 0x3F) << 8, 2)
        case 0x800..<0x10000:
            return ((0xE0 | scalar >> 12) | (0x80 | scalar >> 6 & 0x3F) << 8 | (0x80 | scalar & 0x3F) << 16, 3)
        default:
            return ((0xF0 | scalar >> 18) | (0x80 | scalar >> 12 & 0x3F) << 8 | (0x80 | scalar >> 6 & 0x3F) << 16 | (0x80 | scalar & 0x3F) << 24, 4)
        }
    }

    // MARK: numbers

    /// A number's text, read but not yet converted.
    struct Number {
        var negative = false
        /// The digits as one integer, wrapping past 19 of them (then `digits` says so).
        var mantissa: UInt64 = 0
        /// Significant digits read (leading zeros of a fraction not counted).
        var digits = 0
        var fractionDigits = 0
        var exponent = 0
        var isInteger = true
        /// The offset after the number.
        var end = 0

        /// The value when the text converts exactly without parsing it as text: an integer of up
        /// to 19 digits that fits in Int64, or a double by Clinger's fast path (exact operands,
        /// one rounding). Nil where only the slow path can say.
        var exactValue: JSONValue? {
            if isInteger && digits <= 19 {
                if negative {
                    if mantissa <= UInt64(Int64.max) + 1 { return .integer(Int64(truncatingIfNeeded: 0 &- mantissa)) }
                } else if mantissa <= UInt64(Int64.max) {
                    return .integer(Int64(mantissa))
                }
            }
            let power = exponent - fractionDigits
            guard digits <= 19 && mantissa <= 1 << 53 && power >= -22 && power <= 22 else { return nil }
            let magnitude = Double(mantissa)
            let scaled = power < 0 ? magnitude / powersOfTen[-power] : magnitude * powersOfTen[power]
            return .double(negative ? -scaled : scaled)
        }
    }

    /// Why a number's text is not a number, and where.
    enum NumberFailure: Error {
        case infinity
        case digitAfterMinus(at: Int)
        case leadingZero(at: Int)
        case digitAfterPoint(at: Int)
        case exponentDigit(at: Int)
    }

    /// Reads the number starting at `start` (a minus sign or a digit).
    static func number(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Result<Number, NumberFailure> {
        let end = bytes.count
        var number = Number()
        var pos = start
        number.negative = bytes[pos] == UInt8(ascii: "-")
        if number.negative { pos += 1 }
        guard pos < end, isDigit(bytes[pos]) else {
            if pos < end && bytes[pos] == UInt8(ascii: "I") && startsWith("Infinity", bytes, at: pos) { return .failure(.infinity) }
            return .failure(.digitAfterMinus(at: pos))
        }
        if bytes[pos] == UInt8(ascii: "0") {
            pos += 1
            if pos < end && isDigit(bytes[pos]) { return .failure(.leadingZero(at: pos - 1)) }
        } else {
            while pos < end && isDigit(bytes[pos]) {
                number.mantissa = number.mantissa &* 10 &+ UInt64(bytes[pos] &- UInt8(ascii: "0"))
                number.digits += 1
                pos += 1
            }
        }
        if pos < end && bytes[pos] == UInt8(ascii: ".") {
            number.isInteger = false
            pos += 1
            guard pos < end, isDigit(bytes[pos]) else { return .failure(.digitAfterPoint(at: pos)) }
            while pos < end && isDigit(bytes[pos]) {
                // Leading zeros of the fraction add nothing to the mantissa's size.
                if number.mantissa != 0 || bytes[pos] != UInt8(ascii: "0") { number.digits += 1 }
                number.mantissa = number.mantissa &* 10 &+ UInt64(bytes[pos] &- UInt8(ascii: "0"))
                number.fractionDigits += 1
                pos += 1
            }
        }
        if pos < end && (bytes[pos] | 0x20) == UInt8(ascii: "e") {
            number.isInteger = false
            pos += 1
            var exponentNegative = false
            if pos < end && (bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-")) {
                exponentNegative = bytes[pos] == UInt8(ascii: "-")
                pos += 1
            }
            guard pos < end, isDigit(bytes[pos]) else { return .failure(.exponentDigit(at: pos)) }
            while pos < end && isDigit(bytes[pos]) {
                // Saturate: anything this large is out of range or zero anyway.
                if number.exponent < 100_000 { number.exponent = number.exponent * 10 + Int(bytes[pos] &- UInt8(ascii: "0")) }
                pos += 1
            }
            if exponentNegative { number.exponent = -number.exponent }
        }
        number.end = pos
        return .success(number)
    }

    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    private static func startsWith(_ word: StaticString, _ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        let count = word.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        for i in 0..<count where bytes[offset + i] != word.utf8Start[i] { return false }
        return true
    }
}
