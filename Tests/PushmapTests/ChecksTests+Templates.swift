import Logging
import Testing
@_spi(Tools) @testable import Pushmap
@_spi(Engine) import PushmapJSON

/// The rules of the templates only Android draws, and Campaign Classic's.
extension ChecksTests {
    static let icons = #"[{"img":"walk","type":"OPENAPP"},{"img":"bus","uri":"app://bus","type":"DEEPLINK"},{"img":"taxi","type":"DISMISS"}]"#
    static let stars = #"[{"type":"OPENAPP"},{"type":"DISMISS"},{"type":"WEBURL","uri":"https://e.com"}]"#
    static let products =
        #"[{"title":"A","body":"a","img":"https://e.com/a.png","price":"1","uri":"app://a"},{"title":"B","body":"b","img":"https://e.com/b.png","price":"2","uri":"app://b"},{"title":"C","body":"c","img":"https://e.com/c.png","price":"3","uri":"app://c"}]"#
    static let catalogData = F.merged(F.basicData, [
        "adb_template_type": "cat", "adb_cta_txt": "Buy", "adb_cta_clr": "2D5A4B", "adb_cta_txt_clr": "FFFFFF",
        "adb_cta_uri": "https://e.com/cart", "adb_display": "vertical", "adb_items": .string(products),
    ])

    @Test("a valid payload of each of the five templates passes")
    func androidOnlyTemplatesPass() {
        let payloads: [JSONObject] = [
            F.merged(F.basicData, ["adb_template_type": "input", "adb_input_receiver": "answer"]),
            F.merged(F.basicData, ["adb_template_type": "zb", "adb_image": "https://e.com/a.png", "adb_col_style": "img"]),
            Self.catalogData,
            F.merged(F.basicData, ["adb_template_type": "rate", "adb_rate_unselected_icon": "s0", "adb_rate_selected_icon": "s1", "adb_rate_act": .string(Self.stars)]),
            ["adb_version": "1", "adb_template_type": "icon", "adb_items": .string(Self.icons)],
        ]
        for data in payloads { F.expectClean(F.check(F.fcm(data), .fcm)) }
    }

    @Test("each template's required keys: missing, the notification is not shown")
    func templateRequiredKeys() {
        let missing = F.check(F.fcm(F.merged(Self.catalogData, [:], removing: ["adb_cta_clr"])), .fcm, intentPaths: true)
        F.expectOne(missing, "android-template-required-key", .error, at: "$.catalog.button.color", payloadPath: "$.message.data.adb_cta_clr")
        let input = F.check(F.fcm(F.merged(F.basicData, ["adb_template_type": "input"])), .fcm)
        F.expectOne(input, "android-template-required-key", .error, at: "$.message.data.adb_input_receiver")
    }

