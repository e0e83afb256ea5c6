#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Byte-wise string comparisons: JSON compares strings by code units, while Swift's
/// `String ==` and `<` use canonical equivalence, which would merge distinct keys.
///
/// Every function reads the bytes through `withUTF8`, which also serves small strings (kept
/// inline, up to 15 bytes: most keys), where `utf8.withContiguousStorageIfAvailable` gives
/// nothing and the generic element-by-element path costs ten times as much.
package enum UTF8Bytes {
    /// Whether the two strings have the same UTF-8 bytes.
    ///
    /// Swift's `==` is never false for equal bytes, and it settles most pairs fast (raw bits,
    /// then a byte compare for ASCII); only its `true` needs confirming, since canonical twins
    /// such as "collapse\u{212A}ey" and "collapseKey" are `==`. Identical raw bits are equal bytes
    /// (small strings keep their bytes in those bits); otherwise the bytes are compared.
    @inline(__always)
    package static func equal(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count, a == b else { return false }
        if unsafeBitCast(a, to: (UInt64, UInt64).self) == unsafeBitCast(b, to: (UInt64, UInt64).self) { return true }
        return bytesEqual(a, b)
    }

    @inline(never)
    private static func bytesEqual(_ a: String, _ b: String) -> Bool {
        let count = a.utf8.count
        var a = a, b = b
        return a.withUTF8 { pa in
            b.withUTF8 { pb in
                guard count > 0, let x = pa.baseAddress, let y = pb.baseAddress else { return count == 0 }
                return memcmp(x, y, count) == 0
            }
        }
    }

    /// Whether `a`'s UTF-8 bytes sort before `b`'s: a deterministic, locale-free order.
    @inline(__always)
    package static func less(_ a: String, _ b: String) -> Bool { compare(a, b) < 0 }

    /// Negative, zero or positive as `a`'s UTF-8 bytes sort before, equal or after `b`'s.
    package static func compare(_ a: String, _ b: String) -> Int {
        var a = a, b = b
        return a.withUTF8 { pa in
            b.withUTF8 { pb in
                let n = Swift.min(pa.count, pb.count)
                if n > 0, let x = pa.baseAddress, let y = pb.baseAddress {
                    let ordered = memcmp(x, y, n)
                    if ordered != 0 { return ordered < 0 ? -1 : 1 }
                }
                return pa.count - pb.count
            }
        }
    }

    /// Runs `body` on the string's UTF-8 bytes: in place when the string keeps them contiguous,
    /// else (a small or bridged string) through the copy the mutating `withUTF8` needs. Read in
    /// place, a string costs no retain and release (~400 instructions a batch line over the
    /// warnings' strings).
    @inline(__always)
    package static func withBytes(of s: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if s.utf8.withContiguousStorageIfAvailable(body) != nil { return }
        var s = s
        s.withUTF8(body)
    }

    /// Feeds the string's UTF-8 bytes to `hasher`, matching ``equal(_:_:)``.
    package static func hash(_ s: String, into hasher: inout Hasher) {
        var s = s
        hasher.combine(s.utf8.count)
        s.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
