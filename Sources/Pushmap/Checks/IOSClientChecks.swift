internal import PushmapJSON

/// What iOS's code does with an APNS payload: AEPNotificationContent for the basic, car and timer
/// templates, the messaging SDK for media and plain payloads. Errors where the phone shows the
/// fallback (title and body only) or loses the content, warnings where it degrades.
struct IOSClientChecks {
    let now: Int64

    static let templates: [StaticString] = ["basic", "car", "timer"]
    /// The category the app registers for the templates' content extension.
    static let templateCategory: StaticString = "AEPNotification"
    /// Keys the client reads as something other than a string.
    static let nonStringKeys: [StaticString] = ["adb_items", "adb_act"]
    static let mediaKeys: [CustomKeys.Known] = [.media, .mediaAlt]
    /// The alert fields every template reads.
    static let alertFields: [StaticString] = ["title", "body"]

    func run(_ parts: APNSPayloadChecks.Parts, into report: inout CheckReport) {
        let keys = parts.keys
        let aps = parts.aps
        checkStringValues(keys, &report)
        let template = keys.text(.templateType)
        var timer = false
        if let template {
            if ValueFormat.isOne(of: Self.templates, template) {
                checkTemplate(String(decoding: template, as: UTF8.self), aps, &report)
            } else {
                report.warning(
                    keys.location(.templateType), "ios-template-type",
                    "iOS renders only the basic, car and timer templates: \(ValueFormat.quoted(template)) shows the fallback (title and body only)")
            }
            if ValueFormat.equals(template, "car") {
                checkCarousel(keys, &report)
            } else if ValueFormat.equals(template, "timer") {
                timer = true
                checkTimer(keys, &report)
            }
        } else {
            checkPlain(keys, aps, &report)
        }
        checkMedia(keys, &report)
        checkColours(keys, &report)
        checkTextLengths(keys, aps, timer: timer, &report)
    }

    private func checkStringValues(_ keys: CustomKeys, _ report: inout CheckReport) {
        for index in keys.prints.indices where keys.prints[index].isAdobeKey {
            if keys.entries[index].value.isString { continue }
            guard !ValueFormat.isOne(of: Self.nonStringKeys, keys.entries[index].key) else { continue }
            let key = keys.entries[index].name
            let value = keys.entries[index].value
            report.error(
                keys.location(at: index), "ios-string-value",
                "\(key) is \(ValueFormat.withArticle(value.typeName)): iOS reads adb_ values as strings only, so it counts as absent")
        }
    }

    private func checkTemplate(_ template: String, _ aps: JSONObjectNode, _ report: inout CheckReport) {
        let category = aps["category"]?.utf8
        if !(category.map { ValueFormat.equals($0, Self.templateCategory) } ?? false) {
            let found = category.map { "is \(ValueFormat.quoted($0))" } ?? "is missing"
            report.error(
                APNSPayloadChecks.location("category"), "ios-template-category",
                "aps.category \(found) but templates need \"\(Self.templateCategory)\": iOS does not run the template's content extension and shows the fallback")
        }
        if !isOne(aps["mutable-content"]) {
            report.error(
                APNSPayloadChecks.location("mutable-content"), "ios-template-mutable-content",
                "aps.mutable-content is not 1: iOS does not run the template's service extension and shows the fallback")
        }
        let alert = aps["alert"]?.objectValue
        for field in Self.alertFields where !(alert?[field]?.isString ?? false) {
            report.error(
                IntentOrigin.location(base: "$.aps.alert", key: ValueFormat.text(field), table: IntentOrigin.alertKeys), "ios-template-alert",
                "the \(template) template needs aps.alert.\(field): iOS templates read the \(field) from there and have none to show")
        }
    }

    private func checkPlain(_ keys: CustomKeys, _ aps: JSONObjectNode, _ report: inout CheckReport) {
        if keys.contains(.media), !isOne(aps["mutable-content"]) {
            report.warning(
                keys.location(.media), "ios-media-without-mutable-content",
                "adb_media needs aps.mutable-content 1: without it the service extension does not run and the image is not attached")
        }
        if isOne(aps["content-available"]), aps["alert"] == nil {
            for key: StaticString in ["sound", "badge"] where aps[key] != nil {
                report.warning(
                    APNSPayloadChecks.location(ValueFormat.text(key)), "ios-silent-push-alerts",
                    "a background push (content-available without alert) sets aps.\(key): background pushes should not alert; send a visible notification or drop it")
            }
        }
    }

    private func checkCarousel(_ keys: CustomKeys, _ report: inout CheckReport) {
        let location = keys.location(.items)
        guard let items = keys.value(.items)?.arrayValue else {
            let found = keys.value(.items).map { "is \(ValueFormat.withArticle($0.typeName)), not a JSON array" } ?? "is missing"
            report.error(location, "ios-carousel-items", "adb_items \(found): iOS's carousel needs a real array of {img, txt, uri} and shows the fallback")
            return
        }
        var missing: [Int] = []
        for (index, item) in items.enumerated() {
            guard let image = item["img"]?.utf8, !image.isEmpty else {
                missing.append(index)
                continue
            }
            if !ValueFormat.isHTTPS(image) {
                report.warning(
                    location.index(index).member("img", intentKey: IntentOrigin.carouselItemFields["img"]), "ios-media-https",
                    "carousel item \(index)'s img \(ValueFormat.quoted(image)) is not https: iOS downloads only https images, so the item shows none")
            }
        }
        if missing.count == items.count {
            report.error(location, "ios-carousel-no-image", "no carousel item has an img: iOS has nothing to show and shows the fallback")
            return
        }
        for index in missing {
            report.warning(location.index(index), "ios-carousel-item-image", "carousel item \(index) has no img: iOS drops it and keeps the others")
        }
    }

