internal import PushmapJSON

/// Apple's rules for an APNS request, `{"headers": {...}, "payload": {...}}`: each header
/// against ``APNSModel/headers``, and what the headers and the payload say of each other (a
/// background push, a Live Activity, the topic a push type needs). Paths are the request's
/// (`$.headers["apns-priority"]`, `$.payload.aps.alert`).
enum APNSRequestChecks {
    /// A request's parts: the headers object (nil when there is none) and the payload.
    typealias Request = APNSPayloadChecks.Payload

    @RuleListBuilder static var rules: some RuleList<Request> {
        HeaderValues.self
        PushTypeMatchesPayload.self
        Background.self
        TopicSuffix.self
        TopicRequired.self
        PushToTalk.self
    }

    /// Header values are strings (HTTP/2 header values), each of the form Apple gives it: the
    /// walk over ``APNSModel/headers``.
    struct HeaderValues: CheckRule {
        static var name: StaticString { "apns-header-string" }

        static func check(_ request: Request, _ report: inout CheckReport) {
            guard let headers = request.headers else { return }
            checkHeaders(headers, insideFCM: request.insideFCM, &report)
        }

        static func checkHeaders(_ headers: JSONObjectNode, insideFCM: Bool, _ report: inout CheckReport) {
            APNSWalker.walk(headers, APNSModel.headers, context: APNSWalker.Context(insideFCM: insideFCM), &report)
        }
    }

    /// The push type says what the payload is: a silent payload goes as background, a Live
    /// Activity payload as liveactivity, an alert push has something to show.
    struct PushTypeMatchesPayload: CheckRule {
        static var name: StaticString { "apns-push-type" }

        static func check(_ request: Request, _ report: inout CheckReport) {
            guard let headers = request.headers, let aps = request.aps else { return }
            let location = header("apns-push-type")
            guard let type = headers["apns-push-type"]?.utf8 else {
                // A non-string is reported already; FCM sets the push type from the payload.
                guard headers["apns-push-type"] == nil, !request.insideFCM else { return }
                if isSilent(aps) {
                    report.warning(
                        location,
                        "a silent push (content-available, no alert, sound or badge) goes as apns-push-type background: without it APNs may delay or drop it")
                } else if doesNothing(aps) {
                    // One finding for the fault, where either fix goes: the push type or aps.
                    report.warning(
                        location,
                        "apns-push-type is missing and aps has no alert, sound, badge or content-available: as an alert push the phone shows nothing; name the push type that reads the payload's own keys (voip, complication, fileprovider, location, pushtotalk), or give aps something to show")
                } else {
                    report.warning(location, "apns-push-type is missing: watchOS needs it, and recent iOS features may not work without it")
                }
                return
            }
            let liveActivity = aps["event"] != nil
            if ValueFormat.equals(type, "alert") {
                if isSilent(aps) {
                    // APNs takes it (sideshow/apns2 sends alert unless told), and Apple calls
                    // background "recommended" on iOS, not required: a warning.
                    report.warning(
                        location,
                        "a silent push (content-available, no alert, sound or badge) is sent as alert: Apple asks for background, and iOS may delay or drop it; use background")
                } else if !liveActivity, aps["alert"] == nil, aps["sound"] == nil, aps["badge"] == nil {
                    // The fix is in the payload (something to show), not the push type.
                    report.error(
                        CheckLocation(payload: "$.payload.aps", intent: "$.title"),
                        "an alert push with no alert, sound or badge in aps: the phone shows nothing")
                }
            }
            if liveActivity, !ValueFormat.equals(type, "liveactivity") {
                report.error(
                    location, "the payload is a Live Activity push (aps.event) sent as \(ValueFormat.quoted(type)): use liveactivity, or iOS does not update the activity")
            }
            if !liveActivity, ValueFormat.equals(type, "liveactivity") {
                report.error(location, "a liveactivity push needs aps.event (start, update or end): iOS ignores it")
            }
            // ActivityKit's guide gives a Live Activity priority 5 or 10 and says nothing of 1,
            // which alerts take: unclear, a warning (the forty-fifth audit, validate F2).
            if ValueFormat.equals(type, "liveactivity"), let priority = headers["apns-priority"]?.utf8, ValueFormat.equals(priority, "1") {
                report.warning(
                    header("apns-priority"),
                    "a liveactivity push goes with apns-priority 5 or 10 (Apple's ActivityKit guide); what 1 does to it Apple does not say: use 5, or 10 for an update the person must see at once")
            }
        }
    }

