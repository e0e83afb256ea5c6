internal import PushmapJSON

/// Apple's rules for an APNS payload: `aps` walked against ``APNSModel``, the Live Activity
/// keys a Live Activity push needs, and the size limit. A request's headers and what they say
/// of the payload are ``APNSRequestChecks``.
enum APNSPayloadChecks {
    /// Apple's limit for a push; a VoIP push may have 5120 bytes.
    static let maxBytes = 4096
    static let voipMaxBytes = 5120

    /// What the rules read: the payload, its `aps` when it is an object, the payload's compact
    /// length when the caller has written it, and the request headers when the payload is
    /// checked as part of a request.
    struct Payload {
        let root: JSONNode
        let aps: JSONObjectNode?
        let compactSize: Int?
        let headers: JSONObjectNode?
        /// `aps.event`: there, the payload is a Live Activity push.
        let event: JSONNode?
        /// The request is an FCM message's `apns`: FCM sets the headers it leaves out.
        let insideFCM: Bool

        init(_ root: JSONNode, compactSize: Int?, headers: JSONObjectNode? = nil, insideFCM: Bool = false) {
            self.root = root
            self.insideFCM = insideFCM
            aps = root.objectValue?["aps"]?.objectValue
            event = aps?["event"]
            self.compactSize = compactSize
            self.headers = headers
        }

        /// The `apns-push-type` header's value.
        var pushType: UnsafeRawBufferPointer? { headers?["apns-push-type"]?.utf8 }
    }

    @RuleListBuilder static var rules: some RuleList<Payload> {
        ApsObject.self
        ApsKeys.self
        LiveActivity.self
        Size.self
    }

    struct ApsObject: CheckRule {
        static var name: StaticString { "apns-aps-object" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard payload.aps == nil else { return }
            EnvelopeRule.check(payload.root, container: "aps", payload: "an APNS payload", service: "APNs", &report)
        }
    }

    /// Every key of `aps`, and of the alert and sound dictionaries, against Apple's tables.
    struct ApsKeys: CheckRule {
        static var name: StaticString { "apns-aps-key" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let aps = payload.aps else { return }
            APNSWalker.walk(aps, APNSModel.aps, context: APNSWalker.Context(liveActivity: payload.event != nil), &report)
        }
    }

    /// What each Live Activity event needs: a timestamp always, the content state to show for a
    /// start or an update, and for a start the attributes and an alert.
    struct LiveActivity: CheckRule {
        static var name: StaticString { "apns-live-activity" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let aps = payload.aps, let event = payload.event?.utf8 else { return }
            let start = ValueFormat.equals(event, "start")
            var needed: [(StaticString, StaticString)] = [("timestamp", "iOS drops an update without one")]
            if start || ValueFormat.equals(event, "update") {
                needed.append(("content-state", "iOS has nothing to show"))
            }
            if start {
                needed.append(("attributes-type", "iOS cannot start the Live Activity"))
                needed.append(("attributes", "iOS cannot start the Live Activity"))
                needed.append(("alert", "iOS starts a Live Activity only with an alert"))
            }
            for (key, effect) in needed where aps[key] == nil {
                report.error(
                    APNSWalker.location(UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount), APNSModel.aps),
                    "a Live Activity \(ValueFormat.quoted(event)) push needs aps.\(key): \(effect)")
            }
        }
    }

    struct Size: CheckRule {
        static var name: StaticString { "apns-size" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard payload.aps != nil else { return }
            let size = payload.compactSize ?? JSONWriter.compactByteCount(payload.root)
            let voip = payload.pushType.map { ValueFormat.equals($0, "voip") } ?? false
            let limit = voip ? voipMaxBytes : maxBytes
            guard size > limit else { return }
            report.error(CheckLocation.root, "the payload is \(size) bytes written compactly; APNs refuses payloads over \(limit) bytes")
        }
    }

    /// Apple's rules, then Adobe's iOS client rules on top.
    static func run(_ payload: Payload, now: Int64, into report: inout CheckReport) {
        report.run(rules, on: payload)
        if let aps = payload.aps, let root = payload.root.objectValue {
            IOSClientChecks.run(aps, customKeys(root), now: now, into: &report)
        }
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
}
