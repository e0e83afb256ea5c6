import PushmapJSON
import PushmapPreview
import Testing

/// The readers on hand-made payloads: the cases pushmap's own checks refuse to translate, which
/// a phone still meets (a payload from another tool, a custom script's).
@Suite("Preview readers")
struct PreviewReaderTests {
    private func fcm(_ data: JSONObject) -> JSONValue { ["message": ["data": .object(data)]] }

    @Test("Android: a carousel of fewer than 3 images shows the basic template")
    func androidCarouselFallback() throws {
        let items = #"[{"img":"https://a/1.png","txt":"one"},{"txt":"no image"},{"img":"https://a/3.png"}]"#
        let preview = AndroidPreviewReader(now: 0).read(fcm([
            "adb_version": "1", "adb_template_type": "car", "adb_title": "t", "adb_body": "b",
            "adb_car_layout": "default", "adb_items": .string(items),
        ]))
        #expect(preview.layout == "basic")
        #expect(preview.views.map(\.fallback) == ["basic", "basic"])
        #expect(preview.views.allSatisfy { $0.carousel == nil })
        #expect(preview.keys.first { $0.key == "adb_items" }?.verdict == .ignores)
    }

    @Test("Android: a missing required key or a bad action type shows nothing")
    func androidNotShown() {
        let missing = AndroidPreviewReader(now: 0).read(fcm(["adb_version": "1", "adb_template_type": "basic", "adb_title": "t"]))
        #expect(missing.views.isEmpty)
        #expect(missing.notes.contains { $0.contains("adb_body is missing") })
        let badAction = AndroidPreviewReader(now: 0).read(fcm([
            "adb_version": "1", "adb_template_type": "basic", "adb_title": "t", "adb_body": "b", "adb_a_type": "weburl",
        ]))
        #expect(badAction.views.isEmpty)
    }

    /// Source: adobe-templates.md (only BasicNotificationBuilder and LegacyNotificationBuilder
    /// add the buttons and remind later); index.json legacy-01; the thirty-sixth audit, F3.
    @Test("Android: a type notificationbuilder does not know draws the buttons and remind later, as its legacy builder does")
    func androidLegacy() {
        let preview = AndroidPreviewReader(now: 0).read(fcm([
            "adb_version": "1", "adb_template_type": "some unknown type", "adb_title": "t", "adb_body": "b",
            "adb_act": #"[{"label":"Go","type":"WEBURL","uri":"https://e.com"}]"#, "adb_rem_txt": "Later", "adb_rem_sec": "600",
        ]))
        #expect(preview.views.last?.buttons == ["Go", "Later"])
        let verdicts = Dictionary(uniqueKeysWithValues: preview.keys.map { ($0.key, $0.verdict) })
        #expect(verdicts["adb_act"] == .shows && verdicts["adb_rem_txt"] == .shows && verdicts["adb_rem_sec"] == .uses)
    }

    /// Source: client-rules.md (iOS attaches media only for https); the thirty-sixth audit, F11:
    /// the expanded view drew an http image the ios-media-https warning said showed none.
    @Test("iOS: an http image is drawn nowhere, as the warning says")
    func iOSHTTPImage() {
        let payload: JSONValue = [
            "aps": ["alert": ["title": "t", "body": "b"], "category": "AEPNotification", "mutable-content": 1],
            "adb_template_type": "basic", "adb_version": "1", "adb_media": "http://e.com/i.png",
        ]
        let preview = IOSPreviewReader(now: 0).read(payload)
        #expect(preview.views.allSatisfy { $0.image == nil && $0.thumbnail == nil })
        #expect(preview.keys.first { $0.key == "adb_media" }?.verdict == .ignores)
        // A carousel's http items show no image either (the thirty-eighth audit, F1).
        let carousel = IOSPreviewReader(now: 0).read([
            "aps": ["alert": ["title": "t", "body": "b"], "category": "AEPNotification", "mutable-content": 1], "adb_template_type": "car",
            "adb_items": [["img": "http://e.com/1.png"], ["img": "https://e.com/2.png"]],
        ])
        #expect(carousel.views.compactMap(\.carousel).first?.items.map(\.image) == [nil, "https://e.com/2.png"])
    }

    /// Source: the thirty-eighth audit, F2: a payload drawn as its fallback, or as nothing, kept a
    /// key table of what the template would have shown.
    @Test("Android: the key table says what is drawn: nothing shows when nothing is shown, a carousel's keys unread in its basic fallback")
    func androidKeysFollowTheDrawing() {
        let catalog = AndroidPreviewReader(now: 0).read(fcm(["adb_version": "1", "adb_template_type": "cat", "adb_title": "t", "adb_body": "b", "adb_items": "[]"]))
        #expect(catalog.views.isEmpty)
        #expect(!catalog.keys.contains { $0.verdict == .shows })
        let items = #"[{"img":"https://a/1.png"},{"img":"https://a/2.png"}]"#
        let carousel = AndroidPreviewReader(now: 0).read(fcm([
            "adb_version": "1", "adb_template_type": "car", "adb_title": "t", "adb_body": "b", "adb_car_mode": "manual", "adb_car_layout": "default", "adb_items": .string(items),
        ]))
        let verdicts = Dictionary(uniqueKeysWithValues: carousel.keys.map { ($0.key, $0.verdict) })
        #expect(verdicts["adb_car_mode"] == .ignores && verdicts["adb_car_layout"] == .ignores)
    }

