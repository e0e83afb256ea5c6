internal import PushmapJSON

/// What Android's code does with the FCM data map: the notificationbuilder library for templates
/// (`adb_template_type` present), the messaging SDK for plain payloads. Errors where the phone
/// drops the notification or loses part of it, warnings where it quietly degrades.
struct AndroidClientChecks {
    let now: Int64

    static let actionTypes: [StaticString] = ["DEEPLINK", "WEBURL", "DISMISS", "OPENAPP"]
    static let displayPriorities: [StaticString] = ["PRIORITY_DEFAULT", "PRIORITY_MIN", "PRIORITY_LOW", "PRIORITY_HIGH", "PRIORITY_MAX"]
    static let visibilities: [StaticString] = ["PRIVATE", "PUBLIC", "SECRET"]
    static let carouselLayouts: [StaticString] = ["default", "filmstrip"]
    /// Keys every template type needs; the icon template has no title or body of its own.
    static let requiredKeys: [CustomKeys.Known] = [.version, .title, .body]
    static let iconRequiredKeys: [CustomKeys.Known] = [.version]
    /// Android's text guidelines: a one-line title, a description of a few lines.
    static let maxTitleCharacters = 35
    static let maxBodyCharacters = 110
    /// Android shows at most this many action buttons, remind later included.
    static let maxButtons = 3
    static let minCarouselItems = 3

    func run(_ keys: CustomKeys, into report: inout CheckReport) {
        let template = keys.text(.templateType)
        if let template { checkRequired(template, keys, &report) }
        checkLink(keys, template: template, &report)
        checkActions(keys, &report)
        checkRemindLater(keys, &report)
        checkColours(keys, &report)
        checkDisplayKeys(keys, &report)
        checkTextLengths(keys, &report)
        if let template {
            if ValueFormat.equals(template, "car") {
                checkCarousel(keys, &report)
            } else if ValueFormat.equals(template, "timer") {
                checkTimer(keys, &report)
            }
        }
    }

    // MARK: - Every template

    private func checkRequired(_ template: UnsafeRawBufferPointer, _ keys: CustomKeys, _ report: inout CheckReport) {
        // The icon template has no title or body of its own; every other type throws without them.
        let required = ValueFormat.equals(template, "icon") ? Self.iconRequiredKeys : Self.requiredKeys
        for key in required where !keys.contains(key) {
            report.error(
                keys.location(key), "android-required-key",
                "\(key.name) is required by Android's \(String(decoding: template, as: UTF8.self)) template code: without it the notification is not shown")
        }
    }

    private func checkLink(_ keys: CustomKeys, template: UnsafeRawBufferPointer?, _ report: inout CheckReport) {
        if let type = keys.text(.linkType), !ValueFormat.isOne(of: Self.actionTypes, type) {
            let effect = template == nil
                ? "the messaging SDK does not act on it, so a tap only opens the app"
                : "Android's template code throws and the notification is not shown"
            report.error(
                keys.location(.linkType), "android-link-type",
                "adb_a_type \(ValueFormat.quoted(type)) is not exactly DEEPLINK, WEBURL, DISMISS or OPENAPP: \(effect)")
        }
        if keys.text(.uri) != nil, !keys.contains(.linkType) {
            report.warning(
                keys.location(.uri), "android-link-without-type",
                "adb_uri has no adb_a_type beside it: Android does not know whether it is a web URL or a deep link, so a tap may only open the app")
        }
        if keys.contains(.media), !keys.contains(.image) {
            report.warning(
                keys.location(.media), "android-image-key",
                "Android reads the image from adb_image; adb_media is iOS's key and shows no image here")
        }
    }

    private func checkActions(_ keys: CustomKeys, _ report: inout CheckReport) {
        guard let text = keys.text(.actions) else { return }
        // Built only for a finding: most payloads have none.
        let location = { keys.location(.actions) }
        guard let actions = Self.actions(text) else {
            report.error(
                location(), "android-actions-json",
                "adb_act is not a JSON-encoded array of {label, uri, type}: Android cannot read it and shows no buttons at all")
            return
        }
        let remindLater = keys.contains(.remindText)
        let allowed = remindLater ? Self.maxButtons - 1 : Self.maxButtons
        if actions.count > allowed {
            let reason = remindLater
                ? "with the remind-later button (adb_rem_txt) at most \(allowed) fit"
                : "Android shows at most \(allowed)"
            report.error(location(), "android-action-count", "adb_act has \(actions.count) actions and \(reason): the rest are lost")
        }
        for (index, action) in actions.enumerated() {
            checkAction(action, at: { location().index(index) }, number: index, &report)
        }
    }

