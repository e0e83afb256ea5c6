internal import PushmapJSON

/// A cheap upper bound on a payload's compact JSON length, so that the size rules ask
/// ``JSONWriter/compactByteCount(_:)`` for the exact length only when a payload may be over the
/// limit; almost every payload is far under it, and the exact count walks it at several times
/// the cost.
///
/// The bound counts structure exactly and strings as their bytes plus quotes, plus 5 for every
/// byte that the writer might escape (a quote, a backslash or a control character: at most
/// `\u00XX`, 6 bytes for 1). Bytes of 0x20 and up are never longer than themselves in the output.
enum CompactSize {
    /// Whether `value` written compactly surely takes at most `limit` bytes. False means "maybe
    /// not": the caller then asks for the exact count.
    static func isSurelyWithin(_ limit: Int, _ value: JSONValue) -> Bool {
        upperBound(value) <= limit
    }

    static func upperBound(_ value: JSONValue) -> Int {
        switch value {
        case .null: return 4
        case .bool(let flag): return flag ? 4 : 5
        // The longest Int64, with its sign: -9223372036854775808.
        case .integer: return 20
        case .double: return JSONWriter.compactByteCount(value)
        case .string(let text): return stringBound(text)
        case .array(let elements):
            var count = 2 + max(0, elements.count - 1)
            for element in elements { count += upperBound(element) }
            return count
        case .object(let object):
            var count = 2 + max(0, object.count - 1)
            for member in object.members { count += stringBound(member.key) + 1 + upperBound(member.value) }
            return count
        }
    }

    /// The string's bytes with its quotes, plus 5 for each byte that may need escaping.
    static func stringBound(_ text: String) -> Int {
        // Large strings lend their bytes as they are; small ones (kept inline) need a copy to lend them.
        if let bound = text.utf8.withContiguousStorageIfAvailable(bound) { return bound }
        var text = text
        return text.withUTF8(bound)
    }

    /// The bound for one string's bytes.
    private static func bound(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let n = bytes.count
        guard n > 0, let base = bytes.baseAddress else { return 2 }
        var suspects = 0
        var i = 0
        let raw = UnsafeRawPointer(base)
        // Eight bytes at a time; the mask may flag a harmless byte next to a real one, which
        // only makes the bound looser, never too small.
        while i &+ 8 <= n {
            suspects &+= suspectMask(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)).nonzeroBitCount
            i &+= 8
        }
        while i < n {
            let byte = base[i]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { suspects &+= 1 }
            i &+= 1
        }
        return n &+ 2 &+ 5 &* suspects
    }

    /// The top bit of every byte of `word` that is a control character, a quote or a backslash
    /// (and possibly of bytes above such a byte).
    @inline(__always)
    private static func suspectMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let tops: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 0x20) & ~word & tops
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        return control | ((quote &- ones) & ~quote & tops) | ((backslash &- ones) & ~backslash & tops)
    }
}
