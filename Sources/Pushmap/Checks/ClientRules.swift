internal import PushmapJSON

/// What a rule shared by the Android and iOS checks says and reads differently on each: the
/// platform's words, its keys, and what counts as a key being there. Each property is a switch
/// over two constants, so passing a platform copies nothing.
enum ClientPlatform {
    case android, iOS

    /// Whose code the messages speak of.
    var name: StaticString { self == .android ? "Android" : "iOS" }
    /// The templates this platform's code draws, each reading keys of its own.
    var templateScope: RuleScope { self == .android ? [.basic, .carousel, .timer, .androidOnlyTemplate] : .iOSTemplate }
    var otherTemplateRule: StaticString { self == .android ? "android-other-template-key" : "ios-other-template-key" }

    /// The key this platform reads the image from, and the other platform's, with its name.
    var imageKey: CustomKeys.Known { self == .android ? .image : .media }
    var otherImageKey: CustomKeys.Known { self == .android ? .media : .image }
    var otherName: StaticString { self == .android ? "iOS" : "Android" }

    /// Whether a colour may start with `#`, the formats as a message names them, and what the
    /// phone does with a colour it cannot read.
    var colourAllowsHash: Bool { self == .iOS }
    var colourFormats: StaticString { self == .android ? "RRGGBB or AARRGGBB, no #" : "RRGGBB or RRGGBBAA, # allowed" }
    var colourEffect: StaticString { self == .android ? "the phone ignores the colour" : "iOS ignores the colour and uses the system one" }

    /// What this platform makes of an adb_car_mode other than auto or manual.
    var carouselModeOtherwise: StaticString {
        self == .android ? "Android shows a manual carousel for anything but \"auto\"" : "iOS shows an auto carousel for anything but \"manual\""
    }

    /// How adb_tmr_end and adb_tmr_dur are written for this platform's reader, for messages.
    var endForm: StaticString { self == .android ? "whole seconds" : "seconds" }
    var durationForm: StaticString { self == .android ? "a whole number of seconds" : "a number of seconds" }

    /// Whether a timer key counts only when it is a string (iOS reads adb_ values as strings
    /// only; on Android a value of another type is already an FCM error).
    var timerKeysAreStrings: Bool { self == .iOS }

    /// The ends of the timer messages, after "required by Android's timer code" and the like.
    var alternateTitleEffect: StaticString {
        self == .android ? ": without it the notification is not shown" : " (the docs say optional): without it iOS shows the fallback"
    }
    var timerMissingEffect: StaticString {
        self == .android ? ": without either Android treats it as expired and drops it" : " as a string of seconds: without either iOS shows the fallback"
    }
    /// A duration over on arrival: Android drops the notification (the phone shows nothing, an
    /// error, as Adobe's tests mark such payloads invalid), iOS shows the expired content (it
    /// shows, a warning).
    var timerExpiredIsError: Bool { self == .android }
    var timerExpiredEffect: StaticString {
        self == .android
            ? "Android drops the notification on arrival unless one with the same adb_tag is showing"
            : "iOS shows the alternate (expired) content at once"
    }

    /// The text-length message's words before the limit, and after it.
    var textGuideline: StaticString { self == .android ? "Android's guideline is about" : "iOS's guideline is" }
    var textEffect: StaticString { self == .android ? "longer text is cut off on many screens" : "longer text is cut off" }

    /// This platform's bit in ``CustomKeys/Entry/readers``, and the other's.
    var readerBit: UInt8 { self == .android ? 1 : 2 }
    var otherReaderBit: UInt8 { self == .android ? 2 : 1 }
    /// The Adobe keys this platform's code reads, for a did-you-mean.
    var readKeys: [String] { self == .android ? BuiltinTemplates.androidReadKeys : BuiltinTemplates.iOSReadKeys }

    func has(_ key: CustomKeys.Known, in keys: CustomKeys) -> Bool {
        timerKeysAreStrings ? keys.text(key) != nil : keys.contains(key)
    }
}

