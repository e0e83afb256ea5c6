internal import PushmapJSON

/// The custom keys of a payload with where each sits: FCM's data map (`message.data` and
/// `message.android.data` together) or the APNS keys beside `aps`.
struct CustomKeys {
    /// One key's value and location.
    struct Entry {
        var value: JSONValue
        var location: CheckLocation
    }

    /// Where a key the payload lacks would go, for "missing" findings.
    let base: String
    /// The keys in payload order, each once.
    private(set) var keys: [String] = []
    private var entries: [String: Entry] = [:]

    init(base: String) {
        self.base = base
    }

    /// Adds a key; a later entry for the same key wins, as `android.data` does over `data`.
    mutating func add(_ key: String, _ value: JSONValue, at location: CheckLocation) {
        if entries[key] == nil { keys.append(key) }
        entries[key] = Entry(value: value, location: location)
    }

    func value(_ key: String) -> JSONValue? { entries[key]?.value }

    /// The value when it is a string; the clients read nothing else.
    func string(_ key: String) -> String? { entries[key]?.value.stringValue }

    func contains(_ key: String) -> Bool { entries[key] != nil }

    /// Where the key is, or where it would go when absent.
    func location(_ key: String) -> CheckLocation {
        entries[key]?.location ?? IntentOrigin.customKeyLocation(base: base, key: key)
    }
}
