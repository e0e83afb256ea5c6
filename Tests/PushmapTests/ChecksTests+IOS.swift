import Testing
@_spi(Tools) @testable import Pushmap
import PushmapJSON

/// What iOS's code does with the APNS payload.
extension ChecksTests {
    // MARK: - iOS: templates

    @Test("valid iOS templates pass")
    func iosTemplatesPass() {
        F.expectClean(F.check(F.apns(F.templateAps, F.basicKeys), .apns))
        F.expectClean(F.check(F.apns(F.templateAps, F.carouselKeys), .apns))
        F.expectClean(F.check(F.apns(F.templateAps, F.timerKeys), .apns))
    }

    @Test("adb_ values iOS reads as strings must be strings")
    func iosStringValue() {
        let payload = F.apns(F.templateAps, F.merged(F.timerKeys, ["adb_tmr_dur": 10]))
        let diagnostics = F.check(payload, .apns, intentPaths: true)
        F.expectOne(diagnostics, "ios-string-value", .warning, at: "$.timer.duration", payloadPath: "$.adb_tmr_dur")
        // Counted as absent, the timer has no duration at all.
        F.expectOne(diagnostics, "ios-timer-missing", .error, at: "$.timer")
        F.expectOne(F.check(F.apns(F.templateAps, F.merged(F.basicKeys, ["adb_version": 1])), .apns), "ios-string-value", .warning, at: "$.adb_version")
        F.expectNone(F.check(F.apns(F.plainAps, ["adb_act": [["aid": "a", "label": "Go", "type": "DISMISS"]], "custom": 1]), .apns), "ios-string-value")
    }

    @Test("an adb_template_type iOS does not render warns")
    func iosTemplateType() {
        F.expectOne(
            F.check(F.apns(F.templateAps, ["adb_template_type": "input", "adb_version": "1"]), .apns, intentPaths: true), "ios-template-type", .warning,
            at: "$.template")
        F.expectNone(F.check(F.apns(F.templateAps, F.basicKeys), .apns), "ios-template-type")
    }

    @Test("a template needs aps.category AEPNotification")
    func iosTemplateCategory() {
        let payload = F.apns(F.merged(F.templateAps, ["category": "iosCategory"]), F.basicKeys)
        F.expectOne(F.check(payload, .apns, intentPaths: true), "ios-template-category", .error, at: "$.ios.category", payloadPath: "$.aps.category")
        F.expectOne(F.check(F.apns(F.merged(F.templateAps, [:], removing: ["category"]), F.basicKeys), .apns), "ios-template-category", .error, at: "$.aps.category")
        F.expectNone(F.check(F.apns(F.merged(F.plainAps, ["category": "iosCategory"])), .apns), "ios-template-category")
        // Of the wrong type: one finding, the template's error in place of the type walk's warning
        // (the eighteenth audit found both at the same path).
        let wrongType = F.check(F.apns(F.merged(F.templateAps, ["category": 5]), F.basicKeys), .apns)
        F.expectOne(wrongType, "ios-template-category", .error, at: "$.aps.category")
        #expect(wrongType.count == 1, "\(wrongType)")
        let title = F.check(F.apns(F.merged(F.templateAps, ["alert": ["title": true, "body": "b"]]), F.basicKeys), .apns)
        F.expectOne(title, "ios-template-alert", .error, at: "$.aps.alert.title")
        #expect(title.count == 1, "\(title)")
    }