    /// A background push wakes the app and shows nothing: content-available 1, no alert, sound
    /// or badge, and priority 5 (Apple calls 10 an error for background; APNs takes 10 when none
    /// is given; its error table names no answer for it, so the message says no more).
    struct Background: CheckRule {
        static var name: StaticString { "apns-background" }

        static func check(_ request: Request, _ report: inout CheckReport) {
            guard let headers = request.headers else { return }
            guard let type = request.pushType, ValueFormat.equals(type, "background") else {
                // content-available alone sent as alert (or with no push type, which is alert):
                // the push type is apns-push-type's warning, the priority this rule's, as Apple's
                // reference words it of a payload with only content-available (sideshow/apns2
                // PriorityHigh). Inside FCM with no push type, FCM picks the headers itself and
                // fcm-apns-data-priority says what it refuses.
                guard request.pushType.map({ ValueFormat.equals($0, "alert") }) ?? !request.insideFCM,
                    let aps = request.aps, isSilent(aps)
                else { return }
                priority(headers, of: "a push of content-available alone", &report)
                return
            }
            // A payload to show, not to wake the app: the push type is the one fault, and the
            // one fix (sideshow/apns2 TestPushTypeBackgroundHeader sends an alert so).
            if let aps = request.aps, !ValueFormat.isFlagSet(aps["content-available"]), showsSomething(aps) {
                report.error(
                    header("apns-push-type"),
                    "the payload has an alert, sound or badge to show and no content-available, but goes as background: iOS shows nothing of a background push; send it as alert")
                return
            }
            // No aps at all is the payload rule's (apns-aps-object) to report.
            if let aps = request.aps, !ValueFormat.isFlagSet(aps["content-available"]) {
                report.error(
                    CheckLocation(payload: #"$.payload.aps["content-available"]"#, intent: "$.ios.contentAvailable"),
                    "a background push needs aps.content-available 1: without it iOS does not wake the app")
            }
            // A sound or badge beside no alert is the iOS rule's (ios-silent-push-alerts) one
            // warning; an alert says the push is not a background one.
            if let alert = request.aps?["alert"] {
                let location = CheckLocation(payload: "$.payload.aps.alert", intent: "$.title")
                if APNSModel.alertShowsNothing(alert) {
                    // Nothing in it to show: the push still wakes the app, as it was meant to.
                    report.warning(location, "a background push carries an empty aps.alert, which iOS ignores: leave it out")
                } else {
                    report.error(location, "a background push carries aps.alert: iOS shows nothing of a background push; send it as alert, or leave the alert out")
                }
            }
            priority(headers, of: "a background push", &report)
        }

        /// Priority 10 given is an error for a push that wakes the app only, as Apple's header
        /// reference words it. None given, APNs takes 10, but the peers send no priority by
        /// default (sideshow/apns2 TestDefaultHeaders) and no source says APNs refuses it then: a
        /// warning. A priority that is no string is the header walk's finding.
        private static func priority(_ headers: JSONObjectNode, of push: StaticString, _ report: inout CheckReport) {
            guard let value = headers["apns-priority"] else {
                report.warning(
                    header("apns-priority"),
                    "\(push) should go with apns-priority 5: with none APNs takes 10, which Apple's header reference calls an error for it (what APNs then does is not documented); add apns-priority 5")
                return
            }
            guard let priority = value.utf8, ValueFormat.equals(priority, "10") else { return }
            report.error(header("apns-priority"), "\(push) needs apns-priority 5, not 10: Apple's header reference calls priority 10 for it an error")
        }
    }

    /// Apple's Push to Talk guide asks for apns-priority 10 (immediate delivery) and
    /// apns-expiration 0 (no older push delivered) on a pushtotalk push. Another value still
    /// delivers: warnings, for the audio that waits or comes when it is over.
    struct PushToTalk: CheckRule {
        static var name: StaticString { "apns-pushtotalk" }