    private func checkTimer(_ keys: CustomKeys, _ report: inout CheckReport) {
        if keys.text(.titleAlt) == nil {
            report.error(
                keys.location(.titleAlt), "ios-timer-alternate-title",
                "adb_title_alt is required by iOS's timer code (the docs say optional): without it iOS shows the fallback")
        }
        let durationText = keys.text(.timerDuration)
        let endText = keys.text(.timerEnd)
        guard durationText != nil || endText != nil else {
            let location = keys.location(.timerDuration)
            report.error(
                CheckLocation(payload: location.payload, intent: "$.timer"), "ios-timer-missing",
                "a timer needs adb_tmr_dur or adb_tmr_end as a string of seconds: without either iOS shows the fallback")
            return
        }
        var duration: Int64?
        if let durationText {
            duration = ValueFormat.integer(durationText).flatMap { $0 > 0 ? $0 : nil }
            if duration == nil {
                report.error(
                    keys.location(.timerDuration), "ios-timer-value",
                    "adb_tmr_dur \(ValueFormat.quoted(durationText)) is not a positive whole number of seconds: iOS cannot count down from it")
            }
        }
        var end: Int64?
        if let endText {
            end = ValueFormat.integer(endText)
            if end == nil {
                report.error(
                    keys.location(.timerEnd), "ios-timer-value",
                    "adb_tmr_end \(ValueFormat.quoted(endText)) is not an epoch time in whole seconds: iOS cannot count down to it")
            }
        }
        if duration == nil, let end, end <= now {
            report.warning(
                keys.location(.timerEnd), "ios-timer-expired",
                "adb_tmr_end \(end) is at or before now (\(now)): iOS shows the alternate (expired) content at once")
        }
    }

    private func checkMedia(_ keys: CustomKeys, _ report: inout CheckReport) {
        for key in Self.mediaKeys {
            guard let url = keys.text(key), !ValueFormat.isHTTPS(url) else { continue }
            report.warning(
                keys.location(key), "ios-media-https",
                "\(key.name) \(ValueFormat.quoted(url)) is not an https URL: the SDK attaches media only for https, so no image shows")
        }
        if keys.contains(.image), !keys.contains(.media) {
            report.warning(
                keys.location(.image), "ios-image-key",
                "iOS reads the image from adb_media; adb_image is Android's key and shows no image here")
        }
    }

    private func checkColours(_ keys: CustomKeys, _ report: inout CheckReport) {
        for index in keys.prints.indices where keys.prints[index].isColour {
            guard let colour = keys.entries[index].value.utf8, !isHexColour(colour) else { continue }
            let key = keys.entries[index].name
            report.error(
                keys.location(at: index), "ios-color",
                "\(key) \(ValueFormat.quoted(colour)) is not 6 or 8 hex digits (RRGGBB or RRGGBBAA, # allowed): iOS ignores the colour and uses the system one")
        }
    }

    /// 6 or 8 hex digits, after an optional `#`. The plain forms are settled on the bytes; only
    /// a colour that fails them takes the Character-wise path, which decides what `#` is.
    private func isHexColour(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if ValueFormat.isHexColour(bytes) || (bytes.first == UInt8(ascii: "#") && ValueFormat.isHexColour(UnsafeRawBufferPointer(rebasing: bytes.dropFirst()))) {
            return true
        }
        let colour = String(decoding: bytes, as: UTF8.self)
        let digits = colour.hasPrefix("#") ? String(colour.dropFirst()) : colour
        return ValueFormat.isHexColour(digits)
    }

    private func checkTextLengths(_ keys: CustomKeys, _ aps: JSONObjectNode, timer: Bool, _ report: inout CheckReport) {
        // The template guidelines: a timer leaves less room for text.
        let titleLimit = timer ? 50 : 70
        let bodyLimit = timer ? 450 : 600
        func warn(_ name: String, _ count: Int, _ limit: Int, _ location: CheckLocation) {
            report.warning(
                location, "ios-text-length",
                "\(name) is \(count) characters; iOS's guideline is \(limit)\(timer ? " for a timer" : ""): longer text is cut off")
        }
        if let alert = aps["alert"] {
            if let body = alert.utf8, let count = ValueFormat.characterCount(body, over: bodyLimit) {
                warn("aps.alert", count, bodyLimit, CheckLocation(payload: "$.aps.alert", intent: "$.body"))
            }
            // Field by field: a table of (field, limit) pairs would be allocated on every run.
            func checkField(_ field: StaticString, _ limit: Int) {
                if let text = alert[field]?.utf8, let count = ValueFormat.characterCount(text, over: limit) {
                    warn("aps.alert.\(field)", count, limit, IntentOrigin.location(base: "$.aps.alert", key: ValueFormat.text(field), table: IntentOrigin.alertKeys))
                }
            }
            checkField("title", titleLimit)
            checkField("body", bodyLimit)
        }
        func checkKey(_ key: CustomKeys.Known, _ limit: Int) {
            if let text = keys.text(key), let count = ValueFormat.characterCount(text, over: limit) {
                warn(key.name, count, limit, keys.location(key))
            }
        }
        checkKey(.titleEx, titleLimit)
        checkKey(.bodyEx, bodyLimit)
    }

    private func isOne(_ value: JSONNode?) -> Bool {
        value?.integerValue == 1
    }
}
