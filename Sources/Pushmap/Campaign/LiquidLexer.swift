/// Splits a template into text, output tags and block tags, applying whitespace control and
/// taking `raw` and `comment` bodies out whole.
///
/// As Liquid does, an output ends at the first `}}` and a tag at the first `%}`, quoted or not.
struct LiquidLexer {
    /// One piece of the template, with byte ranges into the source.
    enum Token {
        /// Text; `raw` when a `raw` block's body, which is never blank to Liquid (its `blank?` is
        /// an empty body), so whitespace in it stays inside a block that writes nothing else.
        case text(Range<Int>, raw: Bool)
        /// `{{ markup }}`, opening at byte `start`.
        case output(markup: Range<Int>, start: Int)
        /// `{% name markup %}`, opening at byte `start`, its name at byte `nameStart`.
        case tag(name: String, nameStart: Int, markup: Range<Int>, start: Int)
        /// A comment (`comment`, `#`, a `#` line of `liquid`) or a `raw` with nothing in it:
        /// nothing to write, but a tag to Liquid (see ``LiquidNode/comment``).
        case comment
    }

    let text: LiquidSourceText
    private var found: [Token] = []
    /// Whether the last tag ended with `-}}` or `-%}`, so the next text loses its leading blanks.
    private var trimNext = false

    init(_ text: LiquidSourceText) {
        self.text = text
    }

    /// Whether `source` holds `{{` or `{%`, the only ways a tag starts.
    static func hasMarkup(_ source: String) -> Bool {
        var previousBrace = false
        for byte in source.utf8 {
            if previousBrace, byte == UInt8(ascii: "{") || byte == UInt8(ascii: "%") { return true }
            previousBrace = byte == UInt8(ascii: "{")
        }
        return false
    }

    consuming func tokens() throws(LiquidSyntaxError) -> [Token] {
        let bytes = text.bytes
        var i = 0
        var textStart = 0
        while let open = nextOpening(from: i) {
            let isOutput = bytes[open + 1] == UInt8(ascii: "{")
            let trimsLeft = open + 2 < bytes.count && bytes[open + 2] == UInt8(ascii: "-")
            appendText(textStart..<open, trimEnd: trimsLeft)
            let closing: StaticString = isOutput ? "}}" : "%}"
            guard let close = find(closing, from: open + 2) else {
                throw text.error(at: open, isOutput
                    ? "This '{{' is never closed with '}}'."
                    : "This '{%' is never closed with '%}'.")
            }
            var markup = (open + (trimsLeft ? 3 : 2))..<close
            // `{{-}}` trims both sides: one dash serves as both, as in Liquid.
            trimNext = close > open + 2 && bytes[close - 1] == UInt8(ascii: "-")
            if trimNext { markup = markup.lowerBound..<max(markup.lowerBound, close - 1) }
            i = close + 2
            if isOutput {
                found.append(.output(markup: markup, start: open))
            } else {
                i = try tag(markup, start: open, after: i)
            }
            textStart = i
        }
        appendText(textStart..<bytes.count, trimEnd: false)
        return found
    }

    /// Reads a block tag whose markup is `markup`; returns where the text after it starts
    /// (after the `endraw` or `endcomment` for those).
    private mutating func tag(_ markup: Range<Int>, start: Int, after: Int) throws(LiquidSyntaxError) -> Int {
        let bytes = text.bytes
        var nameStart = markup.lowerBound
        while nameStart < markup.upperBound, LiquidSourceText.isSpace(bytes[nameStart]) { nameStart += 1 }
        if nameStart < markup.upperBound, bytes[nameStart] == UInt8(ascii: "#") { // inline comment
            found.append(.comment)
            return after
        }
        var nameEnd = nameStart
        while nameEnd < markup.upperBound, LiquidMarkupLexer.isWordByte(bytes[nameEnd]) { nameEnd += 1 }
        let name = text.text(nameStart..<nameEnd)
        switch name {
        case "raw":
            guard let end = findEndTag("endraw", nestedIn: nil, from: after) else {
                throw text.error(at: start, "This '{% raw %}' is never closed with '{% endraw %}'.")
            }
            // The body is written as it is, whatever dashes the two tags have: they trim the
            // text outside only (Liquid 5.5's raw_tag_test, test_output_in_raw; the thirty-fifth
            // audit found the body trimmed, as Liquid before 5.5 did).
            trimNext = false
            if !appendText(after..<end.start, trimEnd: false, raw: true) { found.append(.comment) }
            trimNext = end.trimsRight
            return end.after
        case "comment":
            guard let end = findEndTag("endcomment", nestedIn: "comment", from: after) else {
                throw text.error(at: start, "This '{% comment %}' is never closed with '{% endcomment %}'.")
            }
            found.append(.comment)
            trimNext = end.trimsRight
            return end.after
        case "liquid":
            try liquidLines(nameEnd..<markup.upperBound)
            return after
        default:
            found.append(.tag(name: name, nameStart: nameStart, markup: nameEnd..<markup.upperBound, start: start))
            return after
        }
    }