    @Test("Android: plain reads only the generic keys")
    func androidPlain() {
        let preview = AndroidPreviewReader(now: 0).read(fcm(["adb_title": "t", "adb_body": "b", "adb_body_ex": "more", "adb_clr_bg": "000000", "game": "552"]))
        #expect(preview.layout == "plain")
        let verdicts = Dictionary(uniqueKeysWithValues: preview.keys.map { ($0.key, $0.verdict) })
        #expect(verdicts == ["adb_title": .shows, "adb_body": .shows, "adb_body_ex": .ignores, "adb_clr_bg": .ignores, "game": .uses])
        // Without adb_title the messaging SDK does not take it for Adobe's: nothing is drawn.
        let silent = AndroidPreviewReader(now: 0).read(fcm(["sync": "inbox"]))
        #expect(silent.views.isEmpty)
        #expect(silent.keys.map(\.verdict) == [.uses])
    }

    @Test("colours: Android reads AARRGGBB and refuses '#', iOS reads RRGGBBAA with or without '#'")
    func colours() {
        #expect(PreviewColor.android("80112233")?.css == "rgba(17, 34, 51, 0.501)")
        #expect(PreviewColor.android("#112233") == nil)
        #expect(PreviewColor.android("11223") == nil)
        #expect(PreviewColor.iOS("#11223380")?.css == "rgba(17, 34, 51, 0.501)")
        #expect(PreviewColor.iOS("AABBCC")?.css == "#AABBCC")
        #expect(PreviewColor.iOS("GG0000") == nil)
    }

    @Test("iOS: adb_items as a string, or a number where a string is read, gives the fallback or is ignored")
    func iOSFallbacks() {
        let aps: JSONValue = ["alert": ["title": "t", "body": "b"], "category": "AEPNotification", "mutable-content": 1]
        let stringItems = IOSPreviewReader(now: 0).read(["aps": aps, "adb_template_type": "car", "adb_items": "[]"])
        #expect(stringItems.layout == "ios-default")
        #expect(stringItems.views.last?.fallback == "ios-default")
        let numberTimer = IOSPreviewReader(now: 0).read(["aps": aps, "adb_template_type": "timer", "adb_tmr_dur": 10, "adb_title_alt": "over"])
        #expect(numberTimer.layout == "ios-default")
        #expect(numberTimer.keys.first { $0.key == "adb_tmr_dur" }?.verdict == .ignores)
        let wrongCategory = IOSPreviewReader(now: 0).read(["aps": ["alert": ["title": "t", "body": "b"], "mutable-content": 1], "adb_template_type": "basic"])
        #expect(wrongCategory.layout == "ios-default")
    }

    @Test("iOS: a timer already run out shows the alternate content, keeping the image")
    func iOSExpiredTimer() {
        let aps: JSONValue = ["alert": ["title": "t", "body": "b"], "category": "AEPNotification", "mutable-content": 1]
        let preview = IOSPreviewReader(now: 2_000).read([
            "aps": aps, "adb_template_type": "timer", "adb_tmr_end": "1000", "adb_title_alt": "over", "adb_media": "https://a/1.png",
        ])
        #expect(preview.views.map(\.id) == ["collapsed", "expired-expanded"])
        #expect(preview.views.last?.title?.shown == "over")
        #expect(preview.views.last?.image == "https://a/1.png")
    }

    /// A payload of one of the Android-only templates: the common keys and `extra`.
    private func template(_ type: String, _ extra: JSONObject) -> PlatformPreview {
        var data: JSONObject = ["adb_version": "1", "adb_template_type": .string(type), "adb_title": "t", "adb_body": "b"]
        for (key, value) in extra { data[key] = value }
        return AndroidPreviewReader(now: 0).read(fcm(data))
    }

    private func shop(_ n: Int) -> String {
        #"{"title":"p\#(n)","body":"b\#(n)","img":"https://a/\#(n).png","price":"\#(n)","uri":"app://\#(n)"}"#
    }

