/// Apple's APNS request as data: every key Apple documents inside `aps`, in the alert and sound
/// dictionaries, and every request header, each with the values it takes, the rule its findings
/// carry, how bad a wrong value is and what iOS or APNs does with one. ``APNSWalker`` reads these
/// tables; nothing else knows the keys.
///
/// Severities follow the one policy: an error where APNs refuses the request or the phone shows
/// nothing or the wrong thing, a warning where it shows with something ignored or degraded.
/// Sources: Apple's "Generating a remote notification" (payload key reference), "Sending
/// notification requests to APNs" (headers and their error answers) and "Starting and updating
/// Live Activities with ActivityKit push notifications".
enum APNSModel {
    /// The values a key takes.
    enum Shape: Sendable {
        case string
        /// A sound file's name, a string (the critical sound's name); "" names none.
        case soundName
        case stringArray
        /// The number 1 (content-available, mutable-content, input-push-token).
        case flag
        /// JSON true (a widgets push's content-changed).
        case trueValue
        /// A string; in a Live Activity also a localisation dictionary, `{"loc-key": string,
        /// "loc-args": [string]}` (a Live Activity alert's title and body).
        case localizable
        /// 0 or 1 (the critical sound's `critical`).
        case zeroOrOne
        /// A whole number of 0 or more (badge).
        case count
        /// Epoch seconds, a whole number of 0 or more (timestamp, stale-date, dismissal-date).
        case epochSeconds
        /// A number from 0 to 1 (volume).
        case unitNumber
        /// relevance-score: a number from 0 to 1, but any number in a Live Activity, where it
        /// only orders the activities.
        case score
        /// Any JSON object (content-state, attributes).
        case object
        /// One of these strings.
        case choice(Choices)
        /// A string, or a dictionary of its own table's keys (alert, sound).
        case stringOrDictionary(Nested)
        // Header values, all strings.
        /// A header string of decimal digits (apns-expiration).
        case digits
        /// A non-empty header string of at most this many bytes.
        case text(maxBytes: Int)
        /// A UUID in its canonical 8-4-4-4-12 form (apns-id).
        case uuid
    }

    /// The lists of words a ``Shape/choice(_:)`` names. Shapes and keys hold no array or table
    /// of their own, only these names: a key is then plain bytes, and reading one costs no
    /// reference count on the hot path.
    enum Choices: Sendable {
        case interruptionLevels, liveActivityEvents, pushTypes, priorities

        var words: [StaticString] {
            switch self {
            case .interruptionLevels: APNSModel.interruptionLevels
            case .liveActivityEvents: APNSModel.liveActivityEvents
            case .pushTypes: APNSModel.pushTypeNames
            case .priorities: APNSModel.priorities
            }
        }
    }

    /// The dictionaries a key's value may be.
    enum Nested: Sendable {
        /// ``APNSModel/alert``, ``APNSModel/sound``.
        case alert, sound
    }

    /// How bad a wrong value is (``Diagnostic/Severity``, as plain bytes).
    enum Level: Sendable {
        case error, warning

        var severity: Diagnostic.Severity { self == .error ? .error : .warning }
    }

    /// One key of a dictionary.
    struct Key: Sendable {
        let name: StaticString
        let shape: Shape
        /// The rule a wrong value is reported under.
        let rule: StaticString
        let severity: Level
        /// What happens with a wrong value, after a colon in the message.
        let effect: StaticString
        /// Read by iOS only in a Live Activity push (one with `aps.event`).
        var liveActivity = false
        /// What a null meant, for a key Apple once typed "string or null": said instead of "must be a string".
        var nullMeant: StaticString?
        /// What a string value needs beyond the shape (APNSHeaderValue): the fault, said after
        /// the key's name, and its severity; nil when the value is fine.
        var valueCheck: (@Sendable (UnsafeRawBufferPointer) -> (severity: Diagnostic.Severity, fault: String)?)?
    }

    /// What a dictionary needs whatever else it holds: a string under one of `anyOf`.
    struct Requirement: Sendable {
        let anyOf: [StaticString]
        let rule: StaticString
        let severity: Diagnostic.Severity
        /// The whole message, and where it points (in the payload and the intent).
        let message: StaticString
        let payloadPath: StaticString
        let intentPath: StaticString

