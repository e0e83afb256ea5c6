internal import PushmapJSON

/// The one walk over an APNS request's dictionaries: each member is looked up in its table of
/// ``APNSModel`` and its value held to the key's shape; a dictionary value (alert, sound) is
/// walked with its own table. Findings carry the key's rule and the member's JSON path.
enum APNSWalker {
    /// What the walk knows of the payload as a whole.
    struct Context {
        /// The payload is a Live Activity push (`aps.event` is there): Live Activity keys are read,
        /// and relevance-score is any number (it orders the activities).
        var liveActivity = false
        /// The request is an FCM message's `apns`, whose header types the FCM model reports.
        var insideFCM = false
        /// `aps` itself, looked into only for a finding that asks what else it holds.
        var aps: JSONObjectNode?
        /// The request's push type is background: an alert with nothing to show is no fault of
        /// its own there (apns-background says the alert does not belong).
        var background = false

        /// aps has something to show or play: an alert, a sound or a badge.
        var showsSomething: Bool { aps.map(APNSRequestChecks.showsSomething) ?? false }

        /// The severity of an alert with nothing to show: the requirement's, but a warning beside
        /// a sound or a badge, which still play and show.
        func nothingToShow(_ requirement: APNSModel.Requirement) -> Diagnostic.Severity {
            guard let aps, aps["sound"] != nil || aps["badge"] != nil else { return requirement.severity }
            return .warning
        }
    }

    /// Walks `object` against `table`.
    static func walk(_ object: JSONObjectNode, _ table: APNSModel.Table, context: Context, _ report: inout CheckReport) {
        for (keyNode, value) in object {
            guard let bytes = keyNode.utf8 else { continue }
            if table.stringValues, !value.isString {
                if context.insideFCM { continue }
                if let number = value.integerValue {
                    numericHeader(number, value, bytes, table, &report)
                    continue
                }
                report.add(
                    .error, rule: "apns-header-string", location(bytes, table),
                    "\(table.prefix)\(String(decoding: bytes, as: UTF8.self)) is \(ValueFormat.shown(value, literals: true)): request header values are strings")
                continue
            }
            guard let index = table.index(bytes) else {
                unknown(bytes, value, in: table, object, &report)
                continue
            }
            let key = table.keys[index]
            if key.liveActivity, !context.liveActivity, !ValueFormat.equals(key.name, "event") {
                report.add(
                    .warning, rule: "apns-live-activity", location(bytes, table),
                    "\(table.prefix)\(key.name) is read only in a Live Activity push (one with aps.event): iOS ignores it here")
                continue
            }
            check(value, key, bytes, table, in: object, context: context, &report)
        }
    }

    /// A header given as a whole number: node-apn's Notification writes apns-priority and
    /// apns-expiration so, and HTTP/2 clients send a number's digits, so the request goes as if
    /// the digits were written. The digits are held to the header's shape (an error when they do
    /// not fit, the one fault), else a warning that the value is no string.
    private static func numericHeader(
        _ number: Int64, _ value: JSONNode, _ bytes: UnsafeRawBufferPointer, _ table: APNSModel.Table, _ report: inout CheckReport
    ) {
        if let index = table.index(bytes) {
            let key = table.keys[index]
            let digits = Array("\(number)".utf8)
            // A number stands for the digits of a header of digits (apns-expiration) only.
            if case .digits = key.shape, let valueCheck = key.valueCheck, let found = digits.withUnsafeBytes(valueCheck) {
                return report.add(found.severity, rule: key.rule, location(bytes, table), "\(table.prefix)\(key.name) \(found.fault)")
            }
            guard digits.withUnsafeBytes({ acceptsText(key.shape, $0) }) ?? true else {
                return wrong(value, key, description(key.shape, context: Context()), bytes, table, &report)
            }
        }
        report.add(
            .warning, rule: "apns-header-string", location(bytes, table),
            "\(table.prefix)\(String(decoding: bytes, as: UTF8.self)) is the number \(number), not a string: HTTP/2 clients send its digits, so APNs reads \"\(number)\"; write it as a string")
    }

