internal import PushmapJSON

/// How Adobe's keys read back into intent fields: the inverse of the built-in scripts' mapping.
/// Which key becomes which field, in what format, is the template descriptions' (read through
/// ``BuiltinTemplates``); the lists (adb_act, adb_items, adb_rate_act) are read by hand.
enum PayloadReading {
    static let linkTypes = Dictionary(uniqueKeysWithValues: IntentSchema.actionTypes.map { ($0, $0) })

    /// `value` as the field's value, or nil when the intent cannot hold it. `required`: the
    /// template needs the key on Android, where it is read for its presence whatever it holds.
    static func convert(_ value: String, _ format: TemplateDescription.Format, android: Bool, required: Bool = false) -> JSONValue? {
        switch format {
        case .text:
            return .string(value)
        case .choice(let values, let androidOtherwise):
            return (values[value] ?? (android ? androidOtherwise : nil)).map(JSONValue.string)
        case .integer(let minimum):
            // Digits as the phones read them ("060" and "+60" are 60); a changed writing is the
            // round trip's import-changed warning.
            guard let number = Int64(value), number >= minimum else { return nil }
            return .integer(number)
        case .epochSeconds:
            if let seconds = Int64(value), seconds >= 0 { return .integer(seconds) }
            // The intent keeps the whole second a fraction falls in.
            guard !android, let time = Double(value), time.isFinite, time >= 0, time < 9.2e18 else { return nil }
            return .integer(Int64(time.rounded(.down)))
        case .boolean:
            if android { return .bool(value.lowercased() == "true") }
            return value == "true" ? .bool(true) : value == "false" ? .bool(false) : nil
        case .colour:
            guard android else { return .string(value) }
            // Android reads 6 or 8 hex digits alone: it puts a # before them, so a colour written
            // with one (or any other text) is ignored, and the intent leaves it out (the
            // thirty-sixth audit, F5), unless the template needs the key there (a catalog's
            // button colours). Its AARRGGBB is the intent's RRGGBBAA with the alpha moved to the
            // front.
            guard value.utf8.count == 6 || value.utf8.count == 8, value.utf8.allSatisfy(ValueFormat.isHexDigit) else {
                return required ? .string(value) : nil
            }
            return .string(value.utf8.count == 8 ? String(value.dropFirst(2) + value.prefix(2)) : value)
        case .list:
            // A list is an array of objects, not a string: read by hand (`readLists`).
            return nil
        }
    }

    /// The JSON-encoded value of an FCM key, or the array of an APNS one.
    static func list(_ value: JSONValue?) -> [JSONObject]? {
        guard let value else { return nil }
        let decoded: JSONValue? = if let text = value.stringValue { try? JSONParser.parse(Array(text.utf8)) } else { value }
        return decoded?.arrayValue?.compactMap(\.objectValue)
    }

    /// The strings of `object` named in `names` (payload name -> intent name), as an intent object.
    static func strings(_ object: JSONObject, _ names: [(String, String)]) -> JSONObject {
        var result = JSONObject()
        for (from, to) in names {
            if let text = object[from]?.stringValue { result[to] = .string(text) }
        }
        return result
    }

    /// A button, star or icon's `type`, when the intent can say it.
    static func tapType(_ object: JSONObject) -> JSONValue? {
        object["type"]?.stringValue.flatMap { linkTypes[$0] }.map(JSONValue.string)
    }
}
