@_spi(Engine) internal import PushmapJSON

/// Google's limits on an FCM HTTP v1 message: what FCM refuses before any phone sees it.
enum FCMPayloadChecks {
    /// FCM's limit on a message's payload.
    static let maxBytes = 4096
    /// FCM keeps a message at most 28 days.
    static let maxTTLSeconds: Int64 = 2_419_200
    /// The members of the v1 message's one-of `target`.
    static let targets: [StaticString] = ["token", "topic", "condition", "fid"]
    static let deliveryPriorities: [StaticString] = ["NORMAL", "HIGH"]

    /// A member as FCM reads it: nil when absent or null, since protobuf's JSON reads a field set
    /// to null as one left out (fcm-null-field warns of it).
    static func given(_ member: JSONNode?) -> JSONNode? {
        guard let member, !member.isNull else { return nil }
        return member
    }

    /// What the rules read: the payload, its `message` when it is an object, the payload's
    /// compact length when the caller has written it, and the data maps as read in one pass.
    struct Payload {
        let root: JSONNode
        let message: JSONObjectNode?
        /// `message.android` when it is an object.
        let android: JSONObjectNode?
        /// `message.android_v2` when it is an object, and its path as written: the same TTL and
        /// data as android's (Google's model describes them in the same words).
        let androidV2: (config: JSONObjectNode, path: StaticString, data: StaticString)?
        /// The other members the format rules read, found in one pass.
        let members: MessageMembers
        let compactSize: Int?
        /// The data keys the Android rules read: `data` and `android.data` together, a key in
        /// android.data winning.
        private(set) var keys = CustomKeys(base: "$.message.data")
        /// The data members some member rule applies to, in payload order: few or none, so the
        /// member rules run on these only.
        private(set) var flagged: [DataMember] = []

        init(_ root: JSONNode, compactSize: Int?) {
            self.root = root
            message = root.objectValue?["message"]?.objectValue
            members = MessageMembers(message: message)
            android = members.android?.objectValue
            androidV2 = members.androidV2.flatMap { v2 in
                v2.value.objectValue.map { config in
                    ValueFormat.equals(v2.name, "android_v2")
                        ? (config, "$.message.android_v2", "$.message.android_v2.data") : (config, "$.message.androidV2", "$.message.androidV2.data")
                }
            }
            self.compactSize = compactSize
            read(members.data, base: "$.message.data")
            read(android?["data"], base: "$.message.android.data")
            if let androidV2 { read(androidV2.config["data"], base: androidV2.data) }
        }

        private mutating func read(_ value: JSONNode?, base: StaticString) {
            guard let data = value?.objectValue else { return }
            keys.reserve(data.count)
            // Keys in byte order are each there once: the first map's need no search for duplicates.
            let new = keys.isEmpty && data.keysSorted
            for (key, member) in data {
                guard let key = key.utf8 else { continue }
                let print = keys.add(key, member, in: base, new: new)
                var scope: RuleScope = member.isString ? [] : .dataNonString
                if FCMPayloadChecks.mayBeFCMs(print) { scope.insert(.dataReserved) }
                if !scope.isEmpty { flagged.append(DataMember(key: key, value: member, base: base, scope: scope)) }
            }
        }
    }

    /// One member of a data map.
    struct DataMember {
        let key: UnsafeRawBufferPointer
        let value: JSONNode
        /// The payload path of the map.
        let base: StaticString
        /// The member rules that apply to it.
        let scope: RuleScope

        /// Where the member is, in the payload and in the intent; built only for a finding.
        var location: CheckLocation { IntentOrigin.customKeyLocation(base: ValueFormat.text(base), key: name) }
        var name: String { String(decoding: key, as: UTF8.self) }
    }

    @RuleListBuilder static var rules: some RuleList<Payload> {
        MessageObject.self
        Fields.self
        DataMap.self
        OneTarget.self
        NoTarget.self
        Token.self
        FID.self
        TopicName.self
        Condition.self
        DeliveryPriority.self
        TTL.self
        AndroidObject.self
        AndroidVersions.self
        AndroidDataMap.self
        NotificationColor.self
        NotificationCount.self
        LightSettingsFields.self
        LightColor.self
        WebpushLink.self
        WebpushNotification.self
        WebpushHeaders.self
        AnalyticsLabel.self
        ImageURL.self
        LocArgs.self
        FCMAPNSRequest.self
        Size.self
    }