    /// Holds one value to its key's shape, walking a dictionary value with its own table.
    private static func check(
        _ value: JSONNode, _ key: APNSModel.Key, _ bytes: UnsafeRawBufferPointer, _ table: APNSModel.Table, in dictionary: JSONObjectNode,
        context: Context, _ report: inout CheckReport
    ) {
        if case .stringOrDictionary(let nested) = key.shape, let dictionary = value.objectValue {
            // The tables passed as they are stored, not copied out through a property.
            if nested == .alert {
                // A background push's alert does not belong at all: apns-background's one finding,
                // not one more for a text inside it (the twenty-third audit, A4).
                if context.background { return }
                walk(dictionary, APNSModel.alert, context: context, &report)
                required(dictionary, APNSModel.alert, alertIn: context, &report)
            } else {
                walk(dictionary, APNSModel.sound, context: context, &report)
                required(dictionary, APNSModel.sound, &report)
            }
            return
        }
        if case .stringOrDictionary(.alert) = key.shape, APNSModel.alertShowsNothing(value), let requirement = APNSModel.alert.requirement {
            // An empty alert string shows nothing, as an alert dictionary with nothing in it.
            if context.background { return }
            report.add(
                context.nothingToShow(requirement), rule: requirement.rule, location(bytes, table),
                "aps.alert is \"\": iOS shows no alert")
            return
        }
        if namesSound(key.shape), let text = value.utf8, text.isEmpty {
            // An empty name names no sound file (the Python and Node Firebase Admin SDKs refuse
            // it); what iOS plays then, Apple does not say.
            report.add(
                .warning, rule: "apns-sound", location(bytes, table),
                "\(table.prefix)\(key.name) is \"\", which names no sound file: iOS may play the default sound or none; give a sound name (\"default\" for the system sound) or leave it out")
            return
        }
        if let valueCheck = key.valueCheck, let text = value.utf8, let found = valueCheck(text) {
            return report.add(found.severity, rule: key.rule, location(bytes, table), "\(table.prefix)\(key.name) \(found.fault)")
        }
        guard !accepts(key.shape, value, context: context) else { return }
        if case .flag = key.shape, let (set, meaning) = flagMeaning(value),
            set || !ValueFormat.equals(key.name, "content-available") || context.showsSomething
        {
            // true, false and 0 are read as the NSNumbers they are: iOS takes true for 1 and
            // 0 or false for no flag, which Apple does not document, so a warning. A push whose
            // only flag is content-available 0 does nothing at all: that stays the key's error.
            report.add(
                .warning, rule: key.rule, location(bytes, table),
                "\(table.prefix)\(key.name) is \(ValueFormat.shown(value, literals: true)), which iOS reads as \(meaning); Apple documents the number 1: write 1, or leave the key out")
            return
        }
        // A background push's alert does not belong, whatever its type: apns-background's one
        // finding, which says to leave it out (the twenty-second audit, N8).
        if context.background, case .stringOrDictionary(.alert) = key.shape { return }
        // Arguments with no loc key to fill are dropped whatever their type: the alert shows its
        // plain text, as it does for a list of strings there (apns-loc-args; the thirtieth
        // audit, F4: node-apn sends `loc-args: null`).
        if let pair = APNSPayloadChecks.LocArgs.pairs.first(where: { ValueFormat.equals(key.name, $0.args) }),
            dictionary[pair.key] == nil, APNSModel.alert.requirement?.isMet(by: dictionary) ?? false
        {
            return report.add(
                .warning, rule: key.rule, location(bytes, table),
                "\(table.prefix)\(key.name) is \(ValueFormat.shown(value, literals: true)), not a list of strings, and there is no \(pair.key) to fill: iOS shows the plain text and drops it; leave it out")
        }
        // An alert text of the wrong type leaves the alert's other texts to show: a warning then
        // (the Python Admin SDK refuses it, TestApsAlertEncoder; FCM and APNs pass it on).
        // So does a badge iOS cannot read beside an alert or a sound: the badge alone is lost, as
        // on Android, where a count that is no number is a warning (android-badge-count). Alone,
        // the push shows nothing: the key's error. The Python Admin SDK refuses it
        // (TestApsEncoder.test_invalid_badge); no source says FCM or APNs does.
        let shownBeside = table.requirement.map { showsOther(than: key.name, in: dictionary, $0) }
            ?? (ValueFormat.equals(key.name, "badge") && showsBesideBadge(dictionary))
        wrong(value, key, description(key.shape, context: context), bytes, table, severity: shownBeside ? .warning : nil, &report)
    }

