internal import PushmapJSON

/// A payload key that translating the imported intent does not give back as it was.
struct ImportDifference {
    enum Kind {
        case notKept, added, changed
        /// A message.data key that android.data gives another value: `now` is that value.
        case overridden
        /// An android.data key, which comes back in message.data.
        case shared
    }

    /// The key's payload path.
    let path: String
    let kind: Kind
    let was: JSONValue?
    let now: JSONValue?

    /// The finding for the key, in a payload of `template` (the intent's, as read).
    func diagnostic(_ platform: Platform, template: String) -> Diagnostic {
        let key = ImportDifference.name(path)
        switch kind {
        case .notKept:
            // Which payload: an intent field may write the key in another template's (adb_media
            // in an iOS basic payload, not a carousel's; the forty-fifth audit, import F5).
            let payload = "a \(template) payload for \(platform == .fcm ? "FCM" : platform == .apns ? "APNS" : platform.name)"
            return .warning(path, PayloadImport.notKept, "\(key) \(Self.shown(was)) is not kept: no intent field writes it in \(payload)", platform: platform)
        case .added:
            return .warning(path, PayloadImport.added, "\(key) is added: translating the intent writes \(Self.shown(now))", platform: platform)
        case .changed:
            return .warning(path, PayloadImport.changed, "\(key) changes: \(Self.shown(was)) becomes \(Self.shown(now))", platform: platform)
        case .overridden:
            return .warning(
                path, PayloadImport.notKept,
                "\(key) \(Self.shown(was)) is not kept: android.data gives \(key) \(Self.shown(now)), and an intent has one data map for every platform",
                platform: platform)
        case .shared:
            return .warning(
                path, PayloadImport.changed,
                "\(key) comes back in message.data: an intent has one data map, so the message's iOS and web devices get it too", platform: platform)
        }
    }

    /// What the intent does with the key, said after a fault of the payload as given.
    var outcome: String {
        switch kind {
        case .notKept, .overridden: "the intent leaves it out"
        case .added, .changed, .shared: "the intent writes \(Self.shown(now))"
        }
    }

    /// The key a payload path ends in, for messages.
    static func name(_ path: String) -> String {
        // `$.aps["mutable-content"]`: a key JSON paths quote, escaped as a JSON string. The key
        // may hold `[` and `"` itself (`["a["]`), so the last segment is the first `["` whose
        // text up to the closing `]` reads as one JSON string: an earlier segment's ends in an
        // unescaped quote.
        if path.hasSuffix("\"]") {
            var from = path.startIndex
            while let open = path[from...].firstRange(of: "[\"") {
                let quoted = path[path.index(after: open.lowerBound)..<path.index(before: path.endIndex)]
                if let key = (try? JSONParser.parse(Array(quoted.utf8)))?.stringValue { return key }
                from = open.upperBound
            }
        }
        return String(path.split(separator: ".").last ?? Substring(path))
    }

    /// A value for a message, cut short.
    private static func shown(_ value: JSONValue?) -> String {
        guard let value else { return "nothing" }
        let text = String(decoding: JSONWriter(style: .compact).write(value), as: UTF8.self)
        return text.count > 60 ? String(text.prefix(60)) + "…" : text
    }

    /// The members of two objects that differ, each at `base` + its key; `encoded` keys hold JSON
    /// text, compared as the values they encode.
    static func members(_ was: JSONObject, _ now: JSONObject, base: String, skipping: Set<String> = [], encoded: Set<String> = [], sources: [String: String] = [:]) -> [ImportDifference] {
        var keys: [String] = []
        var seen: Set<String> = []
        for (key, _) in was where seen.insert(key).inserted { keys.append(key) }
        for (key, _) in now where seen.insert(key).inserted { keys.append(key) }
        var differences: [ImportDifference] = []
        for key in keys where !skipping.contains(key) {
            let a = was[key], b = now[key]
            if a == b { continue }
            if encoded.contains(key), let a, let b, decoded(a) != nil, decoded(a) == decoded(b) { continue }
            let kind: Kind = b == nil ? .notKept : a == nil ? .added : .changed
            differences.append(ImportDifference(path: sources[key] ?? JSONPath.member(base, key), kind: kind, was: a, now: b))
        }
        return differences
    }

