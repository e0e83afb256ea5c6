internal import PushmapJSON

/// The custom keys of a payload with where each sits: FCM's data map (`message.data` and
/// `message.android.data` together) or the APNS keys beside `aps`.
struct CustomKeys {
    /// One key's value and the payload object it sits in; its location is built only when a
    /// finding needs it, since most keys never get one.
    struct Entry {
        var value: JSONValue
        var base: String
    }

    /// Where a key the payload lacks would go, for "missing" findings.
    let base: String
    /// The keys in payload order, each once.
    private(set) var keys: [String] = []
    private var entries: [String: Entry] = [:]

    init(base: String) {
        self.base = base
    }

    /// Makes room for `count` keys at once.
    mutating func reserve(_ count: Int) {
        keys.reserveCapacity(count)
        entries.reserveCapacity(count)
    }

    /// Adds a key found in the object at payload path `base`; a later entry for the same key
    /// wins, as `android.data` does over `data`.
    mutating func add(_ key: String, _ value: JSONValue, in base: String) {
        if entries.updateValue(Entry(value: value, base: base), forKey: key) == nil { keys.append(key) }
    }

    func value(_ key: String) -> JSONValue? { entries[key]?.value }

    /// The value when it is a string; the clients read nothing else.
    func string(_ key: String) -> String? { entries[key]?.value.stringValue }

    func contains(_ key: String) -> Bool { entries[key] != nil }

    /// Where the key is, or where it would go when absent.
    func location(_ key: String) -> CheckLocation {
        IntentOrigin.customKeyLocation(base: entries[key]?.base ?? base, key: key)
    }
}
