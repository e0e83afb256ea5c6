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
        /// The translation's intent, whose push type a payload without headers goes with.
        let intent: TranslatedIntent?

        init(_ root: JSONNode, compactSize: Int?, headers: JSONObjectNode? = nil, insideFCM: Bool = false, intent: TranslatedIntent? = nil) {
            self.root = root
            self.insideFCM = insideFCM
            self.intent = intent
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
        MDM.self
        ApsKeys.self
        LocArgs.self
        LiveActivity.self
        Size.self
    }

    /// `aps` is an object, and is there unless the push type needs none: PushKit and MDM pushes
    /// carry only the app's (or the MDM server's) keys. Without a push type a payload with no
    /// `aps` may be either, so that is a warning; an `{"mdm": ...}` payload says what it is.
    struct ApsObject: CheckRule {
        static var name: StaticString { "apns-aps-object" }

        /// What a push type that needs `aps` does without it.
        static let withoutAps: [(type: StaticString, effect: StaticString)] = [
            ("alert", "the phone shows nothing"), ("background", "iOS does not wake the app"),
            ("liveactivity", "iOS does not start, update or end the Live Activity"), ("widgets", "WidgetKit does not reload the widgets"),
            ("controls", "WidgetKit does not reload the controls"),
        ]

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            if let aps = payload.aps {
                // A bare payload (validate: no headers, no intent) whose aps gives iOS nothing to
                // show or do. With headers, the push type rule says it; translated, the mapping.
                guard payload.headers == nil, payload.intent == nil, !payload.insideFCM, APNSRequestChecks.doesNothing(aps) else { return }
                report.warning(
                    CheckLocation(payload: "$.aps"),
                    "aps has no alert, sound, badge or content-available: sent as an alert or background push it shows nothing and wakes nothing; only a push type that reads the payload's own keys (voip, complication, fileprovider, location, pushtotalk) goes so")
                return
            }
            guard let root = payload.root.objectValue else {
                // Apple's error table names no answer for it: what is sure is that neither iOS
                // nor PushKit reads anything but a dictionary.
                report.error(
                    CheckLocation(payload: "$"),
                    "an APNS payload is a JSON object, not \(ValueFormat.withArticle(payload.root.typeName)): iOS and PushKit read only an object, so nothing arrives")
                return
            }
            let location = CheckLocation(payload: "$.aps")
            if let aps = root["aps"] {
                report.error(location, "aps is \(ValueFormat.withArticle(aps.typeName)), not an object: iOS reads none of it, and the phone shows nothing")
                return
            }
            // The push type comes from the header, or, translated without --request, from the intent.
            let isType: (StaticString) -> Bool
            if let type = payload.pushType {
                isType = { ValueFormat.equals(type, $0) }
            } else if payload.headers?["apns-push-type"] != nil || root["mdm"] != nil {
                return  // a non-string push type is the header walk's to report; mdm has its own rule
            } else if payload.headers == nil, let told = payload.intent?.pushType {
                isType = { ValueFormat.text($0) == told }
            } else {
                report.warning(
                    location,
                    "the payload has no aps: sent as alert or background it shows nothing and wakes nothing; only PushKit (voip, complication, fileprovider, location, pushtotalk) and mdm pushes go without one, sent with that apns-push-type")
                return
            }
            guard let entry = withoutAps.first(where: { isType($0.type) }) else { return }
            report.error(location, "a push of type \(entry.type) needs an aps object: without one \(entry.effect)")
        }
    }

    /// An MDM push is `{"mdm": PushMagic}` and nothing else: the device reads only the PushMagic
    /// string its MDM check-in gave, then contacts the MDM server. A payload is one when its push
    /// type is mdm, or with no push type when it has `mdm` and no `aps`.
    struct MDM: CheckRule {
        static var name: StaticString { "apns-mdm" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let root = payload.root.objectValue else { return }
            if let type = payload.pushType {
                guard ValueFormat.equals(type, "mdm") else { return }
            } else if payload.aps != nil || root["mdm"] == nil {
                return
            }
            if !(root["mdm"]?.isString ?? false) {
                let found = root["mdm"].map { ValueFormat.shown($0, literals: true) } ?? "missing"
                report.error(
                    CheckLocation(payload: "$.mdm", intent: "$.data.mdm"),
                    "an MDM push is {\"mdm\": the device's PushMagic string}, and mdm is \(found): the device does not contact the MDM server")
            }
            for (key, value) in root {
                guard let bytes = key.utf8, !ValueFormat.equals(bytes, "mdm") else { continue }
                // An empty aps (apns2 writes one) carries nothing to ignore.
                if ValueFormat.equals(bytes, "aps"), value.objectValue?.count == 0 { continue }
                let name = String(decoding: bytes, as: UTF8.self)
                report.warning(
                    IntentOrigin.customKeyLocation(base: "$", key: name),
                    "an MDM push carries only mdm: the device ignores \(ValueFormat.quoted(bytes))")
            }
        }
    }

    /// Every key of `aps`, and of the alert and sound dictionaries, against Apple's tables.
    struct ApsKeys: CheckRule {
        static var name: StaticString { "apns-aps-key" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let aps = payload.aps else { return }
            let background = payload.pushType.map { ValueFormat.equals($0, "background") } ?? false
            APNSWalker.walk(aps, APNSModel.aps, context: APNSWalker.Context(liveActivity: payload.event != nil, aps: aps, background: background), &report)
        }
    }

    /// An alert's arguments fill the string its loc key names. With no key, iOS shows the plain
    /// text and drops the arguments (the Go, Python and Node Admin SDKs refuse arguments without
    /// their key: messaging_test.go InvalidAPNSTitleLocArgs, InvalidAPNSLocArgs).
    struct LocArgs: CheckRule {
        static var name: StaticString { "apns-loc-args" }
        static let pairs: [(args: StaticString, key: StaticString)] = [
            ("title-loc-args", "title-loc-key"), ("subtitle-loc-args", "subtitle-loc-key"), ("loc-args", "loc-key"),
        ]

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let alert = payload.aps?["alert"]?.objectValue else { return }
            // One pass over the alert's few members finds the arguments, if any; only their
            // names end in "s" (title, body and the keys end otherwise).
            for (name, value) in alert {
                guard let bytes = name.utf8, bytes.last == UInt8(ascii: "s"), let pair = pairs.first(where: { ValueFormat.equals(bytes, $0.args) }),
                    let args = value.arrayValue, args.count > 0
                else { continue }
                // A key of the wrong type is the walk's finding already.
                if let key = alert[pair.key], !(key.utf8?.isEmpty ?? false) { continue }
                // An alert with nothing to show is apns-alert's one finding.
                guard APNSModel.alert.requirement?.isMet(by: alert) ?? true else { return }
                report.warning(
                    IntentOrigin.location(base: "$.aps.alert", key: ValueFormat.text(pair.args), table: IntentOrigin.alertKeys),
                    "aps.alert.\(pair.args) has no \(pair.key) to fill: iOS shows the plain text and drops the arguments; add \(pair.key)")
            }
        }
    }

    /// What each Live Activity event needs: a timestamp always, the content state to show for a
    /// start or an update, and for a start the attributes and an alert.
    struct LiveActivity: CheckRule {
        static var name: StaticString { "apns-live-activity" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            // An event iOS does not know is the walk's one finding: nothing here applies to it
            // (the thirtieth audit, F8, where node-apn's "the-event" was also called an update).
            guard let aps = payload.aps, let event = payload.event?.utf8, APNSModel.liveActivityEvents.contains(where: { ValueFormat.equals(event, $0) })
            else { return }
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
                    location(of: key),
                    "a Live Activity \(ValueFormat.quoted(event)) push needs aps.\(key): \(effect)")
            }
            // Apple's times are epoch seconds; a millisecond count (JavaScript's Date.now()) is a
            // date some 50,000 years ahead, which iOS takes as given: a warning, since this push
            // still shows (the twenty-seventh audit's observation, FCM's Live Activity example).
            for (key, effect) in millisecondTimes {
                guard let value = aps[key].flatMap(ValueFormat.wholeNumber), value >= millisecondsFloor else { continue }
                report.warning(
                    location(of: key),
                    "aps.\(key) \(value) reads as epoch milliseconds: Live Activity times are epoch seconds, and as seconds this is thousands of years ahead, so \(effect); divide it by 1000")
            }
        }

        /// Where `aps.key` is, in the payload and the intent.
        private static func location(of key: StaticString) -> CheckLocation {
            APNSWalker.location(UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount), APNSModel.aps)
        }

        /// 10^11 seconds is the year 5138; the milliseconds of any date since 1973 are more.
        static let millisecondsFloor: Int64 = 100_000_000_000
        static let millisecondTimes: [(StaticString, StaticString)] = [
            ("timestamp", "iOS takes every later update, sent in seconds, as older and drops it"),
            ("stale-date", "the Live Activity never goes stale"),
            ("dismissal-date", "iOS keeps the ended Live Activity for up to four hours instead"),
        ]
    }

    struct Size: CheckRule {
        static var name: StaticString { "apns-size" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard payload.root.objectValue != nil else { return }
            let size = payload.compactSize ?? JSONWriter.compactByteCount(payload.root)
            guard size > maxBytes else { return }
            // The push type from the header, or, translated without --request, from the intent
            // (the thirty-seventh audit, F2: a VoIP intent's payload was held to 4096 bytes),
            // read only for a payload past the common limit: reading it from the intent builds
            // the intent's value, 24,000 instructions a translation.
            let voip = payload.pushType.map { ValueFormat.equals($0, "voip") } ?? (payload.headers == nil && payload.intent?.pushType == "voip")
            let limit = voip ? voipMaxBytes : maxBytes
            guard size > limit else { return }
            // A request's payload is sent as its sender writes it anew, not as written here (a
            // bare payload is). Past the limit only by escapes as written (\u00e9, six bytes),
            // and within it as every peer writes it (PyAPNs2 and node-apn in plain UTF-8, Go's
            // encoding/json with & < > escaped again, as sideshow/apns2 sends them), a warning
            // (the forty-fifth audit, validate F1; the thirtieth, F2, for Go's).
            if payload.headers != nil, payload.compactSize != nil, case let plain = JSONWriter.compactByteCount(payload.root),
               plain + 5 * htmlCharacters(payload.root) <= limit {
                report.warning(
                    CheckLocation.root,
                    "the payload is \(size) bytes as written here, its \\u escapes six bytes each, and \(plain) in plain UTF-8: APNs refuses payloads over \(limit) bytes, so it is refused if sent with those escapes; send it written in UTF-8")
                return
            }
            report.oversize(
                CheckLocation.root, "the payload is \(size) bytes written compactly; APNs refuses payloads over \(limit) bytes (413 PayloadTooLarge)",
                bytesOver: size - limit)
        }
    }

    /// How many `&`, `<` and `>` the strings and keys under `node` hold: Go's encoding/json
    /// writes each as six bytes (`\u0026`), five more than plain UTF-8.
    static func htmlCharacters(_ node: JSONNode) -> Int {
        if let text = node.utf8 {
            return text.reduce(0) { $0 + ($1 == UInt8(ascii: "&") || $1 == UInt8(ascii: "<") || $1 == UInt8(ascii: ">") ? 1 : 0) }
        }
        if let object = node.objectValue { return object.reduce(0) { $0 + htmlCharacters($1.key) + htmlCharacters($1.value) } }
        if let array = node.arrayValue { return array.reduce(0) { $0 + htmlCharacters($1) } }
        return 0
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
