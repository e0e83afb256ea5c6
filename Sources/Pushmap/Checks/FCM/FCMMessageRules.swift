@_spi(Engine) internal import PushmapJSON

/// The rules on FCM message fields whose values have a format of their own, beyond the type the
/// model gives them: targets, colours, the LED, links, analytics labels, images and localised
/// text. Facts from the v1 API reference (the discovery document's field descriptions) and from
/// the Firebase Admin SDKs' validators (Go, Python, Node), which refuse the same values before
/// sending. Where FCM's documents do not say it refuses a value, the rule is a warning.
extension FCMPayloadChecks {
    /// A topic name's length at most, in characters (all of them ASCII).
    static let maxTopicLength = 900
    /// An analytics label: 1 to 50 of the topic name's characters.
    static let maxAnalyticsLabelLength = 50
    /// A condition names at most this many topics.
    static let maxConditionTopics = 5

    /// No target: FCM cannot send it as it is. Only when validating a payload, and only a
    /// warning: a sender often adds the token just before sending, and a translated intent
    /// without one is meant to get it so.
    struct NoTarget: CheckRule {
        static var name: StaticString { "fcm-no-target" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            let members = payload.members
            guard !report.intentPaths, payload.message != nil else { return }
            // A null target is fcm-null-field's to report (the one fault), though FCM reads none.
            guard members.token == nil, members.topic == nil, members.condition == nil, members.fid == nil else { return }
            report.warning(
                CheckLocation(payload: "$.message", intent: "$.target"),
                "the message has no target (token, topic, condition or fid): FCM cannot send it as it is; add one before sending")
        }
    }

    /// A condition over topics: quoted topic names `in topics`, joined by `&&` and `||`, negated
    /// by `!`, grouped by parentheses, naming at most five topics. FCM refuses any other text.
    struct Condition: CheckRule {
        static var name: StaticString { "fcm-condition" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let condition = payload.members.condition?.utf8 else { return }
            var parser = FCMConditionParser(condition)
            guard let problem = parser.problem() else { return }
            report.error(
                messageLocation("condition"),
                "message.condition \(ValueFormat.quoted(condition)) is not a condition FCM reads: \(problem) (write it as 'a' in topics && ('b' in topics || !('c' in topics))): FCM refuses the message")
        }
    }

    /// `android` and `android_v2` are one or the other: FCM refuses a request with both. A null
    /// one is left out as FCM reads it (fcm-null-field says so), so it is no second config.
    struct AndroidVersions: CheckRule {
        static var name: StaticString { "fcm-android-v2" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let v2 = payload.members.androidV2, given(v2.value) != nil, given(payload.members.android) != nil else { return }
            report.error(
                CheckLocation(payload: JSONPath.member("$.message", ValueFormat.text(v2.name))),
                "the message has both android and \(v2.name): FCM refuses a request with both (android_v2 is the newer form of android); keep one")
        }
    }

    /// The notification's icon colour is `#rrggbb` (the v1 reference; the Admin SDKs refuse any
    /// other form), in `android.notification` and in android_v2's notification alike.
    struct NotificationColor: CheckRule {
        static var name: StaticString { "fcm-notification-color" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            forEachAndroidNotification(payload) { notification, path in
                guard let color = notification["color"] else { return }
                // A colour that is not a string is fcm-field-type's; an empty one is proto3's
                // default, which FCM cannot tell from no colour.
                guard let text = color.utf8, !text.isEmpty, !isHashColour(text) else { return }
                let at = JSONPath.member(path, "color")
                report.error(
                    CheckLocation(payload: at),
                    "\(shortPath(at)) \(ValueFormat.quoted(text)) is not a colour of the form #rrggbb (\"#3f51b5\"): FCM refuses the message")
            }
        }

        private static func isHashColour(_ text: UnsafeRawBufferPointer) -> Bool {
            text.count == 7 && text[0] == UInt8(ascii: "#") && text.dropFirst().allSatisfy(ValueFormat.isHexDigit)
        }
    }

