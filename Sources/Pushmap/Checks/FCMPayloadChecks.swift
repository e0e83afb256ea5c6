internal import PushmapJSON

/// Google's limits on an FCM HTTP v1 message: what FCM refuses before any phone sees it.
struct FCMPayloadChecks {
    /// FCM's limit on a message's payload.
    static let maxBytes = 4096
    /// FCM keeps a message at most 28 days.
    static let maxTTLSeconds: Int64 = 2_419_200
    static let targets: [StaticString] = ["token", "topic", "condition"]
    static let deliveryPriorities: [StaticString] = ["NORMAL", "HIGH"]

    /// Checks the message and returns its data map for the Android rules, or nil when there is
    /// no message to read one from.
    /// - Parameter compactSize: the payload's compact length when the caller has written it.
    func run(_ payload: JSONNode, compactSize: Int? = nil, into report: inout CheckReport) -> CustomKeys? {
        guard let root = payload.objectValue else {
            report.error(
                CheckLocation(payload: "$"), "fcm-message-object",
                "an FCM payload is a JSON object holding `message`, not \(article(payload.typeName)): FCM refuses it")
            return nil
        }
        guard let message = root["message"]?.objectValue else {
            let messageLocation = CheckLocation(payload: "$.message")
            let found = root["message"].map { "it is \(article($0.typeName))" } ?? "it is missing"
            report.error(messageLocation, "fcm-message-object", "an FCM payload needs an object `message` (\(found)): FCM refuses it")
            return nil
        }

        var keys = CustomKeys(base: "$.message.data")
        if let data = message["data"] {
            collect(data, base: "$.message.data", into: &keys, report: &report)
        }
        checkTargets(message, &report)
        if let androidValue = message["android"] {
            if let android = androidValue.objectValue {
                checkAndroidConfig(android, &report)
                // android.data is the same map as data; FCM reads both.
                if let data = android["data"] {
                    collect(data, base: "$.message.android.data", into: &keys, report: &report)
                }
            } else {
                report.error(
                    CheckLocation(payload: "$.message.android"), "fcm-android-object",
                    "message.android must be an object, not \(article(androidValue.typeName)): FCM refuses the message")
            }
        }

        // The message's length: from the payload's written text when `message` is all it holds
        // (`{"message":` and `}` around it), else counted.
        let size = (root.count == 1 ? compactSize.map { $0 - 12 } : nil) ?? root["message"].map(JSONWriter.compactByteCount) ?? 0
        if size > Self.maxBytes {
            report.error(
                CheckLocation(payload: "$.message", intent: "$"), "fcm-size",
                "the message is \(size) bytes written compactly; FCM refuses messages over \(Self.maxBytes) bytes")
        }
        return keys
    }

    /// Adds a data map's entries, checking that each is a string under a key FCM accepts.
    private func collect(_ value: JSONNode, base: StaticString, into keys: inout CustomKeys, report: inout CheckReport) {
        guard let data = value.objectValue else {
            report.error(
                CheckLocation(payload: ValueFormat.text(base)), "fcm-data-map",
                "FCM data must be an object of string values, not \(article(value.typeName)): FCM refuses the message")
            return
        }
        keys.reserve(data.count)
        // Keys in byte order are each there once: the first map's need no search for duplicates.
        let new = keys.isEmpty && data.keysSorted
        for (keyNode, member) in data {
            guard let key = keyNode.utf8 else { continue }
            let print = keys.add(key, member, in: base, new: new)
            if !member.isString {
                let name = String(decoding: key, as: UTF8.self)
                report.error(
                    IntentOrigin.customKeyLocation(base: ValueFormat.text(base), key: name), "fcm-data-string",
                    "FCM data values must be strings; \(name) is \(article(member.typeName)): FCM refuses the message (JSON-encode it into a string)")
            }
            if isReserved(print) {
                let name = String(decoding: key, as: UTF8.self)
                report.error(
                    IntentOrigin.customKeyLocation(base: ValueFormat.text(base), key: name), "fcm-reserved-key",
                    "FCM refuses the data key \(name): from, message_type and keys starting google. or gcm. are reserved")
            }
        }
    }

    /// Compared byte for byte, on the key's print: "from" and "message_type" have no other
    /// spelling that Swift's `==` would take for them, so this is what `==` would answer.
    private func isReserved(_ key: KeyPrint) -> Bool {
        key == Self.fromPrint || key == Self.messageTypePrint
            || key.hasPrefix(Self.googlePrefix, length: 7) || key.hasPrefix(Self.gcmPrefix, length: 4)
    }

    // Written out, so that reading them costs no lazy initialisation; a test holds them to
    // the words.
    static let fromPrint = KeyPrint(length: 4, head: 0x6d6f_7266, tail: 0x6d6f_7266)  // "from"
    static let messageTypePrint = KeyPrint(length: 12, head: 0x5f65_6761_7373_656d, tail: 0x6570_7974_5f65_6761)  // "message_type"
    static let googlePrefix: UInt64 = 0x2e_656c_676f_6f67  // "google."
    static let gcmPrefix: UInt64 = 0x2e6d_6367  // "gcm.

    private func checkTargets(_ message: JSONObjectNode, _ report: inout CheckReport) {
        // Counted first: the list is built only for a finding.
        var count = 0
        for target in Self.targets where message[target] != nil { count += 1 }
        guard count > 1 else { return }
        let present = Self.targets.filter { message[$0] != nil }.map(ValueFormat.text)
        report.error(
            CheckLocation(payload: "$.message", intent: "$.target"), "fcm-one-target",
            "a message has at most one of token, topic and condition; this one has \(present.joined(separator: " and ")): FCM refuses it")
    }

    private func checkAndroidConfig(_ android: JSONObjectNode, _ report: inout CheckReport) {
        if let priority = android["priority"], !(priority.utf8.map { ValueFormat.isOne(of: Self.deliveryPriorities, $0) } ?? false) {
            report.error(
                location("priority"), "fcm-delivery-priority",
                "android.priority is FCM's delivery priority, NORMAL or HIGH, not \(shown(priority)): FCM refuses the message (the display priority is adb_n_priority)")
        }
        if let ttl = android["ttl"] {
            let duration = ttl.utf8.flatMap(ValueFormat.duration)
            if let duration {
                if duration.seconds > Self.maxTTLSeconds || (duration.seconds == Self.maxTTLSeconds && duration.fraction) {
                    report.error(
                        location("ttl"), "fcm-ttl",
                        "android.ttl \(shown(ttl)) is over 28 days (2419200s): FCM refuses the message")
                }
            } else {
                report.error(
                    location("ttl"), "fcm-ttl",
                    "android.ttl must be a duration in seconds such as \"3600s\" (digits, up to 9 decimals, then s), not \(shown(ttl)): FCM refuses the message")
            }
        }
    }

    private func location(_ key: String) -> CheckLocation {
        IntentOrigin.location(base: "$.message.android", key: key, table: IntentOrigin.androidKeys)
    }

    /// A value as a message shows it: strings quoted, anything else by its type.
    private func shown(_ value: JSONNode) -> String {
        value.utf8.map(ValueFormat.quoted) ?? article(value.typeName)
    }

    private func article(_ typeName: String) -> String {
        ValueFormat.withArticle(typeName)
    }
}