    struct MessageObject: CheckRule {
        static var name: StaticString { "fcm-message-object" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard payload.message == nil else { return }
            EnvelopeRule.check(payload.root, container: "message", payload: "an FCM payload", service: "FCM", &report)
        }
    }

    /// Every field against Google's model (``FCMFieldWalk`` names each finding's rule).
    struct Fields: CheckRule {
        static var name: StaticString { "fcm-fields" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            // Without an object `message`, fcm-message-object's one error says what is wrong.
            guard payload.message != nil else { return }
            FCMFieldWalk.run(payload.root, &report)
        }
    }

    struct DataMap: CheckRule {
        static var name: StaticString { "fcm-data-map" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            checkDataMap(given(payload.members.data), payload, base: "$.message.data", &report)
        }
    }

    struct OneTarget: CheckRule {
        static var name: StaticString { "fcm-one-target" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            let members = payload.members
            // In the order of `targets`; counted without a list, which is made only for a finding.
            guard let present = setTargets(members) else { return }
            report.error(
                CheckLocation(payload: "$.message", intent: "$.target"),
                "a message has at most one of token, topic, condition and fid; this one has \(present.joined(separator: " and ")): FCM refuses it")
        }
    }

    /// The targets a message sets, when it sets more than one. A target that is no string is
    /// the model's error (fcm-field-type), not counted here: one finding for one fault (the
    /// forty-sixth audit, F8).
    static func setTargets(_ members: MessageMembers) -> [String]? {
        // In the order of `targets`; counted without a list, which is made only for a finding.
        let token = members.token?.utf8 != nil, topic = members.topic?.utf8 != nil
        let condition = members.condition?.utf8 != nil, fid = members.fid?.utf8 != nil
        guard (token ? 1 : 0) + (topic ? 1 : 0) + (condition ? 1 : 0) + (fid ? 1 : 0) > 1 else { return nil }
        return zip(targets, [token, topic, condition, fid]).filter(\.1).map { ValueFormat.text($0.0) }
    }

    /// An empty token addresses no device. (A message with no target at all is fcm-no-target's:
    /// senders often add the token later.)
    struct Token: CheckRule {
        static var name: StaticString { "fcm-token" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let token = payload.members.token?.utf8 else { return }
            if token.isEmpty {
                report.error(messageLocation("token"), "message.token is empty: FCM refuses the message (leave token out to add it later)")
            } else if let byte = token.first(where: { $0 <= 0x20 || $0 >= 0x7F }) {
                // A registration token is URL-safe base64 with colons: a space, a line end or a
                // letter beyond ASCII is a copying slip (a trailing newline, "Bearer ..."), and FCM
                // answers INVALID_ARGUMENT for a token it cannot read (the Admin SDKs' integration
                // tests send "not-a-token" and expect it; the twenty-ninth audit, F3).
                let what = byte == 0x20 ? "a space" : byte < 0x20 || byte == 0x7F ? "a control character (a line end or tab)" : "a character beyond ASCII"
                report.error(messageLocation("token"), "message.token has \(what), which no FCM registration token has: FCM refuses the message (send the token exactly as the app got it)")
            }
        }
    }

    /// An empty fid addresses no app installation, as an empty token addresses no device: the
    /// target is a oneof, so "" is a target set, not one left out.
    struct FID: CheckRule {
        static var name: StaticString { "fcm-fid" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let fid = payload.members.fid?.utf8, fid.isEmpty else { return }
            report.error(messageLocation("fid"), "message.fid is empty: FCM refuses the message (leave fid out to add it later)")
        }
    }