    /// A negative notification count: FCM's type takes it (an int32), Android has no such count
    /// to show, and the Java Admin SDK refuses it (MessageTest
    /// testAndroidNotificationWithNegativeCount) while Python and .NET send it: a warning
    /// (the twenty-ninth audit, F2).
    struct NotificationCount: CheckRule {
        static var name: StaticString { "fcm-notification-count" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            forEachAndroidNotification(payload) { notification, path in
                guard let count = member(notification, "notificationCount", "notification_count"),
                    let number = ValueFormat.protobufWholeNumber(count.value), number < 0
                else { return }
                let at = JSONPath.member(path, ValueFormat.text(count.name))
                report.warning(
                    CheckLocation(payload: at),
                    "\(shortPath(at)) is \(number): a count of notifications is 0 or more, and what Android shows for a negative one is not documented (the Java Admin SDK refuses it); leave it out or give 0 or more")
            }
        }
    }

    /// The LED: FCM's reference marks `color`, `light_on_duration` and `light_off_duration` as
    /// required, so light settings without one are refused; a null one is read as left out, and
    /// is this rule's one finding (the walk's fcm-null-field leaves these three to it).
    struct LightSettingsFields: CheckRule {
        static var name: StaticString { "fcm-light-settings" }
        static let required: [(camel: StaticString, snake: StaticString)] = [
            ("color", "color"), ("lightOnDuration", "light_on_duration"), ("lightOffDuration", "light_off_duration"),
        ]

        /// The model's two schemas of light settings: android's and android_v2's.
        static let schemas: [StaticString] = ["LightSettings", "GoogleFirebaseFcmV1AndroidNotificationV2LightSettings"]

