import Foundation
import Testing

/// `pushmap preview` of the templates only Android's notificationbuilder has (input, zb, cat, rate,
/// icon), end to end through the built binary, from the templates' own fixtures: each drawn in its
/// own layout, each key it reads given its role, and what iOS shows instead.
@Suite("pushmap preview: Android-only templates")
struct PreviewTemplateTests {
    /// What the text form of a template's rich fixture must hold.
    struct TextCase: CustomTestStringConvertible, Sendable {
        let template: String
        let lines: [String]
        /// Keys the template reads: never called ignored.
        let readKeys: [String]
        var testDescription: String { template }
    }

    static let textCases: [TextCase] = [
        TextCase(template: "input", lines: [
            "[Expanded, before a reply]",
            "    reply:    [Answer] button, then a field with the hint \"Answer\" (the app gets the text as \"orderFeedback\")",
            "[Expanded, after a reply]",
            "    body:     Thanks, we read every answer.",
            "    image:    [https://shop.example.com/img/thanks.png]",
            "uses    adb_input_receiver  the name the typed reply is handed to the app under",
            "shows   adb_feedback_txt    body after a reply, collapsed and expanded",
        ], readKeys: ["adb_input_receiver", "adb_input_txt", "adb_feedback_txt", "adb_feedback_img", "adb_image", "adb_body_ex"]),
        TextCase(template: "zb", lines: [
            "[Collapsed (image style)]",
            "    image:    [https://shop.example.com/img/autumn.png] edge to edge, the text over it",
            "uses    adb_col_style      collapsed style: the image shows collapsed too",
            "background colour #000000 (read as RRGGBB), expanded view only",
        ], readKeys: ["adb_col_style", "adb_image", "adb_clr_bg"]),
        TextCase(template: "cat", lines: [
            "[Expanded, item 1 of 3 large (vertical display)]",
            "    title:    Red",
            "    price:    $25",
            "    button:   [Buy now] (colour #2D5A4B, text #FFFFFF)",
            "[Expanded, after a tap on thumbnail 3 (vertical display)]",
            "shows   adb_cta_txt        the call-to-action button's label",
            "uses    adb_display        vertical display: item image, title, body and price",
        ], readKeys: ["adb_cta_txt", "adb_cta_clr", "adb_cta_txt_clr", "adb_cta_uri", "adb_display", "adb_items"]),
        TextCase(template: "rate", lines: [
            "[Expanded, before a tap]",
            "    stars:    ☆ ☆ ☆ ☆ ☆  (selected [star_filled], unselected [star_outline])",
            "[Expanded, after a tap on star 5 of 5]",
            "    stars:    ★ ★ ★ ★ ★  (star 5 tapped; selected [star_filled], unselected [star_outline])",
            "    buttons:  [Confirm: opens https://shop.example.com/review?stars=5]",
            "5 stars, one action each: 1 dismisses; 2 dismisses; 3 opens shopapp://feedback/3",
        ], readKeys: ["adb_rate_act", "adb_rate_selected_icon", "adb_rate_unselected_icon", "adb_image"]),
        TextCase(template: "icon", lines: [
            "    icons:    [ic_walk] [ic_bus] [https://shop.example.com/img/taxi.png] [ic_close]",
            "      4: dismisses",
            "    close:    [ic_cross]",
            "shows   adb_items          4 icons in a row",
            "ignores adb_title          the multi-icon template shows no text",
        ], readKeys: ["adb_items", "adb_cancel_image", "adb_small_icon", "adb_clr_bg"]),
    ]