    @Test("a template needs mutable-content 1")
    func iosTemplateMutableContent() {
        let payload = F.apns(F.merged(F.templateAps, [:], removing: ["mutable-content"]), F.carouselKeys)
        F.expectOne(F.check(payload, .apns), "ios-template-mutable-content", .error, at: #"$.aps["mutable-content"]"#)
        F.expectNone(F.check(F.apns(F.templateAps, F.carouselKeys), .apns), "ios-template-mutable-content")
    }

    /// Source: Adobe's timer test map timer-13 (TimerPayloadTests testInit_without_expandedBody:
    /// a body alone renders, with the alert's body); the thirty-fourth audit, F2, found it an error.
    @Test("a template reads aps.alert.title and aps.alert.body, or the expanded text in their place: one missing is a warning, no text at all an error")
    func iosTemplateAlert() {
        let payload = F.apns(F.merged(F.templateAps, ["alert": ["body": "b"]]), F.basicKeys)
        F.expectOne(F.check(payload, .apns, intentPaths: true), "ios-template-alert", .warning, at: "$.title", payloadPath: "$.aps.alert.title")
        // A string alert is the body iOS shows: no title, a warning (the thirty-fourth audit, F1).
        let stringAlert = F.apns(F.merged(F.templateAps, ["alert": "just text"]), F.basicKeys)
        F.expectOne(F.check(stringAlert, .apns), "ios-template-alert", .warning, at: "$.aps.alert")
        // The twenty-second audit (N9): an alert of another kind holds neither text, one error at
        // the alert, not one for each of its texts.
        let numberAlert = F.apns(F.merged(F.templateAps, ["alert": 5]), F.basicKeys)
        F.expectOne(F.check(numberAlert, .apns).filter { $0.rule == "ios-template-alert" }, "ios-template-alert", .error, at: "$.aps.alert")
        // The twenty-third audit (A5): an empty alert dictionary had three errors.
        let emptyAlert = F.check(F.apns(F.merged(F.templateAps, ["alert": [:]]), F.basicKeys), .apns).filter { $0.severity == .error }
        #expect(emptyAlert.count == 1, "\(emptyAlert)")
        F.expectOne(emptyAlert, "ios-template-alert", .error, at: "$.aps.alert")
        F.expectNone(F.check(F.apns(F.templateAps, F.basicKeys), .apns), "ios-template-alert")
        // The expanded text stands in for the alert's (Adobe's BasicPayloadTests
        // testInit_when_expandedBody_unavailable, TimerPayloadTests testInit_without_expandedTitle).
        let titleEx = F.apns(F.merged(F.templateAps, ["alert": ["body": "b"]]), F.merged(F.basicKeys, ["adb_title_ex": "Expanded"]))
        F.expectNone(F.check(titleEx, .apns), "ios-template-alert")
        let bodyEx = F.apns(F.merged(F.templateAps, ["alert": ["title": "t"]]), F.merged(F.basicKeys, ["adb_body_ex": "Expanded"]))
        F.expectNone(F.check(bodyEx, .apns), "ios-template-alert")
        // Not for the alert itself, nor when empty (the eighteenth audit): no alert is one error.
        let noAlert = F.apns(F.merged(F.templateAps, [:], removing: ["alert"]), F.merged(F.basicKeys, ["adb_title_ex": "T", "adb_body_ex": "B"]))
        F.expectOne(F.check(noAlert, .apns), "ios-template-alert", .error, at: "$.aps.alert")
        let emptyEx = F.apns(F.merged(F.templateAps, ["alert": ["body": "b"]]), F.merged(F.basicKeys, ["adb_title_ex": ""]))
        F.expectOne(F.check(emptyEx, .apns), "ios-template-alert", .warning, at: "$.aps.alert.title")
    }

    @Test("iOS colours are 6 or 8 hex digits, # allowed")
    func iosColor() {
        F.expectOne(
            F.check(F.apns(F.templateAps, F.merged(F.basicKeys, ["adb_clr_bg": "##FFFFFF"])), .apns, intentPaths: true), "ios-color", .warning,
            at: "$.colors.background", payloadPath: "$.adb_clr_bg")
        F.expectOne(F.check(F.apns(F.templateAps, F.merged(F.basicKeys, ["adb_clr_title": "red"])), .apns), "ios-color", .warning, at: "$.adb_clr_title")
        let good = F.apns(F.templateAps, F.merged(F.basicKeys, ["adb_clr_bg": "#FFFFFF", "adb_clr_title": "FF000080", "adb_clr_body": "333333"]))
        F.expectNone(F.check(good, .apns), "ios-color")
    }

    @Test("iOS text longer than the guidelines is a warning, tighter for timers")
    func iosTextLength() {
        let longTitle = F.apns(F.merged(F.templateAps, ["alert": ["title": .string(String(repeating: "t", count: 71)), "body": "b"]]), F.basicKeys)
        F.expectOne(F.check(longTitle, .apns, intentPaths: true), "ios-text-length", .warning, at: "$.title")
        let timerTitle = F.apns(F.merged(F.templateAps, ["alert": ["title": .string(String(repeating: "t", count: 51)), "body": "b"]]), F.timerKeys)
        F.expectOne(F.check(timerTitle, .apns), "ios-text-length", .warning, at: "$.aps.alert.title")
        let timerBody = F.apns(F.templateAps, F.merged(F.timerKeys, ["adb_body_ex": .string(String(repeating: "b", count: 451))]))
        F.expectOne(F.check(timerBody, .apns, intentPaths: true), "ios-text-length", .warning, at: "$.expandedBody")
        let fits = F.apns(
            F.merged(F.templateAps, ["alert": ["title": .string(String(repeating: "t", count: 70)), "body": .string(String(repeating: "b", count: 600))]]),
            F.basicKeys)
        F.expectNone(F.check(fits, .apns), "ios-text-length")
    }

    @Test("media that is not https is a warning")
    func iosMediaHTTPS() {
        F.expectOne(
            F.check(F.apns(F.templateAps, F.merged(F.basicKeys, ["adb_media": "http://x.com/a.png"])), .apns, intentPaths: true), "ios-media-https",
            .warning, at: "$.image", payloadPath: "$.adb_media")
        let items: JSONValue = [["img": "https://x.com/1.png"], ["img": "www.x.com/2.png"]]
        F.expectOne(
            F.check(F.apns(F.templateAps, F.merged(F.carouselKeys, ["adb_items": items])), .apns, intentPaths: true), "ios-media-https", .warning,
            at: "$.carousel.items[1].image", payloadPath: "$.adb_items[1].img")
        F.expectNone(F.check(F.apns(F.templateAps, F.merged(F.basicKeys, ["adb_media": "HTTPS://x.com/a.png"])), .apns), "ios-media-https")
    }

    @Test("an APNS payload with Android's adb_image and no adb_media warns")
    func iosImageKey() {
        F.expectOne(F.check(F.apns(F.plainAps, ["adb_image": "https://x.com/a.png"]), .apns), "ios-image-key", .warning, at: "$.adb_image")
        F.expectNone(F.check(F.apns(F.templateAps, F.basicKeys), .apns), "ios-image-key")
    }

    // MARK: - iOS: carousel

    @Test("iOS's adb_items must be a real JSON array")
    func iosCarouselItems() {
        let text = F.apns(F.templateAps, F.merged(F.carouselKeys, ["adb_items": #"[{"img":"https://x.com/1.png"}]"#]))
        F.expectOne(F.check(text, .apns, intentPaths: true), "ios-carousel-items", .error, at: "$.carousel.items", payloadPath: "$.adb_items")
        F.expectOne(F.check(F.apns(F.templateAps, F.merged(F.carouselKeys, [:], removing: ["adb_items"])), .apns), "ios-carousel-items", .error, at: "$.adb_items")
        F.expectNone(F.check(F.apns(F.templateAps, F.carouselKeys), .apns), "ios-carousel-items")
    }

    @Test("an iOS carousel with no item image shows the fallback")
    func iosCarouselNoImage() {
        let payload = F.apns(F.templateAps, F.merged(F.carouselKeys, ["adb_items": [["txt": "a"], ["img": ""]]]))
        F.expectOne(F.check(payload, .apns), "ios-carousel-no-image", .error, at: "$.adb_items")
        F.expectOne(F.check(F.apns(F.templateAps, F.merged(F.carouselKeys, ["adb_items": []])), .apns), "ios-carousel-no-image", .error, at: "$.adb_items")
        let one = F.apns(F.templateAps, F.merged(F.carouselKeys, ["adb_items": [["img": "https://x.com/1.png"]]]))
        F.expectNone(F.check(one, .apns), "ios-carousel-no-image")
    }

    @Test("an iOS carousel item without img is dropped with a warning")
    func iosCarouselItemImage() {
        let payload = F.apns(F.templateAps, F.merged(F.carouselKeys, ["adb_items": [["img": "https://x.com/1.png"], ["txt": "no image"]]]))
        F.expectOne(F.check(payload, .apns, intentPaths: true), "ios-carousel-item-image", .warning, at: "$.carousel.items[1]", payloadPath: "$.adb_items[1]")
        F.expectNone(F.check(F.apns(F.templateAps, F.carouselKeys), .apns), "ios-carousel-item-image")
    }

    // MARK: - iOS: timer

    @Test("an iOS timer needs adb_title_alt")
    func iosTimerAlternateTitle() {
        let payload = F.apns(F.templateAps, F.merged(F.timerKeys, [:], removing: ["adb_title_alt"]))
        F.expectOne(F.check(payload, .apns, intentPaths: true), "ios-timer-alternate-title", .error, at: "$.expired.title", payloadPath: "$.adb_title_alt")
        F.expectNone(F.check(F.apns(F.templateAps, F.timerKeys), .apns), "ios-timer-alternate-title")
    }

    @Test("an iOS timer needs adb_tmr_dur or adb_tmr_end")
    func iosTimerMissing() {
        let payload = F.apns(F.templateAps, F.merged(F.timerKeys, [:], removing: ["adb_tmr_dur"]))
        F.expectOne(F.check(payload, .apns, intentPaths: true), "ios-timer-missing", .error, at: "$.timer", payloadPath: "$.adb_tmr_dur")
        let end = F.apns(F.templateAps, F.merged(F.timerKeys, ["adb_tmr_end": .string(String(F.now + 60))], removing: ["adb_tmr_dur"]))
        F.expectClean(F.check(end, .apns))
    }

    @Test("iOS timer values are numbers of seconds: a duration whole, an end time with a fraction too")
    func iosTimerValue() {
        F.expectOne(F.check(F.apns(F.templateAps, F.merged(F.timerKeys, ["adb_tmr_dur": "10s"])), .apns), "ios-timer-value", .error, at: "$.adb_tmr_dur")
        let end = F.apns(F.templateAps, F.merged(F.timerKeys, ["adb_tmr_end": "soon"], removing: ["adb_tmr_dur"]))
        F.expectOne(F.check(end, .apns, intentPaths: true), "ios-timer-value", .error, at: "$.timer.endsAt")
        F.expectNone(F.check(F.apns(F.templateAps, F.timerKeys), .apns), "ios-timer-value")
        // adobe/aepsdk-ui-ios TimerTemplateTest.test_withEndTimeStamp sends
        // Date().timeIntervalSince1970 + 15, a fraction, which iOS reads with TimeInterval(String).
        let fraction = F.apns(F.templateAps, F.merged(F.timerKeys, ["adb_tmr_end": .string("\(F.now + 15).25")], removing: ["adb_tmr_dur"]))
        F.expectClean(F.check(fraction, .apns))
        let pastFraction = F.apns(F.templateAps, F.merged(F.timerKeys, ["adb_tmr_end": .string("\(F.now - 15).25")], removing: ["adb_tmr_dur"]))
        F.expectOne(F.check(pastFraction, .apns), "ios-timer-expired", .warning, at: "$.adb_tmr_end")
        // The thirty-fourth audit, F4: a duration is read as TimeInterval(String) too, so a
        // fraction counts down, and 0 or less shows the alternate content at once.
        F.expectClean(F.check(F.apns(F.templateAps, F.merged(F.timerKeys, ["adb_tmr_dur": "10.5"])), .apns))
        for duration: JSONValue in ["0", "-5"] {
            let over = F.check(F.apns(F.templateAps, F.merged(F.timerKeys, ["adb_tmr_dur": duration])), .apns)
            F.expectNone(over, "ios-timer-value")
            F.expectOne(over, "ios-timer-expired", .warning, at: "$.adb_tmr_dur")
        }
        // F5: an end the duration leaves unread is a warning.
        F.expectOne(F.check(F.apns(F.templateAps, F.merged(F.timerKeys, ["adb_tmr_end": "abc"])), .apns), "ios-timer-value", .warning, at: "$.adb_tmr_end")
    }

    /// Source: client-rules.md (iOS car: "manual" or "auto", anything else auto); the
    /// thirty-fourth audit, F8.
    @Test("an iOS carousel mode other than auto or manual is a warning that iOS shows an auto carousel")
    func iosCarouselMode() {
        let mode = F.check(F.apns(F.templateAps, F.merged(F.carouselKeys, ["adb_car_mode": "Manual"])), .apns)
        F.expectOne(mode, "ios-carousel-mode", .warning, at: "$.adb_car_mode")
        F.expectNone(F.check(F.apns(F.templateAps, F.merged(F.carouselKeys, ["adb_car_mode": "manual"])), .apns), "ios-carousel-mode")
    }

    @Test("an iOS timer already past warns that the alternate content shows")
    func iosTimerExpired() {
        let past = F.apns(F.templateAps, F.merged(F.timerKeys, ["adb_tmr_end": "1703462400"], removing: ["adb_tmr_dur"]))
        F.expectOne(F.check(past, .apns, intentPaths: true), "ios-timer-expired", .warning, at: "$.timer.endsAt", payloadPath: "$.adb_tmr_end")
        F.expectNone(F.check(F.apns(F.templateAps, F.merged(F.timerKeys, ["adb_tmr_end": "1703462400"])), .apns), "ios-timer-expired")
    }

    // MARK: - iOS: plain

    @Test("a plain payload with adb_media needs mutable-content 1")
    func iosMediaWithoutMutableContent() {
        let payload = F.apns(F.plainAps, ["adb_media": "https://x.com/a.png"])
        F.expectOne(
            F.check(payload, .apns, intentPaths: true), "ios-media-without-mutable-content", .warning, at: "$.image", payloadPath: "$.adb_media")
        let mutable = F.apns(F.merged(F.plainAps, ["mutable-content": 1]), ["adb_media": "https://x.com/a.png"])
        F.expectClean(F.check(mutable, .apns))
    }

    @Test("a silent push that sets sound or badge warns")
    func iosSilentPushAlerts() {
        let silent = F.apns(["content-available": 1, "sound": "ding", "badge": 2])
        let diagnostics = F.check(silent, .apns, intentPaths: true)
        #expect(diagnostics.filter { $0.rule == "ios-silent-push-alerts" }.map(\.path) == ["$.sound", "$.badge"])
        #expect(diagnostics.allSatisfy { $0.severity == .warning })
        F.expectClean(F.check(F.apns(["content-available": 1]), .apns))
        F.expectClean(F.check(F.apns(F.merged(F.plainAps, ["content-available": 1, "sound": "ding"])), .apns))
    }
}