    @Test("a catalog is exactly three items, every field given, images as URLs", arguments: [
        (#"[{"title":"A","body":"a","img":"https://e.com/a.png","price":"1","uri":"app://a"}]"#, "$.catalog.items"),
        (#"[{"title":"A","body":"a","img":"a_drawable","price":"1","uri":"app://a"},{"title":"B","body":"b","img":"https://e.com/b.png","price":"2","uri":"app://b"},{"title":"C","body":"c","img":"https://e.com/c.png","price":"3","uri":"app://c"}]"#, "$.catalog.items[0].image"),
        (#"[{"title":"A","img":"https://e.com/a.png","price":"1","uri":"app://a"},{"title":"B","body":"b","img":"https://e.com/b.png","price":"2","uri":"app://b"},{"title":"C","body":"c","img":"https://e.com/c.png","price":"3","uri":"app://c"}]"#, "$.catalog.items[0].body"),
        ("not json", "$.catalog.items"),
    ])
    func catalogItems(items: String, path: String) {
        let findings = F.check(F.fcm(F.merged(Self.catalogData, ["adb_items": .string(items)])), .fcm, intentPaths: true)
        F.expectOne(findings, "android-catalog-items", .error, at: path)
    }

    @Test("one bad rating action and Android shows no rating; 3 to 5 actions")
    func ratingActions() {
        let base = F.merged(F.basicData, ["adb_template_type": "rate", "adb_rate_unselected_icon": "s0", "adb_rate_selected_icon": "s1"])
        let bad = #"[{"type":"OPENAPP"},{"type":"WEBURL"},{"type":"DISMISS"}]"#
        F.expectOne(F.check(F.fcm(F.merged(base, ["adb_rate_act": .string(bad)])), .fcm, intentPaths: true), "android-rating-actions", .error, at: "$.rating.stars[1]")
        let lower = #"[{"type":"OPENAPP"},{"type":"openapp"},{"type":"DISMISS"}]"#
        F.expectOne(F.check(F.fcm(F.merged(base, ["adb_rate_act": .string(lower)])), .fcm), "android-rating-actions", .error, at: "$.message.data.adb_rate_act[1]")
        let two = #"[{"type":"OPENAPP"},{"type":"DISMISS"}]"#
        F.expectOne(F.check(F.fcm(F.merged(base, ["adb_rate_act": .string(two)])), .fcm), "android-rating-actions", .error, at: "$.message.data.adb_rate_act")
    }

    /// Source: adobe-templates.md 3.4 (which keys each Android-only template's layout reads; only
    /// the basic and legacy builders add buttons and remind-later); the thirty-fourth audit, F9.
    @Test("a key an Android-only template never reads is a warning, remind-later's keys once")
    func templateIgnoredKeys() {
        let zb = F.merged(F.basicData, [
            "adb_template_type": "zb", "adb_act": #"[{"label":"a","type":"OPENAPP"}]"#, "adb_rem_txt": "Later", "adb_rem_sec": "60",
            "adb_large_icon": "https://e.com/i.png",
        ])
        let found = F.check(F.fcm(zb), .fcm).filter { $0.rule == "android-template-ignored-key" }
        #expect(found.map(\.path) == ["$.message.data.adb_act", "$.message.data.adb_rem_txt", "$.message.data.adb_large_icon"], "\(found)")
        #expect(found.allSatisfy { $0.severity == .warning })
        // The basic template reads them all.
        let basic = F.merged(zb, ["adb_template_type": "basic"])
        F.expectNone(F.check(F.fcm(basic), .fcm), "android-template-ignored-key")
    }

    /// Source: client-rules.md (each template's builder reads its own keys; plain reads only the
    /// generic ones), adobe-templates.md 3.2 (adb_col_style is zb's); Adobe's test payloads
    /// basic-05 (adb_col_style on a basic map) and car-31 (timer keys on an iOS carousel),
    /// shown without them; the forty-fourth audit, Adobe F2.
    @Test("a key of another template is a warning naming the templates that read it; plain and the unknown types are left alone")
    func otherTemplateKeys() {
        let basic = F.merged(F.basicData, ["adb_col_style": "img", "adb_input_receiver": "r"])
        let android = F.check(F.fcm(basic), .fcm).filter { $0.rule == "android-other-template-key" }
        #expect(android.map(\.path) == ["$.message.data.adb_col_style", "$.message.data.adb_input_receiver"], "\(android)")
        #expect(android.allSatisfy { $0.severity == .warning })
        #expect(android.first?.message == "adb_col_style is read by the zb template only: Android's basic template code ignores it")
        // adb_items belongs to three templates; the timer reads none of them.
        let timer = F.check(F.fcm(F.merged(F.timerData, ["adb_items": .string(F.threeItems)])), .fcm)
        F.expectOne(timer, "android-other-template-key", .warning, at: "$.message.data.adb_items")
        #expect(timer.first { $0.rule == "android-other-template-key" }?.message.contains("read by the car, cat, icon templates only") == true)
        // zb reads its own key; plain and an unknown type are not judged by it.
        F.expectNone(F.check(F.fcm(F.merged(basic, ["adb_template_type": "zb", "adb_image": "https://e.com/i.png"], removing: ["adb_input_receiver"])), .fcm), "android-other-template-key")
        F.expectNone(F.check(F.fcm(F.merged(basic, [:], removing: ["adb_template_type"])), .fcm), "android-other-template-key")
        F.expectNone(F.check(F.fcm(F.merged(basic, ["adb_template_type": "bogus"])), .fcm), "android-other-template-key")
        // iOS: the timer's keys on a carousel.
        let carousel = F.check(F.apns(F.templateAps, F.merged(F.carouselKeys, ["adb_tmr_end": "1767225600", "adb_body_alt": "x"])), .apns)
        let ios = carousel.filter { $0.rule == "ios-other-template-key" }
        #expect(ios.map(\.path) == ["$.adb_tmr_end", "$.adb_body_alt"] || ios.map(\.path) == ["$.adb_body_alt", "$.adb_tmr_end"], "\(ios)")
        F.expectNone(F.check(F.apns(F.templateAps, F.timerKeys), .apns), "ios-other-template-key")
    }

    /// Source: client-rules.md (remind later is adb_rem_txt plus adb_rem_ts, or adb_rem_sec when
    /// over 0; adb_uri opens on a tap except under DISMISS; iOS templates take their buttons from
    /// the app's categories) and the "why" of Adobe's test payload basic-05; the forty-fourth
    /// audit, Adobe F3, F4 and F5.
    @Test("a remind-later label with no time, a uri under DISMISS and adb_act on an iOS template are warnings")
    func ignoredByTheClients() {
        let label = F.check(F.fcm(F.merged(F.basicData, ["adb_rem_txt": "Later"])), .fcm)
        F.expectOne(label, "android-remind-later-time", .warning, at: "$.message.data.adb_rem_txt")
        F.expectOne(F.check(F.fcm(F.merged(F.basicData, ["adb_rem_txt": "Later", "adb_rem_sec": "0"])), .fcm), "android-remind-later-time", .warning, at: "$.message.data.adb_rem_txt")
        for time: JSONObject in [["adb_rem_sec": "60"], ["adb_rem_ts": "1900000000"], ["adb_rem_sec": "0", "adb_rem_ts": "1900000000"]] {
            F.expectNone(F.check(F.fcm(F.merged(F.merged(F.basicData, ["adb_rem_txt": "Later"]), time)), .fcm), "android-remind-later-time")
        }
        let dismiss = F.check(F.fcm(F.merged(F.basicData, ["adb_a_type": "DISMISS", "adb_uri": "https://e.com"])), .fcm)
        F.expectOne(dismiss, "android-dismiss-uri", .warning, at: "$.message.data.adb_uri")
        F.expectNone(F.check(F.fcm(F.merged(F.basicData, ["adb_a_type": "WEBURL", "adb_uri": "https://e.com"])), .fcm), "android-dismiss-uri")
        F.expectNone(F.check(F.fcm(F.merged(F.basicData, ["adb_a_type": "DISMISS"])), .fcm), "android-dismiss-uri")
        let actions: JSONObject = ["adb_act": [["label": "Open", "type": "OPENAPP"]]]
        F.expectOne(F.check(F.apns(F.templateAps, F.merged(F.basicKeys, actions)), .apns), "ios-template-actions", .warning, at: "$.adb_act")
        // The plain iOS payload may carry buttons.
        F.expectNone(F.check(F.apns(F.plainAps, actions), .apns), "ios-template-actions")
    }

    /// Source: adobe-templates.md 4.4 ("Image for unselected rating icon is invalid" when it
    /// neither downloads nor names a drawable; the selected one is read on a tap); the
    /// thirty-fourth audit, F6.
    @Test("an empty unselected star icon is an error (nothing shows), an empty selected one a warning")
    func ratingIcons() {
        let base = F.merged(F.basicData, ["adb_template_type": "rate", "adb_rate_act": .string(Self.stars)])
        let unselected = F.check(F.fcm(F.merged(base, ["adb_rate_unselected_icon": "", "adb_rate_selected_icon": "s1"])), .fcm, intentPaths: true)
        F.expectOne(unselected, "android-rating-icon", .error, at: "$.rating.unselectedIcon")
        let selected = F.check(F.fcm(F.merged(base, ["adb_rate_unselected_icon": "s0", "adb_rate_selected_icon": " "])), .fcm)
        F.expectOne(selected, "android-rating-icon", .warning, at: "$.message.data.adb_rate_selected_icon")
        F.expectNone(F.check(F.fcm(F.merged(base, ["adb_rate_unselected_icon": "s0", "adb_rate_selected_icon": "s1"])), .fcm), "android-rating-icon")
    }

    @Test("a bad icon is left out with a warning; fewer than 3 usable icons is one error naming the bad ones")
    func iconItems() {
        let base: JSONObject = ["adb_version": "1", "adb_template_type": "icon"]
        let four = #"[{"img":"","type":"OPENAPP"},{"img":"a","type":"OPENAPP"},{"img":"b","type":""},{"img":"c","type":"DEEPLINK","uri":"app://c"}]"#
        let findings = F.check(F.fcm(F.merged(base, ["adb_items": .string(four)])), .fcm)
        F.expectOne(findings, "android-icon-items", .warning, at: "$.message.data.adb_items[0]")
        let two = #"[{"img":"a","type":"OPENAPP"},{"img":"b","type":"DEEPLINK"},{"img":"c","type":"OPENAPP"}]"#
        let short = F.check(F.fcm(F.merged(base, ["adb_items": .string(two)])), .fcm).filter { $0.rule == "android-icon-items" }
        // Too few left: the count's one error names the icon left out.
        #expect(short.map(\.severity) == [.error], "\(short)")
        #expect(short.first?.message.contains("icon 1 is DEEPLINK without a uri") == true, "\(short)")
        F.expectOne(F.check(F.fcm(F.merged(base, ["adb_items": "{}"])), .fcm), "android-icon-items", .error, at: "$.message.data.adb_items")
    }

    @Test("the SDK's own keys: out of range an error (the app crashes), else a warning")
    func sdkInternalKeys() {
        F.expectOne(F.check(F.fcm(F.merged(Self.catalogData, ["catalogItemIndex": "3"])), .fcm), "android-sdk-internal-key", .error, at: "$.message.data.catalogItemIndex")
        F.expectOne(F.check(F.fcm(F.merged(Self.catalogData, ["catalogItemIndex": "1"])), .fcm), "android-sdk-internal-key", .warning, at: "$.message.data.catalogItemIndex")
        let rate = F.merged(F.basicData, ["adb_template_type": "rate", "adb_rate_unselected_icon": "s0", "adb_rate_selected_icon": "s1", "adb_rate_act": .string(Self.stars)])
        F.expectOne(F.check(F.fcm(F.merged(rate, ["ratingSelected": "3"])), .fcm), "android-sdk-internal-key", .error, at: "$.message.data.ratingSelected")
        F.expectOne(F.check(F.fcm(F.merged(rate, ["ratingSelected": "2"])), .fcm), "android-sdk-internal-key", .warning, at: "$.message.data.ratingSelected")
    }

    @Test("zb and rate images are URLs only: a drawable name shows no image")
    func urlOnlyImages() {
        let zb = F.merged(F.basicData, ["adb_template_type": "zb", "adb_image": "hero"])
        F.expectOne(F.check(F.fcm(zb), .fcm, intentPaths: true), "android-zero-bezel-image", .warning, at: "$.image")
        #expect(AndroidTemplateRules.isURL(UnsafeRawBufferPointer(start: nil, count: 0)) == false)
        for (text, expected) in [("https://e.com/a.png", true), ("HTTP://e.com", true), ("ftp://e.com/a", true), ("myapp://a", false), ("star", false)] {
            var text = text
            let answer = text.withUTF8 { AndroidTemplateRules.isURL(UnsafeRawBufferPointer($0)) }
            #expect(answer == expected, "\(text)")
        }
    }

    @Test("Campaign Classic: both ids, and a non-empty body (its extension reads an empty one as absent)")
    func campaignClassic() {
        let ids: JSONObject = ["_mId": "m1", "_dId": "d1"]
        F.expectNone(F.check(F.fcm(F.merged(F.basicData, ids)), .fcm), "android-campaign-classic")
        F.expectOne(F.check(F.fcm(F.merged(F.basicData, ["_mId": "m1"])), .fcm), "android-campaign-classic", .error, at: "$.message.data._dId")
        let empty = F.check(F.fcm(F.merged(F.basicData, F.merged(ids, ["adb_body": ""]))), .fcm, intentPaths: true)
        F.expectOne(empty, "android-campaign-classic", .error, at: "$.body")
        // With _msg, or for icon, an empty body is fine; without the ids, the library alone reads it.
        F.expectNone(F.check(F.fcm(F.merged(F.basicData, F.merged(ids, ["adb_body": "", "_msg": "hello"]))), .fcm), "android-campaign-classic")
        F.expectNone(F.check(F.fcm(F.merged(F.basicData, ["adb_body": ""])), .fcm), "android-campaign-classic")
        // Without adb_template_type the extension draws a basic notification (adobe-templates.md:
        // the UNKNOWN type goes to LegacyNotificationBuilder, adb_version, adb_title, adb_body required).
        let untyped = F.check(.object(["message": ["token": "t", "data": ["adb_title": "T", "adb_body": "", "_mId": "m1", "_dId": "d1"]]]), .fcm)
        #expect(untyped.filter { $0.rule == "android-campaign-classic" }.map(\.path) == ["$.message.data.adb_version", "$.message.data.adb_body"])
        F.expectNone(F.check(.object(["message": ["token": "t", "data": ["adb_version": "1", "adb_title": "T", "adb_body": "B", "_mId": "m1", "_dId": "d1"]]]), .fcm), "android-campaign-classic")
        // A plain intent for Campaign Classic writes the adb_version it draws with, from `version`
        // when given, with no warning that plain ignores it (the thirty-fourth audit, F9).
        let translator = try? Translator(logger: Logger(label: "test"))
        let plain = try? translator?.translate(Array(#"{"title": "T", "body": "B", "version": "2", "campaignClassic": {"messageId": "m", "deliveryId": "d"}}"#.utf8), platforms: [.fcm])
        #expect(plain?.payloads[.fcm]?["message"]?["data"]?["adb_version"] == "2", "\(String(describing: plain))")
        #expect(plain?.diagnostics.isEmpty == true, "\(String(describing: plain?.diagnostics))")
        #expect(CampaignClassicRule.messageIDPrint == KeyPrint("_mId"))
        #expect(CampaignClassicRule.deliveryIDPrint == KeyPrint("_dId"))
    }
}
