internal import PushmapJSON

/// Apple's rules for an APNS payload: the keys `aps` may hold and their types, and the size limit.
struct APNSPayloadChecks {
    /// Apple's limit for a regular push (VoIP allows 5120, not written by pushmap).
    static let maxBytes = 4096
    /// Every key Apple defines inside `aps`, Live Activity keys included.
    static let apsKeys: [StaticString] = [
        "alert", "badge", "sound", "thread-id", "category", "content-available", "mutable-content",
        "target-content-id", "interruption-level", "relevance-score", "filter-criteria", "stale-date",
        "content-state", "timestamp", "event", "dismissal-date", "attributes-type", "attributes",
        "input-push-channel", "input-push-token",
    ]
    static let alertStrings: [StaticString] = ["title", "subtitle", "body", "launch-image", "title-loc-key", "subtitle-loc-key", "loc-key"]
    static let alertStringArrays: [StaticString] = ["title-loc-args", "subtitle-loc-args", "loc-args"]
    static let stringKeys: [StaticString] = ["thread-id", "category", "target-content-id"]
    static let interruptionLevels: [StaticString] = ["passive", "active", "time-sensitive", "critical"]

    /// The payload's parts the iOS rules read.
    struct Parts {
        var aps: JSONObjectNode
        var keys: CustomKeys
    }

    /// Checks the payload; gives `aps` and the custom keys beside it, or nil when there is no `aps`.
    /// - Parameter compactSize: the payload's compact length when the caller has written it.
    func run(_ payload: JSONNode, compactSize: Int? = nil, into report: inout CheckReport) -> Parts? {
        guard let root = payload.objectValue else {
            report.error(
                CheckLocation(payload: "$"), "apns-aps-object",
                "an APNS payload is a JSON object holding `aps`, not \(ValueFormat.withArticle(payload.typeName)): APNs refuses it")
            return nil
        }
        guard let aps = root["aps"]?.objectValue else {
            let found = root["aps"].map { "it is \(ValueFormat.withArticle($0.typeName))" } ?? "it is missing"
            report.error(CheckLocation(payload: "$.aps"), "apns-aps-object", "an APNS payload needs an object `aps` (\(found)): APNs refuses it")
            return nil
        }
        var keys = CustomKeys(base: "$")
        keys.reserve(root.count)
        // Keys in byte order are each there once: no search for duplicates.
        for (key, value) in root {
            guard let bytes = key.utf8, !ValueFormat.equals(bytes, "aps") else { continue }
            keys.add(bytes, value, in: "$", new: root.keysSorted)
        }
        checkAps(aps, &report)
        let size = compactSize ?? JSONWriter.compactByteCount(payload)
        if size > Self.maxBytes {
            report.error(
                CheckLocation.root, "apns-size",
                "the payload is \(size) bytes written compactly; APNs refuses payloads over \(Self.maxBytes) bytes")
        }
        return Parts(aps: aps, keys: keys)
    }

    static func location(_ key: String) -> CheckLocation {
        IntentOrigin.location(base: "$.aps", key: key, table: IntentOrigin.apsKeys)
    }

    private func checkAps(_ aps: JSONObjectNode, _ report: inout CheckReport) {
        for (keyNode, value) in aps {
            guard let bytes = keyNode.utf8 else { continue }
            // Built only for a finding: most keys have none.
            func key() -> String { String(decoding: bytes, as: UTF8.self) }
            func location() -> CheckLocation { Self.location(key()) }
            guard ValueFormat.isOne(of: Self.apsKeys, bytes) else {
                report.error(location(), "apns-aps-key", "aps.\(key()) is not one of Apple's aps keys: custom keys go beside aps, never inside it")
                continue
            }
            if ValueFormat.equals(bytes, "alert") {
                checkAlert(value, location, &report)
            } else if ValueFormat.equals(bytes, "badge") {
                checkBadge(value, location, &report)
            } else if ValueFormat.equals(bytes, "sound") {
                checkSound(value, location, &report)
            } else if ValueFormat.equals(bytes, "content-available") || ValueFormat.equals(bytes, "mutable-content") {
                if !isOne(value) {
                    report.error(
                        location(), "apns-flag",
                        "aps.\(key()) must be the number 1, not \(shown(value)): \(key() == "mutable-content" ? "iOS runs the notification service extension" : "iOS wakes the app in the background") only for 1")
                }
            } else if ValueFormat.equals(bytes, "interruption-level") {
                if !(value.utf8.map { ValueFormat.isOne(of: Self.interruptionLevels, $0) } ?? false) {
                    report.error(
                        location(), "apns-interruption-level",
                        "aps.interruption-level must be passive, active, time-sensitive or critical, not \(shown(value)): iOS ignores it")
                }
            } else if ValueFormat.equals(bytes, "relevance-score") {
                if !isUnitNumber(value) {
                    report.error(location(), "apns-relevance-score", "aps.relevance-score must be a number from 0 to 1, not \(shown(value)): iOS ignores it")
                }
            } else if ValueFormat.isOne(of: Self.stringKeys, bytes) {
                if !value.isString {
                    report.error(location(), "apns-aps-type", "aps.\(key()) must be a string, not \(shown(value)): iOS ignores it")
                }
            }
        }
    }

