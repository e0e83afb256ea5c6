internal import PushmapJSON

/// What Android's code does with the FCM data map: the notificationbuilder library for templates
/// (`adb_template_type` present), the messaging SDK for plain payloads. Errors where the phone
/// drops the notification or loses part of it, warnings where it quietly degrades.
enum AndroidClientChecks {
    /// The types the notificationbuilder's enum has, NONE included (Adobe's own test data sends it).
    static let actionTypes: [StaticString] = ["DEEPLINK", "WEBURL", "DISMISS", "OPENAPP", "NONE"]
    static let displayPriorities: [StaticString] = ["PRIORITY_DEFAULT", "PRIORITY_MIN", "PRIORITY_LOW", "PRIORITY_HIGH", "PRIORITY_MAX"]
    static let visibilities: [StaticString] = ["PRIVATE", "PUBLIC", "SECRET"]
    static let carouselLayouts: [StaticString] = ["default", "filmstrip"]
    /// Keys every template type needs; the icon template has no title or body of its own.
    static let requiredKeys: [CustomKeys.Known] = [.version, .title, .body]
    static let iconRequiredKeys: [CustomKeys.Known] = [.version]
    /// Android's text guidelines: a one-line title, a description of a few lines.
    static let textLimits: [(key: CustomKeys.Known, limit: Int)] = [(.title, 35), (.body, 110), (.bodyEx, 110)]
    /// Android shows at most this many action buttons, remind later included.
    static let maxButtons = 3
    static let minCarouselItems = 3

    /// What the rules read: the data keys, and the JSON-encoded ones as parsed.
    struct Payload {
        let keys: CustomKeys
        let template: UnsafeRawBufferPointer?
        /// The template it is read as.
        let scope: RuleScope
        let now: Int64
        /// adb_act.
        let actions: EncodedJSON.Value
        /// adb_items, for a carousel only.
        let items: EncodedJSON.Value
        /// adb_items as Android reads them, when it is an array.
        let carousel: CarouselItems?

        init(keys: CustomKeys, template: UnsafeRawBufferPointer?, scope: RuleScope, now: Int64, actions: EncodedJSON.Value, items: EncodedJSON.Value) {
            self.keys = keys
            self.template = template
            self.scope = scope
            self.now = now
            self.actions = actions
            self.items = items
            carousel = items.node?.elements.map(CarouselItems.init)
        }
    }

    /// A carousel's items as Android reads them, worked out once for the carousel rules.
    struct CarouselItems {
        let elements: EncodedNode.Elements
        /// The items before the first without an image: Android stops reading there.
        let usable: Int
        /// The usable items whose image Android does not download (a drawable name, an app
        /// scheme), with their images: adobe-templates.md 3.5, a carousel needs 3 downloaded.
        let drawables: [(number: Int, image: UnsafeRawBufferPointer)]

        init(_ elements: EncodedNode.Elements) {
            self.elements = elements
            var usable = 0
            var drawables: [(number: Int, image: UnsafeRawBufferPointer)] = []
            for item in elements {
                guard item.isObject, let image = item["img"]?.utf8, !image.isEmpty else { break }
                if !AndroidTemplateRules.isURL(image) { drawables.append((usable, image)) }
                usable += 1
            }
            self.usable = usable
            self.drawables = drawables
        }
    }

    /// One element of adb_act, as Android reads it: whether it is an object, and its label,
    /// type and uri, read in one pass over its members.
    struct Action {
        let number: Int
        /// The payload path of the map adb_act is in.
        let base: StaticString
        private(set) var isObject = false
        /// Whether the label is a string that is not empty.
        private(set) var hasLabel = false
        private(set) var type: EncodedNode?
        /// Whether the uri is a string that is not empty.
        private(set) var hasURI = false

