internal import PushmapJSON

/// The custom keys of a payload with where each sits: FCM's data map (`message.data` and
/// `message.android.data` together) or the APNS keys beside `aps`.
///
/// A payload has a few dozen keys at most, so they live in one array searched from the front:
/// comparing lengths rejects almost every key at once, which costs far less than hashing each
/// key for a dictionary. Keys compare by their UTF-8 bytes, as JSON and the phones compare them.
struct CustomKeys {
    /// One key's value and the payload object it sits in; its location is built only when a
    /// finding needs it, since most keys never get one.
    struct Entry {
        let key: String
        /// The key's UTF-8 length, compared before any byte.
        let length: Int
        var value: JSONValue
        var base: String
    }

    /// Where a key the payload lacks would go, for "missing" findings.
    let base: String
    /// The keys in payload order, each once.
    private(set) var entries: [Entry] = []

    init(base: String) {
        self.base = base
    }

    /// Makes room for `count` more keys at once.
    mutating func reserve(_ count: Int) {
        entries.reserveCapacity(entries.count + count)
    }

    /// Adds a key found in the object at payload path `base`; a later entry for the same key
    /// wins, as `android.data` does over `data`, and keeps the first one's place.
    mutating func add(_ key: String, _ value: JSONValue, in base: String) {
        if let index = index(key) {
            entries[index].value = value
            entries[index].base = base
        } else {
            entries.append(Entry(key: key, length: key.utf8.count, value: value, base: base))
        }
    }

    private func index(_ key: String) -> Int? {
        let length = key.utf8.count
        for index in entries.indices where entries[index].length == length && UTF8Bytes.equal(entries[index].key, key) {
            return index
        }
        return nil
    }

    func value(_ key: String) -> JSONValue? { index(key).map { entries[$0].value } }

    /// The value when it is a string; the clients read nothing else.
    func string(_ key: String) -> String? {
        guard let index = index(key), case .string(let text) = entries[index].value else { return nil }
        return text
    }

    func contains(_ key: String) -> Bool { index(key) != nil }

    /// Where the key is, or where it would go when absent.
    func location(_ key: String) -> CheckLocation {
        IntentOrigin.customKeyLocation(base: index(key).map { entries[$0].base } ?? base, key: key)
    }
}
