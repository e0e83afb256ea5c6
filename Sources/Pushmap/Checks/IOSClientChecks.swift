internal import PushmapJSON

/// What iOS's code does with an APNS payload: AEPNotificationContent for the basic, car and timer
/// templates, the messaging SDK for media and plain payloads. Errors where the phone shows the
/// fallback (title and body only) or loses the content, warnings where it degrades.
enum IOSClientChecks {
    /// The category the app registers for the templates' content extension.
    static let templateCategory: StaticString = "AEPNotification"
    /// Keys the client reads as something other than a string.
    static let nonStringKeys = BuiltinTemplates.listKeys(on: .apns)
    static let mediaKeys: [CustomKeys.Known] = [.media, .mediaAlt]
    /// The alert fields every template reads.
    /// The alert's texts a template reads, each with the expanded key that stands in for it
    /// (Adobe's TemplatePayload: the expanded text, else the alert's; BasicPayloadTests
    /// testInit_when_expandedBody_unavailable, TimerPayloadTests testInit_without_expandedTitle).
    static let alertFields: [(field: StaticString, expanded: CustomKeys.Known)] = [("title", .titleEx), ("body", .bodyEx)]
    static let silentPushAlerts: [StaticString] = ["sound", "badge"]

    /// What the rules read: `aps` and the keys beside it.
    struct Payload {
        let aps: JSONObjectNode
        let keys: CustomKeys
        let template: UnsafeRawBufferPointer?
        /// The template it is read as.
        let scope: RuleScope
        let now: Int64
        /// The template guidelines: a timer leaves less room for text.
        var isTimer: Bool { scope == .timer }

        /// adb_items when it is a real array.
        var items: JSONArrayNode? { keys.value(.items)?.arrayValue }
    }

    static func run(_ aps: JSONObjectNode, _ keys: CustomKeys, now: Int64, into report: inout CheckReport) {
        let template = keys.text(.templateType)
        let scope = RuleScope.template(template)
        report.run(rules, on: Payload(aps: aps, keys: keys, template: template, scope: scope, now: now), scope: scope)
    }

    @RuleListBuilder static var rules: some RuleList<Payload> {
        StringValue.self

        // MARK: templates
        TemplateCategory.self
        TemplateMutableContent.self
        TemplateAlert.self
        TemplateType.self

        // MARK: carousel
        CarouselItems.self
        CarouselExpandedBody.self
        CarouselMode.self
        CarouselMediaHTTPS.self
        CarouselNoImage.self
        CarouselItemImage.self

        // MARK: timer
        TimerAlternateTitle.self
        TimerMissing.self
        TimerValue.self
        TimerExpired.self

        // MARK: plain
        MediaWithoutMutableContent.self
        SilentPushAlerts.self

        // MARK: every payload
        MediaHTTPS.self
        LinkURI.self
        ImageKey.self
        Color.self
        TextLength.self
        UnknownKey.self
    }

    struct StringValue: CheckRule {
        static var name: StaticString { "ios-string-value" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            let keys = payload.keys
            for index in keys.prints.indices where keys.prints[index].isAdobeKey {
                let entry = keys.entries[index]
                guard !entry.value.isString, !nonStringKeys.contains(where: { $0.equals(entry.key) }) else { continue }
                // A warning: where the key is needed, the rule that needs it reports it missing.
                report.warning(
                    keys.location(at: index),
                    "\(entry.name) is \(ValueFormat.withArticle(entry.value.typeName)): iOS reads adb_ values as strings only, so it counts as absent")
            }
        }
    }