        init(_ node: EncodedNode, number: Int, base: StaticString) {
            self.number = number
            self.base = base
            guard let members = node.members else { return }
            isObject = true
            // Each key is there once (JSON with a repeated key is refused before).
            for (key, value) in members {
                if ValueFormat.equals(key, "label") {
                    hasLabel = AndroidClientChecks.isNonEmptyString(value)
                } else if ValueFormat.equals(key, "type") {
                    type = value
                } else if ValueFormat.equals(key, "uri") {
                    hasURI = AndroidClientChecks.isNonEmptyString(value)
                }
            }
        }

        /// Whether Android builds a button of it: an object with a label and a type.
        var isBuilt: Bool { isObject && hasLabel && type != nil }

        /// Built only for a finding.
        var location: CheckLocation { CustomKeys.location(.actions, in: base).index(number) }
    }

    static func run(_ keys: CustomKeys, now: Int64, into report: inout CheckReport) {
        let template = keys.text(.templateType)
        let scope = RuleScope.template(template)
        EncodedJSON.withValue(keys.text(.actions)) { actions in
            EncodedJSON.withValue(scope == .carousel ? keys.text(.items) : nil) { items in
                let payload = Payload(keys: keys, template: template, scope: scope, now: now, actions: actions, items: items)
                report.run(rules, on: payload, scope: scope)
            }
        }
    }

    @RuleListBuilder static var rules: some RuleList<Payload> {
        // MARK: every payload
        RequiredKey.self
        TemplateType.self
        AdobePush.self
        LinkType.self
        OpenAppURI.self
        LinkURI.self
        ImageKey.self
        ActionsJSON.self
        ActionCount.self
        RemindLaterPast.self
        Color.self
        BadgeCount.self
        Sticky.self
        DisplayPriority.self
        Visibility.self
        TextLength.self
        UnknownKey.self

        // MARK: carousel
        CarouselLayout.self
        CarouselMode.self
        CarouselLayoutMissing.self
        CarouselItemsJSON.self
        CarouselItemImage.self
        CarouselItemsCount.self
        CarouselItemURI.self

        // MARK: timer
        TimerAlternateTitle.self
        TimerMissing.self
        TimerValue.self
        TimerExpired.self

        // MARK: input, zb, cat, rate, icon; Campaign Classic (Checks/Templates)
        AndroidOnlyTemplates.self
        CampaignClassicRule.self
    }

