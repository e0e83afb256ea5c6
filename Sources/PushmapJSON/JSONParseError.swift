/// Why and where ``JSONParser`` rejected its input.
///
/// `description` reads `line:column: reason at path`, for example
/// `1:13: trailing comma not allowed at $.a[2]`.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Byte offset of the offending byte from the start of the input (the input's length at its end).
    package var offset: Int
    /// 1-based line of `offset`; lines end at `\n`.
    package var line: Int
    /// 1-based column of `offset`, counted in bytes.
    package var column: Int
    /// Where in the document the parser was, such as `$.buttons[1].label`.
    package var path: JSONPath
    /// A short lower-case phrase such as `expected ':' after object key`.
    package var reason: String

    /// An error with every field given.
    package init(offset: Int, line: Int, column: Int, path: JSONPath, reason: String) {
        self.offset = offset
        self.line = line
        self.column = column
        self.path = path
        self.reason = reason
    }

    /// An error at `offset` in `bytes`, working out the line and column.
    init(offset: Int, in bytes: UnsafeBufferPointer<UInt8>, path: JSONPath, reason: String) {
        var line = 1
        var lineStart = 0
        let end = Swift.min(offset, bytes.count)
        var i = 0
        while i < end {
            if bytes[i] == UInt8(ascii: "\n") {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        self.init(offset: offset, line: line, column: offset - lineStart + 1, path: path, reason: reason)
    }

    /// `line:column: reason at path`.
    public var description: String { "\(line):\(column): \(reason) at \(path)" }

    /// The offending line of `bytes` (at most about 80 characters around the column, with
    /// non-printable characters and invalid UTF-8 shown as `?`) and under it a `^` at the column.
    package func snippet(in bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { Self.render(line: $0, offset: offset) }
    }

    /// The same snippet for text held in a `String`.
    package func snippet(in text: String) -> String {
        var text = text
        return text.withUTF8 { Self.render(line: $0, offset: offset) }
    }

    /// How many characters of the line the snippet shows at most.
    private static let width = 80

    private static func render(line bytes: UnsafeBufferPointer<UInt8>, offset: Int) -> String {
        let target = Swift.max(0, Swift.min(offset, bytes.count))
        var start = target
        while start > 0 && bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        var end = target
        while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }

        // One displayed character per scalar (invalid bytes count one each), so the caret
        // lines up under multi-byte text as well.
        var shown: [String] = []
        var caret = -1
        var i = start
        while i < end {
            if caret < 0 && i >= target { caret = shown.count }
            let (character, length) = displayed(bytes, at: i, end: end)
            shown.append(character)
            i += length
        }
        if caret < 0 { caret = shown.count }

        var first = 0
        var last = shown.count
        if shown.count > width {
            first = Swift.max(0, Swift.min(caret - width / 2, shown.count - width))
            last = Swift.min(shown.count, first + width)
        }
        var text = first > 0 ? "..." : ""
        let caretColumn = caret - first + text.count
        text += shown[first..<last].joined()
        if last < shown.count { text += "..." }
        return text + "\n" + String(repeating: " ", count: caretColumn) + "^"
    }

    /// The character starting at `i` as shown in a snippet, and its length in bytes.
    private static func displayed(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int, end: Int) -> (String, Int) {
        let lead = bytes[i]
        if lead < 0x80 {
            return lead >= 0x20 && lead != 0x7F ? (String(UnicodeScalar(lead)), 1) : ("?", 1)
        }
        let length = UTF8Validation.sequenceLength(bytes, at: i, end: end)
        guard length > 0 else { return ("?", 1) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<(i + length)]), as: UTF8.self)
        // C1 controls and the like would upset the layout as much as ASCII ones.
        if let scalar = text.unicodeScalars.first, scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format {
            return ("?", length)
        }
        return (text, length)
    }
}
