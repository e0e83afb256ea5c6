internal import PushmapJSON

/// Apple's rules for an APNS payload: the keys `aps` may hold and their types, and the size limit.
enum APNSPayloadChecks {
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

    /// What the rules read: the payload, its `aps` when it is an object, and the payload's
    /// compact length when the caller has written it.
    struct Payload {
        let root: JSONNode
        let aps: JSONObjectNode?
        let compactSize: Int?

        init(_ root: JSONNode, compactSize: Int?) {
            self.root = root
            aps = root.objectValue?["aps"]?.objectValue
            self.compactSize = compactSize
        }
    }

    /// One member of `aps`, with the scope of the rules for its key.
    struct Member {
        let key: UnsafeRawBufferPointer
        let value: JSONNode

        var name: String { String(decoding: key, as: UTF8.self) }
        /// Built only for a finding: most keys have none.
        var location: CheckLocation { APNSPayloadChecks.location(name) }
    }

    @RuleListBuilder static var rules: some RuleList<Payload> {
        ApsObject.self
        ApsKey.self
        Size.self
    }

    struct ApsObject: CheckRule {
        static var name: StaticString { "apns-aps-object" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard payload.aps == nil else { return }
            EnvelopeRule.check(payload.root, container: "aps", payload: "an APNS payload", service: "APNs", &report)
        }
    }

    struct ApsKey: CheckRule {
        static var name: StaticString { "apns-aps-key" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let aps = payload.aps else { return }
            // Each key Apple defines goes through the rules for its value, key by key.
            for (key, value) in aps {
                guard let bytes = key.utf8 else { continue }
                let member = Member(key: bytes, value: value)
                guard let scope = memberScope(bytes) else {
                    report.error(member.location, "aps.\(member.name) is not one of Apple's aps keys: custom keys go beside aps, never inside it")
                    continue
                }
                report.run(memberRules, on: member, scope: scope)
            }
        }
    }

    struct Size: CheckRule {
        static var name: StaticString { "apns-size" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard payload.aps != nil else { return }
            let size = payload.compactSize ?? JSONWriter.compactByteCount(payload.root)
            guard size > maxBytes else { return }
            report.error(CheckLocation.root, "the payload is \(size) bytes written compactly; APNs refuses payloads over \(maxBytes) bytes")
        }
    }

    /// The rules for the value of each `aps` key, by the key's scope.
    @RuleListBuilder static var memberRules: some RuleList<Member> {
        Alert.self
        Badge.self
        Sound.self
        Flag.self
        InterruptionLevel.self
        RelevanceScore.self
        ApsType.self
    }

    struct Alert: CheckRule {
        static var name: StaticString { "apns-alert" }
        static var scope: RuleScope { .apsAlert }

        static func check(_ member: Member, _ report: inout CheckReport) {
            let value = member.value
            if value.isString { return }
            guard let alert = value.objectValue else {
                report.error(
                    member.location,
                    "aps.alert must be a string or an object of strings, not \(ValueFormat.shown(value, literals: true)): iOS shows no alert")
                return
            }
            for (keyNode, field) in alert {
                guard let bytes = keyNode.utf8 else { continue }
                func key() -> String { String(decoding: bytes, as: UTF8.self) }
                func location() -> CheckLocation { IntentOrigin.location(base: "$.aps.alert", key: key(), table: IntentOrigin.alertKeys) }
                if ValueFormat.isOne(of: alertStrings, bytes), !field.isString {
                    report.error(location(), "aps.alert.\(key()) must be a string, not \(ValueFormat.shown(field, literals: true)): iOS ignores it")
                }
                if ValueFormat.isOne(of: alertStringArrays, bytes), !(field.arrayValue?.allSatisfy { $0.isString } ?? false) {
                    report.error(
                        location(),
                        "aps.alert.\(key()) must be an array of strings, not \(ValueFormat.shown(field, literals: true)): iOS cannot fill in the text")
                }
            }
        }
    }

    struct Badge: CheckRule {
        static var name: StaticString { "apns-badge" }
        static var scope: RuleScope { .apsBadge }

        static func check(_ member: Member, _ report: inout CheckReport) {
            if let count = member.value.integerValue, count >= 0 { return }
            report.error(
                member.location,
                "aps.badge must be a whole number of 0 or more, not \(ValueFormat.shown(member.value, literals: true)): iOS does not set the badge")
        }
    }

    struct Sound: CheckRule {
        static var name: StaticString { "apns-sound" }
        static var scope: RuleScope { .apsSound }