    /// A topic name is 1 to 900 of `a-z A-Z 0-9 - _ . ~ %` (FCM's pattern). The v1 API refuses
    /// the `/topics/` prefix the legacy API wanted; the Admin SDKs strip it before sending, and
    /// pushmap, which sends what it is given, says to strip it. The name after it is still held
    /// to the pattern.
    struct TopicName: CheckRule {
        static var name: StaticString { "fcm-topic" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let topic = payload.members.topic?.utf8 else { return }
            // An empty topic beside another target: fcm-one-target's error says to keep one.
            if topic.isEmpty, setTargets(payload.members) != nil { return }
            var name = topic
            if topic.count >= topicsPrefix.utf8CodeUnitCount, JSONItems.same(UnsafeRawBufferPointer(rebasing: topic.prefix(topicsPrefix.utf8CodeUnitCount)), topicsPrefix) {
                name = UnsafeRawBufferPointer(rebasing: topic.dropFirst(topicsPrefix.utf8CodeUnitCount))
                // Stripped, a name still to mend is said once, below.
                if !name.isEmpty, name.allSatisfy(isTopicByte) {
                    report.error(
                        messageLocation("topic"),
                        "message.topic \(ValueFormat.quoted(topic)) starts with /topics/, which FCM's v1 API refuses: strip it (\(ValueFormat.quoted(name))), as the Firebase Admin SDKs do before sending")
                }
            }
            if !name.isEmpty, name.allSatisfy(isTopicByte) {
                guard name.count > maxTopicLength else { return }
                report.error(
                    messageLocation("topic"), "message.topic is \(name.count) characters long; a topic name has at most \(maxTopicLength): FCM refuses the message")
                return
            }
            report.error(
                messageLocation("topic"),
                "message.topic \(ValueFormat.quoted(topic)) is not a topic name (one or more of a-z, A-Z, 0-9 and - _ . ~ %): FCM refuses the message")
        }

        static let topicsPrefix: StaticString = "/topics/"
    }

    /// NORMAL or HIGH, in any case (the Firebase Admin SDKs all send "normal" and "high"), or
    /// the enum's number, 0 or 1, as protobuf's JSON takes it (a number or a string of one).
    struct DeliveryPriority: CheckRule {
        static var name: StaticString { "fcm-delivery-priority" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let priority = given(payload.android?["priority"]) else { return }
            if let number = ValueFormat.protobufWholeNumber(priority) {
                if number >= 0, number < Int64(deliveryPriorities.count) { return }
                // proto3's enums are open: a number past the words is read (as fcm-enum-value says
                // of the other enums), but means nothing FCM documents.
                if number >= Int64(Int32.min), number <= Int64(Int32.max) {
                    return report.add(
                        .warning, rule: name, androidLocation("priority"),
                        "android.priority \(number) is neither NORMAL (0) nor HIGH (1): FCM reads it but it means nothing FCM documents; give NORMAL or HIGH (the display priority is adb_n_priority)")
                }
            }
            if let word = priority.utf8, deliveryPriorities.contains(where: { ValueFormat.equalsIgnoringCase(word, $0) }) { return }
            report.error(
                androidLocation("priority"),
                "android.priority is FCM's delivery priority, NORMAL or HIGH, not \(ValueFormat.shown(priority, literals: true)): FCM refuses the message (the display priority is adb_n_priority)")
        }
    }

    struct TTL: CheckRule {
        static var name: StaticString { "fcm-ttl" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            if let ttl = given(payload.android?["ttl"]) { check(ttl, at: androidLocation("ttl"), named: "android.ttl", &report) }
            if let v2 = payload.androidV2, let ttl = given(v2.config["ttl"]) {
                let path = ValueFormat.text(v2.path)
                check(ttl, at: CheckLocation(payload: path + ".ttl"), named: String(path.dropFirst("$.message.".count)) + ".ttl", &report)
            }
        }

        private static func check(_ ttl: JSONNode, at location: CheckLocation, named field: String, _ report: inout CheckReport) {
            guard let duration = ttl.utf8.flatMap(ValueFormat.duration) else {
                if let text = ttl.utf8, ValueFormat.isNegativeDuration(text) {
                    return report.error(
                        location, "\(field) \(ValueFormat.shown(ttl, literals: false)) is negative: a time to live is 0s or more: FCM refuses the message")
                }
                // Well formed but past protobuf's range: said as what it is (the forty-fifth
                // audit, validate F3, as the field walk says it of other durations).
                if let text = ttl.utf8, ValueFormat.isDurationPastRange(text) {
                    return report.error(
                        location,
                        "\(field) \(ValueFormat.shown(ttl, literals: false)) is past protobuf's duration range (315576000000s, 10,000 years), and FCM takes at most 4 weeks (2419200s): FCM refuses the message")
                }
                report.error(
                    location,
                    "\(field) must be a duration in seconds such as \"3600s\" (digits, up to 9 decimals, then s), not \(ValueFormat.shown(ttl, literals: false)): FCM refuses the message")
                return
            }
            // The SDKs check no upper bound (the Java SDK's own test builds 30 days), but FCM's
            // v1 API answers such a ttl "must not exceed the maximum of 4 weeks"
            // (firebase/firebase-admin-node#2832): an error (the twenty-ninth audit, F1, kept).
            // A fraction past the maximum: FCM rounds a ttl down to the second (its reference),
            // and does not say whether before it checks the limit (the thirty-first audit).
            if duration.seconds == maxTTLSeconds, duration.fraction {
                report.warning(
                    location,
                    "\(field) \(ValueFormat.shown(ttl, literals: false)) is over 28 days by a fraction of a second: FCM rounds it down to 2419200s, but does not say whether before or after it checks the limit; write 2419200s")
                return
            }
            if duration.seconds > maxTTLSeconds {
                report.error(location, "\(field) \(ValueFormat.shown(ttl, literals: false)) is over 28 days (2419200s): FCM refuses the message")
            }
        }
    }

