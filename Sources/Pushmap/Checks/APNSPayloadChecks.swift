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
        var aps: JSONObject
        var keys: CustomKeys
    }

    /// Checks the payload; gives `aps` and the custom keys beside it, or nil when there is no `aps`.
    /// - Parameter compactSize: the payload's compact length when the caller has written it.
    func run(_ payload: JSONValue, compactSize: Int? = nil, into report: inout CheckReport) -> Parts? {
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
        for (key, value) in root where key != "aps" {
            keys.add(key, value, in: "$", new: root.keysSorted)
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

    private func checkAps(_ aps: JSONObject, _ report: inout CheckReport) {
        for (key, value) in aps {
            // Built only for a finding: most keys have none.
            let location = { Self.location(key) }
            guard ValueFormat.isOne(of: Self.apsKeys, key) else {
                report.error(location(), "apns-aps-key", "aps.\(key) is not one of Apple's aps keys: custom keys go beside aps, never inside it")
                continue
            }
            switch key {
            case "alert": checkAlert(value, location, &report)
            case "badge": checkBadge(value, location, &report)
            case "sound": checkSound(value, location, &report)
            case "content-available", "mutable-content":
                if !isOne(value) {
                    report.error(
                        location(), "apns-flag",
                        "aps.\(key) must be the number 1, not \(shown(value)): \(key == "mutable-content" ? "iOS runs the notification service extension" : "iOS wakes the app in the background") only for 1")
                }
            case "interruption-level":
                if !(value.stringValue.map { ValueFormat.isOne(of: Self.interruptionLevels, $0) } ?? false) {
                    report.error(
                        location(), "apns-interruption-level",
                        "aps.interruption-level must be passive, active, time-sensitive or critical, not \(shown(value)): iOS ignores it")
                }
            case "relevance-score":
                if !isUnitNumber(value) {
                    report.error(location(), "apns-relevance-score", "aps.relevance-score must be a number from 0 to 1, not \(shown(value)): iOS ignores it")
                }
            case _ where ValueFormat.isOne(of: Self.stringKeys, key):
                if value.stringValue == nil {
                    report.error(location(), "apns-aps-type", "aps.\(key) must be a string, not \(shown(value)): iOS ignores it")
                }
            default:
                break
            }
        }
    }

    private func checkAlert(_ value: JSONValue, _ location: () -> CheckLocation, _ report: inout CheckReport) {
        if value.stringValue != nil { return }
        guard let alert = value.objectValue else {
            report.error(location(), "apns-alert", "aps.alert must be a string or an object of strings, not \(shown(value)): iOS shows no alert")
            return
        }
        for (key, member) in alert {
            let memberLocation = { IntentOrigin.location(base: "$.aps.alert", key: key, table: IntentOrigin.alertKeys) }
            if ValueFormat.isOne(of: Self.alertStrings, key), member.stringValue == nil {
                report.error(memberLocation(), "apns-alert", "aps.alert.\(key) must be a string, not \(shown(member)): iOS ignores it")
            }
            if ValueFormat.isOne(of: Self.alertStringArrays, key), !(member.arrayValue?.allSatisfy { $0.stringValue != nil } ?? false) {
                report.error(memberLocation(), "apns-alert", "aps.alert.\(key) must be an array of strings, not \(shown(member)): iOS cannot fill in the text")
            }
        }
    }

    private func checkBadge(_ value: JSONValue, _ location: () -> CheckLocation, _ report: inout CheckReport) {
        if case .integer(let count) = value, count >= 0 { return }
        report.error(location(), "apns-badge", "aps.badge must be a whole number of 0 or more, not \(shown(value)): iOS does not set the badge")
    }

    private func checkSound(_ value: JSONValue, _ location: () -> CheckLocation, _ report: inout CheckReport) {
        if value.stringValue != nil { return }
        guard let sound = value.objectValue else {
            report.error(location(), "apns-sound", "aps.sound must be a sound name or {critical, name, volume}, not \(shown(value)): iOS plays no sound")
            return
        }
        if let critical = sound["critical"], !isOne(critical), !isZero(critical) {
            report.error(soundMember(location(), "critical"), "apns-sound", "aps.sound.critical must be 0 or 1, not \(shown(critical)): iOS plays no sound")
        }
        if sound["name"]?.stringValue == nil {
            report.error(soundMember(location(), "name"), "apns-sound", "aps.sound.name must be a sound name string: iOS plays no sound without one")
        }
        if let volume = sound["volume"], !isUnitNumber(volume) {
            report.error(soundMember(location(), "volume"), "apns-sound", "aps.sound.volume must be a number from 0 to 1, not \(shown(volume)): iOS plays no sound")
        }
    }

    /// A member of the sound dictionary: in the intent it is all `$.sound`.
    private func soundMember(_ location: CheckLocation, _ key: String) -> CheckLocation {
        CheckLocation(payload: PathText.member(location.payload, key), intent: location.intent)
    }

    private func isOne(_ value: JSONValue) -> Bool {
        if case .integer(1) = value { return true }
        return false
    }

    private func isZero(_ value: JSONValue) -> Bool {
        if case .integer(0) = value { return true }
        return false
    }

    /// A JSON number from 0 to 1, integer or not.
    private func isUnitNumber(_ value: JSONValue) -> Bool {
        switch value {
        case .integer(let number): number == 0 || number == 1
        case .double(let number): number >= 0 && number <= 1
        default: false
        }
    }

    private func shown(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): ValueFormat.quoted(text)
        case .integer(let number): String(number)
        case .double(let number): "\(number)"
        case .bool(let flag): String(flag)
        default: ValueFormat.withArticle(value.typeName)
        }
    }
}