        /// Whether `field` of schema `schema` is one of the three.
        static func requires(_ field: FCMModel.CompiledField, in schema: StaticString) -> Bool {
            schemas.contains { ValueFormat.equals(schema, $0) } && required.contains { ValueFormat.equals(field.camelName, $0.camel) }
        }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            forEachLightSettings(payload) { light, path in
                let lacking = required.filter { given(member(light, $0.camel, $0.snake)?.value) == nil }
                guard !lacking.isEmpty else { return }
                let missing = lacking.map { ValueFormat.text($0.snake) }.joined(separator: " and ")
                let null = lacking.contains { member(light, $0.camel, $0.snake) != nil } ? " (null is read as left out)" : ""
                report.error(
                    CheckLocation(payload: path),
                    "\(shortPath(path)) lacks \(missing)\(null): FCM requires color, light_on_duration and light_off_duration together")
            }
        }
    }

    /// A colour's channels are fractions from 0 to 1 (255 is 1). A channel past them is not a
    /// colour FCM defines: whether FCM refuses it or the LED takes another colour, it is not the
    /// one meant, and as FCM's documents do not say which, a warning.
    struct LightColor: CheckRule {
        static var name: StaticString { "fcm-light-color" }
        static let channels: [StaticString] = ["red", "green", "blue", "alpha"]

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            forEachLightSettings(payload) { light, path in
                guard let color = member(light, "color", "color")?.value.objectValue else { return }
                let colorPath = JSONPath.member(path, "color")
                for channel in channels {
                    // A channel that is not a number is fcm-field-type's; one given as a string
                    // ("255", "NaN") is read as the number (the thirty-first audit, F4).
                    guard let value = color[channel], let number = ValueFormat.protobufNumber(value), !(0...1).contains(number) else { continue }
                    let at = JSONPath.member(colorPath, ValueFormat.text(channel))
                    // A channel is a 32-bit float: past its range protobuf's reader refuses the
                    // request (conformance FloatFieldTooLarge; the thirty-first audit, F3).
                    if number.isFinite, abs(number) > Double(Float.greatestFiniteMagnitude) {
                        report.error(
                            CheckLocation(payload: at),
                            "\(shortPath(at)) is \(ValueFormat.shown(value, literals: true)), past a 32-bit float's range: FCM refuses the message")
                        continue
                    }
                    report.warning(
                        CheckLocation(payload: at),
                        "\(shortPath(at)) is \(ValueFormat.shown(value, literals: true)), outside 0 to 1: a channel is a fraction (255 is 1.0, 128 is 0.5); the LED will not show the colour meant, if FCM takes it at all")
                }
            }
        }
    }

    /// The page a web notification opens: HTTPS only, says the v1 reference (and the Go and
    /// Python SDKs refuse anything else).
    struct WebpushLink: CheckRule {
        static var name: StaticString { "fcm-webpush-link" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let webpush = payload.members.webpush?.objectValue, let options = member(webpush, "fcmOptions", "fcm_options"),
                  let link = options.value["link"]?.utf8, !link.isEmpty else { return }  // "": no link, to proto3
            let prefix = "https://".utf8.count
            let at = JSONPath.member(JSONPath.member("$.message.webpush", ValueFormat.text(options.name)), "link")
            guard ValueFormat.isHTTPS(link) else {
                return report.error(
                    CheckLocation(payload: at),
                    "\(shortPath(at)) \(ValueFormat.quoted(link)) is not an HTTPS URL (FCM's reference requires https:// for every URL here): FCM refuses the message")
            }
            guard link.count == prefix else { return }
            // "https://" alone passes the Go and Python Admin SDKs' checks (and Node makes none),
            // so they send it, and nothing says FCM refuses it (the forty-sixth audit, F4).
            report.warning(
                CheckLocation(payload: at),
                "\(shortPath(at)) \(ValueFormat.quoted(link)) has no host after https://: a click on the notification opens nothing")
        }
    }

    /// `webpush.headers` go to the browser's push service as the Web Push protocol's headers
    /// (RFC 8030 5.2 to 5.4): TTL is a whole number of seconds, Urgency one of very-low, low,
    /// normal and high, Topic at most 32 URL-safe base64 characters. FCM does not say what it does with another value and no Admin SDK checks
    /// them: a warning, for a push that may be kept no time or sent at another urgency.
    struct WebpushHeaders: CheckRule {
        static var name: StaticString { "fcm-webpush-headers" }
        static let urgencies: [StaticString] = ["very-low", "low", "normal", "high"]
        /// RFC 8030 5.4: a Topic is at most 32 characters of the URL-safe base64 alphabet.
        static let maxTopicLength = 32

        private static func isBase64URL(_ byte: UInt8) -> Bool {
            ValueFormat.isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let headers = given(payload.members.webpush?.objectValue?["headers"])?.objectValue else { return }
            for (key, value) in headers {
                guard let name = key.utf8, let text = value.utf8 else { continue }
                let at = JSONPath.member("$.message.webpush.headers", String(decoding: name, as: UTF8.self))
                // RFC 8030 gives the words in ABNF, whose quoted strings match in any case.
                if ValueFormat.equalsIgnoringCase(name, "Urgency"), !urgencies.contains(where: { ValueFormat.equalsIgnoringCase(text, $0) }) {
                    report.warning(
                        CheckLocation(payload: at),
                        "\(shortPath(at)) is \(ValueFormat.quoted(text)), not very-low, low, normal or high (RFC 8030): the browser's push service may refuse the push or send it at normal urgency")
                } else if ValueFormat.equalsIgnoringCase(name, "TTL"), text.isEmpty || !text.allSatisfy(ValueFormat.isDigit) {
                    report.warning(
                        CheckLocation(payload: at),
                        "\(shortPath(at)) is \(ValueFormat.quoted(text)), not a whole number of seconds (RFC 8030): the browser's push service may refuse the push or keep it no time")
                } else if ValueFormat.equalsIgnoringCase(name, "Topic"), text.isEmpty || text.count > maxTopicLength || !text.allSatisfy(isBase64URL) {
                    report.warning(
                        CheckLocation(payload: at),
                        "\(shortPath(at)) is \(ValueFormat.quoted(text)), not 1 to \(maxTopicLength) characters of A-Z, a-z, 0-9, - and _ (RFC 8030): the browser's push service may refuse the push or not replace the one pending with this topic")
                }
            }
        }
    }

    /// `webpush.notification` is handed to the browser's `showNotification` as its options (as
    /// Firebase's service worker does), which throws a TypeError, showing nothing, for options
    /// the Notifications API standard refuses: a `dir` other than auto, ltr or rtl, `actions`
    /// that are not a list of objects each with `action` and `title`, `renotify` without a `tag`,
    /// `silent` with `vibrate`. FCM itself passes the object through unread, and a site's own
    /// service worker may read it otherwise: a warning. (The Go and Python SDKs refuse a bad
    /// direction and bad actions.) Other mistyped values are converted by the browser, not refused.
    struct WebpushNotification: CheckRule {
        static var name: StaticString { "fcm-webpush-notification" }
        static let directions: [StaticString] = ["auto", "ltr", "rtl"]

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let notification = given(payload.members.webpush?.objectValue?["notification"])?.objectValue else { return }
            func warn(_ key: String, index: Int? = nil, _ problem: String) {
                let member = JSONPath.member("$.message.webpush.notification", key)
                let at = index.map { JSONPath.element(member, $0) } ?? member
                report.warning(
                    CheckLocation(payload: at),
                    "\(shortPath(at)) \(problem): the browser's showNotification refuses the options (a TypeError), so a service worker that shows them as given, as Firebase's does, shows nothing; a site's own worker may read them otherwise")
            }
            if let dir = notification["dir"], !(dir.utf8.map { ValueFormat.isOne(of: directions, $0) } ?? false) {
                warn("dir", "is \(ValueFormat.shown(dir, literals: true)), not auto, ltr or rtl")
            }
            // Options the browser converts to text: the Python Admin SDK refuses anything but a
            // string (TestWebpushNotificationEncoder), FCM passes it on, and the page shows
            // "[object Object]", nothing, or an image it cannot load.
            func converted(_ object: JSONObjectNode, in base: String) {
                for (name, isURL, what) in convertedOptions {
                    // A number or a boolean converts to its text, which a text option shows as
                    // meant; an object or a list does not, nor is any of them a URL.
                    guard let value = object[name], !value.isString, !value.isNull,
                        isURL || value.objectValue != nil || value.arrayValue != nil
                    else { continue }
                    let at = JSONPath.member(base, ValueFormat.text(name))
                    report.warning(CheckLocation(payload: at), "\(shortPath(at)) is \(ValueFormat.shown(value, literals: true)), not a string: \(what)")
                }
            }
            converted(notification, in: "$.message.webpush.notification")
            // A number, or text or a boolean that converts to one, is read as meant; JavaScript's
            // ToNumber trims the text, and reads "nan" or "inf" as NaN, which is 0 too.
            if let timestamp = notification["timestamp"], timestamp.integerValue == nil, timestamp.doubleValue == nil, !timestamp.isNull,
                timestamp.boolValue == nil, timestamp.utf8.map({ !Self.isNumberText($0) }) ?? true
            {
                let at = "$.message.webpush.notification.timestamp"
                report.warning(
                    CheckLocation(payload: at),
                    "\(shortPath(at)) is \(ValueFormat.shown(timestamp, literals: true)), not a number of milliseconds since 1970: the browser converts it to a number, and text that is none gives 0 (1970)")
            }
            if let actions = notification["actions"] {
                if let list = actions.arrayValue {
                    for (index, action) in list.enumerated() {
                        guard let object = action.objectValue, object["action"] != nil, object["title"] != nil else {
                            warn("actions", index: index, "is not an object with an action and a title")
                            break
                        }
                        converted(object, in: JSONPath.element("$.message.webpush.notification.actions", index))
                    }
                } else {
                    warn("actions", "is \(ValueFormat.shown(actions, literals: true)), not a list of actions")
                }
            }
            if let renotify = notification["renotify"], isTruthy(renotify), (notification["tag"]?.utf8?.isEmpty ?? true) {
                warn("renotify", "is set without a tag (renotify replaces the notification with the same tag)")
            }
            if let silent = notification["silent"], isTruthy(silent), notification["vibrate"] != nil {
                warn("vibrate", "is given with silent, which the standard forbids together")
            }
        }

        /// The notification's (and an action's) options the browser reads as text, and what a
        /// value that is not a string does.
        static let convertedOptions: [(name: StaticString, isURL: Bool, effect: StaticString)] = [
            ("title", false, "the browser shows the text it converts it to ([object Object] for an object)"),
            ("body", false, "the browser shows the text it converts it to ([object Object] for an object)"),
            ("action", false, "the browser hands the page the text it converts it to"),
            ("icon", true, "the browser loads no image from it"),
            ("badge", true, "the browser loads no image from it"),
            ("image", true, "the browser loads no image from it"),
        ]

        /// Whether text converts to a finite number, whitespace around it trimmed as JavaScript does.
        static func isNumberText(_ text: UnsafeRawBufferPointer) -> Bool {
            let trimmed = String(decoding: text, as: UTF8.self).trimmingPrefix(while: \.isWhitespace)
            let number = Double(String(trimmed.reversed().trimmingPrefix(while: \.isWhitespace).reversed()))
            return number?.isFinite ?? false
        }

        /// JavaScript's truthiness of a JSON value, as the browser converts a boolean option.
        private static func isTruthy(_ value: JSONNode) -> Bool {
            if let flag = value.boolValue { return flag }
            if let text = value.utf8 { return !text.isEmpty }
            if let number = value.integerValue { return number != 0 }
            if let number = value.doubleValue { return number != 0 && !number.isNaN }
            return !value.isNull
        }
    }

    /// An analytics label, in each of the four `fcm_options` (the message's, android's, apns's,
    /// webpush's) and android_v2's: 1 to 50 of `a-z A-Z 0-9 - _ . ~ %`, as Firebase documents
    /// it and the Python and Java Admin SDKs check.
    struct AnalyticsLabel: CheckRule {
        static var name: StaticString { "fcm-analytics-label" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            let members = payload.members
            checkOptions(members.fcmOptions, at: "$.message", &report)
            checkOptions(members.androidFcmOptions, at: "$.message.android", &report)
            checkOptions(inside: members.apns, at: "$.message.apns", &report)
            checkOptions(inside: members.webpush, at: "$.message.webpush", &report)
            if let v2 = members.androidV2 { checkOptions(inside: v2.value, at: JSONPath.member("$.message", ValueFormat.text(v2.name)), &report) }
        }

        /// The options of the config `config`, when it is an object that has them.
        private static func checkOptions(inside config: JSONNode?, at path: String, _ report: inout CheckReport) {
            guard let object = config?.objectValue else { return }
            checkOptions(member(object, "fcmOptions", "fcm_options"), at: path, &report)
        }

        private static func checkOptions(_ options: Named?, at path: String, _ report: inout CheckReport) {
            guard let options, let fields = options.value.objectValue,
                  let label = member(fields, "analyticsLabel", "analytics_label"), let text = label.value.utf8 else { return }
            // An empty label is proto3's default string, which FCM reads as no label.
            guard text.count > maxAnalyticsLabelLength || !text.allSatisfy(isTopicByte) else { return }
            let at = JSONPath.member(JSONPath.member(path, ValueFormat.text(options.name)), ValueFormat.text(label.name))
            report.error(
                CheckLocation(payload: at, intent: path == "$.message" ? "$.analyticsLabel" : nil),
                "\(shortPath(at)) \(ValueFormat.quoted(text)) is not an analytics label (1 to 50 of a-z, A-Z, 0-9 and - _ . ~ %): FCM refuses the message")
        }
    }

    /// An image the phone downloads is an http(s) URL (the Go and Node SDKs refuse any other
    /// text). Anything else cannot be fetched, so the notification shows without its picture.
    struct ImageURL: CheckRule {
        static var name: StaticString { "fcm-image-url" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            if let notification = payload.members.notification?.objectValue {
                checkImage(in: notification, at: "$.message.notification", &report)
            }
            forEachAndroidNotification(payload) { notification, path in checkImage(in: notification, at: path, &report) }
            // The image iOS shows: apns.fcm_options.image, which FCM hands to the app's
            // notification service extension to download (the Go and Node SDKs refuse a
            // value that is not a URL).
            if let apns = payload.members.apns?.objectValue, let options = member(apns, "fcmOptions", "fcm_options"),
               let object = options.value.objectValue {
                checkImage(in: object, at: JSONPath.member("$.message.apns", ValueFormat.text(options.name)), &report)
            }
        }

        private static func checkImage(in notification: JSONObjectNode, at path: String, _ report: inout CheckReport) {
            // Not a string is fcm-field-type's; "" is proto3's default, no image.
            guard let image = notification["image"]?.utf8, !image.isEmpty, !isWebURL(image) else { return }
            let at = JSONPath.member(path, "image")
            report.warning(
                CheckLocation(payload: at),
                "\(shortPath(at)) \(ValueFormat.quoted(image)) is not an http or https URL: the phone cannot download it and shows the notification without it")
        }

        /// `http://` or `https://` in any case, and something after it.
        private static func isWebURL(_ text: UnsafeRawBufferPointer) -> Bool {
            for scheme: StaticString in ["https://", "http://"] where ValueFormat.hasPrefixIgnoringCase(text, scheme) {
                return text.count > scheme.utf8CodeUnitCount
            }
            return false
        }
    }

    /// A localised title's or body's arguments fill the string its loc key names. With no key,
    /// Android shows the plain text and drops the arguments (the Go, Python and Node SDKs refuse
    /// arguments without their key).
    struct LocArgs: CheckRule {
        static var name: StaticString { "fcm-loc-args" }
        static let pairs: [(args: (StaticString, StaticString), key: (StaticString, StaticString))] = [
            (("titleLocArgs", "title_loc_args"), ("titleLocKey", "title_loc_key")),
            (("bodyLocArgs", "body_loc_args"), ("bodyLocKey", "body_loc_key")),
        ]

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            forEachAndroidNotification(payload) { notification, path in
                for pair in pairs {
                    guard let args = member(notification, pair.args.0, pair.args.1), let list = args.value.arrayValue, list.count > 0 else { continue }
                    if let key = member(notification, pair.key.0, pair.key.1)?.value.utf8, !key.isEmpty { continue }
                    let at = JSONPath.member(path, ValueFormat.text(args.name))
                    report.warning(
                        CheckLocation(payload: at),
                        "\(shortPath(at)) has no \(pair.key.1) to fill: Android shows the plain text and drops the arguments; add \(pair.key.1)")
                }
            }
        }
    }

    // MARK: - reading

    /// A member with the name it is spelled by.
    typealias Named = (name: StaticString, value: JSONNode)

    /// The member spelled `camel` or `snake` (FCM takes either), with the name it has here.
    static func member(_ object: JSONObjectNode, _ camel: StaticString, _ snake: StaticString) -> Named? {
        if let value = object[snake] { return (snake, value) }
        if let value = object[camel] { return (camel, value) }
        return nil
    }

    /// Each Android notification object, with its payload path: `android.notification`, and
    /// android_v2's `remote_notification.notification`.
    static func forEachAndroidNotification(_ payload: Payload, _ body: (JSONObjectNode, String) -> Void) {
        if let notification = payload.members.androidNotification?.objectValue {
            body(notification, "$.message.android.notification")
        }
        guard let v2 = payload.members.androidV2, let config = v2.value.objectValue,
              let remote = member(config, "remoteNotification", "remote_notification"),
              let notification = remote.value.objectValue?["notification"]?.objectValue else { return }
        let path = JSONPath.member(JSONPath.member(JSONPath.member("$.message", ValueFormat.text(v2.name)), ValueFormat.text(remote.name)), "notification")
        body(notification, path)
    }

    /// Each `light_settings` object of an Android notification, with its payload path.
    static func forEachLightSettings(_ payload: Payload, _ body: (JSONObjectNode, String) -> Void) {
        forEachAndroidNotification(payload) { notification, path in
            guard let light = member(notification, "lightSettings", "light_settings"), let object = light.value.objectValue else { return }
            body(object, JSONPath.member(path, ValueFormat.text(light.name)))
        }
    }

    /// `message.android.notification.color` for `$.message.android.notification.color`.
    static func shortPath(_ path: String) -> String {
        path.hasPrefix("$.") ? String(path.dropFirst(2)) : path
    }

    /// The characters of topic names and analytics labels.
    static func isTopicByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: "%"): true
        default: false
        }
    }
}

