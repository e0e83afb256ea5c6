/// Where one text occurs in another, byte for byte, in time linear in both (Knuth-Morris-Pratt):
/// `contains`, `replace`, `remove` and `split` search recipients' values, and a naive search of a
/// long value for a long near-match would take the product of their lengths.
enum LiquidSubstring {
    static func contains(_ needle: String, in haystack: String) -> Bool {
        let pattern = Array(needle.utf8)
        if pattern.isEmpty { return true }
        var found = false
        search(pattern, in: haystack.utf8) { _ in
            found = true
            return false
        }
        return found
    }

    /// The starts of a non-empty `needle` in `haystack`, left to right, each after the end of the
    /// one before, as Ruby's `gsub` and `split` find them.
    static func starts(of needle: [UInt8], in haystack: [UInt8]) -> [Int] {
        var starts: [Int] = []
        search(needle, in: haystack) { end in
            starts.append(end + 1 - needle.count)
            return true
        }
        return starts
    }

    /// The start of the last occurrence of a non-empty `needle` (Ruby's `rindex`): the first
    /// found in both read backwards, so an overlapping later one wins ("aa" in "aaa" is at 1).
    static func lastStart(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        var last: Int?
        search(Array(needle.reversed()), in: haystack.reversed()) { end in
            last = haystack.count - 1 - end
            return false
        }
        return last
    }

    /// Calls `found` with the index of the last byte of each match (non-overlapping); it returns
    /// whether to go on.
    private static func search<Bytes: Sequence<UInt8>>(_ pattern: [UInt8], in haystack: Bytes, _ found: (Int) -> Bool) {
        // failure[i]: the length of the longest proper prefix of pattern[0...i] that is also its suffix.
        var failure = [Int](repeating: 0, count: pattern.count)
        var k = 0
        for i in 1..<max(1, pattern.count) {
            while k > 0, pattern[i] != pattern[k] { k = failure[k - 1] }
            if pattern[i] == pattern[k] { k += 1 }
            failure[i] = k
        }
        var matched = 0
        for (index, byte) in haystack.enumerated() {
            while matched > 0, byte != pattern[matched] { matched = failure[matched - 1] }
            if byte == pattern[matched] { matched += 1 }
            if matched == pattern.count {
                if !found(index) { return }
                matched = 0
            }
        }
    }
}
