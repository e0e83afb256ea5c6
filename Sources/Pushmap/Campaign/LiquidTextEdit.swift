@_spi(Engine) internal import PushmapJSON

/// The text work of Liquid's string filters, on UTF-8 bytes where Ruby works on bytes (finding,
/// replacing, trimming, escaping), so that a filter cuts and joins where Liquid does.
enum LiquidTextEdit {
    enum Occurrence { case all, first, last }

    /// `text` with `pattern` replaced: every occurrence (Ruby's `gsub`), the first (`sub`) or the
    /// last (`rindex`). An empty pattern matches before each character and at the end, as Ruby's does.
    static func replacing(_ pattern: String, with replacement: String, in text: String, _ which: Occurrence) throws(LiquidFailure) -> String {
        let bytes = Array(text.utf8), needle = Array(pattern.utf8)
        var matches: [Int]
        if needle.isEmpty {
            // Each character's start (UTF-8 bytes that do not continue one) and the end.
            matches = bytes.indices.filter { bytes[$0] & 0xC0 != 0x80 } + [bytes.count]
        } else {
            matches = LiquidSubstring.starts(of: needle, in: bytes)
        }
        switch which {
        case .all: break
        case .first: matches = Array(matches.prefix(1))
        case .last:
            // Ruby's rindex finds the later of overlapping matches, which the forward search skips.
            if needle.isEmpty {
                matches = [bytes.count]
            } else {
                matches = LiquidSubstring.lastStart(of: needle, in: bytes).map { [$0] } ?? []
            }
        }
        if matches.isEmpty { return text }
        // A replacement many times over can grow a text past any use: refused before it is built.
        let grown = bytes.count + matches.count * (replacement.utf8.count - needle.count)
        try checkGrowth(to: grown, from: bytes.count)
        var out: [UInt8] = []
        out.reserveCapacity(grown)
        var copied = 0
        for start in matches {
            out += bytes[copied..<start]
            out += replacement.utf8
            copied = start + needle.count
        }
        out += bytes[copied...]
        return String(decoding: out, as: UTF8.self)
    }

    /// Refuses a filter's text of `bytes` grown from `input` bytes past the output's limit: each
    /// filter of a chain could otherwise double what the one before built.
    static func checkGrowth(to bytes: Int, from input: Int) throws(LiquidFailure) {
        guard bytes > LiquidTemplate.maxOutputBytes, bytes > input else { return }
        throw LiquidFailure(message: "The text would be \(bytes) bytes long, over the limit of \(LiquidTemplate.maxOutputBytes).")
    }

    /// Ruby's whitespace for `strip`: NUL, tab, line feed, vertical tab, form feed, carriage return, space.
    private static func isStripped(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0 || (byte >= 0x09 && byte <= 0x0D)
    }

