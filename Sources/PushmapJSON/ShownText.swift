/// Untrusted text as a terminal or a log line may show it: control characters (C0, DEL, C1), the
/// line and paragraph separators, and the bidirectional overrides and isolates written as escapes
/// (`\n`, `\t`, `\u001B`, `\u2028`, `\u202E`),
/// so that an intent's or a script's text can neither start a line that reads as pushmap's own,
/// nor send a terminal its escape sequences, nor turn the rest of a line around. Everything else,
/// including other non-ASCII text, is written as it is.
package enum ShownText {
    /// `text` made safe to show, at most `maxBytes` of it (cut after a whole character), with
    /// how many of its bytes were left out.
    /// - Parameter keepingNewlines: line feeds stay as they are, for text of many lines whose
    ///   every other control character is escaped.
    package static func escaped(
        _ bytes: UnsafeRawBufferPointer, maxBytes: Int = .max, keepingNewlines: Bool = false
    ) -> (text: String, leftOut: Int) {
        // Most text has nothing to escape and fits: written as it is, with no copy byte by byte
        // (every line the command line writes to standard error comes through here).
        if bytes.count <= maxBytes, !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }) {
            return (String(decoding: bytes, as: UTF8.self), 0)
        }
        var out: [UInt8] = []
        out.reserveCapacity(min(bytes.count, maxBytes) + 8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
            let end = min(bytes.count, index + length)
            let sequence = UnsafeRawBufferPointer(rebasing: bytes[index..<end])
            if let scalar = unsafeScalar(sequence), !(keepingNewlines && scalar == 0x0A) {
                let escape: [UInt8]
                switch scalar {
                case 0x0A: escape = Array(#"\n"#.utf8)
                case 0x0D: escape = Array(#"\r"#.utf8)
                case 0x09: escape = Array(#"\t"#.utf8)
                default:
                    escape = Array(#"\u"#.utf8) + [12, 8, 4, 0].map { .upperHexDigit(UInt8(truncatingIfNeeded: scalar >> UInt32($0))) }
                }
                if out.count + escape.count > maxBytes { break }
                out += escape
            } else {
                if out.count + sequence.count > maxBytes { break }
                out += sequence
            }
            index = end
        }
        return (String(decoding: out, as: UTF8.self), bytes.count - index)
    }

    /// Longest key or name a line quotes in full: past it, its first characters and "…". A key
    /// of 900 KB made a line of 1.8 MB, once in the path and once in the message (the
    /// forty-third audit, CLI F6).
    package static let clippedLimit = 200

    /// `text` as a finding quotes it: whole, or its first `limit` Unicode scalars and "…".
    /// Scalars, not characters: a run of combining marks is one character however long it is.
    package static func clipped(_ text: String, limit: Int = clippedLimit) -> String {
        // The byte count first: it costs nothing, and nearly every text is short.
        guard text.utf8.count > limit, text.unicodeScalars.count > limit else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit))) + "…"
    }

    /// As ``escaped(_:maxBytes:keepingNewlines:)`` for a whole string.
    package static func escaped(_ text: String, keepingNewlines: Bool = false) -> String {
        var text = text
        return text.withUTF8 { escaped(UnsafeRawBufferPointer($0), keepingNewlines: keepingNewlines).text }
    }

    /// The scalar of one UTF-8 sequence when it is one to escape.
    private static func unsafeScalar(_ sequence: UnsafeRawBufferPointer) -> UInt32? {
        switch sequence.count {
        case 1 where sequence[0] < 0x20 || sequence[0] == 0x7F:
            return UInt32(sequence[0])
        case 2 where sequence[0] == 0xC2 && (0x80...0x9F).contains(sequence[1]):
            return UInt32(sequence[1])  // C1: U+0080 to U+009F
        case 3 where sequence[0] == 0xE2 && sequence[1] == 0x80 && (0xA8...0xAE).contains(sequence[2]):
            // U+2028 and U+2029 end a line for many readers (the twenty-fifth audit, F7), U+202A
            // to U+202E turn text around.
            return 0x2000 | UInt32(sequence[2] & 0x3F)  // U+2028 to U+202E
        case 3 where sequence[0] == 0xE2 && sequence[1] == 0x81 && (0xA6...0xA9).contains(sequence[2]):
            return 0x2040 | UInt32(sequence[2] & 0x3F)  // U+2066 to U+2069
        default:
            return nil
        }
    }
}