    struct RequiredKey: CheckRule {
        static var name: StaticString { "android-required-key" }
        static var scope: RuleScope { .anyTemplate }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let template = payload.template else { return }
            // The icon template has no title or body of its own; every other type throws without them.
            let required = ValueFormat.equals(template, "icon") ? iconRequiredKeys : requiredKeys
            for key in required where !payload.keys.contains(key) {
                // An empty type is named as such, not as a blank between two words; the name is
                // made only for a finding.
                // A type Android does not know is drawn by its basic code (TemplateType, below):
                // that is the code that needs the key (the thirty-fourth audit, F9: "Android's ZB
                // template code", a template there is none of).
                let written = String(decoding: template, as: UTF8.self)
                let named = template.isEmpty ? "template code (adb_template_type is empty)"
                    : BuiltinTemplates.androidTypes.contains(written) ? "\(written) template code"
                    : "basic template code, which draws the type \(ValueFormat.quoted(template)) it does not know"
                report.error(payload.keys.location(key), "\(key.name) is required by Android's \(named): without it the notification is not shown")
            }
        }
    }

    /// A type Android's notificationbuilder does not know (its match is exact and case-sensitive)
    /// is drawn as a basic notification (adobe-templates.md 1): shown, but not as the template
    /// meant, so a warning, as iOS's fallback is (the twenty-fifth audit, F2).
    struct TemplateType: CheckRule {
        static var name: StaticString { "android-template-type" }
        static var scope: RuleScope { .otherTemplate }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let template = payload.template else { return }
            let written = String(decoding: template, as: UTF8.self)
            let known = BuiltinTemplates.androidTypes.sorted()
            // A template's name for its type ("carousel" for car), else a near miss ("BASIC").
            let meant = BuiltinTemplates.all.first { $0.name == written.lowercased() && $0.type != nil }?.type
                ?? Suggestion.nearest(to: written, among: known)
            report.warning(
                payload.keys.location(.templateType),
                "adb_template_type \(ValueFormat.quoted(template)) is not one of Android's template types (\(known.joined(separator: ", "))): Android draws it as a basic notification\(meant.map { " (did you mean \($0)?)" } ?? "")")
        }
    }

    /// A payload without adb_template_type, outside Campaign Classic (whose rule holds it to
    /// basic's keys), with a body to show: Adobe's messaging SDK takes a message as its push only
    /// with adb_title (or _xdm), so the body never shows. (Without a body either it is a data
    /// message, a silent push's Android side, which shows nothing by design.)
    struct AdobePush: CheckRule {
        static var name: StaticString { "android-adobe-push" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            let keys = payload.keys
            guard payload.template == nil, keys.contains(.body), !keys.contains(.title), !CampaignClassicRule.hasTrackingKey(keys),
                  !keys.entries.contains(where: { ValueFormat.equals($0.key, "_xdm") }) else { return }
            report.error(
                keys.location(.title),
                "adb_title is missing: Adobe's messaging SDK takes a message as its push only with adb_title (or _xdm), so the notification is not shown")
        }
    }

    struct LinkType: CheckRule {
        static var name: StaticString { "android-link-type" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let type = payload.keys.text(.linkType), !ValueFormat.isOne(of: actionTypes, type) else { return }
            let effect: StaticString = payload.template == nil
                ? "the messaging SDK does not act on it, so a tap only opens the app"
                : "Android's template code throws and the notification is not shown"
            report.error(
                payload.keys.location(.linkType),
                "adb_a_type \(ValueFormat.quoted(type)) is not exactly DEEPLINK, WEBURL, DISMISS, OPENAPP or NONE: \(effect)")
        }
    }

    /// Android opens adb_uri on a tap whatever adb_a_type says but DISMISS: an OPENAPP link
    /// with a uri opens the uri, not the app. A uri with no type is opened too, so it draws no
    /// finding (the thirty-fourth audit, F1: a warning that it might only open the app fired on
    /// Adobe's own carousel and timer test maps, which render and open it).
    /// A uri the link type does not open as written. OPENAPP: the uri opens, not the app (an
    /// error: the wrong thing). DISMISS: a tap dismisses and opens nothing, uri or not
    /// (client-rules.md; a warning under `android-dismiss-uri`, found by the same look-ups: the
    /// forty-fourth audit, Adobe F4).
    struct OpenAppURI: CheckRule {
        static var name: StaticString { "android-open-app-uri" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let type = payload.keys.text(.linkType), let uri = payload.keys.text(.uri), !uri.isEmpty else { return }
            if ValueFormat.equals(type, "OPENAPP") {
                report.error(
                    payload.keys.location(.uri),
                    "adb_a_type is OPENAPP but adb_uri is \(ValueFormat.quoted(uri)): Android opens the uri on a tap, not the app (send no adb_uri to open the app)")
            } else if ValueFormat.equals(type, "DISMISS") {
                report.add(
                    .warning, rule: "android-dismiss-uri", payload.keys.location(.uri),
                    "adb_a_type is DISMISS, so Android does not open adb_uri \(ValueFormat.quoted(uri)) on a tap: it dismisses the notification (leave the uri out, or give another type)")
            }
        }
    }

    struct LinkURI: CheckRule {
        static var name: StaticString { "android-link-uri" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            ClientRules.linkURI(payload.keys, .android, &report)
        }
    }

    struct ImageKey: CheckRule {
        static var name: StaticString { "android-image-key" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            ClientRules.imageKey(payload.keys, .android, &report)
        }
    }

    struct ActionsJSON: CheckRule {
        static var name: StaticString { "android-actions-json" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            if case .absent = payload.actions { return }
            guard payload.actions.node?.elements == nil else { return }
            report.warning(
                payload.keys.location(.actions),
                "adb_act is not a JSON-encoded array of {label, uri, type}: Android cannot read it and shows no buttons at all")
        }
    }

    struct ActionCount: CheckRule {
        static var name: StaticString { "android-action-count" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let nodes = payload.actions.node?.elements else { return }
            let base = payload.keys.base(of: .actions)
            let remindLater = payload.keys.contains(.remindText)
            let allowed = remindLater ? maxButtons - 1 : maxButtons
            // Only the actions Android builds count: it skips the ones ActionIncomplete names.
            // Counted only when there are more than fit, and read again below rather than kept:
            // an array of them cost a line of the basic seed 600 instructions.
            var built = 0
            if nodes.count > allowed {
                for (number, node) in nodes.enumerated() where Action(node, number: number, base: base).isBuilt { built += 1 }
            }
            if built > allowed {
                let reason = remindLater ? "with the remind-later button (adb_rem_txt) at most \(allowed) fit" : "Android shows at most \(allowed)"
                let counted = built == nodes.count ? "\(built) actions" : "\(built) actions Android builds"
                report.warning(payload.keys.location(.actions), "adb_act has \(counted) and \(reason): the rest are lost")
            }
            // Then each action, action by action.
            for (number, node) in nodes.enumerated() {
                report.run(actionRules, on: Action(node, number: number, base: base))
            }
        }
    }

    /// Remind later's time: past, or none. The second is a finding of its own
    /// (`android-remind-later-time`), found by the same look-ups.
    struct RemindLaterPast: CheckRule {
        static var name: StaticString { "android-remind-later-past" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            let keys = payload.keys
            // adb_rem_sec wins when it is positive; then adb_rem_ts is not used.
            if let seconds = keys.text(.remindAfter).flatMap(ValueFormat.integer), seconds > 0 { return }
            guard let at = keys.text(.remindAt).flatMap(ValueFormat.integer) else {
                noTime(payload, &report)
                return
            }
            guard at <= payload.now else { return }
            report.warning(
                keys.location(.remindAt),
                "adb_rem_ts \(at) is at or before now (\(payload.now)): tapping remind later cancels the notification instead of scheduling it again")
        }

        /// Remind later needs `adb_rem_txt` and a time: `adb_rem_sec` over 0, or `adb_rem_ts`
        /// (client-rules.md; the "why" of Adobe's test payload basic-05). With the label alone
        /// the notification shows without the button (the forty-fourth audit, Adobe F3). Only
        /// basic's builder and the legacy one (which a payload with no type, or an unknown type,
        /// may reach) add the button (adobe-templates.md 3.4).
        private static func noTime(_ payload: Payload, _ report: inout CheckReport) {
            let keys = payload.keys
            guard keys.contains(.remindText), payload.scope.isSubset(of: [.plain, .basic, .otherTemplate]) else { return }
            // A time that is no string is the data-string rule's one finding (FCM refuses it).
            if keys.contains(.remindAt) && keys.text(.remindAt) == nil || keys.contains(.remindAfter) && keys.text(.remindAfter) == nil { return }
            let effect = "Android shows the notification without the remind-later button"
            // A time given but unreadable is where the fix goes.
            for (key, meaning) in [(CustomKeys.Known.remindAt, "whole epoch seconds"), (.remindAfter, "a whole number of seconds")] {
                if let text = keys.text(key), ValueFormat.integer(text) == nil {
                    report.add(
                        .warning, rule: "android-remind-later-time", keys.location(key),
                        "\(key.name) \(ValueFormat.quoted(text)) is not \(meaning), and adb_rem_txt has no other time: \(effect)")
                    return
                }
            }
            report.add(
                .warning, rule: "android-remind-later-time", keys.location(.remindText),
                "adb_rem_txt has no time to remind at (adb_rem_sec over 0, or adb_rem_ts): \(effect)")
        }
    }

    struct Color: CheckRule {
        static var name: StaticString { "android-color" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            ClientRules.colours(payload.keys, .android, &report)
        }
    }

    struct UnknownKey: CheckRule {
        static var name: StaticString { "android-unknown-key" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            ClientRules.unknownKeys(payload.keys, .android, &report)
            ClientRules.otherTemplateKeys(payload.keys, .android, scope: payload.scope, &report)
        }
    }

    struct BadgeCount: CheckRule {
        static var name: StaticString { "android-badge-count" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let count = payload.keys.text(.badgeCount) else { return }
            guard let number = ValueFormat.integer(count) else {
                return report.warning(payload.keys.location(.badgeCount), "adb_n_count \(ValueFormat.quoted(count)) is not an integer: Android uses 0")
            }
            // Adobe's messaging SDK reads it with Integer.parseInt, which refuses what int32 cannot
            // hold (the forty-sixth audit, cli F4).
            guard number > Int64(Int32.max) || number < Int64(Int32.min) else { return }
            report.warning(
                payload.keys.location(.badgeCount), "adb_n_count \(number) is past Android's 32-bit integer (2147483647 at most): Android uses 0")
        }
    }

    struct Sticky: CheckRule {
        static var name: StaticString { "android-sticky" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let sticky = payload.keys.text(.sticky), !isBoolean(sticky) else { return }
            report.warning(
                payload.keys.location(.sticky), "adb_sticky \(ValueFormat.quoted(sticky)) is not \"true\" or \"false\": Android treats it as false")
        }
    }

    struct DisplayPriority: CheckRule {
        static var name: StaticString { "android-display-priority" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let priority = payload.keys.text(.displayPriority), !ValueFormat.isOne(of: displayPriorities, priority) else { return }
            report.warning(
                payload.keys.location(.displayPriority),
                "adb_n_priority \(ValueFormat.quoted(priority)) is not PRIORITY_DEFAULT, _MIN, _LOW, _HIGH or _MAX: Android uses PRIORITY_DEFAULT")
        }
    }

    struct Visibility: CheckRule {
        static var name: StaticString { "android-visibility" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let visibility = payload.keys.text(.visibility), !ValueFormat.isOne(of: visibilities, visibility) else { return }
            report.warning(
                payload.keys.location(.visibility),
                "adb_n_visibility \(ValueFormat.quoted(visibility)) is not PRIVATE, PUBLIC or SECRET: Android uses PRIVATE")
        }
    }

    struct TextLength: CheckRule {
        static var name: StaticString { "android-text-length" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            for (key, limit) in textLimits {
                ClientRules.textLength(of: key, limit: limit, in: payload.keys, .android, &report)
            }
        }
    }

    struct CarouselLayout: CheckRule {
        static var name: StaticString { "android-carousel-layout" }
        static var scope: RuleScope { .carousel }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let layout = payload.keys.text(.carouselLayout), !ValueFormat.isOne(of: carouselLayouts, layout) else { return }
            report.error(
                payload.keys.location(.carouselLayout),
                "adb_car_layout \(ValueFormat.quoted(layout)) is not default or filmstrip: Android's carousel code builds no carousel from it")
        }
    }

    /// "auto" (or no key) is auto; Android reads any other value as manual (client-rules.md).
    struct CarouselMode: CheckRule {
        static var name: StaticString { "android-carousel-mode" }
        static var scope: RuleScope { .carousel }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            ClientRules.carouselMode(payload.keys, .android, &report)
        }
    }

    struct CarouselLayoutMissing: CheckRule {
        static var name: StaticString { "android-carousel-layout-missing" }
        static var scope: RuleScope { .carousel }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard !payload.keys.contains(.carouselLayout) else { return }
            report.error(
                payload.keys.location(.carouselLayout),
                "adb_car_layout is required by Android's carousel code (the docs say optional): without it the notification is not shown")
        }
    }

    struct CarouselItemsJSON: CheckRule {
        static var name: StaticString { "android-carousel-items-json" }
        static var scope: RuleScope { .carousel }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            // A non-string value is already an FCM error; Android never sees it.
            if case .absent = payload.items { return }
            guard payload.items.node?.elements == nil else { return }
            report.error(
                payload.keys.location(.items),
                "adb_items is not a JSON-encoded array of {img, txt, uri}: Android reads no items and falls back to a basic notification")
        }
    }

    struct CarouselItemImage: CheckRule {
        static var name: StaticString { "android-carousel-item-image" }
        static var scope: RuleScope { .carousel }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let carousel = payload.carousel else { return }
            let items = carousel.elements
            // Android stops reading at the first item without an image: that item and all after it are lost.
            let index = carousel.usable
            if index < items.count {
                let later = index + 1 < items.count ? " and the \(items.count - index - 1) after it are" : " is"
                let message: CheckMessage = "carousel item \(index) has no img: Android stops reading the items there, so it\(later) lost"
                // With enough images before it, the carousel shows without them: a warning (the
                // thirty-fourth audit, F5), as for an image that is no URL below.
                if index - carousel.drawables.count >= minCarouselItems {
                    report.warning(payload.keys.location(.items).index(index), message)
                } else {
                    report.error(payload.keys.location(.items).index(index), message)
                }
            }
            // An image that is no URL is not downloaded, and the carousel leaves its item out;
            // with too few left, the count's error says so instead.
            guard index - carousel.drawables.count >= minCarouselItems else { return }
            for (number, image) in carousel.drawables {
                report.warning(
                    payload.keys.location(.items).index(number).member("img", intentKey: "image"),
                    "carousel item \(number)'s img \(ValueFormat.quoted(image)) is not a URL: Android downloads only URLs (no drawable names), so the carousel leaves the item out")
            }
        }
    }

    struct CarouselItemsCount: CheckRule {
        static var name: StaticString { "android-carousel-items-count" }
        static var scope: RuleScope { .carousel }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard payload.keys.contains(.items) else {
                report.error(
                    payload.keys.location(.items),
                    // The template requires the key: without it the carousel throws and nothing
                    // shows (Adobe's car-04; the thirty-fourth audit, F9). Present with too few
                    // images, it falls back to basic (below).
                    "a carousel needs adb_items, a list of at least \(minCarouselItems) images: without the key Android's carousel code fails and the notification is not shown")
                return
            }
            guard let drawables = payload.carousel?.drawables, let usable = payload.carousel?.usable else { return }
            let downloaded = usable - drawables.count
            guard downloaded < minCarouselItems else { return }
            let unread = drawables.isEmpty ? "" : " (\(drawables.map { "item \($0.number)'s img is not a URL" }.joined(separator: ", ")): Android downloads only URLs)"
            report.error(
                payload.keys.location(.items),
                "the carousel has \(downloaded) item(s) with images Android can download\(unread); it needs at least \(minCarouselItems) and otherwise falls back to a basic notification")
        }
    }

    struct CarouselItemURI: CheckRule {
        static var name: StaticString { "android-carousel-item-uri" }
        static var scope: RuleScope { .carousel }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            // Auto is the default: an absent adb_car_mode is auto, any value but "auto" manual.
            guard let carousel = payload.carousel,
                  payload.keys.text(.carouselMode).map({ ValueFormat.equals($0, "auto") }) ?? !payload.keys.contains(.carouselMode) else { return }
            // An item whose image is not downloaded is left out: its image is the one finding.
            let leftOut = Set(carousel.drawables.map(\.number))
            for (index, item) in carousel.elements.prefix(carousel.usable).enumerated() where !leftOut.contains(index) && (item["uri"]?.utf8?.isEmpty ?? true) {
                report.warning(
                    payload.keys.location(.items).index(index).member("uri", intentKey: "uri"),
                    "carousel item \(index) has no uri: in an auto carousel Android does not fall back to adb_uri, so tapping it opens nothing; give the item a uri")
            }
        }
    }

    struct TimerAlternateTitle: CheckRule {
        static var name: StaticString { "android-timer-alternate-title" }
        static var scope: RuleScope { .timer }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            ClientRules.timerAlternateTitle(payload.keys, .android, &report)
        }
    }

    struct TimerMissing: CheckRule {
        static var name: StaticString { "android-timer-missing" }
        static var scope: RuleScope { .timer }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            ClientRules.timerMissing(payload.keys, .android, &report)
        }
    }

    struct TimerValue: CheckRule {
        static var name: StaticString { "android-timer-value" }
        static var scope: RuleScope { .timer }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            ClientRules.timerValues(payload.keys, .android, &report)
        }
    }

    struct TimerExpired: CheckRule {
        static var name: StaticString { "android-timer-expired" }
        static var scope: RuleScope { .timer }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            ClientRules.timerExpired(payload.keys, now: payload.now, .android, &report)
        }
    }

    /// The rules for each action of adb_act, action by action: the label and type the button
    /// needs, then what the type needs.
    @RuleListBuilder static var actionRules: some RuleList<Action> {
        ActionIncomplete.self
        ActionType.self
        ActionURI.self
    }

    struct ActionIncomplete: CheckRule {
        static var name: StaticString { "android-action-incomplete" }

        static func check(_ action: Action, _ report: inout CheckReport) {
            guard action.isObject else {
                report.warning(action.location, "action \(action.number) is not an object {label, uri, type}: Android skips it")
                return
            }
            // One finding for one skipped button, whatever it lacks.
            guard !action.hasLabel || action.type == nil else { return }
            let lacks = action.hasLabel ? "type" : action.type == nil ? "label or type" : "label"
            report.warning(action.location, "action \(action.number) has no \(lacks): Android skips the button")
        }
    }

    struct ActionType: CheckRule {
        static var name: StaticString { "android-action-type" }

        static func check(_ action: Action, _ report: inout CheckReport) {
            guard let type = action.type, !(type.utf8.map { ValueFormat.isOne(of: actionTypes, $0) } ?? false) else { return }
            report.warning(
                action.location.member("type", intentKey: IntentOrigin.buttonFields["type"]),
                "action \(action.number) has type \(type.utf8.map(ValueFormat.quoted) ?? ValueFormat.withArticle(type.typeName)), not DEEPLINK, WEBURL, DISMISS, OPENAPP or NONE: Android keeps the button but it does nothing")
        }
    }

    struct ActionURI: CheckRule {
        static var name: StaticString { "android-action-uri" }

        static func check(_ action: Action, _ report: inout CheckReport) {
            guard let type = action.type?.utf8, ValueFormat.equals(type, "WEBURL") || ValueFormat.equals(type, "DEEPLINK"), !action.hasURI else { return }
            report.warning(
                action.location, "action \(action.number) is \(String(decoding: type, as: UTF8.self)) but has no uri: the button opens nothing")
        }
    }

    fileprivate static func isNonEmptyString(_ value: EncodedNode?) -> Bool {
        !(value?.utf8?.isEmpty ?? true)
    }

    /// "true" or "false" in any case, as Java's `Boolean.parseBoolean` reads it. The exact
    /// lowercase words, by far the most common, need no lowercased copy.
    private static func isBoolean(_ text: UnsafeRawBufferPointer) -> Bool {
        if ValueFormat.equals(text, "true") || ValueFormat.equals(text, "false") { return true }
        return ["true", "false"].contains(String(decoding: text, as: UTF8.self).lowercased())
    }
}
