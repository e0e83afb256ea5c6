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
            // A control character (but tab, line and form feed, carriage return) is a parse
            // error in HTML text, and a NUL is not allowed: each stands as U+FFFD.
            case "\t", "\n", "\u{C}", "\r": escaped.unicodeScalars.append(character)
            case "\u{0}"..."\u{1F}", "\u{7F}"..."\u{9F}": escaped += "\u{FFFD}"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}