    private static func decoded(_ value: JSONValue) -> JSONValue? {
        value.stringValue.flatMap { try? JSONParser.parse(Array($0.utf8)) }
    }
}

extension PayloadImport {
    /// The keys FCM carries JSON-encoded: compared as the values they encode.
    static let encodedKeys = Set(BuiltinTemplates.listKeys(on: .fcm).map(\.name))

    static func fcmDifferences(_ payload: JSONValue, _ translated: JSONValue) -> [ImportDifference] {
        let was = payload["message"]?.objectValue ?? JSONObject()
        let now = translated["message"]?.objectValue ?? JSONObject()
        var data = was["data"]?.objectValue ?? JSONObject()
        var sources: [String: String] = [:]
        let wasAndroid = was["android"]?.objectValue ?? JSONObject()
        if let inner = wasAndroid["data"]?.objectValue {
            for (key, value) in inner {
                data[key] = value
                sources[key] = JSONPath.member("$.message.android.data", key)
            }
        }
        var differences = ImportDifference.members(
            data, now["data"]?.objectValue ?? JSONObject(), base: "$.message.data", encoded: encodedKeys, sources: sources)
        // A data that is no object is read as none: it is left out whole (the forty-fifth audit,
        // import F1: its fault said "the intent keeps it").
        if let given = was["data"], given.objectValue == nil {
            differences.append(ImportDifference(path: "$.message.data", kind: .notKept, was: given, now: nil))
        }
        // android.data is Android's alone, and overrides data there; an intent's data is every
        // platform's. Each of its keys moves, and a data key it overrides is lost.
        if let inner = wasAndroid["data"]?.objectValue {
            let topLevel = was["data"]?.objectValue ?? JSONObject()
            var reported = Set(differences.map(\.path))
            for (key, value) in inner {
                if let lost = topLevel[key], lost != value {
                    differences.append(ImportDifference(path: JSONPath.member("$.message.data", key), kind: .overridden, was: lost, now: value))
                }
                let path = JSONPath.member("$.message.android.data", key)
                if reported.insert(path).inserted { differences.append(ImportDifference(path: path, kind: .shared, was: value, now: value)) }
            }
        }
        differences += ImportDifference.members(was, now, base: "$.message", skipping: ["data", "android"])
        // The request's members beside the message (validate_only): no intent field writes them
        // (the forty-fifth audit, import F7: left out unsaid).
        differences += ImportDifference.members(payload.objectValue ?? JSONObject(), translated.objectValue ?? JSONObject(), base: "$", skipping: ["message"])
        var androidWas = wasAndroid
        androidWas["data"] = nil
        differences += ImportDifference.members(androidWas, now["android"]?.objectValue ?? JSONObject(), base: "$.message.android")
        return differences
    }

    static func apnsDifferences(_ payload: JSONValue, _ translated: JSONValue, base: String = "$") -> [ImportDifference] {
        let was = payload.objectValue ?? JSONObject()
        let now = translated.objectValue ?? JSONObject()
        let apsWas = was["aps"]?.objectValue ?? JSONObject(), apsNow = now["aps"]?.objectValue ?? JSONObject()
        // An alert dictionary both ways is compared key by key, each at its own path (the
        // forty-fifth audit, import F6: a lost launch-image was the whole alert "changing").
        if let alertWas = apsWas["alert"]?.objectValue, let alertNow = apsNow["alert"]?.objectValue {
            return ImportDifference.members(was, now, base: base, skipping: ["aps"])
                + ImportDifference.members(apsWas, apsNow, base: base + ".aps", skipping: ["alert"])
                + ImportDifference.members(alertWas, alertNow, base: base + ".aps.alert")
        }
        return ImportDifference.members(was, now, base: base, skipping: ["aps"])
            + ImportDifference.members(apsWas, apsNow, base: base + ".aps")
    }

    /// A request's differences: its headers, then its payload's.
    static func requestDifferences(_ request: JSONValue, _ translated: JSONValue) -> [ImportDifference] {
        ImportDifference.members(request["headers"]?.objectValue ?? JSONObject(), translated["headers"]?.objectValue ?? JSONObject(), base: "$.headers")
            + apnsDifferences(request["payload"] ?? .object([:]), translated["payload"] ?? .object([:]), base: "$.payload")
    }
}
