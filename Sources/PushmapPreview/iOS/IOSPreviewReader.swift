@_spi(Tools) internal import Pushmap
package import PushmapJSON

/// Draws an APNS payload as iOS shows it: the system banner, then, for the basic, car and timer
/// templates with the "AEPNotification" category and mutable-content 1, Adobe's
/// AEPNotificationContent extension; for anything else the system's own expanded view, which
/// for a template is the fallback (title and body only).
package struct IOSPreviewReader {
    /// The time the notification arrives, in epoch seconds (for timers).
    let now: Int64

    package init(now: Int64) { self.now = now }

    /// The template types Adobe's content extension draws (from the descriptions).
    static let templates = BuiltinTemplates.iOSTypes
    /// Keys only Android reads.
    static let androidKeys: Set<String> = [
        AdobeKey.image.name, AdobeKey.imageAlt.name, AdobeKey.bodyExAlt.name, AdobeKey.channel.name, AdobeKey.icon.name, AdobeKey.smallIcon.name, AdobeKey.largeIcon.name,
        AdobeKey.iconColour.name, AdobeKey.displayPriority.name, AdobeKey.visibility.name, AdobeKey.badgeCount.name, AdobeKey.sound.name, AdobeKey.tag.name, AdobeKey.sticky.name, AdobeKey.ticker.name,
        AdobeKey.remindText.name, AdobeKey.remindAt.name, AdobeKey.remindAfter.name, AdobeKey.carouselLayout.name,
    ]

    /// What the payload asks of iOS, read once.
    private struct Reading {
        let payload: JSONValue
        let aps: JSONValue?
        let title: String?
        let subtitle: String?
        let body: String?
        /// `adb_template_type` when it is a string (iOS reads adb_ values as strings only).
        let template: String?
        let category: String?
        let mutable: Bool
        /// Why the content extension does not run for a template; nil when it runs or there is no template.
        let extensionRefusal: String?

        init(_ payload: JSONValue) {
            self.payload = payload
            aps = payload["aps"]
            let alert = aps?["alert"]
            title = alert?["title"]?.stringValue
            subtitle = alert?["subtitle"]?.stringValue
            body = alert?.stringValue ?? alert?["body"]?.stringValue
            template = payload[AdobeKey.templateType.name]?.stringValue
            category = aps?["category"]?.stringValue
            mutable = aps?["mutable-content"]?.integerValue == 1
            if let template {
                if !IOSPreviewReader.templates.contains(template) {
                    extensionRefusal = "iOS has no \"\(template)\" template (only basic, car and timer)"
                } else if category != "AEPNotification" {
                    extensionRefusal = "aps.category is not \"AEPNotification\", so Adobe's content extension does not run"
                } else if !mutable {
                    extensionRefusal = "aps.mutable-content is not 1, so Adobe's content extension does not run"
                } else {
                    extensionRefusal = nil
                }
            } else {
                extensionRefusal = nil
            }
        }

        func text(_ key: String) -> String? { payload[key]?.stringValue }
        var runsExtension: Bool { template != nil && extensionRefusal == nil }
    }

    package func read(_ payload: JSONValue) -> PlatformPreview {
        let reading = Reading(payload)
        let guideline = reading.template == "timer" ? TextGuideline.iOSTimer : TextGuideline.iOS
        var banner = NotificationView(id: "collapsed", label: "Banner (collapsed)")
        banner.title = guideline.title(reading.title)
        banner.subtitle = guideline.title(reading.subtitle)
        banner.body = guideline.body(reading.body)
        // The messaging SDK's service extension attaches https media; the banner shows its thumbnail.
        if let media = Self.https(reading.text(AdobeKey.media.name)), reading.mutable { banner.thumbnail = media }

        var preview: PlatformPreview
        if reading.template == nil {
            preview = PlatformPreview(platform: .apns, drawnBy: "iOS's own notification view", layout: "plain")
            var expanded = banner
            expanded.id = "expanded"
            expanded.label = "Expanded (long press)"
            expanded.image = banner.thumbnail
            expanded.thumbnail = nil
            preview.views = [banner, expanded]
            if reading.aps?["alert"] == nil { preview.notes.append("No alert: a silent push, nothing is drawn.") ; preview.views = [] }
        } else if let refusal = reading.extensionRefusal {
            preview = PlatformPreview(platform: .apns, drawnBy: "iOS's own notification view (fallback)", layout: "ios-default")
            preview.notes.append("Falls back: \(refusal); iOS shows the title and body only.")
            preview.views = [banner, fallback(banner, refusal)]
        } else {
            preview = PlatformPreview(
                platform: .apns, drawnBy: "Adobe's AEPNotificationContent, \(reading.template ?? "basic") template", layout: reading.template ?? "basic")
            templateViews(reading, banner: banner, guideline: guideline, into: &preview)
        }
        preview.keys = keys(reading)
        return preview
    }

    /// The timer's seconds left at arrival: adb_tmr_dur, else adb_tmr_end less now; nil with neither.
    private func remainingSeconds(_ reading: Reading) -> Int64? {
        PayloadValues.seconds(reading.text(AdobeKey.timerDuration.name)) ?? PayloadValues.seconds(reading.text(AdobeKey.timerEnd.name)).map { $0 - now }
    }

    /// An image URL iOS loads: https only, as the ios-media-https warning says (the thirty-sixth
    /// audit, F11: an http image was drawn in the expanded view the warning said showed none).
    private static func https(_ url: String?) -> String? {
        guard let url, url.lowercased().hasPrefix("https://") else { return nil }
        return url
    }

    private func fallback(_ banner: NotificationView, _ reason: String) -> NotificationView {
        var view = NotificationView(id: "expanded", label: "Expanded (fallback)")
        view.title = banner.title
        view.body = banner.body
        view.fallback = "ios-default"
        view.fallbackReason = reason
        return view
    }

    private func templateViews(_ reading: Reading, banner: NotificationView, guideline: TextGuideline, into preview: inout PlatformPreview) {
        var expanded = NotificationView(id: "expanded", label: "Expanded (content extension)")
        expanded.title = guideline.title(reading.text(AdobeKey.titleEx.name) ?? reading.title)
        expanded.body = guideline.body(reading.text(AdobeKey.bodyEx.name) ?? reading.body)
        expanded.image = Self.https(reading.text(AdobeKey.media.name))
        expanded.colors.title = reading.text(AdobeKey.titleColour.name).flatMap(PreviewColor.iOS)
        expanded.colors.body = reading.text(AdobeKey.bodyColour.name).flatMap(PreviewColor.iOS)
        expanded.colors.background = reading.text(AdobeKey.backgroundColour.name).flatMap(PreviewColor.iOS)
        switch reading.template {
        case "car":
            guard let items = reading.payload[AdobeKey.items.name]?.arrayValue else {
                let reason = "adb_items is not a JSON array"
                preview.layout = "ios-default"
                preview.notes.append("Falls back: \(reason); iOS shows the title and body only.")
                preview.views = [banner, fallback(banner, reason)]
                return
            }
            // Items without an image are skipped; one without text shows the alert body.
            let kept: [NotificationView.Carousel.Item] = items.compactMap { item in
                guard let image = item["img"]?.stringValue else { return nil }
                // An http image iOS does not load: the item shows none (the thirty-eighth audit, F1).
                return .init(image: Self.https(image), caption: guideline.body(item["txt"]?.stringValue ?? reading.body))
            }
            guard !kept.isEmpty else {
                let reason = "no carousel item has an image"
                preview.layout = "ios-default"
                preview.notes.append("Falls back: \(reason); iOS shows the title and body only.")
                preview.views = [banner, fallback(banner, reason)]
                return
            }
            let mode = reading.text(AdobeKey.carouselMode.name) == "manual" ? "manual" : "auto"
            preview.views = [banner]
            expanded.image = nil
            for index in kept.indices {
                var view = expanded
                view.id = "expanded-item-\(index + 1)"
                view.label = "Expanded, item \(index + 1) of \(kept.count) (\(mode == "auto" ? "turns by itself" : "swipe to turn"))"
                view.carousel = NotificationView.Carousel(items: kept, current: index, mode: mode, layout: "ios")
                view.body = nil
                preview.views.append(view)
            }
        case "timer":
            expanded.colors.timer = reading.text(AdobeKey.timerColour.name).flatMap(PreviewColor.iOS)
            let remaining = remainingSeconds(reading)
            guard let remaining, let alternate = reading.text(AdobeKey.titleAlt.name) else {
                let reason = remaining == nil ? "neither adb_tmr_dur nor adb_tmr_end is a number in a string" : "adb_title_alt is missing"
                preview.layout = "ios-default"
                preview.notes.append("Falls back: \(reason); iOS shows the title and body only.")
                preview.views = [banner, fallback(banner, reason)]
                return
            }
            var expired = expanded
            expired.id = "expired-expanded"
            expired.label = "Expanded, after expiry"
            expired.title = guideline.title(alternate)
            // Without adb_body_alt the expired view has no body (no fall-back to the running text),
            // and no timer label; the image stays without adb_media_alt (Adobe's UI tests,
            // TimerTemplateTest test_whenAltBodyNotAvailable and test_happy).
            expired.body = reading.text(AdobeKey.bodyAlt.name).flatMap { guideline.body($0) }
            expired.image = Self.https(reading.text(AdobeKey.mediaAlt.name) ?? reading.text(AdobeKey.media.name))
            expired.timer = nil
            if remaining > 0 {
                expanded.timer = PayloadValues.countdown(remaining)
                expanded.label = "Expanded, before expiry"
                preview.views = [banner, expanded, expired]
            } else {
                preview.notes.append("The timer has run out when the notification arrives: iOS shows the expired content.")
                preview.views = [banner, expired]
            }
        default:
            preview.views = [banner, expanded]
        }
    }

    // MARK: - Keys

    private func keys(_ reading: Reading) -> [KeyReading] {
        var readings: [KeyReading] = []
        guard let object = reading.payload.objectValue else { return [] }
        for (key, value) in object.members.sorted(by: { $0.key < $1.key }) {
            if key == "aps", let aps = value.objectValue {
                for (inner, innerValue) in aps.members.sorted(by: { $0.key < $1.key }) {
                    if inner == "alert", let alert = innerValue.objectValue {
                        for (field, fieldValue) in alert.members.sorted(by: { $0.key < $1.key }) {
                            let (verdict, reason) = alertVerdict(field, reading)
                            readings.append(KeyReading(key: "aps.alert.\(field)", value: PayloadValues.display(fieldValue), verdict: verdict, reason: reason))
                        }
                        continue
                    }
                    let (verdict, reason) = apsVerdict(inner, innerValue, reading)
                    readings.append(KeyReading(key: "aps.\(inner)", value: PayloadValues.display(innerValue), verdict: verdict, reason: reason))
                }
                continue
            }
            let (verdict, reason) = keyVerdict(key, value, reading)
            readings.append(KeyReading(key: key, value: PayloadValues.display(value), verdict: verdict, reason: reason))
        }
        return readings
    }

    private func alertVerdict(_ field: String, _ reading: Reading) -> (KeyReading.Verdict, String) {
        let expanded = reading.runsExtension
        switch field {
        case "title":
            return (.shows, expanded && reading.text(AdobeKey.titleEx.name) == nil ? "title, banner and expanded" : "title of the banner")
        case "subtitle": return (.shows, "subtitle of the banner")
        case "body":
            if reading.template == "car", expanded { return (.shows, "body of the banner; caption of an item without txt") }
            return (.shows, expanded && reading.text(AdobeKey.bodyEx.name) == nil ? "body, banner and expanded" : "body of the banner")
        default: return (.uses, "read by iOS for the alert")
        }
    }

    private func apsVerdict(_ key: String, _ value: JSONValue, _ reading: Reading) -> (KeyReading.Verdict, String) {
        switch key {
        case "alert": return (.shows, "body of the banner")
        case "category":
            guard value.stringValue == "AEPNotification" else { return (.uses, "the app's category: its actions") }
            return (.uses, reading.runsExtension ? "runs Adobe's content extension" : "asks for Adobe's content extension, which shows the fallback")
        case "mutable-content": return (.uses, "lets the service extension attach media and prepare the template")
        case "sound": return (.uses, "sound on arrival")
        case "badge":
            // A whole number of 0 or more, as apns-badge says; else iOS sets none (the
            // forty-fifth audit, preview F4: "shows" beside that warning).
            let count = value.integerValue ?? value.doubleValue.flatMap { $0 == $0.rounded() && abs($0) < 9.2e18 ? Int64($0) : nil }
            return (count ?? -1) >= 0 ? (.shows, "badge on the app icon") : (.ignores, "not a whole number of 0 or more: iOS does not set the badge")
        case "thread-id": return (.uses, "groups notifications of one thread")
        case "content-available": return (.uses, "wakes the app in the background")
        case "interruption-level": return (.uses, "how much it interrupts (Focus)")
        case "relevance-score": return (.uses, "order in the notification summary")
        case "target-content-id": return (.uses, "the window brought forward on a tap")
        default: return (.ignores, "not an aps key iOS reads")
        }
    }

    private func keyVerdict(_ key: String, _ value: JSONValue, _ reading: Reading) -> (KeyReading.Verdict, String) {
        guard key.hasPrefix(AdobeKey.prefix) else { return (.uses, "handed to the app with the notification; not drawn") }
        if Self.androidKeys.contains(key) {
            return (.ignores, key == AdobeKey.image.name ? "an Android key: iOS reads adb_media" : key == AdobeKey.bodyExAlt.name ? "iOS has no expanded body after expiry" : "an Android key: iOS does not read it")
        }
        let text = value.stringValue
        if text == nil, key != AdobeKey.items.name, key != AdobeKey.actions.name {
            return (.ignores, "\(value.typeName) where iOS reads a string: counts as absent")
        }
        let template = reading.template
        let runs = reading.runsExtension
        switch key {
        case AdobeKey.templateType.name:
            return runs ? (.uses, "chooses the \(template ?? "") layout") : (.ignores, reading.extensionRefusal ?? "no content extension runs")
        case AdobeKey.version.name: return (.ignores, "never read on iOS")
        case AdobeKey.uri.name: return (.uses, "opened on a tap")
        case AdobeKey.linkType.name: return template == nil ? (.uses, "the tap's action") : (.ignores, "iOS templates read only adb_uri")
        case AdobeKey.actions.name:
            return template == nil ? (.uses, "actions (with aid) for the app's category") : (.ignores, "template actions come from the app's registered categories")
        case AdobeKey.media.name:
            if runs, template == "car" { return (.ignores, "the carousel shows its items' images") }
            if runs { return Self.https(text) != nil ? (.shows, "image of the expanded view") : (.ignores, "not https: iOS loads only https images, so none shows") }
            if Self.https(text) != nil, reading.mutable { return (.shows, "attached by the messaging SDK: thumbnail and expanded image") }
            return (.ignores, reading.extensionRefusal ?? "attached only for https URLs with mutable-content 1")
        default:
            break
        }
        guard runs else { return (.ignores, reading.extensionRefusal ?? "read only by the templates' content extension") }
        switch key {
        case AdobeKey.titleEx.name: return (.shows, "title of the expanded view")
        case AdobeKey.bodyEx.name: return (template == "car" ? .ignores : .shows, template == "car" ? "a carousel shows captions, not the body" : "body of the expanded view")
        case AdobeKey.titleColour.name: return colorVerdict(text, what: "expanded title colour")
        case AdobeKey.bodyColour.name: return colorVerdict(text, what: "expanded body colour")
        case AdobeKey.backgroundColour.name: return colorVerdict(text, what: "expanded background colour")
        case AdobeKey.items.name, AdobeKey.carouselMode.name:
            guard template == "car" else { return (.ignores, "a carousel key; the \(template ?? "") template does not read it") }
            if key == AdobeKey.carouselMode.name { return (.uses, text == "manual" ? "manual: swipe to turn" : "turns by itself") }
            guard let items = value.arrayValue else { return (.ignores, "not a JSON array: the fallback shows") }
            let kept = items.filter { $0["img"]?.stringValue != nil }.count
            return (.shows, "\(kept) carousel item\(kept == 1 ? "" : "s")" + (kept < items.count ? " (\(items.count - kept) without img skipped)" : ""))
        case AdobeKey.timerDuration.name, AdobeKey.timerEnd.name, AdobeKey.titleAlt.name, AdobeKey.bodyAlt.name, AdobeKey.mediaAlt.name, AdobeKey.timerColour.name:
            guard template == "timer" else { return (.ignores, "a timer key; the \(template ?? "") template does not read it") }
            // A timer that falls back shows none of them (the forty-fifth audit, preview F5).
            guard remainingSeconds(reading) != nil, reading.text(AdobeKey.titleAlt.name) != nil else {
                return (.ignores, "the timer falls back: iOS shows the title and body only")
            }
            switch key {
            case AdobeKey.timerEnd.name where PayloadValues.seconds(reading.text(AdobeKey.timerDuration.name)) != nil: return (.ignores, "adb_tmr_dur wins over adb_tmr_end")
            case AdobeKey.timerDuration.name, AdobeKey.timerEnd.name:
                // Over on arrival, no countdown runs (the fortieth audit, F2).
                return (remainingSeconds(reading) ?? 1) > 0 ? (.shows, "the countdown") : (.ignores, "the timer is over on arrival: the alternate content shows at once")
            case AdobeKey.timerColour.name: return colorVerdict(text, what: "countdown colour")
            case AdobeKey.mediaAlt.name where Self.https(text) == nil: return (.ignores, "not https: iOS loads only https images, so none shows")
            default: return (.shows, "after the timer runs out")
            }
        default:
            if let owner = AndroidPreviewReader.templateKeys[key] { return (.ignores, "a key of Android's \(owner) template, which iOS lacks") }
            return (.ignores, "not a key AEPNotificationContent reads")
        }
    }

    private func colorVerdict(_ text: String?, what: String) -> (KeyReading.Verdict, String) {
        guard let text, let color = PreviewColor.iOS(text) else { return (.ignores, "not 6 or 8 hex digits: ignored") }
        let digits = text.hasPrefix("#") ? text.count - 1 : text.count
        return (.shows, "\(what) \(color.css) (read as \(digits == 8 ? "RRGGBBAA" : "RRGGBB"))")
    }
}