    struct AndroidObject: CheckRule {
        static var name: StaticString { "fcm-android-object" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let android = given(payload.members.android), android.objectValue == nil else { return }
            report.error(
                CheckLocation(payload: "$.message.android"),
                "message.android must be an object, not \(ValueFormat.withArticle(android.typeName)): FCM refuses the message")
        }
    }

    struct AndroidDataMap: CheckRule {
        static var name: StaticString { "fcm-data-map" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            // android.data is the same map as data; FCM reads both, and android_v2's alike.
            checkDataMap(given(payload.android?["data"]), payload, base: "$.message.android.data", &report)
            if let v2 = payload.androidV2 { checkDataMap(given(v2.config["data"]), payload, base: v2.data, &report) }
        }
    }

    /// FCM's 4096 bytes are of what it delivers: the data and notification keys and values.
    /// Google does not say how it counts them; senders who measured found about 6 bytes more a
    /// key and 45 a message, with the target and whitespace not counted. So the count of keys and
    /// values past the limit is a sure refusal, an error; the message written compactly past it
    /// (the delivered part's JSON, with the target and Android options) only a likely one, a
    /// warning. Google's error reference gives messages to topics 2048 bytes, its other pages
    /// 4096 for every message: past 2048, a warning. `apns` and `webpush` go to other services
    /// under their own limits: the APNS checks hold `apns` to Apple's, and RFC 8030's 4096 bytes
    /// hold `webpush` (a warning: the browser's push service may take more).
    struct Size: CheckRule {
        static var name: StaticString { "fcm-size" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let root = payload.root.objectValue, let message = payload.message else { return }
            // The message's length: from the payload's written text when `message` is all it
            // holds (`{"message":` and `}` around it), else counted. Most messages end here.
            let size = (root.count == 1 ? payload.compactSize.map { $0 - 12 } : nil) ?? root["message"].map(JSONWriter.compactByteCount) ?? 0
            let toTopics = payload.members.topic?.utf8 != nil || payload.members.condition?.utf8 != nil
            guard size > (toTopics ? topicMaxBytes : maxBytes) else { return }
            var written = size
            for (key, value) in message {
                guard let name = key.utf8, ValueFormat.equals(name, "apns") || ValueFormat.equals(name, "webpush") else { continue }
                // `"name":` and the value, and the comma between members.
                written -= name.count + 3 + JSONWriter.compactByteCount(value) + (message.count > 1 ? 1 : 0)
                if ValueFormat.equals(name, "webpush"), let webpush = value.objectValue { webpushSize(webpush, &report) }
            }
            let location = CheckLocation(payload: "$.message", intent: "$")
            guard written > maxBytes else {
                // The bytes to save to be sure, for a campaign's cut: the compact count.
                guard toTopics else { return }
                let delivered = deliveredBytes(payload)
                guard delivered > topicMaxBytes else { return }
                report.oversizeWarning(
                    location,
                    "the message's data and notification keys and values are \(delivered) bytes: Google's error reference gives a message to a topic or condition \(topicMaxBytes) bytes of them (its other pages \(maxBytes) for every message), so FCM may refuse it: keep it within \(topicMaxBytes) bytes to be sure",
                    bytesOver: written - topicMaxBytes)
                return
            }
            // android.data "overrides" message.data, and android.notification's fields the
            // notification's, says FCM's reference, without saying how the limit counts them:
            // counted as overridden, the Android part may be within the limit, and then what FCM
            // does is unclear (the thirty-first audit, F8): a warning.
            let delivered = deliveredBytes(payload)
            if delivered > maxBytes, deliveredBytes(payload, androidOverrides: true) > maxBytes {
                report.oversize(
                    location,
                    "the message's data and notification keys and values are \(delivered) bytes; FCM refuses more than \(maxBytes) bytes of them",
                    bytesOver: written - maxBytes)
            } else {
                report.oversizeWarning(
                    location,
                    "the message is \(written) bytes written compactly, without apns and webpush; FCM counts \(delivered) of them (the data and notification keys and values) against its \(maxBytes) bytes, plus an overhead per key it does not document, so it may refuse the message: keep it within \(maxBytes) bytes to be sure",
                    bytesOver: written - maxBytes)
            }
        }