    /// Whether `aps` shows or plays something besides its badge: an alert with text, or a sound.
    private static func showsBesideBadge(_ aps: JSONObjectNode) -> Bool {
        if let alert = aps["alert"], alert.utf8 != nil || alert.objectValue != nil, !APNSModel.alertShowsNothing(alert) { return true }
        return aps["sound"].map { !$0.isNull } ?? false
    }

    /// Whether `dictionary` has something its requirement asks for besides `name`, itself one of
    /// those: a text that is a string and not empty.
    private static func showsOther(than name: StaticString, in dictionary: JSONObjectNode, _ requirement: APNSModel.Requirement) -> Bool {
        guard requirement.anyOf.contains(where: { ValueFormat.text($0) == ValueFormat.text(name) }) else { return false }
        return requirement.anyOf.contains { other in
            ValueFormat.text(other) != ValueFormat.text(name) && !(dictionary[other]?.utf8?.isEmpty ?? true)
        }
    }

    /// What a dictionary needs whatever else it holds (a critical sound a name, an alert
    /// something to show, with `alertIn` the walk's context: see ``Context/nothingToShow(_:)``).
    private static func required(_ dictionary: JSONObjectNode, _ table: APNSModel.Table, alertIn context: Context? = nil, _ report: inout CheckReport) {
        guard let requirement = table.requirement, !requirement.isMet(by: dictionary) else { return }
        // A near miss of a key the requirement names (`titel`) has its finding already, which says
        // that key is missing: one finding for one typo (the twenty-fifth audit, F5).
        let nearMiss = dictionary.contains { member in
            guard let bytes = member.key.utf8 else { return false }
            let name = String(decoding: bytes, as: UTF8.self)
            guard !table.names.contains(name), let meant = Suggestion.nearest(to: name, among: table.names) else { return false }
            return requirement.anyOf.contains { ValueFormat.text($0) == meant }
        }
        if nearMiss { return }
        report.add(
            context?.nothingToShow(requirement) ?? requirement.severity, rule: requirement.rule,
            CheckLocation(payload: ValueFormat.text(requirement.payloadPath), intent: ValueFormat.text(requirement.intentPath)),
            "\(requirement.message)")
    }