    private func checkAlert(_ value: JSONNode, _ location: () -> CheckLocation, _ report: inout CheckReport) {
        if value.isString { return }
        guard let alert = value.objectValue else {
            report.error(location(), "apns-alert", "aps.alert must be a string or an object of strings, not \(shown(value)): iOS shows no alert")
            return
        }
        for (keyNode, member) in alert {
            guard let bytes = keyNode.utf8 else { continue }
            func key() -> String { String(decoding: bytes, as: UTF8.self) }
            func memberLocation() -> CheckLocation { IntentOrigin.location(base: "$.aps.alert", key: key(), table: IntentOrigin.alertKeys) }
            if ValueFormat.isOne(of: Self.alertStrings, bytes), !member.isString {
                report.error(memberLocation(), "apns-alert", "aps.alert.\(key()) must be a string, not \(shown(member)): iOS ignores it")
            }
            if ValueFormat.isOne(of: Self.alertStringArrays, bytes), !(member.arrayValue?.allSatisfy { $0.isString } ?? false) {
                report.error(memberLocation(), "apns-alert", "aps.alert.\(key()) must be an array of strings, not \(shown(member)): iOS cannot fill in the text")
            }
        }
    }

    private func checkBadge(_ value: JSONNode, _ location: () -> CheckLocation, _ report: inout CheckReport) {
        if let count = value.integerValue, count >= 0 { return }
        report.error(location(), "apns-badge", "aps.badge must be a whole number of 0 or more, not \(shown(value)): iOS does not set the badge")
    }

    private func checkSound(_ value: JSONNode, _ location: () -> CheckLocation, _ report: inout CheckReport) {
        if value.isString { return }
        guard let sound = value.objectValue else {
            report.error(location(), "apns-sound", "aps.sound must be a sound name or {critical, name, volume}, not \(shown(value)): iOS plays no sound")
            return
        }
        if let critical = sound["critical"], !isOne(critical), !isZero(critical) {
            report.error(soundMember(location(), "critical"), "apns-sound", "aps.sound.critical must be 0 or 1, not \(shown(critical)): iOS plays no sound")
        }
        if !(sound["name"]?.isString ?? false) {
            report.error(soundMember(location(), "name"), "apns-sound", "aps.sound.name must be a sound name string: iOS plays no sound without one")
        }
        if let volume = sound["volume"], !isUnitNumber(volume) {
            report.error(soundMember(location(), "volume"), "apns-sound", "aps.sound.volume must be a number from 0 to 1, not \(shown(volume)): iOS plays no sound")
        }
    }

    /// A member of the sound dictionary: in the intent it is all `$.sound`.
    private func soundMember(_ location: CheckLocation, _ key: String) -> CheckLocation {
        CheckLocation(payload: JSONPath.member(location.payload, key), intent: location.intent)
    }

    private func isOne(_ value: JSONNode) -> Bool { value.integerValue == 1 }

    private func isZero(_ value: JSONNode) -> Bool { value.integerValue == 0 }

    /// A JSON number from 0 to 1, integer or not.
    private func isUnitNumber(_ value: JSONNode) -> Bool {
        if let number = value.integerValue { return number == 0 || number == 1 }
        if let number = value.doubleValue { return number >= 0 && number <= 1 }
        return false
    }

    private func shown(_ value: JSONNode) -> String {
        if let text = value.utf8 { return ValueFormat.quoted(text) }
        if let number = value.integerValue { return String(number) }
        if let number = value.doubleValue { return "\(number)" }
        if let flag = value.boolValue { return String(flag) }
        return ValueFormat.withArticle(value.typeName)
    }
}