        /// Whether `dictionary` has one of the keys, not an empty string. A key with a value of
        /// the wrong type counts as there: it is the walk's finding, one finding per fault.
        func isMet(by dictionary: JSONObjectNode) -> Bool {
            anyOf.contains { key in dictionary[key].map { !($0.utf8?.isEmpty ?? false) } ?? false }
        }
    }

    /// The keys of one dictionary, and what is said of a key not among them.
    struct Table: Sendable {
        /// How messages name the dictionary (`aps`, `aps.alert`, `request header`).
        let name: StaticString
        /// How messages name a member: this, then the key (`aps.`, `header `).
        let prefix: StaticString
        /// The dictionary's payload path (headers: under the request's `$.headers`).
        let path: StaticString
        /// The intent field each key comes from, for findings about a translated payload.
        let origins: [String: String]
        let keys: [Key]
        /// The rule and severity of a key Apple does not define here.
        let unknownRule: StaticString
        let unknownSeverity: Diagnostic.Severity
        let unknownEffect: StaticString
        /// Every value is a string (HTTP/2 header values), whatever the key; and, as header
        /// names, the keys ignore case (lowered before the walk, APNSHeaderNames).
        let stringValues: Bool
        let requirement: Requirement?

        /// The keys' names alone, in the keys' order: a lookup reads these plain values and copies
        /// no key (a key holds its shape, whose tables are reference counted).
        let keyNames: [StaticString]

        init(
            name: StaticString, prefix: StaticString, path: StaticString, origins: [String: String], keys: [Key],
            unknownRule: StaticString, unknownSeverity: Diagnostic.Severity, unknownEffect: StaticString,
            stringValues: Bool = false, requirement: Requirement? = nil
        ) {
            self.name = name
            self.prefix = prefix
            self.path = path
            self.origins = origins
            self.keys = keys
            self.unknownRule = unknownRule
            self.unknownSeverity = unknownSeverity
            self.unknownEffect = unknownEffect
            self.stringValues = stringValues
            self.requirement = requirement
            keyNames = keys.map(\.name)
        }

        /// The index of the key with these bytes.
        func index(_ bytes: UnsafeRawBufferPointer) -> Int? {
            keyNames.withUnsafeBufferPointer { names in
                for index in names.indices where ValueFormat.equals(bytes, names[index]) { return index }
                return nil
            }
        }

        var names: [String] { keys.map { ValueFormat.text($0.name) } }
    }

    static let interruptionLevels: [StaticString] = ["passive", "active", "time-sensitive", "critical"]
    static let liveActivityEvents: [StaticString] = ["start", "update", "end"]