        /// Google's error reference (ErrorCode, INVALID_ARGUMENT): 2048 bytes for messages to
        /// topics.
        static let topicMaxBytes = 2048

        /// webpush's data and notification go to the browser's push service, which RFC 8030
        /// holds to take 4096 bytes of a message (encrypted, so larger than its JSON).
        private static func webpushSize(_ webpush: JSONObjectNode, _ report: inout CheckReport) {
            var bytes = 0
            for name in ["data", "notification"] as [StaticString] {
                guard let members = webpush[name]?.objectValue else { continue }
                for (key, value) in members { bytes += (key.utf8?.count ?? 0) + valueBytes(value) }
            }
            guard bytes > maxBytes else { return }
            report.warning(
                CheckLocation(payload: "$.message.webpush"),
                "webpush's data and notification keys and values are \(bytes) bytes: a browser's push service need take only \(maxBytes) bytes of a message (RFC 8030), and the encrypted message is larger, so it may refuse the push")
        }

        /// The bytes of the keys and values FCM delivers: the data map (android.data's value for a
        /// key in both) and the notification's members, strings as their UTF-8 bytes.
        /// With `androidOverrides`, android.data (or android_v2's), when given, stands for the
        /// whole data map, and a field of the Android notification for the notification's field
        /// of the same name. android_v2 is counted as android is (Google's model describes its
        /// data and notification in the same words: the forty-sixth audit, F2).
        static func deliveredBytes(_ payload: Payload, androidOverrides: Bool = false) -> Int {
            var bytes = 0
            let replaced = androidOverrides && (payload.android?["data"]?.objectValue != nil || payload.androidV2?.config["data"]?.objectValue != nil)
            for entry in payload.keys.entries where !replaced || ValueFormat.text(entry.base) != "$.message.data" {
                bytes += entry.key.count + valueBytes(entry.value)
            }
            // The first Android notification, android's or android_v2's (both is fcm-android-v2's error).
            var android: JSONObjectNode?
            forEachAndroidNotification(payload) { notification, _ in android = android ?? notification }
            if let members = payload.members.notification?.objectValue {
                for (key, value) in members {
                    guard let name = key.utf8 else { continue }
                    // Overridden: a field the Android notification gives again is counted there only.
                    if androidOverrides, let android, android.contains(where: { $0.key.utf8?.elementsEqual(name) ?? false }) { continue }
                    bytes += name.count + valueBytes(value)
                }
            }
            if let android {
                for (key, value) in android { bytes += (key.utf8?.count ?? 0) + valueBytes(value) }
            }
            return bytes
        }

        private static func valueBytes(_ value: JSONNode) -> Int {
            value.utf8?.count ?? JSONWriter.compactByteCount(value)
        }
    }

    /// The rules for each member of a data map, member by member.
    @RuleListBuilder static var memberRules: some RuleList<DataMember> {
        DataString.self
        ReservedKey.self
    }

    struct DataString: CheckRule {
        static var name: StaticString { "fcm-data-string" }
        static var scope: RuleScope { .dataNonString }

        static func check(_ member: DataMember, _ report: inout CheckReport) {
            report.error(
                member.location,
                "FCM data values must be strings; \(member.name) is \(ValueFormat.withArticle(member.value.typeName)): FCM refuses the message (JSON-encode it into a string)")
        }
    }

    struct ReservedKey: CheckRule {
        static var name: StaticString { "fcm-reserved-key" }
        static var scope: RuleScope { .dataReserved }