    /// An unknown key is ignored: the table's severity (a warning). A near miss of a key Apple
    /// defines that the dictionary lacks (`titel` with no `title`) leaves the key it was written
    /// for missing, which counts as that key's wrong value would: an error for a title, a
    /// `content-available` or a priority, a warning for a sound's volume.
    private static func unknown(
        _ bytes: UnsafeRawBufferPointer, _ value: JSONNode, in table: APNSModel.Table, _ object: JSONObjectNode, _ report: inout CheckReport
    ) {
        // Clipped, as every message quotes it: no header or key Apple defines is that long.
        let name = ShownText.clipped(String(decoding: bytes, as: UTF8.self))
        if table.stringValues, APNSModel.isHTTPHeader(APNSHeaderNames.lowercased(name)) {
            if let text = value.utf8, let fault = APNSHeaderValue.pseudoHeader(name, text) {
                report.add(.error, rule: "apns-request", location(bytes, table), "\(table.prefix)\(name) \(fault)")
            }
            return
        }
        // Header names ignore case: one left as written is another's name again (APNSHeaderNames).
        if table.stringValues, case let lower = APNSHeaderNames.lowercased(name), lower != name, table.names.contains(lower) {
            // HTTP/2 sends names in lower case: the request then repeats the header, which
            // APNs refuses (DuplicateHeaders, Apple's error table; the thirtieth audit, F6).
            report.add(
                .error, rule: table.unknownRule, location(bytes, table),
                "\(table.prefix)\(name) is \(lower) again (header names ignore case, and HTTP/2 sends them in lower case): APNs refuses a repeated header (DuplicateHeaders); keep one")
            return
        }
        guard let meant = Suggestion.nearest(to: name, among: table.names) else {
            report.add(
                table.unknownSeverity, rule: table.unknownRule, location(bytes, table),
                "\(table.prefix)\(name) is not one of the \(table.name) keys Apple defines: \(table.unknownEffect)")
            return
        }
        let missing = !object.contains { member in member.key.utf8.map { $0.elementsEqual(meant.utf8) } ?? false }
        let meantSeverity = table.keys.first { ValueFormat.text($0.name) == meant }?.severity.severity ?? table.unknownSeverity
        report.add(
            missing ? meantSeverity : table.unknownSeverity, rule: table.unknownRule, location(bytes, table),
            missing
                ? "\(table.prefix)\(name) is not one of the \(table.name) keys Apple defines (did you mean \(meant)?): \(table.unknownEffect), so \(table.prefix)\(meant) is missing"
                : "\(table.prefix)\(name) is not one of the \(table.name) keys Apple defines: \(table.unknownEffect) (did you mean \(meant)?)")
    }

    private static func wrong(
        _ value: JSONNode, _ key: APNSModel.Key, _ expected: String, _ bytes: UnsafeRawBufferPointer, _ table: APNSModel.Table,
        severity: Diagnostic.Severity? = nil, _ report: inout CheckReport
    ) {
        if value.isNull, let meant = key.nullMeant {
            return report.add(severity ?? key.severity.severity, rule: key.rule, location(bytes, table), "\(table.prefix)\(key.name) \(meant)")
        }
        // A byte limit says the bytes found: a string of 64 characters may be 65 bytes.
        var found = ValueFormat.shown(value, literals: true)
        if case .text = key.shape, let utf8 = value.utf8, !utf8.isEmpty { found += " (\(utf8.count) bytes)" }
        report.add(
            severity ?? key.severity.severity, rule: key.rule, location(bytes, table),
            "\(table.prefix)\(key.name) must be \(expected), not \(found): \(key.effect)")
    }

    static func location(_ bytes: UnsafeRawBufferPointer, _ table: APNSModel.Table) -> CheckLocation {
        IntentOrigin.location(base: ValueFormat.text(table.path), key: String(decoding: bytes, as: UTF8.self), table: table.origins)
    }

    /// Whether a flag given as `true`, `false` or `0` is set as iOS reads it, and how to say so;
    /// nil for anything else.
    private static func flagMeaning(_ value: JSONNode) -> (set: Bool, meaning: String)? {
        if let bool = value.boolValue { return bool ? (true, "1 (set)") : (false, "no flag") }
        return ValueFormat.wholeNumber(value) == 0 ? (false, "no flag") : nil
    }

    /// Whether a key's string value names a sound file: aps.sound, and the critical sound's name.
    private static func namesSound(_ shape: APNSModel.Shape) -> Bool {
        switch shape {
        case .soundName, .stringOrDictionary(.sound): true
        default: false
        }
    }

