/// A byte-exact UTF-8 checker. The parser validates with the standard library and only
/// comes here, on failure, to find the offending byte for the error message.
enum UTF8Validation {
    /// The length of the well-formed sequence starting at `i` (1 to 4), or 0 when it is
    /// malformed: a stray continuation byte, an overlong form, a surrogate, above U+10FFFF,
    /// or cut short by `end`.
    static func sequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int, end: Int) -> Int {
        let lead = bytes[i]
        if lead < 0x80 { return 1 }
        let length: Int
        // The allowed range of the second byte depends on the lead (RFC 3629's table).
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return 0
        }
        guard i + length <= end else { return 0 }
        let second = bytes[i + 1]
        guard second >= low && second <= high else { return 0 }
        var k = 2
        while k < length {
            guard bytes[i + k] & 0xC0 == 0x80 else { return 0 }
            k += 1
        }
        return length
    }

    /// The offset of the first malformed sequence in `bytes[from..<to]`, or `nil`. With
    /// `skippingEscapes`, backslash escapes (already checked) are stepped over whole.
    static func firstInvalid(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int, skippingEscapes: Bool) -> Int? {
        var i = from
        let raw = UnsafeRawPointer(bytes.baseAddress)
        while i < to {
            // Skip ASCII eight bytes at a time (escapes are ASCII too: only stop for them when told).
            if let raw, !skippingEscapes {
                while i + 8 <= to && raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { i += 8 }
                if i >= to { break }
            }
            let byte = bytes[i]
            if byte < 0x80 {
                i += skippingEscapes && byte == UInt8(ascii: "\\") && i + 1 < to ? (bytes[i + 1] == UInt8(ascii: "u") ? 6 : 2) : 1
                continue
            }
            let length = sequenceLength(bytes, at: i, end: to)
            if length == 0 { return i }
            i += length
        }
        return nil
    }
}

/// Makes `String`s from bytes that must be UTF-8, for hosts that read text from C.
package enum UTF8Text {
    /// The bytes as a string, or nil when they are not valid UTF-8. The standard library's
    /// `String(validating:as:)` is generic and unspecialised here, several times slower.
    package static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if UTF8Validation.firstInvalid(bytes, from: 0, to: bytes.count, skippingEscapes: false) != nil { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The bytes as a string, each byte of a malformed sequence written `\xNN`: a name in another
    /// encoding (a Latin-1 file name) shown as it is, for a one-line message.
    package static func escaped(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var shown = ""
        var from = 0
        while let bad = UTF8Validation.firstInvalid(bytes, from: from, to: bytes.count, skippingEscapes: false) {
            shown += String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<bad]), as: UTF8.self)
            let hex = String(bytes[bad], radix: 16)
            shown += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            from = bad + 1
        }
        return shown + String(decoding: UnsafeBufferPointer(rebasing: bytes[from...]), as: UTF8.self)
    }

    /// A C string (a file name, an argument) as ``escaped(_:)`` shows it.
    package static func escaped(cString: UnsafePointer<CChar>) -> String {
        var count = 0
        while cString[count] != 0 { count += 1 }
        return escaped(UnsafeBufferPointer(start: UnsafeRawPointer(cString).assumingMemoryBound(to: UInt8.self), count: count))
    }
}