/// The members of `message` and `message.android` the format rules read, found in one pass
/// over each, so that a message without them (most are `data`, a target and a few Android
/// options) costs the rules a look at each key rather than a search for each name.
struct MessageMembers {
    typealias Named = FCMPayloadChecks.Named
    private(set) var data: JSONNode?
    private(set) var android: JSONNode?
    private(set) var token: JSONNode?
    private(set) var topic: JSONNode?
    private(set) var fid: JSONNode?
    private(set) var condition: JSONNode?
    private(set) var notification: JSONNode?
    private(set) var fcmOptions: Named?
    private(set) var apns: JSONNode?
    private(set) var webpush: JSONNode?
    private(set) var androidV2: Named?
    /// `android.notification` and `android.fcm_options`.
    private(set) var androidNotification: JSONNode?
    private(set) var androidFcmOptions: Named?

    init(message: JSONObjectNode?) {
        if let message {
            for (key, value) in message {
                guard let name = key.utf8, let first = name.first else { continue }
                // The first byte rules out most names; the first spelling met wins, as FCM's
                // own reading would (fcm-field-twice names a second one).
                switch first {
                case UInt8(ascii: "t"):
                    if token == nil, ValueFormat.equals(name, "token") { token = value }
                    if topic == nil, ValueFormat.equals(name, "topic") { topic = value }
                case UInt8(ascii: "c") where condition == nil && ValueFormat.equals(name, "condition"): condition = value
                case UInt8(ascii: "d") where data == nil && ValueFormat.equals(name, "data"): data = value
                case UInt8(ascii: "n") where notification == nil && ValueFormat.equals(name, "notification"): notification = value
                case UInt8(ascii: "f"):
                    if fid == nil, ValueFormat.equals(name, "fid") { fid = value }
                    if fcmOptions == nil { fcmOptions = Self.named(name, value, "fcm_options", "fcmOptions") }
                case UInt8(ascii: "a"):
                    if apns == nil, ValueFormat.equals(name, "apns") { apns = value }
                    if android == nil, ValueFormat.equals(name, "android") { android = value }
                    if androidV2 == nil { androidV2 = Self.named(name, value, "android_v2", "androidV2") }
                case UInt8(ascii: "w") where webpush == nil && ValueFormat.equals(name, "webpush"): webpush = value
                default: break
                }
            }
        }
        guard let android = android?.objectValue else { return }
        for (key, value) in android {
            guard let name = key.utf8, let first = name.first else { continue }
            switch first {
            case UInt8(ascii: "n") where androidNotification == nil && ValueFormat.equals(name, "notification"): androidNotification = value
            case UInt8(ascii: "f") where androidFcmOptions == nil: androidFcmOptions = Self.named(name, value, "fcm_options", "fcmOptions")
            default: break
            }
        }
    }