    static func stripped(_ text: String, leading: Bool, trailing: Bool) -> String {
        let bytes = Array(text.utf8)
        var start = 0, end = bytes.count
        if leading { while start < end, isStripped(bytes[start]) { start += 1 } }
        if trailing { while end > start, isStripped(bytes[end - 1]) { end -= 1 } }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// Each line break (`\n` or `\r\n`; a lone `\r` stays) replaced.
    static func newlines(in text: String, replacedBy replacement: String) throws(LiquidFailure) -> String {
        let crlf = try replacing("\r\n", with: "\n", in: text, .all)
        return try replacing("\n", with: replacement, in: crlf, .all)
    }

    /// Without HTML: `<script>` and `<style>` elements and comments with what they hold, then
    /// every tag (`<` to the next `>`), as Liquid's `strip_html`.
    static func withoutHTML(_ text: String) -> String {
        let blocks: [(open: [UInt8], close: [UInt8])] = [
            (Array("<script".utf8), Array("</script>".utf8)),
            (Array("<!--".utf8), Array("-->".utf8)),
            (Array("<style".utf8), Array("</style>".utf8)),
        ]
        let bytes = Array(text.utf8)
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count)
        // A block whose end is not found from one place is not found from any later one: each is
        // looked for to the end once at most, so the walk stays linear.
        var unclosed = [Bool](repeating: false, count: blocks.count)
        var index = 0
        scan: while index < bytes.count {
            if bytes[index] == UInt8(ascii: "<") {
                for (number, block) in blocks.enumerated() where !unclosed[number] && starts(bytes, at: index, with: block.open) {
                    if let close = find(block.close, in: bytes, from: index + block.open.count) {
                        index = close + block.close.count
                        continue scan
                    }
                    unclosed[number] = true
                }
            }
            kept.append(bytes[index])
            index += 1
        }
        var out: [UInt8] = []
        out.reserveCapacity(kept.count)
        index = 0
        while index < kept.count {
            if kept[index] == UInt8(ascii: "<") {
                // No `>` after this `<` means none after any later one: the rest stays.
                guard let close = kept[(index + 1)...].firstIndex(of: UInt8(ascii: ">")) else {
                    out += kept[index...]
                    break
                }
                index = close + 1
                continue
            }
            out.append(kept[index])
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func starts(_ bytes: [UInt8], at index: Int, with prefix: [UInt8]) -> Bool {
        index + prefix.count <= bytes.count && bytes[index..<index + prefix.count].elementsEqual(prefix)
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + needle.count <= bytes.count {
            if starts(bytes, at: index, with: needle) { return index }
            index += 1
        }
        return nil
    }

    /// `&`, `<`, `>`, `"` and `'` as HTML entities. `once` leaves an `&` that already begins an
    /// entity (`&amp;`, `&#39;`) alone, as Liquid's `escape_once`.
    static func escapedHTML(_ text: String, once: Bool) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "&"):
                if once, beginsEntity(bytes, at: index + 1) { out.append(byte) } else { out += "&amp;".utf8 }
            case UInt8(ascii: "<"): out += "&lt;".utf8
            case UInt8(ascii: ">"): out += "&gt;".utf8
            case UInt8(ascii: "\""): out += "&quot;".utf8
            case UInt8(ascii: "'"): out += "&#39;".utf8
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether letters, or `#` and digits, then `;` start at `index`.
    private static func beginsEntity(_ bytes: [UInt8], at index: Int) -> Bool {
        guard index < bytes.count else { return false }
        var cursor = index
        let numeric = bytes[cursor] == UInt8(ascii: "#")
        if numeric { cursor += 1 }
        let first = cursor
        while cursor < bytes.count {
            let byte = bytes[cursor]
            let fits = numeric ? (byte >= 0x30 && byte <= 0x39) : ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
            if !fits { break }
            cursor += 1
        }
        return cursor > first && cursor < bytes.count && bytes[cursor] == UInt8(ascii: ";")
    }

    /// Form encoding, as Ruby's `CGI.escape`: letters, digits and `_.-~` stay, a space is `+`,
    /// every other byte `%XX`.
    static func urlEncoded(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "~"):
                out.append(byte)
            case UInt8(ascii: " "):
                out.append(UInt8(ascii: "+"))
            default:
                out.append(UInt8(ascii: "%"))
                out.append(.upperHexDigit(byte >> 4))
                out.append(.upperHexDigit(byte))
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `+` as a space and each `%XX` as its byte, a `%` without two hex digits as it is (as
    /// Ruby's `CGI.unescape`); nil when the bytes are not UTF-8.
    static func urlDecoded(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, let high = bytes[index + 1].hexDigitValue, let low = bytes[index + 2].hexDigitValue {
                out.append(high << 4 | low)
                index += 3
                continue
            }
            out.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return String(validating: out, as: UTF8.self)
    }

    /// The words of `text` split on runs of whitespace, leading whitespace skipped, as Ruby's
    /// `split(" ")`; with a `limit`, the last field is the rest of the text as it is (trailing
    /// whitespace and all, or empty).
    static func words(_ text: String, limit: Int? = nil) -> [String] {
        let bytes = Array(text.utf8)
        var fields: [String] = []
        var start = 0, index = 0
        var inWord = false
        while index < bytes.count {
            // Ruby's blanks for `split(" ")`: those of `strip` but NUL, the markup's own.
            let space = LiquidSourceText.isSpace(bytes[index])
            if !inWord {
                if space {
                    start = index + 1
                } else {
                    if let limit, fields.count + 1 >= limit { break }
                    inWord = true
                }
            } else if space {
                fields.append(String(decoding: bytes[start..<index], as: UTF8.self))
                inWord = false
                start = index + 1
            }
            index += 1
        }
        if limit != nil || start < bytes.count {
            if !bytes.isEmpty { fields.append(String(decoding: bytes[start...], as: UTF8.self)) }
        }
        return fields
    }

    /// The first `count` words (at least one) and the ellipsis when there are more, joined by
    /// single spaces, as Liquid's `truncatewords`; the text as it is when there are no more.
    static func truncatingWords(_ text: String, to count: Int, ellipsis: String) -> String {
        let count = max(count, 1)
        // A count past any text's words cuts nothing (and must not overflow the limit).
        guard count < text.utf8.count else { return text }
        var fields = words(text, limit: count + 1)
        if fields.count <= count { return text }
        fields.removeLast()
        return fields.joined(separator: " ") + ellipsis
    }

    /// Ruby's `split`: on whitespace runs for `" "`, into characters for `""`, else on the
    /// separator; empty fields at the end dropped, and nothing from an empty text.
    static func split(_ text: String, by separator: String) -> [String] {
        if text.isEmpty { return [] }
        if separator == " " { return words(text) }
        if separator.isEmpty { return text.map { String($0) } }
        let bytes = Array(text.utf8), needle = Array(separator.utf8)
        var fields: [String] = []
        var start = 0
        for match in LiquidSubstring.starts(of: needle, in: bytes) {
            fields.append(String(decoding: bytes[start..<match], as: UTF8.self))
            start = match + needle.count
        }
        fields.append(String(decoding: bytes[start...], as: UTF8.self))
        while fields.last?.isEmpty == true { fields.removeLast() }
        return fields
    }
}