    static let alert = Table(
        name: "aps.alert", prefix: "aps.alert.", path: "$.aps.alert", origins: IntentOrigin.alertKeys,
        keys: [
            Key(name: "title", shape: .localizable, rule: "apns-alert", severity: .error, effect: "iOS shows no title"),
            Key(name: "subtitle", shape: .string, rule: "apns-alert", severity: .error, effect: "iOS shows no subtitle"),
            Key(name: "body", shape: .localizable, rule: "apns-alert", severity: .error, effect: "iOS shows no body"),
            Key(name: "launch-image", shape: .string, rule: "apns-alert", severity: .warning, effect: "iOS ignores it"),
            Key(name: "title-loc-key", shape: .string, rule: "apns-alert", severity: .error, effect: "iOS shows no localised title"),
            Key(name: "title-loc-args", shape: .stringArray, rule: "apns-alert", severity: .error, effect: "iOS cannot fill in the text"),
            Key(name: "subtitle-loc-key", shape: .string, rule: "apns-alert", severity: .error, effect: "iOS shows no localised subtitle"),
            Key(name: "subtitle-loc-args", shape: .stringArray, rule: "apns-alert", severity: .error, effect: "iOS cannot fill in the text"),
            Key(name: "loc-key", shape: .string, rule: "apns-alert", severity: .error, effect: "iOS shows no localised body"),
            Key(name: "loc-args", shape: .stringArray, rule: "apns-alert", severity: .error, effect: "iOS cannot fill in the text"),
            // Apple's old payload reference typed it "string or null", null for an alert with no View
            // button (Pushy's builder writes it): the twenty-ninth audit, F6.
            Key(
                name: "action-loc-key", shape: .string, rule: "apns-alert", severity: .warning, effect: "iOS ignores it",
                nullMeant: "null, once the way to show an alert without a View button, has no effect on current iOS"),
            // Safari's web push button label, and the summary keys iOS 12 to 14 read (iOS 15 ignores them).
            Key(name: "action", shape: .string, rule: "apns-alert", severity: .warning, effect: "Safari shows its own button label"),
            Key(name: "summary-arg", shape: .string, rule: "apns-alert", severity: .warning, effect: "iOS ignores it"),
            Key(name: "summary-arg-count", shape: .count, rule: "apns-alert", severity: .warning, effect: "iOS ignores it"),
            // A Live Activity's alert names its sound here rather than in aps.sound.
            Key(name: "sound", shape: .string, rule: "apns-alert", severity: .warning, effect: "iOS plays no sound", liveActivity: true),
        ],
        unknownRule: "apns-alert-key", unknownSeverity: .warning, unknownEffect: "iOS ignores it",
        requirement: Requirement(
            anyOf: ["title", "subtitle", "body", "title-loc-key", "subtitle-loc-key", "loc-key"], rule: "apns-alert", severity: .error,
            message: "aps.alert has no title, subtitle, body or loc key to show: iOS shows no alert",
            payloadPath: "$.aps.alert", intentPath: "$.title"))

    /// Whether an `aps.alert` value gives iOS nothing to show: an empty string, or a dictionary
    /// that meets no part of the alert's requirement. A value of another type is the walk's
    /// finding, so not this. One reading for the walk and the background-push rule.
    static func alertShowsNothing(_ value: JSONNode) -> Bool {
        if let text = value.utf8 { return text.isEmpty }
        guard let dictionary = value.objectValue, let requirement = alert.requirement else { return false }
        return !requirement.isMet(by: dictionary)
    }

    /// The critical-alert sound dictionary.
    static let sound = Table(
        name: "aps.sound", prefix: "aps.sound.", path: "$.aps.sound", origins: IntentOrigin.soundKeys,
        keys: [
            Key(name: "critical", shape: .zeroOrOne, rule: "apns-sound", severity: .warning, effect: "iOS plays it as a regular sound"),
            Key(name: "name", shape: .soundName, rule: "apns-sound", severity: .warning, effect: "iOS plays no sound"),
            Key(name: "volume", shape: .unitNumber, rule: "apns-sound", severity: .warning, effect: "iOS plays it at full volume"),
        ],
        unknownRule: "apns-sound-key", unknownSeverity: .warning, unknownEffect: "iOS ignores it",
        requirement: Requirement(
            anyOf: ["name"], rule: "apns-sound", severity: .warning,
            message: "aps.sound.name must be a sound name string (\"default\" for the system sound): iOS plays no sound without one",
            payloadPath: "$.aps.sound.name", intentPath: "$.ios.criticalSound.name"))