    /// What the Android code reads of one action: the object's label, type and uri, or that it
    /// is not an object.
    struct Action: Equatable {
        var isObject = true
        /// Whether the label is a string that is not empty.
        var hasLabel = false
        var type: JSONValue?
        /// Whether the uri is a string that is not empty.
        var hasURI = false
    }

    /// The actions `text` holds, or nil when it is not a JSON array. Read from the tape parser's
    /// output without building the array (the full parser only when the tape parser is unsure).
    static func actions(_ text: UnsafeRawBufferPointer) -> [Action]? {
        if let plain = plainActions(text) { return plain }
        return parsedActions(text)
    }

    /// As ``actions(_:)``, by the parsers, whatever the text.
    static func parsedActions(_ text: UnsafeRawBufferPointer) -> [Action]? {
        let fromTape: [Action]?? = text.withMemoryRebound(to: UInt8.self) { bytes in
            guard let tape = JSONTape.parse(bytes, limits: JSONParser.Limits()) else { return nil }
            var reader = tape.reader
            guard reader.op == JSONTape.Op.array else { return .some(nil) }
            let count = reader.count()
            var actions: [Action] = []
            actions.reserveCapacity(count)
            for _ in 0..<count {
                guard reader.op == JSONTape.Op.object else {
                    reader.skip()
                    actions.append(Action(isObject: false))
                    continue
                }
                var action = Action()
                for _ in 0..<reader.count() {
                    let key = reader.string()
                    if ValueFormat.equals(key, "label") {
                        action.hasLabel = Self.nonEmptyString(&reader)
                    } else if ValueFormat.equals(key, "type") {
                        action.type = reader.value()
                    } else if ValueFormat.equals(key, "uri") {
                        action.hasURI = Self.nonEmptyString(&reader)
                    } else {
                        reader.skip()
                    }
                }
                actions.append(action)
            }
            return .some(actions)
        }
        if let fromTape { return fromTape }
        guard let items = (try? JSONParser.parse(text))?.arrayValue else { return nil }
        return items.map { item in
            guard let object = item.objectValue else { return Action(isObject: false) }
            return Action(
                hasLabel: !(object["label"]?.stringValue ?? "").isEmpty, type: object["type"],
                hasURI: !(object["uri"]?.stringValue ?? "").isEmpty)
        }
    }