        static func check(_ request: Request, _ report: inout CheckReport) {
            guard let headers = request.headers, let type = request.pushType, ValueFormat.equals(type, "pushtotalk") else { return }
            if let priority = headers["apns-priority"]?.utf8, !ValueFormat.equals(priority, "10") {
                report.warning(
                    header("apns-priority"),
                    "a pushtotalk push asks for apns-priority 10, not \(ValueFormat.quoted(priority)): APNs may hold it back, and the audio waits (Apple's Push to Talk guide)")
            }
            if let expiration = headers["apns-expiration"]?.utf8, !ValueFormat.equals(expiration, "0") {
                report.warning(
                    header("apns-expiration"),
                    "a pushtotalk push asks for apns-expiration 0, not \(ValueFormat.quoted(expiration)): APNs may deliver it late, for audio that is over (Apple's Push to Talk guide; give no ttl, or 0)")
            } else if headers["apns-expiration"] == nil, !request.insideFCM {
                // Apple says a push may be stored "depending on" the expiration, not what none
                // does: unclear, so a warning that says so (FCM sets its own).
                report.warning(
                    header("apns-expiration"),
                    "a pushtotalk push asks for apns-expiration 0 (Apple's Push to Talk guide), and has none: whether APNs then stores it, to deliver audio that is over, Apple does not say; send 0")
            }
        }
    }

    /// Each push type but alert, background and mdm goes to a topic of the bundle id and a suffix
    /// of its own; alert and background go to the bundle id itself.
    struct TopicSuffix: CheckRule {
        static var name: StaticString { "apns-topic" }

        static func check(_ request: Request, _ report: inout CheckReport) {
            guard let topic = request.headers?["apns-topic"]?.utf8, let type = request.pushType else { return }
            guard let entry = APNSModel.pushType(type), let suffix = entry.topicSuffix else { return }
            if suffix.utf8CodeUnitCount > 0 {
                guard !hasSuffix(topic, suffix) else { return }
                report.error(
                    header("apns-topic"),
                    "a push of type \(entry.type) goes to the topic <bundle id>\(suffix), not \(ValueFormat.quoted(topic)): APNs refuses it (DeviceTokenNotForTopic)")
                return
            }
            for other in APNSModel.pushTypes {
                guard let otherSuffix = other.topicSuffix, otherSuffix.utf8CodeUnitCount > 0, hasSuffix(topic, otherSuffix) else { continue }
                report.error(
                    header("apns-topic"),
                    "a push of type \(entry.type) goes to the app's bundle id, not the \(other.type) topic \(ValueFormat.quoted(topic)): APNs refuses it (DeviceTokenNotForTopic)")
                return
            }
        }
    }

    /// Live Activity and location pushes go only with token authentication, where APNs answers
    /// a request without apns-topic with 400 MissingTopic, as it does any request with a provider
    /// token. FCM's apns is left alone: FCM completes its headers. A broadcast (apns-channel-id,
    /// iOS 18) names the app in its path, /4/broadcasts/apps/<bundle id>, and sends no topic
    /// (Apple's "Sending broadcast push notification requests to APNs"; node-apn's broadcast()).
    struct TopicRequired: CheckRule {
        static var name: StaticString { "apns-topic-required" }

        static func check(_ request: Request, _ report: inout CheckReport) {
            guard !request.insideFCM, let headers = request.headers, headers["apns-topic"] == nil, headers["apns-channel-id"] == nil else { return }
            if let type = request.pushType, let entry = APNSModel.pushType(type), entry.tokenOnly, let suffix = entry.topicSuffix {
                report.error(
                    header("apns-topic"),
                    "a push of type \(entry.type) needs apns-topic <bundle id>\(suffix): only token authentication sends it, and APNs refuses a token-authenticated request with no topic (MissingTopic)")
            } else if headers["authorization"] != nil {
                // A provider token (authorization: bearer) names no app, as a certificate does
                // (Apple's apns-topic header; sideshow/apns2 TestAuthorizationHeader sends one).
                report.error(
                    header("apns-topic"),
                    "a request with a provider token (authorization) needs apns-topic, the app's bundle id: APNs refuses it without one (MissingTopic)")
            }
        }
    }