    static let aps = Table(
        name: "aps", prefix: "aps.", path: "$.aps", origins: IntentOrigin.apsKeys,
        keys: [
            Key(name: "alert", shape: .stringOrDictionary(.alert), rule: "apns-alert", severity: .error, effect: "iOS shows no alert"),
            Key(name: "badge", shape: .count, rule: "apns-badge", severity: .error, effect: "iOS does not set the badge"),
            Key(name: "sound", shape: .stringOrDictionary(.sound), rule: "apns-sound", severity: .warning, effect: "iOS plays no sound"),
            Key(name: "thread-id", shape: .string, rule: "apns-aps-type", severity: .warning, effect: "iOS does not group the notification"),
            Key(name: "category", shape: .string, rule: "apns-aps-type", severity: .warning, effect: "iOS shows none of the category's actions"),
            Key(name: "content-available", shape: .flag, rule: "apns-flag", severity: .error, effect: "iOS wakes the app in the background only for 1"),
            Key(name: "mutable-content", shape: .flag, rule: "apns-flag", severity: .error, effect: "iOS runs the notification service extension only for 1"),
            Key(name: "target-content-id", shape: .string, rule: "apns-aps-type", severity: .warning, effect: "iOS ignores it"),
            Key(name: "interruption-level", shape: .choice(.interruptionLevels), rule: "apns-interruption-level", severity: .warning,
                effect: "iOS ignores it and delivers the notification as active"),
            Key(name: "relevance-score", shape: .score, rule: "apns-relevance-score", severity: .warning, effect: "iOS ignores it"),
            Key(name: "filter-criteria", shape: .string, rule: "apns-aps-type", severity: .warning, effect: "iOS ignores it and shows the notification in every Focus"),
            // Safari web push: the values filled into the website's URL format.
            Key(name: "url-args", shape: .stringArray, rule: "apns-aps-type", severity: .warning, effect: "Safari cannot fill in the URL"),
            // A widgets or controls push (WidgetKit): the whole aps is {"content-changed": true}.
            Key(name: "content-changed", shape: .trueValue, rule: "apns-flag", severity: .warning, effect: "WidgetKit does not reload the widgets or controls"),
            // Live Activities.
            Key(name: "event", shape: .choice(.liveActivityEvents), rule: "apns-live-activity", severity: .error,
                effect: "iOS neither starts, updates nor ends the Live Activity", liveActivity: true),
            Key(name: "timestamp", shape: .epochSeconds, rule: "apns-live-activity", severity: .error,
                effect: "iOS drops the Live Activity update", liveActivity: true),
            Key(name: "content-state", shape: .object, rule: "apns-live-activity", severity: .error,
                effect: "iOS cannot decode the Live Activity's content and drops the update", liveActivity: true),
            Key(name: "stale-date", shape: .epochSeconds, rule: "apns-live-activity", severity: .warning,
                effect: "iOS ignores it", liveActivity: true),
            Key(name: "dismissal-date", shape: .epochSeconds, rule: "apns-live-activity", severity: .warning,
                effect: "iOS ignores it and keeps the ended Live Activity for up to four hours", liveActivity: true),
            Key(name: "attributes-type", shape: .string, rule: "apns-live-activity", severity: .error,
                effect: "iOS cannot start the Live Activity", liveActivity: true),
            Key(name: "attributes", shape: .object, rule: "apns-live-activity", severity: .error,
                effect: "iOS cannot start the Live Activity", liveActivity: true),
            Key(name: "input-push-channel", shape: .string, rule: "apns-live-activity", severity: .error,
                effect: "iOS does not subscribe the Live Activity to the channel", liveActivity: true),
            Key(name: "input-push-token", shape: .flag, rule: "apns-live-activity", severity: .warning,
                effect: "iOS gives the started Live Activity no push token", liveActivity: true),
        ],
        unknownRule: "apns-aps-key", unknownSeverity: .warning,
        unknownEffect: "iOS ignores it; custom keys go beside aps, never inside it")

    // MARK: request headers

    /// One value of `apns-push-type` as Apple documents it.
    struct PushType: Sendable {
        let type: StaticString
        /// What `apns-topic` needs after the app's bundle id ("" for alert and background); nil
        /// for mdm, whose topic is the MDM push certificate's (its UID), not the app's.
        let topicSuffix: StaticString?
        /// Its payload carries `aps`. PushKit pushes (voip, complication, fileprovider, location,
        /// pushtotalk) hand the whole payload to the app, and an MDM push is `{"mdm": PushMagic}`:
        /// none needs one.
        let needsAps: Bool
        /// Only token authentication may send it, and a token-authenticated request without
        /// `apns-topic` is refused (400 MissingTopic).
        let tokenOnly: Bool
    }

