internal import PushmapJSON

/// A script's text as one line of a message or the log (``ShownText``: control characters
/// escaped, so that a script can neither start a line that reads as pushmap's own nor send a
/// terminal its escape sequences), cut at ``maxBytes`` with the count of what was left out. Used
/// for what scripts print and for the messages of their errors.
package struct LogLine: CustomStringConvertible, Sendable {
    /// The most bytes a line shows, escapes included.
    package static let maxBytes = 2_000

    package let description: String

    package init(_ text: String) {
        var text = text
        description = text.withUTF8 { Self.render(UnsafeRawBufferPointer($0)) }
    }

    package init(_ bytes: UnsafeRawBufferPointer) {
        description = Self.render(bytes)
    }

    private static func render(_ bytes: UnsafeRawBufferPointer) -> String {
        let (text, leftOut) = ShownText.escaped(bytes, maxBytes: maxBytes)
        return leftOut > 0 ? text + "… (\(leftOut) bytes more)" : text
    }
}