    @Test("the text form draws the template's own layout and gives the keys it reads their roles", arguments: textCases)
    func textForm(_ test: TextCase) throws {
        let result = try CommandRunner.run(["preview", "--platform", "fcm", "templates/\(test.template).test/rich.json"])
        #expect(result.status == 0, "\(result.stderr)")
        let text = result.stdout
        // The fixture is drawn at its time (2024-01-01, the fixtures' default).
        #expect(text.hasPrefix("templates/\(test.template).test/rich.json: template \(test.template), arriving at 2024-01-01 00:00 UTC"), "\(text)")
        #expect(text.contains("== Android (FCM): Adobe's notificationbuilder, \(test.template) template"))
        #expect(!text.contains("drawn here as basic"))
        for line in test.lines { #expect(text.contains(line), "no \(line) in\n\(text)") }
        let typeLine = text.split(separator: "\n").first { $0.contains(" adb_template_type ") } ?? ""
        #expect(typeLine.hasPrefix("    uses ") && typeLine.hasSuffix("chooses the \(test.template) layout"), "\(typeLine)")
        for key in test.readKeys {
            #expect(!text.contains("ignores \(key) "), "\(key) called ignored in\n\(text)")
            #expect(text.contains("shows   \(key) ") || text.contains("uses    \(key) "), "\(key) not listed in\n\(text)")
        }
    }

    @Test("rate on a page: the stars with their icons before and after a tap, and the confirm button")
    func ratePage() throws {
        let android = try drawnPreview(["--platform", "fcm", "templates/rate.test/rich.json"]).platform("fcm")
        #expect(android.contains(#"data-layout="rate""#))
        #expect(android.values(of: "data-view") == ["collapsed", "expanded", "expanded-rated"])
        let before = android.view("expanded"), after = android.view("expanded-rated")
        // Five stars in each appearance: all unselected before a tap, all selected after a tap on the fifth.
        #expect(before.values(of: "data-state") == Array(repeating: "unselected", count: 10))
        #expect(Set(before.values(of: "data-icon")) == ["star_outline"])
        #expect(after.values(of: "data-state") == Array(repeating: "selected", count: 10))
        #expect(Set(after.values(of: "data-icon")) == ["star_filled"])
        #expect(after.texts("button").first == "Confirm: opens https://shop.example.com/review?stars=5")
        #expect(before.texts("button").isEmpty)
        #expect(before.values(of: "data-url").contains("https://shop.example.com/img/order.png"))
        for key in ["adb_rate_act", "adb_rate_selected_icon", "adb_rate_unselected_icon", "adb_image", "adb_body_ex"] {
            #expect(android.keys("shows").contains(key), "\(key)")
        }
        #expect(android.keys("ignores").isEmpty)
        #expect(!android.texts("note").contains { $0.contains("as basic") })
    }

    @Test("cat on a page: the large item, its price, the thumbnails and the coloured call-to-action button")
    func catalogPage() throws {
        let android = try drawnPreview(["--platform", "fcm", "templates/cat.test/rich.json"]).platform("fcm")
        #expect(android.values(of: "data-view") == ["collapsed", "expanded-item-1", "expanded-item-2", "expanded-item-3"])
        let second = android.view("expanded-item-2")
        #expect(second.values(of: "data-display") == ["vertical", "vertical"])
        #expect(second.texts("title") == ["Green", "Green"])
        #expect(second.texts("price") == ["$30", "$30"])
        #expect(second.texts("item-body") == ["Linen, loose fit", "Linen, loose fit"])
        #expect(second.texts("cta") == ["Buy now", "Buy now"])
        #expect(second.contains("background:#2D5A4B;color:#FFFFFF"))
        #expect(second.count(#"data-role="thumb""#) == 6)
        #expect(second.count(#"data-current="true""#) == 2)
        #expect(android.view("collapsed").texts("title").first == "Three picks for you")
        for key in ["adb_cta_txt", "adb_cta_clr", "adb_cta_txt_clr", "adb_items"] { #expect(android.keys("shows").contains(key), "\(key)") }
        for key in ["adb_cta_uri", "adb_display"] { #expect(android.keys("uses").contains(key), "\(key)") }
        // The minimal fixture's horizontal display has no room for the item's body and price.
        let horizontal = try drawnPreview(["--platform", "fcm", "templates/cat.test/minimal.json"]).platform("fcm")
        #expect(horizontal.values(of: "data-display").allSatisfy { $0 == "horizontal" })
        #expect(horizontal.texts("price").isEmpty)
        #expect(horizontal.texts("cta").first == "Buy now")
    }

    @Test("input on a page: the reply field with its hint, then the feedback after a reply")
    func inputPage() throws {
        let android = try drawnPreview(["--platform", "fcm", "templates/input.test/rich.json"]).platform("fcm")
        #expect(android.values(of: "data-view") == ["collapsed", "expanded", "sent-collapsed", "sent-expanded"])
        let expanded = android.view("expanded")
        #expect(expanded.texts("reply-hint") == ["Answer", "Answer"])
        #expect(expanded.values(of: "data-receiver").first == "orderFeedback")
        let sent = android.view("sent-expanded")
        #expect(sent.texts("reply-hint").isEmpty)
        #expect(sent.texts("body").first == "Thanks, we read every answer.")
        #expect(sent.values(of: "data-url").contains("https://shop.example.com/img/thanks.png"))
        #expect(android.view("sent-collapsed").texts("body").first == "Thanks, we read every answer.")
        #expect(android.keys("uses").contains("adb_input_receiver"))
        for key in ["adb_input_txt", "adb_feedback_txt", "adb_feedback_img"] { #expect(android.keys("shows").contains(key), "\(key)") }
        // Without a label the hint is the SDK's "Reply"; without feedback the body is blank after a reply.
        let minimal = try drawnPreview(["--platform", "fcm", "templates/input.test/minimal.json"]).platform("fcm")
        #expect(minimal.view("expanded").texts("reply-hint").first == "Reply")
        #expect(minimal.view("sent-collapsed").texts("body").first == "")
        #expect(minimal.texts("note").contains("No adb_feedback_txt: the body is blank after a reply."))
    }

    @Test("zb on a page: the image edge to edge, collapsed too in the image style, text only collapsed in the text style")
    func zeroBezelPage() throws {
        let image = try drawnPreview(["--platform", "fcm", "templates/zb.test/rich.json"]).platform("fcm")
        #expect(image.view("collapsed").values(of: "data-style") == ["zero-bezel", "zero-bezel"])
        #expect(image.view("expanded").values(of: "data-style") == ["zero-bezel", "zero-bezel"])
        #expect(image.keys("uses").contains("adb_col_style"))
        #expect(image.keys("shows").contains("adb_image"))
        let text = try drawnPreview(["--platform", "fcm", "templates/zb.test/minimal.json"]).platform("fcm")
        #expect(text.view("collapsed").values(of: "data-style").isEmpty)
        #expect(text.view("collapsed").texts("title").first == "New season")
        #expect(text.view("expanded").values(of: "data-style") == ["zero-bezel", "zero-bezel"])
    }

    @Test("icon on a page: the row of icons with their actions and the close button; title and body ignored")
    func multiIconPage() throws {
        let android = try drawnPreview(["--platform", "fcm", "templates/icon.test/rich.json"]).platform("fcm")
        #expect(android.values(of: "data-view") == ["icons"])
        #expect(android.count(#"data-role="icon""#) == 8)
        #expect(Array(android.values(of: "data-action").prefix(4)) == ["opens shopapp://route/walk", "opens shopapp://route/bus", "opens https://rides.example.com/taxi", "dismisses"])
        #expect(android.count(#"data-role="close" data-icon="ic_cross""#) == 2)
        #expect(android.texts("title").isEmpty)
        #expect(android.keys("ignores") == ["adb_body", "adb_title"])
        #expect(android.keys("shows").contains("adb_items") && android.keys("shows").contains("adb_cancel_image"))
        // The fixture with no text and no iOS payload: Android only, still drawn.
        let bare = try drawnPreview(["templates/icon.test/android-only-without-text.json"])
        #expect(bare.values(of: "data-platform") == ["fcm"])
        #expect(bare.platform("fcm").view("icons").values(of: "data-icon").suffix(1) == ["cross"])
    }

    @Test("iOS has none of the five: the page says what the mapping sends, and a payload that asks for one shows the fallback")
    func iOS() throws {
        let iOS = try drawnPreview(["--platform", "apns", "templates/rate.test/rich.json"]).platform("apns")
        #expect(iOS.contains(#"data-layout="basic""#))
        #expect(iOS.texts("note").contains("iOS has no rate template: the mapping sends the basic template, drawn here as iOS shows it."))
        #expect(iOS.texts("title").contains("How did we do?"))
    }

    @Test("keys a template does not read are ignored, with the reason")
    func ignoredKeys() throws {
        let folder = try temporaryFolder()
        try """
        return {
          name = "rate", api = 1, platforms = {"fcm"},
          fcm = function(intent, ctx)
            local payload = pushmap.builtin("rate", "fcm", intent, ctx)
            local data = payload.message.data
            data.adb_act = '[{"label":"Open","type":"OPENAPP"}]'
            data.adb_cta_txt = "Buy"
            data.adb_large_icon = "https://shop.example.com/img/logo.png"
            data.adb_col_style = "img"
            data.adb_feedback_image = "https://shop.example.com/img/thanks.png"
            return payload
          end,
        }
        """.write(to: folder.appendingPathComponent("rate.lua"), atomically: true, encoding: .utf8)
        let intent = #"{"template": "rate", "title": "t", "body": "b", "rating": {"unselectedIcon": "off", "selectedIcon": "on", "stars": [{"type": "DISMISS"}, {"type": "DISMISS"}, {"type": "DISMISS"}]}}"#
        let result = try CommandRunner.run(["preview", "--platform", "fcm", "--scripts", folder.path, "-"], input: Data(intent.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("ignores adb_act                   only the basic template draws buttons"), "\(result.stdout)")
        #expect(result.stdout.contains("ignores adb_cta_txt               a key of the cat template; the rate template does not read it"))
        #expect(result.stdout.contains("ignores adb_col_style             a key of the zb template; the rate template does not read it"))
        #expect(result.stdout.contains("ignores adb_feedback_image        not a key notificationbuilder reads"))
        #expect(result.stdout.contains("shows   adb_large_icon            large icon beside the text"))
        #expect(result.stdout.contains("shows   adb_rate_act              3 stars"))
    }

    @Test("a fixture file: its intent at its time; an error fixture fails as the intent does; a broken one in one line")
    func fixtureFiles() throws {
        let timer = try CommandRunner.run(["preview", "--platform", "fcm", "templates/timer.test/rich.json"])
        #expect(timer.status == 0, "\(timer.stderr)")
        #expect(!timer.stderr.contains("unknown field 'intent'"))
        let fixture = try #require(CommandRunner.json(String(contentsOf: CommandRunner.root.appendingPathComponent("templates/timer.test/rich.json"), encoding: .utf8)) as? [String: Any])
        let now = (fixture["now"] as? Int).map { Date(timeIntervalSince1970: TimeInterval($0)) } ?? Date(timeIntervalSince1970: 1_704_067_200)
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        #expect(timer.stdout.contains("arriving at \(formatter.string(from: now)) UTC"), "\(timer.stdout)")
        let error = try CommandRunner.run(["preview", "templates/cat.test/error-two-items.json"])
        #expect(error.status == 1)
        #expect(error.stderr.contains("[android-catalog-items"))
        let folder = try temporaryFolder()
        let broken = folder.appendingPathComponent("broken.json")
        try #"{"intent": {"title": "t"}, "fcm": {}, "apsn": {}}"#.write(to: broken, atomically: true, encoding: .utf8)
        let brokenRun = try CommandRunner.run(["preview", broken.path])
        #expect(brokenRun.status == 1)
        #expect(brokenRun.stderr == "pushmap: \(broken.path): unknown key \"apsn\"; did you mean \"apns\"? (the keys are intent, now, fcm, apns, error, warnings)\n")
    }
}
