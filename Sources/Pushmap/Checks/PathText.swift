/// Builds the JSON path text diagnostics carry: `$.message.data.adb_title`, `$.aps["thread-id"]`,
/// `$.carousel.items[1]`.
enum PathText {
    /// `base.key` when the key is an identifier, else `base["key"]` with `"` and `\` escaped, so
    /// keys such as `thread-id` or `my key` still give one unambiguous path.
    static func member(_ base: String, _ key: String) -> String {
        if isIdentifier(key) { return base + "." + key }
        var text = base + "[\""
        for scalar in key.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\"]"
    }

    /// `base.key` for a key known to be an identifier, built in one allocation.
    static func member(_ base: String, identifier key: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(base.utf8.count + 1 + key.utf8.count)
        bytes.append(contentsOf: base.utf8)
        bytes.append(UInt8(ascii: "."))
        bytes.append(contentsOf: key.utf8)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `base[index]`.
    static func index(_ base: String, _ index: Int) -> String {
        base + "[" + String(index) + "]"
    }

    /// ASCII letters, digits and `_`, not starting with a digit.
    static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return key.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                true
            default:
                false
            }
        }
    }
}