    /// Apple's push types ("Sending notification requests to APNs", the apns-push-type header).
    static let pushTypes: [PushType] = [
        PushType(type: "alert", topicSuffix: "", needsAps: true, tokenOnly: false),
        PushType(type: "background", topicSuffix: "", needsAps: true, tokenOnly: false),
        PushType(type: "location", topicSuffix: ".location-query", needsAps: false, tokenOnly: true),
        PushType(type: "voip", topicSuffix: ".voip", needsAps: false, tokenOnly: false),
        PushType(type: "complication", topicSuffix: ".complication", needsAps: false, tokenOnly: false),
        PushType(type: "fileprovider", topicSuffix: ".pushkit.fileprovider", needsAps: false, tokenOnly: false),
        PushType(type: "mdm", topicSuffix: nil, needsAps: false, tokenOnly: false),
        PushType(type: "liveactivity", topicSuffix: ".push-type.liveactivity", needsAps: true, tokenOnly: true),
        PushType(type: "pushtotalk", topicSuffix: ".voip-ptt", needsAps: false, tokenOnly: false),
        PushType(type: "widgets", topicSuffix: ".push-type.widgets", needsAps: true, tokenOnly: false),
        // iOS 18 controls (WidgetKit's ControlPushHandler; "Updating controls locally and remotely").
        PushType(type: "controls", topicSuffix: ".push-type.controls", needsAps: true, tokenOnly: false),
    ]

    /// The push type with these bytes.
    static func pushType(_ bytes: UnsafeRawBufferPointer) -> PushType? {
        pushTypes.first { ValueFormat.equals(bytes, $0.type) }
    }

    static let pushTypeNames: [StaticString] = pushTypes.map(\.type)
    static let priorities: [StaticString] = ["10", "5", "1"]

    /// HTTP's own request headers, which any client sends beside Apple's (apns2 Content-Type,
    /// APNSwift user-agent, node-apn's HTTP/2 pseudo-headers :method, :path...): no APNs
    /// header, and nothing ignored.
    static let httpHeaders: Set<String> = ["content-type", "content-length", "user-agent", "accept", "accept-encoding", "host", "te"]

    /// Whether `name` (lowered) is HTTP's own: a pseudo-header or one of ``httpHeaders``.
    static func isHTTPHeader(_ name: String) -> Bool {
        name.hasPrefix(":") || httpHeaders.contains(name)
    }

    static let headers = Table(
        name: "APNs request header", prefix: "header ", path: "$.headers", origins: IntentOrigin.headerKeys,
        keys: [
            Key(name: "apns-push-type", shape: .choice(.pushTypes), rule: "apns-push-type", severity: .error,
                effect: "APNs refuses the request (InvalidPushType)"),
            Key(name: "apns-priority", shape: .choice(.priorities), rule: "apns-priority", severity: .error,
                effect: "APNs refuses the request (BadPriority)"),
            Key(name: "apns-expiration", shape: .digits, rule: "apns-expiration", severity: .error,
                effect: "APNs refuses the request (BadExpirationDate)", valueCheck: APNSHeaderValue.expiration),
            Key(name: "apns-collapse-id", shape: .text(maxBytes: 64), rule: "apns-collapse-id", severity: .error,
                effect: "APNs refuses the request (BadCollapseId)", valueCheck: APNSHeaderValue.collapseID),
            Key(name: "apns-topic", shape: .text(maxBytes: 255), rule: "apns-topic", severity: .error,
                effect: "APNs refuses the request (BadTopic)"),
            Key(name: "apns-id", shape: .uuid, rule: "apns-id", severity: .error, effect: "APNs refuses the request (BadMessageId)"),
            // Broadcast Live Activities (iOS 18): the channel to send to.
            Key(name: "apns-channel-id", shape: .text(maxBytes: 255), rule: "apns-header-string", severity: .error,
                effect: "APNs refuses the request"),
            // Broadcast and channel requests: the request's own id, which APNs answers with.
            // Apple gives a UUID and names no error for another value: a warning.
            Key(name: "apns-request-id", shape: .uuid, rule: "apns-header-string", severity: .warning,
                effect: "Apple's broadcast pages give a UUID, and do not say what APNs does with another value"),
            Key(name: "authorization", shape: .text(maxBytes: 8192), rule: "apns-header-string", severity: .error,
                effect: "APNs answers 403 (InvalidProviderToken)", valueCheck: APNSHeaderValue.authorization),
        ],
        unknownRule: "apns-header-key", unknownSeverity: .warning, unknownEffect: "APNs ignores it", stringValues: true)
}
