/// "Did you mean" for misspelt names: the nearest known name by edit distance, if near enough.
package enum Suggestion {
    /// The candidate closest to `word`, ignoring case, within `maxEdits` edits, or by default a
    /// third of its length (at least 1 and at most 3 edits); nil when none is that close.
    package static func nearest(to word: String, among candidates: [String], maxEdits: Int? = nil) -> String? {
        let target = Array(word.lowercased().unicodeScalars)
        let limit = maxEdits ?? min(3, max(1, target.count / 3))
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let name = Array(candidate.lowercased().unicodeScalars)
            // At least as many edits as the lengths differ: a word far longer than every name (a
            // 40,000-character key, from the validate fuzzer) is measured against none of them.
            guard abs(name.count - target.count) <= limit else { continue }
            let distance = editDistance(target, name)
            if distance <= limit, distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// Levenshtein distance with adjacent transpositions counted as one edit.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