    /// aps has something to show or play: an alert with something in it, a sound or a badge. An
    /// empty alert is no alert to the rules that ask this (a background push "to show" told to go
    /// as alert had nothing to show: the twenty-second audit, N7).
    static func showsSomething(_ aps: JSONObjectNode) -> Bool {
        // An alert of another type (5, []) shows nothing either: the walk's finding says why.
        if let alert = aps["alert"], alert.utf8 != nil || alert.objectValue != nil, !APNSModel.alertShowsNothing(alert) { return true }
        return aps["sound"] != nil || aps["badge"] != nil
    }

    /// No alert, sound, badge or content-available, and neither a Live Activity (aps.event) nor
    /// a widgets push (aps.content-changed): nothing for iOS to show or wake. An alert that is
    /// there but shows nothing is the alert's own rules' to report.
    static func doesNothing(_ aps: JSONObjectNode) -> Bool {
        aps["alert"] == nil && aps["sound"] == nil && aps["badge"] == nil && !ValueFormat.isFlagSet(aps["content-available"])
            && aps["event"] == nil && aps["content-changed"] == nil
    }

    /// content-available 1 with no alert, sound or badge.
    static func isSilent(_ aps: JSONObjectNode) -> Bool {
        ValueFormat.isFlagSet(aps["content-available"]) && !showsSomething(aps)
    }

    static func header(_ name: StaticString) -> CheckLocation {
        IntentOrigin.location(base: "$.headers", key: ValueFormat.text(name), table: IntentOrigin.headerKeys)
    }

    private static func hasSuffix(_ bytes: UnsafeRawBufferPointer, _ suffix: StaticString) -> Bool {
        let count = suffix.utf8CodeUnitCount
        guard bytes.count > count else { return false }
        return ValueFormat.equals(UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - count)...]), suffix)
    }
}

extension APNSRequestChecks {
    /// Checks a request's parts where they lie: the payload's findings under `$.payload`, the
    /// headers' under `$.headers`. A missing payload is refused when `payloadRequired` (APNs
    /// needs one; FCM's `message.apns` may leave it to FCM, which builds it from the
    /// notification), and only the headers are checked then, as they are for a payload with no
    /// `aps` (FCM builds it). Without `checkPayload`, the
    /// payload's own rules are left out (they ran on it as a bare payload).
    /// - Parameter notification: whether the FCM message around the request has a notification,
    ///   from which FCM builds the `aps` a payload leaves out.
    static func run(
        payload: JSONNode?, headers: JSONNode?, compactSize: Int?, payloadRequired: Bool, notification: Bool = false, checkPayload: Bool = true,
        now: Int64, into report: inout CheckReport
    ) {
        if let headers, headers.objectValue == nil {
            report.add(
                .error, rule: "apns-request", CheckLocation(payload: "$.headers"),
                "the request headers are an object of header name to string, not \(ValueFormat.withArticle(headers.typeName))")
        }
        guard let payload else {
            if payloadRequired {
                report.add(.error, rule: "apns-request", CheckLocation(payload: "$.payload"), "an APNS request is {\"headers\": {...}, \"payload\": {...}}; it has no payload")
            } else if let headers = headers?.objectValue {
                HeaderValues.checkHeaders(headers, insideFCM: !payloadRequired, &report)
            }
            return
        }
        // In an FCM message a payload without aps is FCM's to complete from the notification:
        // only the headers are checked then. With no notification there is nothing to build aps
        // from, and the payload is held to what APNs makes of it (the twenty-ninth audit, F4: the
        // Java and .NET Admin SDKs refuse such an ApnsConfig).
        if !payloadRequired, notification, payload.objectValue?["aps"] == nil, payload.objectValue != nil {
            if let headers = headers?.objectValue { HeaderValues.checkHeaders(headers, insideFCM: !payloadRequired, &report) }
            return
        }
        let request = Request(payload, compactSize: compactSize, headers: headers?.objectValue, insideFCM: !payloadRequired)
        if checkPayload {
            report.within("$.payload") { APNSPayloadChecks.run(request, now: now, into: &$0) }
        }
        report.run(rules, on: request)
    }

    /// Whether a document is a request rather than a bare payload: an object with no `aps`, and
    /// a `payload` or `headers`.
    static func isRequest(_ root: JSONNode) -> Bool {
        guard let object = root.objectValue, object["aps"] == nil else { return false }
        return object["payload"] != nil || object["headers"] != nil
    }
}