    struct TemplateCategory: CheckRule {
        static var name: StaticString { "ios-template-category" }
        static var scope: RuleScope { .iOSTemplate }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            let value = payload.aps["category"]
            if let category = value?.utf8, ValueFormat.equals(category, templateCategory) { return }
            let effect = "templates need \"\(templateCategory)\": iOS does not run the template's content extension and shows the fallback"
            guard let value, value.utf8 == nil else {
                let found = value?.utf8.map { "is \(ValueFormat.quoted($0))" } ?? "is missing"
                report.error(APNSPayloadChecks.location("category"), "aps.category \(found) but \(effect)")
                return
            }
            // Of the wrong type: the walk's warning said so without the template's fallback.
            report.errorInstead(
                APNSPayloadChecks.location("category"), "aps.category must be a string, not \(ValueFormat.shown(value, literals: true)): \(effect)")
        }
    }

    struct TemplateMutableContent: CheckRule {
        static var name: StaticString { "ios-template-mutable-content" }
        static var scope: RuleScope { .iOSTemplate }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard !ValueFormat.isFlagSet(payload.aps["mutable-content"]) else { return }
            report.error(
                APNSPayloadChecks.location("mutable-content"),
                "aps.mutable-content is not 1: Adobe's template extension (AEPNotificationContent) draws only a push with mutable-content 1, so iOS shows the fallback")
        }
    }

    struct TemplateAlert: CheckRule {
        static var name: StaticString { "ios-template-alert" }
        static var scope: RuleScope { .iOSTemplate }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            // Worded only for a finding: every iOS template's translation runs this rule.
            var template: String { payload.template.map { String(decoding: $0, as: UTF8.self) } ?? "" }
            var noAlert: CheckMessage { "the \(template) template needs aps.alert with a title and a body: iOS templates read them from there and have none to show" }
            let whole = CheckLocation(payload: "$.aps.alert", intent: "$.title")
            guard let node = payload.aps["alert"] else {
                // No alert at all: one fault, said once (the expanded text cannot stand in for it).
                report.error(whole, noAlert)
                return
            }
            // The expanded text stands in for one of the alert's texts, not for the alert: with no
            // alert dictionary the banner has nothing to show.
            func standsIn(_ expanded: CustomKeys.Known) -> Bool { !(payload.keys.text(expanded)?.isEmpty ?? true) }
            guard let alert = node.objectValue else {
                // A string alert is the body, which iOS shows: the template then has no title, a
                // warning as a dictionary with a body alone is (the thirty-fourth audit, F1). Any
                // other value holds neither text: one fault, at the alert (the twenty-second
                // audit, N9: one error for each of title and body).
                if let text = node.utf8, !text.isEmpty {
                    if !standsIn(.titleEx) {
                        report.warning(
                            whole,
                            "aps.alert is a string, which iOS shows as the body: the \(template) template has no title to show (give aps.alert as {title, body}, or adb_title_ex)")
                    }
                    return
                }
                report.errorInstead(
                    whole,
                    "the \(template) template needs aps.alert as a dictionary with a title and a body, not \(ValueFormat.shown(node, literals: true)): iOS templates read them from there and have none to show")
                return
            }
            if APNSModel.alertShowsNothing(node), !standsIn(.titleEx), !standsIn(.bodyEx) {
                // Nothing in it to show (`{}`): one fault, at the alert, in place of the walk's
                // (the twenty-third audit, A5: three errors).
                report.errorInstead(whole, noAlert)
                return
            }
            for (field, expanded) in alertFields where !(alert[field]?.isString ?? false) && !standsIn(expanded) {
                guard let value = alert[field] else {
                    // The other text still shows: a warning (the thirty-fourth audit, F2: Adobe's
                    // timer test map of a body alone renders, TimerPayloadTests).
                    report.warning(
                        alertLocation(field),
                        "the \(template) template reads its \(field) from aps.alert.\(field) (or \(expanded.name)), which is missing: iOS shows the notification with no \(field)")
                    continue
                }
                // Of the wrong type: the walk's finding said so without the template's effect.
                report.errorInstead(
                    alertLocation(field),
                    "aps.alert.\(field) must be a string, not \(ValueFormat.shown(value, literals: true)): the \(template) template reads its \(field) from there and has none to show (or give \(expanded.name))")
            }
        }
    }

    struct TemplateType: CheckRule {
        static var name: StaticString { "ios-template-type" }
        static var scope: RuleScope { .notIOSTemplate }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let template = payload.template else { return }
            report.warning(
                payload.keys.location(.templateType),
                "iOS renders only the basic, car and timer templates: \(ValueFormat.quoted(template)) shows the fallback (title and body only)")
        }
    }

    struct CarouselItems: CheckRule {
        static var name: StaticString { "ios-carousel-items" }
        static var scope: RuleScope { .carousel }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard payload.items == nil else { return }
            let found = payload.keys.value(.items).map { "is \(ValueFormat.withArticle($0.typeName)), not a JSON array" } ?? "is missing"
            report.error(
                payload.keys.location(.items), "adb_items \(found): iOS's carousel needs a real array of {img, txt, uri} and shows the fallback")
        }
    }

    /// iOS's carousel shows the alert's body under an item without text, never adb_body_ex
    /// (adobe-templates.md 5, CarouselTemplateTest test_whenCarouselItemHasNoText).
    struct CarouselExpandedBody: CheckRule {
        static var name: StaticString { "ios-carousel-body-ex" }
        static var scope: RuleScope { .carousel }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard payload.keys.contains(.bodyEx) else { return }
            report.warning(payload.keys.location(.bodyEx), "adb_body_ex is not shown by iOS's carousel: an item without text shows the alert's body")
        }
    }

    /// iOS reads "manual" as manual and anything else as auto (client-rules.md), where Android
    /// reads anything but "auto" as manual: `"Manual"` is a manual carousel on one phone and an
    /// auto one on the other (the thirty-fourth audit, F8).
    struct CarouselMode: CheckRule {
        static var name: StaticString { "ios-carousel-mode" }
        static var scope: RuleScope { .carousel }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            ClientRules.carouselMode(payload.keys, .iOS, &report)
        }
    }

    struct CarouselMediaHTTPS: CheckRule {
        static var name: StaticString { "ios-media-https" }
        static var scope: RuleScope { .carousel }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let items = payload.items else { return }
            for (index, item) in items.enumerated() {
                guard let image = item["img"]?.utf8, !image.isEmpty, !ValueFormat.isHTTPS(image) else { continue }
                report.warning(
                    payload.keys.location(.items).index(index).member("img", intentKey: IntentOrigin.carouselItemFields["img"]),
                    "carousel item \(index)'s img \(ValueFormat.quoted(image)) is not https: iOS downloads only https images, so the item shows none")
            }
        }
    }

    struct CarouselNoImage: CheckRule {
        static var name: StaticString { "ios-carousel-no-image" }
        static var scope: RuleScope { .carousel }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let items = payload.items, !items.contains(where: hasImage) else { return }
            report.error(payload.keys.location(.items), "no carousel item has an img: iOS has nothing to show and shows the fallback")
        }
    }

    struct CarouselItemImage: CheckRule {
        static var name: StaticString { "ios-carousel-item-image" }
        static var scope: RuleScope { .carousel }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            // With no image at all, the fallback is the finding.
            guard let items = payload.items, items.contains(where: hasImage) else { return }
            for (index, item) in items.enumerated() where !hasImage(item) {
                report.warning(payload.keys.location(.items).index(index), "carousel item \(index) has no img: iOS drops it and keeps the others")
            }
        }
    }

    struct TimerAlternateTitle: CheckRule {
        static var name: StaticString { "ios-timer-alternate-title" }
        static var scope: RuleScope { .timer }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            ClientRules.timerAlternateTitle(payload.keys, .iOS, &report)
        }
    }

    struct TimerMissing: CheckRule {
        static var name: StaticString { "ios-timer-missing" }
        static var scope: RuleScope { .timer }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            ClientRules.timerMissing(payload.keys, .iOS, &report)
        }
    }

    struct TimerValue: CheckRule {
        static var name: StaticString { "ios-timer-value" }
        static var scope: RuleScope { .timer }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            ClientRules.timerValues(payload.keys, .iOS, &report)
        }
    }

    struct TimerExpired: CheckRule {
        static var name: StaticString { "ios-timer-expired" }
        static var scope: RuleScope { .timer }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            ClientRules.timerExpired(payload.keys, now: payload.now, .iOS, &report)
        }
    }

    struct MediaWithoutMutableContent: CheckRule {
        static var name: StaticString { "ios-media-without-mutable-content" }
        static var scope: RuleScope { .plain }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard payload.keys.contains(.media), !ValueFormat.isFlagSet(payload.aps["mutable-content"]) else { return }
            report.warning(
                payload.keys.location(.media),
                "adb_media needs aps.mutable-content 1: without it the service extension does not run and the image is not attached")
        }
    }

    struct SilentPushAlerts: CheckRule {
        static var name: StaticString { "ios-silent-push-alerts" }
        static var scope: RuleScope { .plain }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            let aps = payload.aps
            guard ValueFormat.isFlagSet(aps["content-available"]), aps["alert"] == nil else { return }
            for key in silentPushAlerts where aps[key] != nil {
                report.warning(
                    APNSPayloadChecks.location(ValueFormat.text(key)),
                    "a background push (content-available without alert) sets aps.\(key): background pushes should not alert; send a visible notification or drop it")
            }
        }
    }

    struct MediaHTTPS: CheckRule {
        static var name: StaticString { "ios-media-https" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            for key in mediaKeys {
                guard let url = payload.keys.text(key), !ValueFormat.isHTTPS(url) else { continue }
                report.warning(
                    payload.keys.location(key),
                    "\(key.name) \(ValueFormat.quoted(url)) is not an https URL: the SDK attaches media only for https, so no image shows")
            }
        }
    }

    struct LinkURI: CheckRule {
        static var name: StaticString { "ios-link-uri" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            ClientRules.linkURI(payload.keys, .iOS, &report)
        }
    }

    struct ImageKey: CheckRule {
        static var name: StaticString { "ios-image-key" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            ClientRules.imageKey(payload.keys, .iOS, &report)
        }
    }

    struct Color: CheckRule {
        static var name: StaticString { "ios-color" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            ClientRules.colours(payload.keys, .iOS, &report)
        }
    }

    struct UnknownKey: CheckRule {
        static var name: StaticString { "ios-unknown-key" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            ClientRules.unknownKeys(payload.keys, .iOS, &report)
            ClientRules.otherTemplateKeys(payload.keys, .iOS, scope: payload.scope, &report)
            // Adobe's iOS templates draw no buttons from adb_act: their actions are those of the
            // app's registered category (client-rules.md). `translate` warns of an intent's
            // buttons there; `validate` was silent on the key (the forty-fourth audit, Adobe F5).
            if payload.keys.contains(.actions), RuleScope.iOSTemplate.contains(payload.scope) {
                report.add(
                    .warning, rule: "ios-template-actions", payload.keys.location(.actions),
                    "adb_act is not read by Adobe's iOS templates: their buttons are the actions of the app's registered category, so iOS ignores it")
            }
        }
    }

    struct TextLength: CheckRule {
        static var name: StaticString { "ios-text-length" }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            let titleLimit = payload.isTimer ? 50 : 70
            let bodyLimit = payload.isTimer ? 450 : 600
            let suffix: StaticString = payload.isTimer ? " for a timer" : ""
            if let alert = payload.aps["alert"] {
                ClientRules.textLength(
                    alert.utf8, limit: bodyLimit, name: { "aps.alert" }, at: { CheckLocation(payload: "$.aps.alert", intent: "$.body") },
                    suffix: suffix, .iOS, &report)
                // Field by field: a table of (field, limit) pairs would be allocated on every run.
                ClientRules.textLength(
                    alert["title"]?.utf8, limit: titleLimit, name: { "aps.alert.title" }, at: { alertLocation("title") },
                    suffix: suffix, .iOS, &report)
                ClientRules.textLength(
                    alert["body"]?.utf8, limit: bodyLimit, name: { "aps.alert.body" }, at: { alertLocation("body") },
                    suffix: suffix, .iOS, &report)
            }
            ClientRules.textLength(of: .titleEx, limit: titleLimit, in: payload.keys, suffix: suffix, .iOS, &report)
            ClientRules.textLength(of: .bodyEx, limit: bodyLimit, in: payload.keys, suffix: suffix, .iOS, &report)
        }
    }

    private static func alertLocation(_ field: StaticString) -> CheckLocation {
        IntentOrigin.location(base: "$.aps.alert", key: ValueFormat.text(field), table: IntentOrigin.alertKeys)
    }

    private static func hasImage(_ item: JSONNode) -> Bool {
        !(item["img"]?.utf8?.isEmpty ?? true)
    }
}