    /// The actions of the usual `adb_act`, as pushmap writes it: an array of objects whose
    /// members are `label`, `type` and `uri`, each once, each a string with nothing escaped.
    /// Read straight off the bytes, with no tape; nil for anything else, which the parsers decide.
    static func plainActions(_ text: UnsafeRawBufferPointer) -> [Action]? {
        let n = text.count
        var i = 0
        func skipSpace() {
            while i < n, text[i] == 0x20 || text[i] == 0x0A || text[i] == 0x0D || text[i] == 0x09 { i += 1 }
        }
        func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard i < n, text[i] == byte else { return false }
            i += 1
            return true
        }
        // A string with no escape and no control character (the bytes are already UTF-8).
        func string() -> UnsafeRawBufferPointer? {
            skipSpace()
            guard i < n, text[i] == UInt8(ascii: "\"") else { return nil }
            let start = i + 1
            var end = start
            while end < n, text[end] != UInt8(ascii: "\""), text[end] != UInt8(ascii: "\\"), text[end] >= 0x20 { end += 1 }
            guard end < n, text[end] == UInt8(ascii: "\"") else { return nil }
            i = end + 1
            return UnsafeRawBufferPointer(rebasing: text[start..<end])
        }
        guard take(UInt8(ascii: "[")) else { return nil }
        var actions: [Action] = []
        if !take(UInt8(ascii: "]")) {
            repeat {
                guard take(UInt8(ascii: "{")) else { return nil }
                var action = Action()
                var seen = 0
                if !take(UInt8(ascii: "}")) {
                    repeat {
                        guard let key = string(), take(UInt8(ascii: ":")), let value = string() else { return nil }
                        let bit = ValueFormat.equals(key, "label") ? 1 : ValueFormat.equals(key, "type") ? 2 : ValueFormat.equals(key, "uri") ? 4 : 0
                        guard bit != 0, seen & bit == 0 else { return nil }
                        seen |= bit
                        switch bit {
                        case 1: action.hasLabel = !value.isEmpty
                        case 2: action.type = .string(String(decoding: value, as: UTF8.self))
                        default: action.hasURI = !value.isEmpty
                        }
                    } while take(UInt8(ascii: ","))
                    guard take(UInt8(ascii: "}")) else { return nil }
                }
                actions.append(action)
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "]")) else { return nil }
        }
        skipSpace()
        return i == n ? actions : nil
    }

    /// Reads the next value: whether it is a string that is not empty.
    private static func nonEmptyString(_ reader: inout JSONTapeReader) -> Bool {
        guard reader.op == JSONTape.Op.string else {
            reader.skip()
            return false
        }
        return !reader.string().isEmpty
    }

    /// `location` is built only for a finding.
    private func checkAction(_ action: Action, at location: () -> CheckLocation, number: Int, _ report: inout CheckReport) {
        guard action.isObject else {
            report.error(location(), "android-action-incomplete", "action \(number) is not an object {label, uri, type}: Android skips it")
            return
        }
        if !action.hasLabel {
            report.error(location(), "android-action-incomplete", "action \(number) has no label: Android skips the button")
        }
        guard let typeValue = action.type else {
            report.error(location(), "android-action-incomplete", "action \(number) has no type: Android skips the button")
            return
        }
        guard let type = typeValue.stringValue, ValueFormat.isOne(of: Self.actionTypes, type) else {
            let shown = typeValue.stringValue.map(ValueFormat.quoted) ?? ValueFormat.withArticle(typeValue.typeName)
            report.error(
                location().member("type", intentKey: IntentOrigin.buttonFields["type"]), "android-action-type",
                "action \(number) has type \(shown), not DEEPLINK, WEBURL, DISMISS or OPENAPP: Android cannot handle the button")
            return
        }
        if ValueFormat.equals(type, "WEBURL") || ValueFormat.equals(type, "DEEPLINK"), !action.hasURI {
            report.warning(location(), "android-action-uri", "action \(number) is \(type) but has no uri: the button opens nothing")
        }
    }

    private func checkRemindLater(_ keys: CustomKeys, _ report: inout CheckReport) {
        // adb_rem_sec wins when it is positive; then adb_rem_ts is not used.
        if let seconds = keys.text(.remindAfter).flatMap(ValueFormat.integer), seconds > 0 { return }
        guard let at = keys.text(.remindAt).flatMap(ValueFormat.integer), at <= now else { return }
        report.warning(
            keys.location(.remindAt), "android-remind-later-past",
            "adb_rem_ts \(at) is at or before now (\(now)): tapping remind later cancels the notification instead of scheduling it again")
    }

    private func checkColours(_ keys: CustomKeys, _ report: inout CheckReport) {
        for index in keys.prints.indices where keys.prints[index].isColour {
            guard let colour = keys.entries[index].value.utf8, !ValueFormat.isHexColour(colour) else { continue }
            let key = keys.entries[index].name
            report.error(
                keys.location(at: index), "android-color",
                "\(key) \(ValueFormat.quoted(colour)) is not 6 or 8 hex digits (RRGGBB or AARRGGBB, no #): the phone ignores the colour")
        }
    }

    private func checkDisplayKeys(_ keys: CustomKeys, _ report: inout CheckReport) {
        if let count = keys.text(.badgeCount), ValueFormat.integer(count) == nil {
            report.warning(
                keys.location(.badgeCount), "android-badge-count",
                "adb_n_count \(ValueFormat.quoted(count)) is not an integer: Android uses 0")
        }
        if let sticky = keys.text(.sticky), !isBoolean(sticky) {
            report.warning(
                keys.location(.sticky), "android-sticky",
                "adb_sticky \(ValueFormat.quoted(sticky)) is not \"true\" or \"false\": Android treats it as false")
        }
        if let priority = keys.text(.displayPriority), !ValueFormat.isOne(of: Self.displayPriorities, priority) {
            report.warning(
                keys.location(.displayPriority), "android-display-priority",
                "adb_n_priority \(ValueFormat.quoted(priority)) is not PRIORITY_DEFAULT, _MIN, _LOW, _HIGH or _MAX: Android uses PRIORITY_DEFAULT")
        }
        if let visibility = keys.text(.visibility), !ValueFormat.isOne(of: Self.visibilities, visibility) {
            report.warning(
                keys.location(.visibility), "android-visibility",
                "adb_n_visibility \(ValueFormat.quoted(visibility)) is not PRIVATE, PUBLIC or SECRET: Android uses PRIVATE")
        }
    }

    /// "true" or "false" in any case, as Java's `Boolean.parseBoolean` reads it. The exact
    /// lowercase words, by far the most common, need no lowercased copy.
    private func isBoolean(_ text: UnsafeRawBufferPointer) -> Bool {
        if ValueFormat.equals(text, "true") || ValueFormat.equals(text, "false") { return true }
        return ["true", "false"].contains(String(decoding: text, as: UTF8.self).lowercased())
    }

    private func checkTextLengths(_ keys: CustomKeys, _ report: inout CheckReport) {
        // One call per key: a table of (key, limit) pairs would be allocated on every run.
        checkTextLength(.title, Self.maxTitleCharacters, keys, &report)
        checkTextLength(.body, Self.maxBodyCharacters, keys, &report)
        checkTextLength(.bodyEx, Self.maxBodyCharacters, keys, &report)
    }

    private func checkTextLength(_ key: CustomKeys.Known, _ limit: Int, _ keys: CustomKeys, _ report: inout CheckReport) {
        guard let text = keys.text(key), let count = ValueFormat.characterCount(text, over: limit) else { return }
        report.warning(
            keys.location(key), "android-text-length",
            "\(key.name) is \(count) characters; Android's guideline is about \(limit): longer text is cut off on many screens")
    }

    // MARK: - Carousel

    private func checkCarousel(_ keys: CustomKeys, _ report: inout CheckReport) {
        if let layout = keys.text(.carouselLayout) {
            if !ValueFormat.isOne(of: Self.carouselLayouts, layout) {
                report.error(
                    keys.location(.carouselLayout), "android-carousel-layout",
                    "adb_car_layout \(ValueFormat.quoted(layout)) is not default or filmstrip: Android's carousel code builds no carousel from it")
            }
        } else if !keys.contains(.carouselLayout) {
            report.error(
                keys.location(.carouselLayout), "android-carousel-layout-missing",
                "adb_car_layout is required by Android's carousel code (the docs say optional): without it the notification is not shown")
        }

        let itemsLocation = keys.location(.items)
        guard keys.contains(.items) else {
            report.error(
                itemsLocation, "android-carousel-items-count",
                "a carousel needs adb_items with at least \(Self.minCarouselItems) images: without them Android falls back to a basic notification")
            return
        }
        // A non-string value is already an FCM error; Android never sees it.
        guard let text = keys.text(.items) else { return }
        guard let items = (try? JSONParser.parse(text))?.arrayValue else {
            report.error(
                itemsLocation, "android-carousel-items-json",
                "adb_items is not a JSON-encoded array of {img, txt, uri}: Android reads no items and falls back to a basic notification")
            return
        }

        // Android stops reading at the first item without an image: that item and all after it are lost.
        var usable: [JSONObject] = []
        for (index, item) in items.enumerated() {
            guard let object = item.objectValue, let image = object["img"]?.stringValue, !image.isEmpty else {
                let later = index + 1 < items.count ? " and the \(items.count - index - 1) after it are" : " is"
                report.error(
                    itemsLocation.index(index), "android-carousel-item-image",
                    "carousel item \(index) has no img: Android stops reading the items there, so it\(later) lost")
                break
            }
            usable.append(object)
        }
        if usable.count < Self.minCarouselItems {
            report.error(
                itemsLocation, "android-carousel-items-count",
                "the carousel has \(usable.count) item(s) with images; Android needs at least \(Self.minCarouselItems) and otherwise falls back to a basic notification")
        }
        if keys.text(.carouselMode).map({ ValueFormat.equals($0, "auto") }) ?? false {
            for (index, item) in usable.enumerated() where (item["uri"]?.stringValue ?? "").isEmpty {
                report.warning(
                    itemsLocation.index(index), "android-carousel-item-uri",
                    "carousel item \(index) has no uri: in an auto carousel Android does not fall back to adb_uri, so tapping it opens nothing")
            }
        }
    }

    // MARK: - Timer

    private func checkTimer(_ keys: CustomKeys, _ report: inout CheckReport) {
        if !keys.contains(.titleAlt) {
            report.error(
                keys.location(.titleAlt), "android-timer-alternate-title",
                "adb_title_alt is required by Android's timer code: without it the notification is not shown")
        }
        let durationLocation = keys.location(.timerDuration)
        guard keys.contains(.timerDuration) || keys.contains(.timerEnd) else {
            report.error(
                CheckLocation(payload: durationLocation.payload, intent: "$.timer"), "android-timer-missing",
                "a timer needs adb_tmr_dur or adb_tmr_end: without either Android treats it as expired and drops it")
            return
        }
        var duration: Int64?
        if let text = keys.text(.timerDuration) {
            duration = ValueFormat.integer(text).flatMap { $0 > 0 ? $0 : nil }
            if duration == nil {
                report.error(
                    durationLocation, "android-timer-value",
                    "adb_tmr_dur \(ValueFormat.quoted(text)) is not a positive whole number of seconds: Android cannot count down from it")
            }
        }
        var end: Int64?
        if let text = keys.text(.timerEnd) {
            end = ValueFormat.integer(text)
            if end == nil {
                report.error(
                    keys.location(.timerEnd), "android-timer-value",
                    "adb_tmr_end \(ValueFormat.quoted(text)) is not an epoch time in whole seconds: Android cannot count down to it")
            }
        }
        // adb_tmr_dur wins; only an end time alone can already be past.
        if duration == nil, let end, end <= now {
            report.warning(
                keys.location(.timerEnd), "android-timer-expired",
                "adb_tmr_end \(end) is at or before now (\(now)): Android drops the notification on arrival unless one with the same adb_tag is showing")
        }
    }
}
