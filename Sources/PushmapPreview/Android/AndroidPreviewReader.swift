@_spi(Tools) internal import Pushmap
package import PushmapJSON

/// Draws an FCM payload as Android shows it: a template (`adb_template_type` basic, car, timer,
/// and through ``AndroidTemplateLayout`` input, zb, cat, rate, icon) as Adobe's notificationbuilder
/// lays it out, anything else as the messaging SDK's plain notification. The rules are the ones in pushmap's client notes (what the SDKs' code does).
package struct AndroidPreviewReader {
    /// The time the notification arrives, in epoch seconds (for timers).
    let now: Int64

    package init(now: Int64) { self.now = now }
    let guideline = TextGuideline.android

    /// The keys the messaging SDK reads for a plain notification.
    static let plainKeys = BuiltinTemplates.plainFCMKeys
    static let priorities: Set<String> = ["PRIORITY_DEFAULT", "PRIORITY_MIN", "PRIORITY_LOW", "PRIORITY_HIGH", "PRIORITY_MAX"]
    static let visibilities: Set<String> = ["PRIVATE", "PUBLIC", "SECRET"]
    /// The keys only one of the Android-only templates reads, and which (from the descriptions).
    static let templateKeys = BuiltinTemplates.androidOnlyKeys
    /// The template types notificationbuilder draws.
    static let templates = BuiltinTemplates.androidTypes

    package func read(_ payload: JSONValue) -> PlatformPreview {
        let message = payload["message"]
        let data = AndroidData(members: (message?["data"]?.objectValue.map { Array($0.members) } ?? []).sorted { $0.key < $1.key })
        let type = data.text(AdobeKey.templateType.name)
        var preview: PlatformPreview
        if let type { preview = template(type, data) } else { preview = plain(data) }
        preview.keys = envelope(message) + data.members.map { reading($0.key, $0.value, type: type, data: data) }
        // The key table says what the phone does with the payload as drawn: nothing drawn when
        // nothing shows, and a carousel's own keys unread when basic shows instead (the
        // thirty-eighth audit, F2).
        if preview.views.isEmpty {
            preview.markUndrawn("not drawn: the notification is not shown")
        } else if !preview.views.contains(where: { !$0.id.hasPrefix("expired") }) {
            // A timer over on arrival: only its expired content shows, if anything (the fortieth audit, F2).
            preview.markUndrawn("not drawn: the timer is over on arrival; only the expired content shows", only: [
                AdobeKey.title.name, AdobeKey.body.name, AdobeKey.bodyEx.name, AdobeKey.image.name, AdobeKey.timerEnd.name, AdobeKey.timerDuration.name,
            ])
        } else if type == "car", preview.layout == "basic" {
            for index in preview.keys.indices where [AdobeKey.carouselMode.name, AdobeKey.carouselLayout.name].contains(preview.keys[index].key) {
                preview.keys[index].verdict = .ignores
                preview.keys[index].reason = "fewer than 3 images: the basic template shows instead"
            }
            if let index = preview.keys.firstIndex(where: { $0.key == AdobeKey.templateType.name }) {
                preview.keys[index].reason = "asks for the car layout; with fewer than 3 images the basic template shows instead"
            }
        }
        return preview
    }

    // MARK: - Views

    private func plain(_ data: AndroidData) -> PlatformPreview {
        // The messaging SDK takes a push as Adobe's only when it has adb_title (or _xdm).
        guard data.has(AdobeKey.title.name) || data.has("_xdm") else {
            return PlatformPreview(
                platform: .fcm, drawnBy: "Adobe's messaging SDK, plain notification", layout: "none",
                notes: ["No adb_title (nor _xdm): the messaging SDK does not take it for an Adobe notification and draws nothing; the app gets the data."])
        }
        var collapsed = NotificationView(id: "collapsed", label: "Collapsed")
        collapsed.title = guideline.title(data.text(AdobeKey.title.name))
        collapsed.body = guideline.body(data.text(AdobeKey.body.name))
        var expanded = collapsed
        expanded.id = "expanded"
        expanded.label = "Expanded"
        expanded.image = data.text(AdobeKey.image.name)
        expanded.buttons = buttons(data)
        return PlatformPreview(
            platform: .fcm, drawnBy: "Adobe's messaging SDK, plain notification", layout: "plain",
            views: [collapsed, expanded],
            notes: ["No adb_template_type: the messaging SDK draws it, reading only the generic keys."])
    }

    /// Whether Campaign Classic's extension is the reader: its tracking ids are there.
    static func forCampaignClassic(_ data: AndroidData) -> Bool { data.has("_mId") || data.has("_dId") }

    /// `_msg` when Campaign Classic's extension shows it as the body: its ids there and adb_body
    /// empty, which it reads as absent (client-rules.md; the forty-fifth audit, preview F2: the
    /// body was drawn blank).
    static func campaignClassicMessage(_ data: AndroidData) -> String? {
        guard forCampaignClassic(data), data.text(AdobeKey.body.name)?.isEmpty == true,
              let message = data.text("_msg"), !message.isEmpty else { return nil }
        return message
    }

    private func template(_ type: String, _ data: AndroidData) -> PlatformPreview {
        var preview = PlatformPreview(platform: .fcm, drawnBy: "Adobe's notificationbuilder, \(type) template", layout: type)
        preview.notes.append(
            "Drawn as notificationbuilder draws it (apps with the Campaign Classic extension); the released AJO Messaging SDK (3.10) shows every push as a plain notification.")
        // Keys whose absence or wrong value throws before anything is shown.
        let layout = AndroidTemplateLayouts.layout(type)
        var refusals: [String] = []
        for key in layout?.needsText == false ? [AdobeKey.version.name] : [AdobeKey.version.name, AdobeKey.title.name, AdobeKey.body.name] where !data.has(key) {
            refusals.append("\(key) is missing")
        }
        if let action = data.text(AdobeKey.linkType.name), !AndroidData.actionTypes.contains(action) {
            refusals.append("adb_a_type \"\(action)\" is not one of DEEPLINK, WEBURL, DISMISS, OPENAPP, NONE")
        }
        if type == "car", !data.has(AdobeKey.carouselLayout.name) { refusals.append("adb_car_layout is missing") }
        if type == "timer", !data.has(AdobeKey.titleAlt.name) { refusals.append("adb_title_alt is missing") }
        // Campaign Classic's extension reads an empty body as absent (android-campaign-classic).
        if layout?.needsText != false, Self.forCampaignClassic(data), data.text(AdobeKey.body.name)?.isEmpty == true, (data.text("_msg") ?? "").isEmpty {
            refusals.append("adb_body is empty, which Campaign Classic's extension reads as absent")
        }
        refusals += layout?.refusals(data) ?? []
        if !refusals.isEmpty {
            preview.layout = "none"
            preview.notes.append("Android shows nothing: " + refusals.joined(separator: "; ") + ".")
            return preview
        }
        let colors = colorSet(data, timer: type == "timer")
        let body = Self.campaignClassicMessage(data) ?? data.text(AdobeKey.body.name)
        var collapsed = NotificationView(id: "collapsed", label: "Collapsed")
        collapsed.title = guideline.title(data.text(AdobeKey.title.name))
        collapsed.body = guideline.body(body)
        collapsed.thumbnail = data.text(AdobeKey.largeIcon.name)
        collapsed.colors = colors
        var expanded = collapsed
        expanded.id = "expanded"
        expanded.label = "Expanded"
        expanded.body = guideline.body(data.text(AdobeKey.bodyEx.name) ?? body)

        switch type {
        case "car":
            let images = carouselItems(data)
            if images.count < 3 {
                preview.layout = "basic"
                let reason = "only \(images.count) carousel image\(images.count == 1 ? "" : "s") (Android needs 3): it shows the basic template"
                preview.notes.append("Falls back: " + reason + ".")
                expanded.image = data.text(AdobeKey.image.name)
                collapsed.fallback = "basic"
                collapsed.fallbackReason = reason
                expanded.fallback = "basic"
                expanded.fallbackReason = reason
                preview.views = [collapsed, expanded]
                return preview
            }
            let mode = data.text(AdobeKey.carouselMode.name) == nil || data.text(AdobeKey.carouselMode.name) == "auto" ? "auto" : "manual"
            let layout = data.text(AdobeKey.carouselLayout.name) == "filmstrip" ? "filmstrip" : "default"
            preview.views = [collapsed]
            for index in images.indices {
                var view = expanded
                view.id = "expanded-item-\(index + 1)"
                view.label = "Expanded, item \(index + 1) of \(images.count) (\(mode == "auto" ? "turns by itself" : "arrows to turn"), \(layout) layout)"
                view.carousel = NotificationView.Carousel(items: images, current: index, mode: mode, layout: layout)
                preview.views.append(view)
            }
        case "timer":
            // As the input template says its own (the forty-fifth audit, preview F7).
            preview.notes.append("The timer needs Android 7 (API 24) and the app's exact-alarm permission.")
            timerViews(data, collapsed: collapsed, expanded: expanded, into: &preview)
        default:
            if let layout {
                layout.draw(data, collapsed: collapsed, expanded: expanded, into: &preview)
                return preview
            }
            if type != "basic" {
                preview.notes.append("\"\(type)\" is no template notificationbuilder knows: it shows a plain big-picture notification (drawn here as basic).")
                preview.layout = "basic"
            }
            expanded.image = data.text(AdobeKey.image.name)
            expanded.buttons = buttons(data)
            if Self.hasButtons(type), let remind = remindLabel(data) { expanded.buttons.append(remind) }
            preview.views = [collapsed, expanded]
        }
        return preview
    }

    private func timerViews(_ data: AndroidData, collapsed: NotificationView, expanded: NotificationView, into preview: inout PlatformPreview) {
        // adb_tmr_dur (seconds from when it is built) wins over adb_tmr_end (epoch seconds).
        let remaining: Int64? =
            if let duration = PayloadValues.integer(data.text(AdobeKey.timerDuration.name)), duration > 0 { duration }
            else if let end = PayloadValues.integer(data.text(AdobeKey.timerEnd.name)) { end - now }
            else { nil }
        var collapsed = collapsed, expanded = expanded
        expanded.image = data.text(AdobeKey.image.name)
        var expiredCollapsed = collapsed
        expiredCollapsed.id = "expired-collapsed"
        expiredCollapsed.label = "Collapsed, after expiry"
        expiredCollapsed.title = guideline.title(data.text(AdobeKey.titleAlt.name))
        // Where an alternate is not given, the active text stays.
        expiredCollapsed.body = guideline.body(data.text(AdobeKey.bodyAlt.name) ?? data.text(AdobeKey.body.name))
        expiredCollapsed.timer = PayloadValues.countdown(0)
        var expiredExpanded = expiredCollapsed
        expiredExpanded.id = "expired-expanded"
        expiredExpanded.label = "Expanded, after expiry"
        expiredExpanded.body = guideline.body(data.text(AdobeKey.bodyExAlt.name) ?? data.text(AdobeKey.bodyAlt.name) ?? data.text(AdobeKey.bodyEx.name) ?? data.text(AdobeKey.body.name))
        expiredExpanded.image = data.text(AdobeKey.imageAlt.name) ?? data.text(AdobeKey.image.name)
        guard let remaining, remaining > 0 else {
            preview.notes.append(
                "The timer has run out when the notification arrives (or has no valid adb_tmr_dur or adb_tmr_end): Android drops it, unless a notification with the same adb_tag is showing, which then shows the expired content.")
            preview.views = [expiredCollapsed, expiredExpanded]
            return
        }
        collapsed.timer = PayloadValues.countdown(remaining)
        expanded.timer = collapsed.timer
        collapsed.label = "Collapsed, before expiry"
        expanded.label = "Expanded, before expiry"
        preview.views = [collapsed, expanded, expiredCollapsed, expiredExpanded]
    }

    /// The carousel's items as Android shows them: an item without `img` ends the list, and an
    /// item whose image is no URL (a drawable name) is not downloaded, so it is left out.
    private func carouselItems(_ data: AndroidData) -> [NotificationView.Carousel.Item] {
        var items: [NotificationView.Carousel.Item] = []
        for item in PayloadValues.decodedArray(data.text(AdobeKey.items.name)) ?? [] {
            guard let image = item["img"]?.stringValue, !image.isEmpty else { break }
            guard AndroidData.isURL(image) else { continue }
            items.append(.init(image: image, caption: guideline.body(item["txt"]?.stringValue)))
        }
        return items
    }

    /// Whether a template draws adb_act's buttons and remind later: basic, and a type
    /// notificationbuilder does not know, which its legacy builder draws (adobe-templates.md:
    /// only BasicNotificationBuilder and LegacyNotificationBuilder add them; the thirty-sixth
    /// audit, F3).
    private static func hasButtons(_ type: String) -> Bool { type == "basic" || !templates.contains(type) }

    /// `adb_act`'s labels: bad JSON gives none, an item without a label or type is skipped, at
    /// most 3 actions with remind later among them (android-action-count).
    private func buttons(_ data: AndroidData) -> [String] {
        var labels: [String] = []
        for item in PayloadValues.decodedArray(data.text(AdobeKey.actions.name)) ?? [] {
            guard let label = item["label"]?.stringValue, !label.isEmpty, item["type"] != nil else { continue }
            labels.append(label)
        }
        return Array(labels.prefix(remindLabel(data) == nil ? 3 : 2))
    }

    /// The remind-later button's label, when there is one.
    private func remindLabel(_ data: AndroidData) -> String? {
        guard let label = data.text(AdobeKey.remindText.name), !label.isEmpty else { return nil }
        return label
    }

    private func colorSet(_ data: AndroidData, timer: Bool) -> PreviewColor.Set {
        var colors = PreviewColor.Set()
        colors.title = data.text(AdobeKey.titleColour.name).flatMap(PreviewColor.android)
        colors.body = data.text(AdobeKey.bodyColour.name).flatMap(PreviewColor.android)
        colors.background = data.text(AdobeKey.backgroundColour.name).flatMap(PreviewColor.android)
        colors.icon = data.text(AdobeKey.iconColour.name).flatMap(PreviewColor.android)
        if timer { colors.timer = data.text(AdobeKey.timerColour.name).flatMap(PreviewColor.android) }
        return colors
    }

    // MARK: - Keys

    /// The message's keys outside `data`: FCM's, not the phone's.
    private func envelope(_ message: JSONValue?) -> [KeyReading] {
        guard let object = message?.objectValue else { return [] }
        var readings: [KeyReading] = []
        for (key, value) in object.members.sorted(by: { $0.key < $1.key }) where key != "data" {
            if key == "android", let android = value.objectValue {
                for (inner, innerValue) in android.members.sorted(by: { $0.key < $1.key }) {
                    let reason = switch inner {
                    case "collapse_key": "FCM keeps only the newest undelivered message with this key"
                    case "priority": "FCM's delivery priority, not how the notification is shown"
                    case "ttl": "how long FCM keeps trying to deliver"
                    default: "read by FCM"
                    }
                    readings.append(KeyReading(key: "message.android.\(inner)", value: PayloadValues.display(innerValue), verdict: .service, reason: reason))
                }
                continue
            }
            let reason = ["token", "topic", "condition"].contains(key) ? "whom FCM delivers to" : "read by FCM"
            readings.append(KeyReading(key: "message.\(key)", value: PayloadValues.display(value), verdict: .service, reason: reason))
        }
        return readings
    }

    private func reading(_ key: String, _ value: JSONValue, type: String?, data: AndroidData) -> KeyReading {
        let (verdict, reason) = verdict(key, value, type: type, data: data)
        return KeyReading(key: key, value: PayloadValues.display(value), verdict: verdict, reason: reason)
    }

    private func verdict(_ key: String, _ value: JSONValue, type: String?, data: AndroidData) -> (KeyReading.Verdict, String) {
        let text = value.stringValue
        // The SDK's own keys, read back from push data too: an item or star chosen before any tap.
        if key == "catalogItemIndex" || key == "ratingSelected", let type, let own = AndroidTemplateLayouts.layout(type)?.verdict(key, text, data: data) {
            return own
        }
        if type != nil, key == "_msg" || key == AdobeKey.body.name, Self.campaignClassicMessage(data) != nil {
            return key == "_msg" ? (.shows, "the body: Campaign Classic's extension reads the empty adb_body as absent") : (.ignores, "empty: Campaign Classic's extension shows _msg instead")
        }
        guard key.hasPrefix(AdobeKey.prefix) else { return (.uses, "handed to the app with the message; not drawn") }
        guard let type else {
            // Plain: the messaging SDK.
            guard Self.plainKeys.contains(key) else {
                return (.ignores, "the messaging SDK reads only the generic keys; this one needs a template")
            }
            return plainVerdict(key, text, data: data)
        }
        if let own = AndroidTemplateLayouts.layout(type)?.verdict(key, text, data: data) { return own }
        if let common = commonVerdict(key, text, type: type, data: data) { return common }
        switch key {
        case AdobeKey.carouselLayout.name, AdobeKey.carouselMode.name, AdobeKey.items.name:
            guard type == "car" else {
                return (.ignores, key == AdobeKey.items.name ? "read by the car, cat and icon templates; the \(type) template does not read it" : "a carousel key; the \(type) template does not read it")
            }
            switch key {
            case AdobeKey.items.name:
                let count = carouselItems(data).count
                return count >= 3 ? (.shows, "\(count) carousel items, an image and caption each") : (.ignores, "fewer than 3 images: the basic template shows instead")
            case AdobeKey.carouselMode.name: return (.uses, text == "auto" ? "turns by itself" : "manual: arrows to turn")
            default: return (.uses, text == "filmstrip" ? "filmstrip layout: neighbours beside the centre item" : "default layout")
            }
        case AdobeKey.timerDuration.name, AdobeKey.timerEnd.name:
            guard type == "timer" else { return (.ignores, "a timer key; the \(type) template does not read it") }
            if key == AdobeKey.timerEnd.name, let duration = PayloadValues.integer(data.text(AdobeKey.timerDuration.name)), duration > 0 {
                return (.ignores, "adb_tmr_dur wins over adb_tmr_end")
            }
            guard PayloadValues.integer(text) != nil else { return (.ignores, "not a whole number: the timer counts as expired") }
            return (.shows, "the countdown")
        case AdobeKey.titleAlt.name, AdobeKey.bodyAlt.name, AdobeKey.bodyExAlt.name, AdobeKey.imageAlt.name, AdobeKey.timerColour.name:
            guard type == "timer" else { return (.ignores, "a timer key; the \(type) template does not read it") }
            if key == AdobeKey.timerColour.name { return Self.colorVerdict(text, what: "countdown colour") }
            return (.shows, "after the timer runs out")
        case AdobeKey.actions.name:
            guard Self.hasButtons(type) else { return (.ignores, "only the basic template draws buttons") }
            let count = buttons(data).count
            let most = remindLabel(data) == nil ? "at most 3" : "at most 2 beside remind later"
            return count > 0 ? (.shows, "\(count) button\(count == 1 ? "" : "s") when expanded (\(most))") : (.ignores, "not a JSON array of labelled buttons: no buttons")
        case AdobeKey.remindText.name:
            return Self.hasButtons(type) ? (.shows, "remind-later button when expanded") : (.ignores, "only the basic template has remind later")
        case AdobeKey.remindAt.name, AdobeKey.remindAfter.name:
            return Self.hasButtons(type) ? (.uses, "when the remind-later button brings it back") : (.ignores, "only the basic template has remind later")
        case AdobeKey.titleEx.name, AdobeKey.media.name, AdobeKey.mediaAlt.name:
            return (.ignores, "an iOS key: Android does not read it")
        default:
            if let owner = Self.templateKeys[key] { return (.ignores, "a key of the \(owner) template; the \(type) template does not read it") }
            return (.ignores, "not a key notificationbuilder reads")
        }
    }

    /// Keys every template reads the same way; nil for the template-specific ones.
    private func commonVerdict(_ key: String, _ text: String?, type: String, data: AndroidData) -> (KeyReading.Verdict, String)? {
        switch key {
        case AdobeKey.version.name: return (.uses, "required (only its presence): nothing shows without it")
        case AdobeKey.templateType.name:
            return Self.templates.contains(type) ? (.uses, "chooses the \(type) layout") : (.uses, "no template notificationbuilder knows: a plain big-picture notification")
        case AdobeKey.title.name: return (.shows, "title, collapsed and expanded")
        case AdobeKey.body.name: return (.shows, data.has(AdobeKey.bodyEx.name) ? "body when collapsed" : "body, collapsed and expanded")
        case AdobeKey.bodyEx.name: return (.shows, "body when expanded")
        case AdobeKey.image.name:
            if type == "car" {
                return carouselItems(data).count >= 3 ? (.ignores, "the carousel shows its items' images") : (.shows, "image of the basic fallback")
            }
            return (.shows, "image when expanded")
        case AdobeKey.largeIcon.name: return (.shows, "large icon beside the text")
        case AdobeKey.smallIcon.name: return (.shows, "small icon in the header (a drawable name)")
        case AdobeKey.icon.name:
            return data.has(AdobeKey.smallIcon.name) ? (.ignores, "adb_small_icon wins over it") : (.shows, "small icon in the header (a drawable name)")
        case AdobeKey.titleColour.name: return Self.colorVerdict(text, what: "title colour")
        case AdobeKey.bodyColour.name: return Self.colorVerdict(text, what: "body colour")
        case AdobeKey.backgroundColour.name: return Self.colorVerdict(text, what: "background colour")
        case AdobeKey.iconColour.name: return Self.colorVerdict(text, what: "small icon colour")
        case AdobeKey.sound.name: return (.uses, "sound on arrival (a file in res/raw)")
        case AdobeKey.channel.name: return (.uses, "notification channel, made if the app lacks it")
        case AdobeKey.displayPriority.name:
            return Self.priorities.contains(text ?? "") ? (.uses, "display priority") : (.ignores, "not a PRIORITY_ value: PRIORITY_DEFAULT is used")
        case AdobeKey.visibility.name:
            return Self.visibilities.contains(text ?? "") ? (.uses, "lock-screen visibility") : (.ignores, "not PRIVATE, PUBLIC or SECRET: PRIVATE is used")
        case AdobeKey.badgeCount.name:
            return PayloadValues.integer(text) != nil ? (.uses, "badge count") : (.ignores, "not a whole number: 0 is used")
        case AdobeKey.uri.name:
            return data.text(AdobeKey.linkType.name) == "DISMISS" ? (.ignores, "adb_a_type is DISMISS: a tap only dismisses") : (.uses, "opened on a tap, whatever adb_a_type says")
        case AdobeKey.linkType.name: return (.uses, text == "DISMISS" ? "a tap dismisses" : "the tap's action")
        case AdobeKey.tag.name: return (.uses, "replaces a showing notification with the same tag")
        case AdobeKey.sticky.name: return (.uses, text?.lowercased() == "true" ? "stays after a tap" : "dismissed by a tap")
        case AdobeKey.ticker.name: return (.uses, "ticker text for accessibility services")
        default: return nil
        }
    }

    private func plainVerdict(_ key: String, _ text: String?, data: AndroidData) -> (KeyReading.Verdict, String) {
        switch key {
        case AdobeKey.title.name: return (.shows, "title")
        case AdobeKey.body.name: return (.shows, "body")
        case AdobeKey.image.name: return (.shows, "big picture when expanded")
        case AdobeKey.actions.name:
            let count = buttons(data).count
            return count > 0 ? (.shows, "\(count) action button\(count == 1 ? "" : "s") when expanded") : (.ignores, "not a JSON array of labelled buttons: no buttons")
        case AdobeKey.icon.name: return (.shows, "small icon (a drawable name)")
        case AdobeKey.sound.name: return (.uses, "sound on arrival")
        case AdobeKey.badgeCount.name: return (.uses, "badge count")
        case AdobeKey.displayPriority.name: return (.uses, "display priority")
        case AdobeKey.visibility.name: return (.uses, "lock-screen visibility")
        case AdobeKey.channel.name: return (.uses, "notification channel; an unknown one falls back to the SDK's own")
        case AdobeKey.uri.name: return (.uses, "opened on a tap")
        default: return (.uses, "the tap's action")
        }
    }

    static func colorVerdict(_ text: String?, what: String) -> (KeyReading.Verdict, String) {
        guard let text, let color = PreviewColor.android(text) else {
            return (.ignores, "not RRGGBB or AARRGGBB without '#': logged and ignored")
        }
        return (.shows, "\(what) \(color.css) (read as \(text.count == 8 ? "AARRGGBB" : "RRGGBB"))")
    }
}