    /// `value` under the spelling of the two that `name` is, if either.
    private static func named(_ name: UnsafeRawBufferPointer, _ value: JSONNode, _ snake: StaticString, _ camel: StaticString) -> Named? {
        if ValueFormat.equals(name, snake) { return (snake, value) }
        if ValueFormat.equals(name, camel) { return (camel, value) }
        return nil
    }
}

/// A recursive descent over a condition's bytes:
///
///     or    := and ("||" and)*
///     and   := not ("&&" not)*
///     not   := "!" not | "(" or ")" | topic "in" "topics"
///     topic := a topic name in single or double quotes
///
/// with spaces anywhere between. Gives the first problem in words, or nil.
struct FCMConditionParser {
    private let text: UnsafeRawBufferPointer
    private var at = 0
    private var topics = 0
    private var failure: String?
    /// Nesting deeper than this is not a condition anyone writes; it stops the recursion.
    private static let maxDepth = 32

    init(_ text: UnsafeRawBufferPointer) {
        self.text = text
    }

    mutating func problem() -> String? {
        skipSpaces()
        guard at < text.count else { return "it is empty" }
        parseOr(depth: 0)
        if failure == nil {
            skipSpaces()
            if at < text.count { fail("\(found) where && or || or the end should be") }
        }
        if failure == nil, topics > FCMPayloadChecks.maxConditionTopics {
            fail("it names \(topics) topics; FCM takes at most \(FCMPayloadChecks.maxConditionTopics)")
        }
        return failure
    }