    @Test("Android: a catalog without exactly 3 full items, or an SDK index out of range, shows nothing")
    func androidCatalogRefused() {
        let button: JSONObject = ["adb_cta_txt": "Buy", "adb_cta_clr": "112233", "adb_cta_txt_clr": "FFFFFF", "adb_cta_uri": "https://a", "adb_display": "vertical"]
        var two = button
        two["adb_items"] = .string("[\(shop(1)),\(shop(2))]")
        let refused = template("cat", two)
        #expect(refused.views.isEmpty)
        #expect(refused.notes.contains { $0.contains("3 catalog items are required, not 2") })
        #expect(refused.keys.first { $0.key == "adb_cta_txt" }?.verdict == .ignores) // nothing shows: nothing is drawn (the thirty-eighth audit, F2)
        var three = button
        three["adb_items"] = .string("[\(shop(1)),\(shop(2)),\(shop(3))]")
        three["catalogItemIndex"] = "1"
        let second = template("cat", three)
        #expect(second.views.map(\.id) == ["collapsed", "expanded-item-2", "expanded-item-1", "expanded-item-3"])
        #expect(second.keys.first { $0.key == "catalogItemIndex" }?.verdict == .uses)
        three["catalogItemIndex"] = "3"
        #expect(template("cat", three).notes.contains { $0.contains("the app crashes") })
        three["adb_cta_txt"] = nil
        #expect(template("cat", three).notes.contains { $0.contains("adb_cta_txt is missing") })
    }

    @Test("Android: one bad rating spoils them all; a preselected star shows from the start")
    func androidRating() {
        let icons: JSONObject = ["adb_rate_unselected_icon": "off", "adb_rate_selected_icon": "on"]
        var bad = icons
        bad["adb_rate_act"] = #"[{"type":"DISMISS"},{"type":"WEBURL"},{"type":"DISMISS"}]"#
        let refused = template("rate", bad)
        #expect(refused.views.isEmpty)
        #expect(refused.notes.contains { $0.contains("adb_rate_act entry 2 is WEBURL without a uri") })
        var good = icons
        good["adb_rate_act"] = #"[{"type":"DISMISS"},{"type":"OPENAPP"},{"type":"DEEPLINK","uri":"app://3"}]"#
        good["ratingSelected"] = "1"
        good["adb_image"] = "star_drawable"
        let chosen = template("rate", good)
        #expect(chosen.views.map(\.id) == ["collapsed", "expanded"])
        #expect(chosen.views.last?.rating?.selected == 1)
        #expect(chosen.views.last?.buttons == ["Confirm: opens the app"])
        // The rating template downloads its image: a drawable name is not shown.
        #expect(chosen.views.last?.image == nil)
        #expect(chosen.keys.first { $0.key == "adb_image" }?.verdict == .ignores)
    }

    @Test("Android: multi-icon skips the items it cannot use, and needs 3 left; no title or body needed")
    func androidMultiIcon() {
        let items = #"[{"img":"a","type":"OPENAPP"},{"type":"DISMISS"},{"img":"c","type":"weburl","uri":"https://c"},{"img":"d","type":""},{"img":"e","type":"WEBURL","uri":"https://e"}]"#
        let row = AndroidPreviewReader(now: 0).read(fcm(["adb_version": "1", "adb_template_type": "icon", "adb_items": .string(items), "adb_cancel_image": ""]))
        #expect(row.views.first?.iconRow?.icons.map(\.image) == ["a", "d", "e"])
        #expect(row.views.first?.iconRow?.close == "cross")
        #expect(row.notes.contains("Skipped: item 1 has no img."))
        #expect(row.notes.contains("Skipped: item 2's type \"weburl\" is unknown."))
        let tooFew = #"[{"img":"a","type":"OPENAPP"},{"img":"b","type":"DEEPLINK"},{"img":"c","type":"NONE"}]"#
        let refused = AndroidPreviewReader(now: 0).read(fcm(["adb_version": "1", "adb_template_type": "icon", "adb_items": .string(tooFew)]))
        #expect(refused.views.isEmpty)
        #expect(refused.notes.contains { $0.contains("2 usable icons after skipping, not 3 to 5") })
    }

    @Test("Android: zero bezel with a drawable name for its image is text only; the input hint defaults to Reply")
    func androidZeroBezelAndInput() {
        let zb = template("zb", ["adb_image": "hero", "adb_col_style": "IMG"])
        #expect(zb.views.allSatisfy { $0.image == nil })
        #expect(zb.views.first?.label == "Collapsed (text style)")
        #expect(zb.keys.first { $0.key == "adb_image" }?.verdict == .ignores)
        #expect(zb.keys.first { $0.key == "adb_col_style" }?.reason == "not \"img\": the text style, collapsed text only")
        let input = template("input", ["adb_input_receiver": "r", "adb_input_txt": ""])
        #expect(input.views.first { $0.id == "expanded" }?.reply?.hint == "Reply")
        #expect(template("input", [:]).notes.contains { $0.contains("adb_input_receiver is missing") })
    }

    @Test("text is cut after the guideline's characters, counted as people count them")
    func cuts() {
        let text = PreviewText(String(repeating: "🏖️", count: 40), limit: 35)
        #expect(text.isCut)
        #expect(text.shown.count == 36)
        #expect(!PreviewText("short", limit: 35).isCut)
    }

    @Test("HTML escaping and UTC times")
    func helpers() {
        #expect(HTMLEscape.text(#"<a href="x">'&'</a>"#) == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
        #expect(UTCTime.text(1_704_067_200) == "2024-01-01 00:00 UTC")
        #expect(UTCTime.text(1_703_462_400) == "2023-12-25 00:00 UTC")
    }
}