        static func check(_ member: Member, _ report: inout CheckReport) {
            let value = member.value
            if value.isString { return }
            guard let sound = value.objectValue else {
                report.error(
                    member.location,
                    "aps.sound must be a sound name or {critical, name, volume}, not \(ValueFormat.shown(value, literals: true)): iOS plays no sound")
                return
            }
            // A member of the sound dictionary: in the intent it is all `$.sound`.
            func location(_ key: String) -> CheckLocation {
                let sound = member.location
                return CheckLocation(payload: JSONPath.member(sound.payload, key), intent: sound.intent)
            }
            if let critical = sound["critical"], !ValueFormat.isInteger(critical, 1), !ValueFormat.isInteger(critical, 0) {
                report.error(
                    location("critical"), "aps.sound.critical must be 0 or 1, not \(ValueFormat.shown(critical, literals: true)): iOS plays no sound")
            }
            if !(sound["name"]?.isString ?? false) {
                report.error(location("name"), "aps.sound.name must be a sound name string: iOS plays no sound without one")
            }
            if let volume = sound["volume"], !isUnitNumber(volume) {
                report.error(
                    location("volume"), "aps.sound.volume must be a number from 0 to 1, not \(ValueFormat.shown(volume, literals: true)): iOS plays no sound")
            }
        }
    }

    struct Flag: CheckRule {
        static var name: StaticString { "apns-flag" }
        static var scope: RuleScope { .apsFlag }

        static func check(_ member: Member, _ report: inout CheckReport) {
            guard !ValueFormat.isInteger(member.value, 1) else { return }
            let effect: StaticString = ValueFormat.equals(member.key, "mutable-content")
                ? "iOS runs the notification service extension" : "iOS wakes the app in the background"
            report.error(
                member.location, "aps.\(member.name) must be the number 1, not \(ValueFormat.shown(member.value, literals: true)): \(effect) only for 1")
        }
    }

    struct InterruptionLevel: CheckRule {
        static var name: StaticString { "apns-interruption-level" }
        static var scope: RuleScope { .apsInterruptionLevel }

        static func check(_ member: Member, _ report: inout CheckReport) {
            guard !(member.value.utf8.map { ValueFormat.isOne(of: interruptionLevels, $0) } ?? false) else { return }
            report.error(
                member.location,
                "aps.interruption-level must be passive, active, time-sensitive or critical, not \(ValueFormat.shown(member.value, literals: true)): iOS ignores it")
        }
    }

    struct RelevanceScore: CheckRule {
        static var name: StaticString { "apns-relevance-score" }
        static var scope: RuleScope { .apsRelevanceScore }

        static func check(_ member: Member, _ report: inout CheckReport) {
            guard !isUnitNumber(member.value) else { return }
            report.error(
                member.location, "aps.relevance-score must be a number from 0 to 1, not \(ValueFormat.shown(member.value, literals: true)): iOS ignores it")
        }
    }

    struct ApsType: CheckRule {
        static var name: StaticString { "apns-aps-type" }
        static var scope: RuleScope { .apsString }

        static func check(_ member: Member, _ report: inout CheckReport) {
            guard !member.value.isString else { return }
            report.error(member.location, "aps.\(member.name) must be a string, not \(ValueFormat.shown(member.value, literals: true)): iOS ignores it")
        }
    }

    /// The scope of the rules for an `aps` key's value; empty for a key no rule reads, nil for a
    /// key Apple does not define.
    private static func memberScope(_ key: UnsafeRawBufferPointer) -> RuleScope? {
        guard ValueFormat.isOne(of: apsKeys, key) else { return nil }
        if ValueFormat.equals(key, "alert") { return .apsAlert }
        if ValueFormat.equals(key, "badge") { return .apsBadge }
        if ValueFormat.equals(key, "sound") { return .apsSound }
        if ValueFormat.equals(key, "content-available") || ValueFormat.equals(key, "mutable-content") { return .apsFlag }
        if ValueFormat.equals(key, "interruption-level") { return .apsInterruptionLevel }
        if ValueFormat.equals(key, "relevance-score") { return .apsRelevanceScore }
        if ValueFormat.isOne(of: stringKeys, key) { return .apsString }
        return []
    }

    /// The keys beside `aps`, which the iOS rules read.
    static func customKeys(_ root: JSONObjectNode) -> CustomKeys {
        var keys = CustomKeys(base: "$")
        keys.reserve(root.count)
        // Keys in byte order are each there once: no search for duplicates.
        for (key, value) in root {
            guard let bytes = key.utf8, !ValueFormat.equals(bytes, "aps") else { continue }
            keys.add(bytes, value, in: "$", new: root.keysSorted)
        }
        return keys
    }

    static func location(_ key: String) -> CheckLocation {
        IntentOrigin.location(base: "$.aps", key: key, table: IntentOrigin.apsKeys)
    }

    /// A JSON number from 0 to 1, integer or not.
    private static func isUnitNumber(_ value: JSONNode) -> Bool {
        if let number = value.integerValue { return number == 0 || number == 1 }
        if let number = value.doubleValue { return number >= 0 && number <= 1 }
        return false
    }
}

extension RuleScope {
    // The `aps` key a member rule reads.
    static let apsAlert = RuleScope(rawValue: 1 << 8)
    static let apsBadge = RuleScope(rawValue: 1 << 9)
    static let apsSound = RuleScope(rawValue: 1 << 10)
    static let apsFlag = RuleScope(rawValue: 1 << 11)
    static let apsInterruptionLevel = RuleScope(rawValue: 1 << 12)
    static let apsRelevanceScore = RuleScope(rawValue: 1 << 13)
    static let apsString = RuleScope(rawValue: 1 << 14)
}
