/// Whether one text holds another, byte for byte, in time linear in both (Knuth-Morris-Pratt):
/// `contains` compares recipients' values, and a naive search of a long value for a long
/// near-match would take the product of their lengths.
enum LiquidSubstring {
    static func contains(_ needle: String, in haystack: String) -> Bool {
        let pattern = Array(needle.utf8)
        if pattern.isEmpty { return true }
        // failure[i]: the length of the longest proper prefix of pattern[0...i] that is also its suffix.
        var failure = [Int](repeating: 0, count: pattern.count)
        var k = 0
        for i in 1..<max(1, pattern.count) {
            while k > 0, pattern[i] != pattern[k] { k = failure[k - 1] }
            if pattern[i] == pattern[k] { k += 1 }
            failure[i] = k
        }
        var matched = 0
        for byte in haystack.utf8 {
            while matched > 0, byte != pattern[matched] { matched = failure[matched - 1] }
            if byte == pattern[matched] { matched += 1 }
            if matched == pattern.count { return true }
        }
        return false
    }
}