/// The rules Android and iOS share, written once: each platform's list calls them with its
/// ``ClientPlatform``.
enum ClientRules {
    /// `adb_clr_*`: 6 or 8 hex digits (after a `#` where the platform allows one). A warning:
    /// the phone ignores a colour it cannot read and shows the notification without it.
    static func colours(_ keys: CustomKeys, _ platform: ClientPlatform, _ report: inout CheckReport) {
        // The colour keys this platform reads: another adb_clr_ key is the unknown-key rule's
        // (the fortieth audit, F9: `adb_clr_bg\n` was judged twice).
        let bit = platform.readerBit
        for index in keys.prints.indices where keys.prints[index].isColour && keys.entries[index].readers & bit != 0 {
            guard let colour = keys.entries[index].value.utf8, !isColour(colour, allowingHash: platform.colourAllowsHash) else { continue }
            report.warning(
                keys.location(at: index),
                "\(keys.entries[index].name) \(ValueFormat.quoted(colour)) is not 6 or 8 hex digits (\(platform.colourFormats)): \(platform.colourEffect)")
        }
    }

    private static func isColour(_ bytes: UnsafeRawBufferPointer, allowingHash: Bool) -> Bool {
        if ValueFormat.isHexColour(bytes) { return true }
        return allowingHash && bytes.first == UInt8(ascii: "#") && ValueFormat.isHexColour(UnsafeRawBufferPointer(rebasing: bytes.dropFirst()))
    }

    /// A key of another template than the payload's (`adb_col_style`, zb's, on a basic
    /// payload): the template's code never reads it, and the notification shows without it
    /// (client-rules.md: each builder reads its own keys). A warning, at the key.
    /// Run by the unknown-key rules, under a name of its own: a rule more cost every payload its
    /// call, and most payloads have no such key to look for.
    static func otherTemplateKeys(_ keys: CustomKeys, _ platform: ClientPlatform, scope: RuleScope, _ report: inout CheckReport) {
        // Not plain: with no type, the messaging SDK or the notification builder's legacy
        // template may read the payload, and they read different keys; nor a type no SDK draws.
        guard keys.templateKeyCount > 0, platform.templateScope.contains(scope) else { return }
        let bits = platform.readerBit | CustomKeys.Known.Table.ownedBit
        for index in keys.entries.indices where keys.entries[index].readers & bits == bits {
            let entry = keys.entries[index]
            let templates = CustomKeys.Known.table.templates(of: entry.key)
            guard templates.isDisjoint(with: scope) else { continue }
            let readers = BuiltinTemplates.all.filter { templates.contains($0.scope) && (platform == .android || $0.onIOS) }.compactMap(\.type)
            let own = BuiltinTemplates.all.first { $0.scope == scope }?.type ?? ""
            report.add(
                .warning, rule: platform.otherTemplateRule, keys.location(at: index),
                "\(entry.name) is read by the \(readers.joined(separator: ", ")) template\(readers.count == 1 ? "" : "s") only: \(platform.name)'s \(own) template code ignores it")
        }
    }

    /// An `adb_` key this platform's SDK does not read: a typo (`adb_titel`) or the other
    /// platform's key. A warning: the phone ignores the key and shows the rest.
    static func unknownKeys(_ keys: CustomKeys, _ platform: ClientPlatform, _ report: inout CheckReport) {
        // Whose code reads each key was settled when it was added, by the lookup that finds the
        // known keys: here a bit test a key (a table lookup a key here cost 2,400 instructions
        // a batch line, one frozen seed).
        let bit = platform.readerBit
        for index in keys.entries.indices where keys.entries[index].readers & bit == 0 && keys.prints[index].isAdobeKey {
            let name = keys.entries[index].name
            if keys.entries[index].readers & platform.otherReaderBit != 0 {
                // The other platform's image key is the image-key rule's to speak of.
                if name == platform.otherImageKey.name { continue }
                report.warning(keys.location(at: index), "\(name) is read by Adobe's \(platform.otherName) code only: \(platform.name) ignores it")
            } else {
                let hint = Suggestion.nearest(to: name, among: platform.readKeys).map { " (did you mean \($0)?)" } ?? ""
                report.warning(keys.location(at: index), "\(ShownText.clipped(name)) is not a key Adobe's code reads\(hint): \(platform.name) ignores it")
            }
        }
    }

