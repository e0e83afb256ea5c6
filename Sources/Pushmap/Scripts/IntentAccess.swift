internal import PushmapJSON

/// What a script may read of the intent: the fields every template and team contract declares,
/// as the host's strict access (`pushmap/intent.lua`) gets them, and the warning for a read of
/// any other field.
enum IntentAccess {
    /// The declared fields of `object` as the Lua host reads them: field name to `true` (a leaf,
    /// or a free-form map read freely), to the nested object's fields, or to a one-item list of
    /// the fields of a list's items.
    static func spec(_ object: IntentObject) -> JSONValue {
        var members: [(String, JSONValue)] = []
        for field in object.fields {
            switch field.shape {
            case .object(let inner): members.append((field.name, spec(inner)))
            case .array(.object(let item), _): members.append((field.name, .array([spec(item)])))
            default: members.append((field.name, .bool(true)))
            }
        }
        return .object(JSONObject(members))
    }

    /// "intent.orderID is not a declared field; did you mean orderId? (read at m/promo.lua:12)"
    /// for a read at JSON path `path` (`$.orderID`, `$.buttons[0].kind`) by the script line at
    /// `location`, the nearest name declared beside it suggested.
    static func undeclaredRead(at path: String, location: String, declared: IntentObject) -> String {
        let steps = names(in: path)
        var siblings: IntentObject? = declared
        for name in steps.dropLast() {
            switch siblings?.field(named: name)?.shape {
            case .object(let inner): siblings = inner
            case .array(.object(let item), _): siblings = item
            default: siblings = nil
            }
        }
        var message = "intent\(path.dropFirst()) is not a declared field"
        if let read = steps.last, let near = Suggestion.nearest(to: read, among: siblings?.fields.map(\.name) ?? []) {
            message += "; did you mean \(near)?"
        }
        return message + " (read at \(location))"
    }

    /// The names along a JSON path as pushmap writes them (`.name`, `["any key"]`, `[0]`), indexes left out.
    private static func names(in path: String) -> [String] {
        var names: [String] = []
        var rest = Substring(path.dropFirst())
        while let first = rest.first {
            if first == "." {
                rest = rest.dropFirst()
                let name = rest.prefix { $0 != "." && $0 != "[" }
                names.append(String(name))
                rest = rest.dropFirst(name.count)
            } else if rest.hasPrefix("[\"") {
                // A quoted key: up to the closing quote that ends the bracket.
                let body = rest.dropFirst(2)
                guard let end = body.indices.first(where: { body[$0] == "\"" && body[body.index(after: $0)...].first == "]" }) else { break }
                names.append(String(body[..<end]))
                rest = body[body.index(end, offsetBy: 2)...]
            } else {
                guard let end = rest.firstIndex(of: "]") else { break }
                rest = rest[rest.index(after: end)...]
            }
        }
        return names
    }
}