    /// The lines of a `{% liquid %}` tag, each a tag without its delimiters (`assign x = 1`,
    /// `echo x`, `if x` ... `endif`); blank lines and `#` comments are skipped.
    private mutating func liquidLines(_ markup: Range<Int>) throws(LiquidSyntaxError) {
        let bytes = text.bytes
        var lineStart = markup.lowerBound
        while lineStart < markup.upperBound {
            var lineEnd = lineStart
            while lineEnd < markup.upperBound, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            var nameStart = lineStart
            while nameStart < lineEnd, LiquidSourceText.isSpace(bytes[nameStart]) { nameStart += 1 }
            if nameStart < lineEnd, bytes[nameStart] == UInt8(ascii: "#") {
                found.append(.comment)
            } else if nameStart < lineEnd {
                var nameEnd = nameStart
                while nameEnd < lineEnd, LiquidMarkupLexer.isWordByte(bytes[nameEnd]) { nameEnd += 1 }
                let name = text.text(nameStart..<nameEnd)
                if ["raw", "comment", "liquid"].contains(name) {
                    throw text.error(at: nameStart, "'\(name)' cannot be a line of '{% liquid %}'; use '#' for a comment.")
                }
                found.append(.tag(name: name, nameStart: nameStart, markup: nameEnd..<lineEnd, start: nameStart))
            }
            lineStart = lineEnd + 1
        }
    }

    /// Where the `{% name %}` that closes a `raw` or `comment` body is, skipping whole nested
    /// `{% nested %}...{% name %}` pairs, and in a comment whole `raw` bodies (their text is no tag).
    ///
    /// As Liquid, a tag runs from a `{%` to the first `%}`; in a raw body it is the last `{%` of
    /// that run that may close it, what comes before staying in the body (`{% {% endraw %}` keeps `{% `).
    private func findEndTag(_ name: String, nestedIn nested: String?, from start: Int) -> (start: Int, after: Int, trimsLeft: Bool, trimsRight: Bool)? {
        let bytes = text.bytes
        var depth = 0
        var i = start
        while let first = find("{%", from: i), let close = find("%}", from: first + 2) {
            var open = first
            if nested == nil {
                while let later = find("{%", from: open + 1), later < close { open = later }
            }
            var wordStart = open + 2
            let trimsLeft = wordStart < close && bytes[wordStart] == UInt8(ascii: "-")
            while wordStart < close, LiquidSourceText.isSpace(bytes[wordStart]) || bytes[wordStart] == UInt8(ascii: "-") { wordStart += 1 }
            var wordEnd = wordStart
            while wordEnd < close, LiquidMarkupLexer.isWordByte(bytes[wordEnd]) { wordEnd += 1 }
            let word = text.text(wordStart..<wordEnd)
            if word == name {
                if depth == 0 {
                    return (open, close + 2, trimsLeft, close > wordEnd && bytes[close - 1] == UInt8(ascii: "-"))
                }
                depth -= 1
            } else if let nested, word == nested {
                depth += 1
            } else if nested != nil, word == "raw" {
                guard let end = findEndTag("endraw", nestedIn: nil, from: close + 2) else { return nil }
                i = end.after
                continue
            }
            i = close + 2
        }
        return nil
    }

    /// The next `{{` or `{%` at or after `start`.
    private func nextOpening(from start: Int) -> Int? {
        let bytes = text.bytes
        var i = start
        while i + 1 < bytes.count {
            if bytes[i] == UInt8(ascii: "{"), bytes[i + 1] == UInt8(ascii: "{") || bytes[i + 1] == UInt8(ascii: "%") { return i }
            i += 1
        }
        return nil
    }

    /// The offset of the next two-byte `pair` at or after `start`.
    private func find(_ pair: StaticString, from start: Int) -> Int? {
        let bytes = text.bytes
        let first = pair.utf8Start[0], second = pair.utf8Start[1]
        var i = start
        while i + 1 < bytes.count {
            if bytes[i] == first, bytes[i + 1] == second { return i }
            i += 1
        }
        return nil
    }

    /// Adds the text in `range`, without its leading blanks after a `-}}` or `-%}` and without
    /// its trailing blanks before a `{{-` or `{%-`; whether any was left to add.
    @discardableResult
    private mutating func appendText(_ range: Range<Int>, trimEnd: Bool, raw: Bool = false) -> Bool {
        let bytes = text.bytes
        var lower = range.lowerBound, upper = range.upperBound
        if trimNext { while lower < upper, LiquidSourceText.isSpace(bytes[lower]) { lower += 1 } }
        if trimEnd { while upper > lower, LiquidSourceText.isSpace(bytes[upper - 1]) { upper -= 1 } }
        trimNext = false
        guard lower < upper else { return false }
        found.append(.text(lower..<upper, raw: raw))
        return true
    }
}