    /// adb_uri, which both platforms open on a tap (but for DISMISS, NONE and OPENAPP, whose
    /// uri android-open-app-uri speaks of): empty, it opens nothing; with a space or a control
    /// character, which no URI holds (RFC 3986), whether the phone opens it depends on the app's
    /// handler. Warnings: the notification shows (the twenty-eighth audit, F3: a campaign's
    /// recipient data made both, with no word).
    static func linkURI(_ keys: CustomKeys, _ platform: ClientPlatform, _ report: inout CheckReport) {
        guard let uri = keys.text(.uri) else { return }
        if let type = keys.text(.linkType), ValueFormat.isOne(of: ["DISMISS", "NONE", "OPENAPP"], type) { return }
        if uri.isEmpty {
            report.warning(keys.location(.uri), "adb_uri is empty: a tap on the notification opens nothing on \(platform.name); leave the uri out to open the app")
        } else if uri.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
            report.warning(
                keys.location(.uri),
                "adb_uri \(ValueFormat.quoted(uri)) holds a space or a control character, which a URI cannot: \(platform.name) may not open it; percent-encode it (a space is %20)")
        }
    }

    /// The other platform's image key without this one's: this platform shows no image.
    static func imageKey(_ keys: CustomKeys, _ platform: ClientPlatform, _ report: inout CheckReport) {
        guard keys.contains(platform.otherImageKey), !keys.contains(platform.imageKey) else { return }
        report.warning(
            keys.location(platform.otherImageKey),
            "\(platform.name) reads the image from \(platform.imageKey.name); \(platform.otherImageKey.name) is \(platform.otherName)'s key and shows no image here")
    }

    static func timerAlternateTitle(_ keys: CustomKeys, _ platform: ClientPlatform, _ report: inout CheckReport) {
        guard !platform.has(.titleAlt, in: keys) else { return }
        report.error(keys.location(.titleAlt), "adb_title_alt is required by \(platform.name)'s timer code\(platform.alternateTitleEffect)")
    }

    static func timerMissing(_ keys: CustomKeys, _ platform: ClientPlatform, _ report: inout CheckReport) {
        guard !platform.has(.timerDuration, in: keys), !platform.has(.timerEnd, in: keys) else { return }
        report.error(
            CheckLocation(payload: keys.location(.timerDuration).payload, intent: "$.timer"),
            "a timer needs adb_tmr_dur or adb_tmr_end\(platform.timerMissingEffect)")
    }

    /// An adb_car_mode other than auto or manual, which each platform reads its own way.
    static func carouselMode(_ keys: CustomKeys, _ platform: ClientPlatform, _ report: inout CheckReport) {
        guard let mode = keys.text(.carouselMode), !ValueFormat.isOne(of: ["auto", "manual"], mode) else { return }
        report.warning(
            keys.location(.carouselMode), "adb_car_mode \(ValueFormat.quoted(mode)) is not auto or manual: \(platform.carouselModeOtherwise)")
    }

    /// adb_tmr_dur wins over adb_tmr_end: a key the other makes unread is a warning when it
    /// cannot be read (the thirty-fourth audit, F5: a bad end beside a good duration failed a
    /// timer that shows), and an error only when neither can be read.
    static func timerValues(_ keys: CustomKeys, _ platform: ClientPlatform, _ report: inout CheckReport) {
        let durationText = keys.text(.timerDuration), endText = keys.text(.timerEnd)
        let seconds = durationText.flatMap { Self.duration($0, platform) }
        let time = endText.flatMap { Self.end($0, platform) }
        if let text = durationText, seconds == nil {
            let ignored = time != nil
            // A whole number Android cannot hold says so, not that it is no whole number (the
            // forty-third audit, F3).
            let form = platform == .android && ValueFormat.integer(text) != nil
                ? "a whole number of seconds Android's 32-bit integer holds (at most 2147483647)" : "\(platform.durationForm)"
            report.add(
                ignored ? .warning : .error, keys.location(.timerDuration),
                "adb_tmr_dur \(ValueFormat.quoted(text)) is not \(form): \(platform.name) \(ignored ? "ignores it and counts down to adb_tmr_end" : "cannot count down from it")")
        }
        if let text = endText, time == nil {
            let ignored = seconds != nil
            report.add(
                ignored ? .warning : .error, keys.location(.timerEnd),
                "adb_tmr_end \(ValueFormat.quoted(text)) is not an epoch time in \(platform.endForm)\(ignored ? "; " : ": ")\(platform.name) \(ignored ? "does not read it, as adb_tmr_dur wins" : "cannot count down to it")")
        }
    }

    /// A timer over on arrival: a duration of 0 or less (which wins), else an end at or before now.
    /// The duration is the payload's own fault, over whenever it is sent (Adobe's timer tests mark
    /// such a payload invalid on Android). An end already past is a fault of when it is sent, not
    /// of what it says: Adobe's own documented timer example ends in 2023, issue 3 classes "a
    /// timer end already past" as a warning, and whether Android shows anything depends on a
    /// notification with the same tag being up, which pushmap cannot see. So it is a warning on
    /// both platforms, saying what Android does.
    static func timerExpired(_ keys: CustomKeys, now: Int64, _ platform: ClientPlatform, _ report: inout CheckReport) {
        if let seconds = keys.text(.timerDuration).flatMap({ Self.duration($0, platform) }) {
            guard seconds <= 0, let text = keys.text(.timerDuration) else { return }
            report.add(
                platform.timerExpiredIsError ? .error : .warning, keys.location(.timerDuration),
                "adb_tmr_dur \(ValueFormat.quoted(text)) is not above 0, so the timer is over on arrival: \(platform.timerExpiredEffect)")
        } else {
            guard let time = keys.text(.timerEnd).flatMap({ Self.end($0, platform) }), time <= now else { return }
            report.warning(keys.location(.timerEnd), "adb_tmr_end \(time) is at or before now (\(now)): \(platform.timerExpiredEffect)")
        }
    }

    /// adb_tmr_end as the platform reads it, in whole seconds: Android's toLongOrNull takes whole
    /// seconds only; iOS's TimeInterval(String) takes a fraction too ("1712417524.5", which
    /// Adobe's own iOS test sends), counted here from the second it falls in.
    private static func end(_ text: UnsafeRawBufferPointer, _ platform: ClientPlatform) -> Int64? {
        if let whole = ValueFormat.integer(text) { return whole }
        guard platform == .iOS, let seconds = Double(String(decoding: text, as: UTF8.self)), seconds.isFinite,
              seconds > -9.2e18, seconds < 9.2e18 else { return nil }
        return Int64(seconds.rounded(.down))
    }

    /// adb_tmr_dur as the platform reads it, in seconds: any whole number on Android
    /// (toIntOrNull; 0 or less is a timer over on arrival), a fraction too on iOS
    /// (TimeInterval(String): the thirty-fourth audit, F4, found "10.5" refused).
    private static func duration(_ text: UnsafeRawBufferPointer, _ platform: ClientPlatform) -> Double? {
        if let whole = ValueFormat.integer(text) {
            return platform == .android && (whole > Int64(Int32.max) || whole < Int64(Int32.min)) ? nil : Double(whole)
        }
        guard platform == .iOS, let seconds = Double(String(decoding: text, as: UTF8.self)), seconds.isFinite else { return nil }
        return seconds
    }

    /// A text over the platform's guideline; `name` and `location` are built only for a finding.
    /// - Parameter suffix: words after the limit (" for a timer").
    static func textLength(
        _ text: UnsafeRawBufferPointer?, limit: Int, name: () -> String, at location: () -> CheckLocation, suffix: StaticString = "",
        _ platform: ClientPlatform, _ report: inout CheckReport
    ) {
        guard let text, let count = ValueFormat.characterCount(text, over: limit) else { return }
        report.warning(
            location(), "\(name()) is \(count) characters; \(platform.textGuideline) \(limit)\(suffix): \(platform.textEffect)")
    }

    /// As ``textLength(_:limit:name:at:suffix:_:_:)``, for a custom key.
    static func textLength(
        of key: CustomKeys.Known, limit: Int, in keys: CustomKeys, suffix: StaticString = "", _ platform: ClientPlatform, _ report: inout CheckReport
    ) {
        textLength(keys.text(key), limit: limit, name: { key.name }, at: { keys.location(key) }, suffix: suffix, platform, &report)
    }
}

/// The one rule both services share about a payload's outside: a JSON object holding the
/// service's container object (`message` for FCM, `aps` for APNS), with each service's names as
/// data.
enum EnvelopeRule {
    /// Reports a payload whose root is not an object, or has no object named `container`.
    /// `payload` names it in messages ("an FCM payload"), `service` is who refuses it.
    static func check(
        _ root: JSONNode, container: StaticString, payload: String, service: String, _ report: inout CheckReport
    ) {
        guard let object = root.objectValue else {
            report.error(
                CheckLocation(payload: "$"),
                "\(payload) is a JSON object holding `\(container)`, not \(ValueFormat.withArticle(root.typeName)): \(service) refuses it")
            return
        }
        let found = object[container].map { "it is \(ValueFormat.withArticle($0.typeName))" } ?? "it is missing"
        report.error(
            CheckLocation(payload: "$.\(container)"), "\(payload) needs an object `\(container)` (\(found)): \(service) refuses it")
    }
}