    private mutating func parseOr(depth: Int) {
        parseAnd(depth: depth)
        while failure == nil, take("||") { parseAnd(depth: depth) }
    }

    private mutating func parseAnd(depth: Int) {
        parseNot(depth: depth)
        while failure == nil, take("&&") { parseNot(depth: depth) }
    }

    private mutating func parseNot(depth: Int) {
        guard depth < Self.maxDepth else { return fail("it nests deeper than \(Self.maxDepth) levels") }
        skipSpaces()
        if take("!") { return parseNot(depth: depth + 1) }
        if take("(") {
            parseOr(depth: depth + 1)
            if failure == nil, !take(")") { fail("\(found) where ) should be") }
            return
        }
        guard at < text.count, text[at] == UInt8(ascii: "'") || text[at] == UInt8(ascii: "\"") else {
            return fail("\(found) where a quoted topic name, ! or ( should be")
        }
        let quote = text[at]
        let start = at + 1
        var end = start
        while end < text.count, text[end] != quote { end += 1 }
        guard end < text.count else { return fail("a topic name's quote is not closed") }
        let name = UnsafeRawBufferPointer(rebasing: text[start..<end])
        guard !name.isEmpty, name.allSatisfy(FCMPayloadChecks.isTopicByte) else {
            return fail("\(ValueFormat.quoted(name)) is not a topic name (one or more of a-z, A-Z, 0-9 and - _ . ~ %)")
        }
        at = end + 1
        topics += 1
        guard word("in"), word("topics") else { return fail("\(found) where in topics should follow the topic name") }
    }

