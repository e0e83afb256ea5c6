internal import PushmapJSON

/// Reading payload values as a phone does, and showing them in a table.
enum PayloadValues {
    /// A value as a table shows it: strings as they are, other values as compact JSON, cut at 80 characters.
    static func display(_ value: JSONValue) -> String {
        let text = value.stringValue ?? String(decoding: JSONWriter(style: .compact).write(value), as: UTF8.self)
        return text.count > 80 ? String(text.prefix(80)) + "…" : text
    }

    /// A JSON-encoded string's array (Android's `adb_items`, `adb_act`); nil when it is not one.
    static func decodedArray(_ text: String?) -> [JSONValue]? {
        guard let text, let value = try? JSONParser.parse(Array(text.utf8)) else { return nil }
        return value.arrayValue
    }

    /// A whole number written as text, as Kotlin's `toLongOrNull` and Swift's `Int64(_:)` read it.
    static func integer(_ text: String?) -> Int64? {
        guard let text else { return nil }
        return Int64(text)
    }

    /// Seconds written as text as iOS reads them, with `TimeInterval(_:)`: a fraction too
    /// ("1712417524.5", sent by Adobe's own iOS test), counted from the second it falls in; nil
    /// when no finite number (the forty-fifth audit, preview F1: a fraction drew the fallback).
    static func seconds(_ text: String?) -> Int64? {
        guard let text else { return nil }
        if let whole = Int64(text) { return whole }
        guard let value = Double(text), value.isFinite, value > -9.2e18, value < 9.2e18 else { return nil }
        return Int64(value.rounded(.down))
    }

    /// A countdown as phones show it: `M:SS`, or `H:MM:SS` from an hour up.
    static func countdown(_ seconds: Int64) -> String {
        let total = max(0, seconds)
        let hours = total / 3600, minutes = (total % 3600) / 60, rest = total % 60
        func two(_ number: Int64) -> String { number < 10 ? "0\(number)" : "\(number)" }
        if hours > 0 { return "\(hours):\(two(minutes)):\(two(rest))" }
        return "\(two(minutes)):\(two(rest))"
    }
}
