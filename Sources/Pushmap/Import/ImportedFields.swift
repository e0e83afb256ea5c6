internal import PushmapJSON

/// The intent being built from a payload: each field with the payload key it came from, so that a
/// field the translation refuses can be taken out again and reported by that key.
struct ImportedFields {
    struct Field {
        /// The field's path in the intent, as names (`["android", "channel"]`).
        let path: [String]
        let value: JSONValue
        /// The payload path of the key it came from.
        let source: String
    }

    private(set) var fields: [Field] = []

    mutating func set(_ path: String, _ value: JSONValue, from source: String) {
        fields.append(Field(path: path.split(separator: ".").map(String.init), value: value, source: source))
    }

    /// A custom key of `data` (its name may hold any character, dots included).
    mutating func setData(_ key: String, _ value: JSONValue, from source: String) {
        fields.append(Field(path: ["data", key], value: value, source: source))
    }

    /// The sources read from a request's payload moved under `prefix` (`$.aps` to
    /// `$.payload.aps`), but those already at `except` (the headers).
    mutating func rebase(onto prefix: String, except: String) {
        fields = fields.map { field in
            guard field.source.hasPrefix("$"), !field.source.hasPrefix(except) else { return field }
            return Field(path: field.path, value: field.value, source: prefix + field.source.dropFirst())
        }
    }

    /// The intent these fields make; the template first.
    func intent(template: String) -> JSONValue {
        var root = JSONObject()
        root["template"] = .string(template)
        for field in fields { Self.insert(field.value, at: field.path[...], into: &root) }
        return .object(root)
    }

    private static func insert(_ value: JSONValue, at path: ArraySlice<String>, into object: inout JSONObject) {
        guard let first = path.first else { return }
        if path.count == 1 {
            object[first] = value
            return
        }
        var inner = object[first]?.objectValue ?? JSONObject()
        insert(value, at: path.dropFirst(), into: &inner)
        object[first] = .object(inner)
    }

    /// Takes out the fields at or below `intentPath` (`$.colors.title`, `$.carousel.items[2]`) and
    /// gives the payload keys they came from.
    mutating func remove(under intentPath: String) -> [String] {
        let names = Self.names(intentPath)
        guard !names.isEmpty else { return [] }
        var removed: [String] = []
        fields.removeAll { field in
            let shared = min(field.path.count, names.count)
            guard Array(field.path.prefix(shared)) == Array(names.prefix(shared)) else { return false }
            removed.append(field.source)
            return true
        }
        return removed
    }

    /// The member names of a JSON path, quoted keys read as keys (`$.data["google.x"]`), up to
    /// the first index. A quoted key cut the names short, and a reserved data key took every
    /// other data key out with it (the fortieth audit, F1).
    private static func names(_ path: String) -> [String] {
        guard let parsed = JSONPath(parsing: path) else { return [] }
        var names: [String] = []
        for component in parsed.components {
            guard case .key(let name) = component else { break }
            names.append(name)
        }
        return names
    }
}