    /// Whether `value` has the shape.
    static func accepts(_ shape: APNSModel.Shape, _ value: JSONNode, context: Context) -> Bool {
        switch shape {
        case .string, .soundName: return value.isString
        case .stringArray: return value.arrayValue?.allSatisfy(\.isString) ?? false
        case .flag: return ValueFormat.isInteger(value, 1)
        case .trueValue: return value.boolValue == true
        case .localizable: return value.isString || (context.liveActivity && isLocalization(value))
        case .zeroOrOne: return ValueFormat.isInteger(value, 1) || ValueFormat.isInteger(value, 0)
        case .count, .epochSeconds: return (ValueFormat.wholeNumber(value) ?? -1) >= 0
        case .unitNumber: return isUnitNumber(value)
        case .score: return context.liveActivity ? value.integerValue != nil || value.doubleValue != nil : isUnitNumber(value)
        case .object: return value.objectValue != nil
        case .stringOrDictionary: return value.isString || value.objectValue != nil
        case .choice, .digits, .text, .uuid: return value.utf8.flatMap { acceptsText(shape, $0) } ?? false
        }
    }

    /// Whether a string shape takes `text`; nil for the shapes that are no strings' (a header
    /// value's shape is always one of these).
    static func acceptsText(_ shape: APNSModel.Shape, _ text: UnsafeRawBufferPointer) -> Bool? {
        switch shape {
        case .choice(let choices): ValueFormat.isOne(of: choices.words, text)
        case .digits: !text.isEmpty && text.count <= 19 && text.allSatisfy(ValueFormat.isDigit)
        case .text(let maxBytes): !text.isEmpty && text.count <= maxBytes
        case .uuid: isUUID(text)
        default: nil
        }
    }

    /// How a message names the values a shape takes.
    static func description(_ shape: APNSModel.Shape, context: Context) -> String {
        switch shape {
        case .string, .soundName: "a string"
        case .stringArray: "an array of strings"
        case .flag: "the number 1"
        case .trueValue: "true"
        case .localizable: context.liveActivity ? "a string or {\"loc-key\": string, \"loc-args\": [string]}" : "a string"
        case .zeroOrOne: "0 or 1"
        case .count: "a whole number of 0 or more"
        case .epochSeconds: "epoch seconds (a whole number)"
        case .unitNumber: "a number from 0 to 1"
        case .score: context.liveActivity ? "a number" : "a number from 0 to 1"
        case .object: "an object"
        case .choice(let choices): "one of " + choices.words.map(ValueFormat.text).joined(separator: ", ")
        case .stringOrDictionary: "a string or a dictionary"
        case .digits: "a string of epoch seconds (digits only; 0: deliver once, never store)"
        case .text(let maxBytes): "a non-empty string of at most \(maxBytes) bytes"
        case .uuid: "a UUID in the form 123e4567-e89b-12d3-a456-426614174000"
        }
    }

    /// A Live Activity's localised text: `loc-key` a string, `loc-args` (if there) strings, nothing else.
    static func isLocalization(_ value: JSONNode) -> Bool {
        guard let object = value.objectValue, object["loc-key"]?.isString ?? false else { return false }
        for (key, member) in object {
            guard let name = key.utf8 else { return false }
            if ValueFormat.equals(name, "loc-key") { continue }
            guard ValueFormat.equals(name, "loc-args"), member.arrayValue?.allSatisfy(\.isString) ?? false else { return false }
        }
        return true
    }

    /// A JSON number from 0 to 1, integer or not.
    static func isUnitNumber(_ value: JSONNode) -> Bool {
        if let number = value.integerValue { return number == 0 || number == 1 }
        if let number = value.doubleValue { return number >= 0 && number <= 1 }
        return false
    }

    /// 8-4-4-4-12 hex digits with hyphens.
    static func isUUID(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            let hyphen = index == 8 || index == 13 || index == 18 || index == 23
            if hyphen ? byte != UInt8(ascii: "-") : !ValueFormat.isHexDigit(byte) { return false }
        }
        return true
    }
}
