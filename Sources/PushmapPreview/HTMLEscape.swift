/// Escapes text for HTML: every `&`, `<`, `>`, `"` and `'`, so text is text in element
/// content and in quoted attribute values alike.
package enum HTMLEscape {
    package static func text(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "\u{0}": escaped += "\u{FFFD}" // a NUL is not allowed in HTML text
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}
