/// Byte-wise string comparisons: JSON compares strings by code units, while Swift's
/// `String ==` and `<` use canonical equivalence, which would merge distinct keys.
enum UTF8Bytes {
    /// Whether the two strings have the same UTF-8 bytes.
    @inline(__always)
    static func equal(_ a: String, _ b: String) -> Bool {
        let au = a.utf8, bu = b.utf8
        guard au.count == bu.count else { return false }
        let fast = au.withContiguousStorageIfAvailable { pa in
            bu.withContiguousStorageIfAvailable { pb in
                guard let x = pa.baseAddress, let y = pb.baseAddress else { return true }
                if x == y { return true }
                var i = 0
                while i < pa.count {
                    if x[i] != y[i] { return false }
                    i &+= 1
                }
                return true
            }
        }
        if let answer = fast ?? nil { return answer }
        return au.elementsEqual(bu)
    }

    /// Whether `a`'s UTF-8 bytes sort before `b`'s: a deterministic, locale-free order.
    @inline(__always)
    static func less(_ a: String, _ b: String) -> Bool { compare(a, b) < 0 }

    /// Negative, zero or positive as `a`'s UTF-8 bytes sort before, equal or after `b`'s.
    static func compare(_ a: String, _ b: String) -> Int {
        let fast = a.utf8.withContiguousStorageIfAvailable { pa in
            b.utf8.withContiguousStorageIfAvailable { pb in
                let n = Swift.min(pa.count, pb.count)
                var i = 0
                while i < n {
                    let x = pa[i], y = pb[i]
                    if x != y { return x < y ? -1 : 1 }
                    i &+= 1
                }
                return pa.count - pb.count
            }
        }
        if let answer = fast ?? nil { return answer }
        var ia = a.utf8.makeIterator(), ib = b.utf8.makeIterator()
        while true {
            switch (ia.next(), ib.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?) where x != y: return x < y ? -1 : 1
            default: continue
            }
        }
    }

    /// Feeds the string's UTF-8 bytes to `hasher`, matching ``equal(_:_:)``.
    static func hash(_ s: String, into hasher: inout Hasher) {
        let utf8 = s.utf8
        hasher.combine(utf8.count)
        let done: Void? = utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if done == nil {
            for byte in utf8 { hasher.combine(byte) }
        }
    }
}
