extension JSONParseError {
    /// The string of the top-level member `key` of the text this error is about, when the string
    /// ends before the byte the parser stopped at; nil when there is none to read. So that a batch
    /// or campaign line whose JSON goes wrong after its `id` (a bad byte deep in the intent or the
    /// `vars`) still names what it was. A scan, not a parse: it tracks strings and nesting only.
    package func topLevelString(_ key: String, in text: [UInt8]) -> String? {
        let quote = UInt8(ascii: "\""), end = Swift.min(offset, text.count)
        let wanted = [quote] + Array(key.utf8) + [quote]
        var depth = 0, index = 0
        // At the top level: whether a key comes next, and whether the last key read was `key`.
        var keyNext = false, afterKey = false
        while index < end {
            let byte = text[index]
            if byte == quote {
                var close = index + 1
                while close < end && text[close] != quote { close += text[close] == UInt8(ascii: "\\") ? 2 : 1 }
                guard close < end else { return nil }
                if depth == 1 {
                    let literal = Array(text[index...close])
                    if keyNext {
                        afterKey = literal == wanted
                        keyNext = false
                    } else if afterKey {
                        return (try? JSONParser.parse(literal))?.stringValue
                    }
                }
                index = close + 1
                continue
            }
            switch byte {
            case UInt8(ascii: "{"):
                depth += 1
                if depth == 1 { keyNext = true }
            case UInt8(ascii: "["):
                depth += 1
                if depth == 1 { return nil } // a list: no members
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
            case UInt8(ascii: ","):
                if depth == 1 {
                    keyNext = true
                    afterKey = false
                }
            default:
                break
            }
            index += 1
        }
        return nil
    }
}