        static func check(_ member: DataMember, _ report: inout CheckReport) {
            let print = KeyPrint(bytes: member.key)
            if isReserved(print, member.key) {
                return report.error(member.location, "FCM refuses the data key \(member.name): from, message_type and keys starting google. or gcm.notification. are reserved")
            }
            // Google's error reference (ErrorCode, INVALID_ARGUMENT) names more than its model's
            // list: gcm and any key prefixed by google are "used internally", and collapse_key's
            // value FCM replaces with its own. The model's list is what FCM is known to refuse:
            // for the rest, warnings (the forty-sixth audit, F5 and F6).
            if print == collapseKeyPrint {
                return report.warning(member.location, "the data key collapse_key is FCM's own: FCM replaces its value with its own, so the app never reads this one (rename the key)")
            }
            report.warning(
                member.location,
                "the data key \(member.name) may be refused: Google's error reference says keys such as gcm and any prefixed by google are used by FCM internally (its model reserves only google. and gcm.notification.); rename the key to be sure")
        }
    }

    /// A data map (`data`, `android.data` or `android_v2.data`, at `base`) is an object; its
    /// members each go through ``memberRules``, those that some rule applies to.
    private static func checkDataMap(_ value: JSONNode?, _ payload: Payload, base: StaticString, _ report: inout CheckReport) {
        guard let value else { return }
        guard value.objectValue != nil else {
            report.error(
                CheckLocation(payload: ValueFormat.text(base)),
                "FCM data must be an object of string values, not \(ValueFormat.withArticle(value.typeName)): FCM refuses the message")
            return
        }
        for member in payload.flagged where ValueFormat.equals(member.base, base) {
            report.run(memberRules, on: member, scope: member.scope)
        }
    }

    /// Compared byte for byte, on the key's print: "from" and "message_type" have no other
    /// spelling that Swift's `==` would take for them, so this is what `==` would answer.
    fileprivate static func isReserved(_ key: KeyPrint, _ bytes: UnsafeRawBufferPointer) -> Bool {
        key == fromPrint || key == messageTypePrint || key.hasPrefix(googlePrefix, length: 7)
            || (key.hasPrefix(gcmNotificationPrefix, length: 8) && bytes.count >= 17
                && JSONItems.same(UnsafeRawBufferPointer(rebasing: bytes.prefix(17)), "gcm.notification."))
    }

    /// Whether the key may be one FCM keeps for itself: those ``isReserved`` names, and those
    /// Google's error reference adds (gcm, any key prefixed by google, collapse_key); `gcm.foo`
    /// is none of them.
    fileprivate static func mayBeFCMs(_ key: KeyPrint) -> Bool {
        // By the first byte (the print's lowest): most keys (adb_...) are told apart by it alone.
        switch UInt8(truncatingIfNeeded: key.head) {
        case UInt8(ascii: "f"): key == fromPrint
        case UInt8(ascii: "m"): key == messageTypePrint
        case UInt8(ascii: "c"): key == collapseKeyPrint
        case UInt8(ascii: "g"):
            key.hasPrefix(googleWord, length: 6)
                || (key.hasPrefix(gcmWord, length: 3) && (key.length == 3 || key.hasPrefix(gcmNotificationPrefix, length: 8)))
        default: false
        }
    }

    // Written out, so that reading them costs no lazy initialisation; a test holds them to
    // the words.
    static let fromPrint = KeyPrint(length: 4, head: 0x6d6f_7266, tail: 0x6d6f_7266)  // "from"
    static let messageTypePrint = KeyPrint(length: 12, head: 0x5f65_6761_7373_656d, tail: 0x6570_7974_5f65_6761)  // "message_type"
    static let googlePrefix: UInt64 = 0x2e_656c_676f_6f67  // "google."
    static let googleWord: UInt64 = 0x656c_676f_6f67  // "google"
    static let gcmWord: UInt64 = 0x6d_6367  // "gcm"
    static let collapseKeyPrint = KeyPrint(length: 12, head: 0x6573_7061_6c6c_6f63, tail: 0x7965_6b5f_6573_7061)  // "collapse_key"
    static let gcmNotificationPrefix: UInt64 = 0x6974_6f6e_2e6d_6367  // "gcm.noti", the head of "gcm.notification."

    static func messageLocation(_ key: String) -> CheckLocation {
        IntentOrigin.location(base: "$.message", key: key, table: IntentOrigin.messageKeys)
    }

    private static func androidLocation(_ key: String) -> CheckLocation {
        IntentOrigin.location(base: "$.message.android", key: key, table: IntentOrigin.androidKeys)
    }
}

extension RuleScope {
    // What a data member rule reads.
    static let dataNonString = RuleScope(rawValue: 1 << 16)
    static let dataReserved = RuleScope(rawValue: 1 << 17)
}
