/// A script's text as one line of a message or the log: control characters written as escapes
/// (`\n`, `\r`, `\t`, `\u001B`...), so that a script can neither start a line that reads as
/// pushmap's own nor send a terminal its escape sequences, and cut at ``maxBytes`` with the count
/// of what was left out. Used for what scripts print and for the messages of their errors.
package struct LogLine: CustomStringConvertible, Sendable {
    /// The most bytes of the script's text a line shows.
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
        var end = min(bytes.count, maxBytes)
        // Not inside a UTF-8 sequence: back to the byte that starts one.
        if end < bytes.count { while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 } }
        let shown = UnsafeRawBufferPointer(rebasing: bytes[..<end])
        let plain = !shown.contains { $0 < 0x20 || $0 == 0x7F }
        var line = plain ? String(decoding: shown, as: UTF8.self) : ""
        if !plain {
            var out: [UInt8] = []
            out.reserveCapacity(shown.count + 16)
            for byte in shown {
                switch byte {
                case 0x0A: out += Array(#"\n"#.utf8)
                case 0x0D: out += Array(#"\r"#.utf8)
                case 0x09: out += Array(#"\t"#.utf8)
                case 0..<0x20, 0x7F:
                    let hex = Array("0123456789ABCDEF".utf8)
                    out += Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
                default: out.append(byte)
                }
            }
            line = String(decoding: out, as: UTF8.self)
        }
        if end < bytes.count { line += "… (\(bytes.count - end) bytes more)" }
        return line
    }
}