    /// Takes `token` after any spaces, if it is there.
    private mutating func take(_ token: StaticString) -> Bool {
        skipSpaces()
        let count = token.utf8CodeUnitCount
        guard at + count <= text.count, JSONItems.same(UnsafeRawBufferPointer(rebasing: text[at..<(at + count)]), token) else { return false }
        at += count
        return true
    }

    /// Takes the word `token` after spaces: a word ends where letters end.
    private mutating func word(_ token: StaticString) -> Bool {
        let start = at
        guard take(token) else { return false }
        if at < text.count, Self.isLetter(text[at]) {
            at = start
            return false
        }
        return true
    }

    private mutating func skipSpaces() {
        while at < text.count, text[at] == UInt8(ascii: " ") || text[at] == UInt8(ascii: "\t") { at += 1 }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    /// What stands at the current place (its first dozen bytes), for a message.
    private var found: String {
        var place = at
        while place < text.count, text[place] == UInt8(ascii: " ") || text[place] == UInt8(ascii: "\t") { place += 1 }
        guard place < text.count else { return "the end" }
        // Up to 12 bytes of what follows, marked as cut when there is more.
        let end = min(text.count, place + 12)
        let shown = ValueFormat.quoted(UnsafeRawBufferPointer(rebasing: text[place..<end]))
        return "at column \(place + 1), " + (end < text.count ? shown.dropLast() + "…\"" : shown)
    }

    private mutating func fail(_ problem: String) {
        if failure == nil { failure = problem }
    }
}
