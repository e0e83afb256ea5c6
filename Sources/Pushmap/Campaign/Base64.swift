/// Base64 (RFC 4648) for the Liquid filters and the preview's inline images: one encoder, one
/// decoder, no Foundation.
@_spi(Tools) public enum Base64 {
    private static let standard = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlSafe = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The bytes in base64, padded with `=`; with `-` and `_` for `+` and `/` when `urlSafe`.
    public static func encode(_ bytes: [UInt8], urlSafe: Bool = false) -> String {
        let alphabet = urlSafe ? Self.urlSafe : standard
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 2 < bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift: UInt32 in [18, 12, 6, 0] { out.append(alphabet[Int((chunk >> shift) & 63)]) }
            index += 3
        }
        let left = bytes.count - index
        if left > 0 {
            let chunk = UInt32(bytes[index]) << 16 | (left == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
            out.append(alphabet[Int((chunk >> 18) & 63)])
            out.append(alphabet[Int((chunk >> 12) & 63)])
            out.append(left == 2 ? alphabet[Int((chunk >> 6) & 63)] : UInt8(ascii: "="))
            out.append(UInt8(ascii: "="))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of strict base64 (whole groups of four, padding only at the end, unused bits
    /// zero, as Ruby's `strict_decode64`), or nil. `urlSafe`, as Ruby's `urlsafe_decode64`, reads
    /// `-` and `_` as `+` and `/` (which it takes too) and pads a text whose length is not a
    /// multiple of four.
    public static func decode(_ text: String, urlSafe: Bool = false) -> [UInt8]? {
        var digits = Array(text.utf8)
        if urlSafe {
            if digits.last != UInt8(ascii: "="), digits.count % 4 != 0 {
                digits += Array(repeating: UInt8(ascii: "="), count: 4 - digits.count % 4)
            }
            for index in digits.indices {
                if digits[index] == UInt8(ascii: "-") { digits[index] = UInt8(ascii: "+") }
                if digits[index] == UInt8(ascii: "_") { digits[index] = UInt8(ascii: "/") }
            }
        }
        guard digits.count % 4 == 0 else { return nil }
        let alphabet = standard
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 4 * 3)
        var group = 0
        while group < digits.count {
            let last = group + 4 == digits.count
            var chunk: UInt32 = 0
            var padding = 0
            for offset in 0..<4 {
                let digit = digits[group + offset]
                if digit == UInt8(ascii: "=") {
                    // Only in the last group, as its last one or two digits.
                    guard last, offset >= 2 else { return nil }
                    padding += 1
                    chunk <<= 6
                    continue
                }
                guard padding == 0, let value = alphabet.firstIndex(of: digit) else { return nil }
                chunk = chunk << 6 | UInt32(value)
            }
            let kept = 3 - padding
            // The bits past the last byte must be zero (strict).
            if padding == 1, chunk & 0xFF != 0 { return nil }
            if padding == 2, chunk & 0xFFFF != 0 { return nil }
            for index in 0..<kept { out.append(UInt8((chunk >> UInt32(16 - 8 * index)) & 0xFF)) }
            group += 4
        }
        return out
    }
}
