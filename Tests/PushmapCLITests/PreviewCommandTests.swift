import Foundation
import Testing

/// `pushmap preview`, end to end: pages written by the built binary and opened in a real
/// headless Chromium, asserting on the DOM it builds.
@Suite("pushmap preview")
struct PreviewCommandTests {
    @Test("the basic seed: each platform's title and body, in the light and the dark appearance")
    func basicSeed() throws {
        let dom = try drawnPreview(["examples/seeds/basic-fcm.json"])
        let android = dom.platform("fcm"), iOS = dom.platform("apns")
        #expect(android.texts("title").contains("game request"))
        #expect(android.texts("body").contains("shall we play a game?"))
        #expect(android.texts("body").contains("Bob wants to play a game of chess with you. Click 'accept' to start!"))
        #expect(android.texts("button") == ["accept", "decline", "Remind me", "accept", "decline", "Remind me"])
        #expect(iOS.texts("title").contains("game request"))
        #expect(iOS.texts("body").contains("shall we play a game?"))
        for part in [android, iOS] {
            #expect(part.values(of: "data-appearance").filter { $0 == "light" }.count == part.values(of: "data-appearance").filter { $0 == "dark" }.count)
            #expect(part.values(of: "data-view").starts(with: ["collapsed", "expanded"]))
        }
        // Colours as each platform reads them, and the warnings beside the pictures.
        #expect(android.contains("color:#AABBCC"))
        #expect(dom.values(of: "data-rule").contains("android-remind-later-past"))
        #expect(!dom.contains("<script"))
    }

    @Test("a carousel: every item's caption on both platforms")
    func carouselCaptions() throws {
        let android = try drawnPreview(["--platform", "fcm", "examples/seeds/carousel-fcm.json"]).platform("fcm")
        #expect(android.values(of: "data-view") == ["collapsed", "expanded-item-1", "expanded-item-2", "expanded-item-3"])
        let captions = ["Shoe 1 by Cool Sneaker Brand", "Shoe 2 by Lame Sneaker Brand", "Shoe 3 by Average Sneaker Brand"]
        #expect(Set(android.texts("caption")) == Set(captions))
        let iOS = try drawnPreview(["--platform", "apns", "examples/seeds/carousel-apns.json"]).platform("apns")
        #expect(iOS.texts("caption").count == 6) // three items, two appearances
        #expect(iOS.texts("caption").contains("At sunset, the beach buzzes with playful silhouettes against the fading light, laughter mingling with the sea's whispers."))
        #expect(iOS.keys("ignores").contains("adb_version"))
    }

    /// Source: the forty-sixth audit (cli F16): `--images` with the text form, where it has
    /// nothing to embed into, passed unsaid, as `--request` without a request to write does not.
    @Test("--images without a page to embed into says it does nothing, and the text form is still written")
    func imagesWithoutPage() throws {
        let result = try CommandRunner.run(["preview", "--images", "-"], input: Data(#"{"title": "a", "body": "b"}"#.utf8))
        #expect(result.status == 0)
        #expect(result.stderr == "pushmap: preview: --images embeds images into a page; it does nothing without --output FILE.html or FILE.png\n", "\(result.stderr)")
        #expect(result.stdout.contains("a"))
    }

    @Test("a template iOS lacks shows iOS's fallback, title and body only")
    func iOSFallback() throws {
        let folder = try temporaryFolder()
        try """
        return {
          name = "zb", api = 1, platforms = {"fcm", "apns"},
          fcm = function(intent, ctx)
            local payload = pushmap.builtin("basic", "fcm", intent, ctx)
            payload.message.data.adb_template_type = "zb"
            return payload
          end,
          apns = function(intent, ctx)
            local payload = pushmap.builtin("basic", "apns", intent, ctx)
            payload.adb_template_type = "zb"
            return payload
          end,
        }
        """.write(to: folder.appendingPathComponent("zb.lua"), atomically: true, encoding: .utf8)
        let intent = #"{"template": "zb", "title": "Edge to edge", "body": "A zero-bezel picture", "expandedBody": "More"}"#
        let iOS = try drawnPreview(["--scripts", folder.path, "-"], input: Data(intent.utf8)).platform("apns")
        #expect(iOS.contains(#"data-layout="ios-default""#))
        #expect(iOS.values(of: "data-fallback").contains("ios-default"))
        #expect(iOS.texts("fallback-note").contains { $0.contains("iOS has no \"zb\" template") })
        #expect(iOS.texts("title").allSatisfy { $0 == "Edge to edge" })
        #expect(!iOS.texts("body").contains("More"))
        #expect(iOS.keys("ignores").contains("adb_template_type"))
        #expect(iOS.keys("ignores").contains("adb_body_ex"))
    }

    @Test("a timer before and after expiry, and one that has run out on arrival, which Android drops")
    func timer() throws {
        let iOS = try drawnPreview(["--platform", "apns", "examples/seeds/timer-apns.json"]).platform("apns")
        #expect(iOS.values(of: "data-view") == ["collapsed", "expanded", "expired-expanded"])
        #expect(iOS.texts("title").contains("Missed out this time?"))
        #expect(iOS.texts("timer").contains("⏱ 00:10"))
        // Run out on arrival, Android drops it: a warning (an end already past is a fault of when
        // it is sent), and the page says so beside the expired content it shows when one with
        // the same tag is up.
        let android = try CommandRunner.run(["preview", "--platform", "fcm", "examples/seeds/timer-fcm.json"])
        #expect(android.status == 0, "\(android.stderr)")
        #expect(android.stdout.contains("Android drops it, unless a notification with the same adb_tag is showing"), "\(android.stdout)")
        #expect(android.stderr.contains("Android drops the notification on arrival") && android.stderr.contains("[android-timer-expired"), "\(android.stderr)")
    }

    @Test("--now fixes the arrival time: the same page twice, and a timer drawn as it runs at that time")
    func fixedClock() throws {
        // The timer seed's end (adb_tmr_end) is in 2024: at 2023-12-01 it still runs on Android.
        let arguments = ["preview", "--now", "1701388800", "--platform", "fcm", "examples/seeds/timer-fcm.json"]
        let first = try CommandRunner.run(arguments), second = try CommandRunner.run(arguments)
        #expect(first.status == 0 && second.status == 0, "\(first.stderr)")
        #expect(first.stdoutBytes == second.stdoutBytes)
        #expect(first.stdout.contains("2023-12-01"), "\(first.stdout)")
        let running = try drawnPreview(["--now", "1701388800", "--platform", "fcm", "examples/seeds/timer-fcm.json"]).platform("fcm")
        // Running at that time: drawn before expiry as well as after (today it has run out: refused).
        #expect(running.values(of: "data-view") == ["collapsed", "expanded", "expired-collapsed", "expired-expanded"])
    }

    @Test("text is cut where each phone cuts it, and 8-digit colours read per platform")
    func cutsAndColours() throws {
        let title = "A title that runs well past what Android shows on one line"
        let intent = #"{"template": "basic", "title": "\#(title)", "body": "b", "colors": {"title": "11223380"}}"#
        let dom = try drawnPreview(["-"], input: Data(intent.utf8))
        let android = dom.platform("fcm"), iOS = dom.platform("apns")
        #expect(android.texts("title").first == String(title.prefix(35)) + "…")
        #expect(android.texts("cut-note").first == "title cut at 35 of \(title.count) characters")
        #expect(iOS.texts("title").first == title)
        // RRGGBBAA in the intent: Android reads the AARRGGBB pushmap writes, iOS the RRGGBBAA.
        #expect(android.contains("color:rgba(17, 34, 51, 0.501)"))
        #expect(iOS.contains("color:rgba(17, 34, 51, 0.501)"))
    }

    @Test("text from the intent is escaped, never markup")
    func escapes() throws {
        let intent = #"{"title": "<b>bold</b> & \"quoted\"", "body": "<img src=x onerror=alert(1)>"}"#
        let dom = try drawnPreview(["-"], input: Data(intent.utf8))
        #expect(dom.platform("fcm").texts("title").first == #"<b>bold</b> & "quoted""#)
        #expect(!dom.contains("<b>bold"))
        #expect(!dom.contains("<img src=\"x\""))
    }

    @Test("the gallery of the built-in fixtures draws every one, and error fixtures say why")
    func builtinGallery() throws {
        let templates = CommandRunner.root.appendingPathComponent("templates")
        var fixtures: [[String: Any]] = []
        for folder in try FileManager.default.contentsOfDirectory(atPath: templates.path) where folder.hasSuffix(".test") {
            for file in try FileManager.default.contentsOfDirectory(atPath: templates.appendingPathComponent(folder).path) where file.hasSuffix(".json") {
                let text = try String(contentsOf: templates.appendingPathComponent("\(folder)/\(file)"), encoding: .utf8)
                fixtures.append(try #require(CommandRunner.json(text) as? [String: Any]))
            }
        }
        let dom = try drawnPreview(["--gallery", "templates"])
        #expect(dom.values(of: "data-entry").count == fixtures.count)
        // An error fixture is drawn as its reasons; any other as the platforms it names.
        let errorFixtures = fixtures.filter { $0["error"] != nil }.count
        #expect(dom.count(#"data-role="failure" data-expected="true""#) == errorFixtures)
        #expect(dom.count(#"data-expected="false""#) == 0)
        let platforms = fixtures.reduce(0) { $0 + ($1["fcm"] != nil ? 1 : 0) + ($1["apns"] != nil ? 1 : 0) }
        #expect(dom.values(of: "data-platform").count == platforms)
        #expect(dom.texts("caption").contains("Green"))
    }

    /// Source: the twenty-fifth audit, F8: `--platform apns` drew an FCM-only fixture for iOS,
    /// whose mapping then failed, and the stock gallery exited 1.
    @Test("a fixture with payloads for the other platform only is not drawn: noted in the gallery, refused alone")
    func fixtureOfTheOtherPlatform() throws {
        let page = try temporaryFolder().appendingPathComponent("apns.html")
        let gallery = try CommandRunner.run(["preview", "--gallery", "templates", "--platform", "apns", "--output", page.path])
        #expect(gallery.status == 0, "\(gallery.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(!html.contains(#"data-expected="false""#))
        #expect(html.contains("the fixture gives a payload for fcm only, none for apns"))
        let alone = try CommandRunner.run(["preview", "--platform", "apns", "templates/icon.test/android-only-without-text.json"])
        #expect(alone.status == 1)
        #expect(alone.stderr == "pushmap: templates/icon.test/android-only-without-text.json: the fixture gives a payload for fcm only, none for apns: nothing to draw\n")
    }

    @Test("a PNG drawn by Chromium is not blank")
    func picture() throws {
        let png = try temporaryFolder().appendingPathComponent("preview.png")
        let result = try CommandRunner.run(["preview", "--output", png.path, "examples/seeds/carousel-fcm.json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try HeadlessChromium.colourCount(png) > 8)
    }

    /// Source: the forty-fifth audit, preview F3, with `pushmap --help` (1: output that could not
    /// be written; 3: no headless browser): a PNG path that is a folder was exit 3.
    @Test("a PNG that cannot be written where asked is exit 1, as a page is; the browser is not at fault")
    func pictureUnwritable() throws {
        let folder = try temporaryFolder().appendingPathComponent("taken.png")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let result = try CommandRunner.run(["preview", "--output", folder.path, "examples/seeds/basic-fcm.json"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.hasSuffix("\npushmap: preview: \(folder.path): is a directory, not a file\n"), "\(result.stderr)")
    }

    /// Source: the forty-fifth audit, preview F1, F2, F4, F5 and F7, each against its rule:
    /// adobe-templates.md (iOS reads adb_tmr_end with TimeInterval(String), a fraction too),
    /// client-rules.md (Campaign Classic's extension shows _msg for an empty adb_body; a badge is
    /// a number; a timer without a readable time shows the fallback; the Android timer needs API
    /// 24 and the exact-alarm permission). A payload as written, through a script that returns it.
    @Test("draws a payload as each phone reads it: an iOS end with a fraction, Campaign Classic's _msg, a string badge, a timer that falls back")
    func payloadsAsThePhonesReadThem() throws {
        let scripts = try temporaryFolder()
        try Data("""
            return {
              name = "raw", api = 1, platforms = { "fcm", "apns" },
              fields = { fcmdata = "object", apnspayload = "object" },
              fcm = function(intent, ctx) return { message = { token = "t", data = intent.fcmdata or {} } } end,
              apns = function(intent, ctx) return intent.apnspayload or { aps = { alert = { title = "x" } } } end,
            }
            """.utf8).write(to: scripts.appendingPathComponent("raw.lua"))
        // Drawn whatever the checks say: exit 1 where they find an error (a timer with no time).
        func preview(_ platform: String, _ intent: String, status: Int32 = 0) throws -> String {
            let result = try CommandRunner.run(
                ["preview", "--scripts", scripts.path, "--platform", platform, "--now", "1767225600", "-"], input: Data(intent.utf8))
            #expect(result.status == status, "\(result.stderr)")
            return result.stdout
        }
        let ios = #""aps": {"category": "AEPNotification", "mutable-content": 1, "alert": {"title": "T", "body": "B"}}, "adb_template_type": "timer", "adb_title_alt": "Alt""#
        let fraction = try preview("apns", #"{"template": "raw", "apnspayload": {\#(ios), "adb_tmr_end": "1767225700.5"}}"#)
        #expect(fraction.contains("timer:    01:40") && !fraction.contains("fallback"), "\(fraction)")
        #expect(fraction.contains("shows   adb_tmr_end"), "\(fraction)")

        let fallback = try preview("apns", #"{"template": "raw", "apnspayload": {\#(ios), "adb_tmr_dur": 60}}"#, status: 1)
        #expect(fallback.contains("fallback (ios-default)"), "\(fallback)")
        #expect(fallback.contains("ignores adb_title_alt        the timer falls back: iOS shows the title and body only"), "\(fallback)")

        let badge = try preview("apns", #"{"template": "raw", "apnspayload": {"aps": {"alert": {"title": "T", "body": "B"}, "badge": "5"}}}"#)
        #expect(badge.contains("ignores aps.badge        not a whole number of 0 or more: iOS does not set the badge"), "\(badge)")

        let classic = try preview("fcm", #"{"template": "raw", "fcmdata": {"adb_version": "1", "adb_template_type": "basic", "adb_title": "T", "adb_body": "", "_msg": "From _msg", "_mId": "m", "_dId": "d"}}"#)
        #expect(classic.contains("body:     From _msg"), "\(classic)")
        #expect(classic.contains("shows   _msg               the body"), "\(classic)")

        let timer = try preview("fcm", #"{"template": "raw", "fcmdata": {"adb_version": "1", "adb_template_type": "timer", "adb_title": "T", "adb_body": "B", "adb_title_alt": "Over", "adb_tmr_dur": "60"}}"#)
        #expect(timer.contains("note: The timer needs Android 7 (API 24) and the app's exact-alarm permission."), "\(timer)")
    }

    @Test("no browser: a one-line error and exit 3, and no file")
    func noBrowser() throws {
        let png = try temporaryFolder().appendingPathComponent("preview.png")
        let named = try CommandRunner.run(
            ["preview", "--output", png.path, "examples/seeds/basic-fcm.json"], environment: ["PUSHMAP_CHROMIUM": "/nonexistent/chromium"])
        #expect(named.status == 3)
        #expect(named.stderr.split(separator: "\n").count == 1)
        let none = try CommandRunner.run(
            ["preview", "--output", png.path, "examples/seeds/basic-fcm.json"], environment: ["PUSHMAP_CHROMIUM": "", "PATH": "/nonexistent"])
        #expect(none.status == 3)
        #expect(none.stderr == "pushmap: preview: no headless browser to draw the PNG with: install Chromium (Debian: apt-get install chromium) or set PUSHMAP_CHROMIUM; --output with .html needs none\n")
        #expect(!FileManager.default.fileExists(atPath: png.path))
    }

    /// Source: the twenty-fifth audit, F12: a failed draw deleted the picture already there,
    /// where an invalid intent keeps it.
    @Test("a browser that fails leaves the file at --output as it was")
    func failedDrawKeepsFile() throws {
        let png = try temporaryFolder().appendingPathComponent("kept.png")
        try Data("earlier picture".utf8).write(to: png)
        for browser in ["/bin/false", "/bin/true"] {
            let result = try CommandRunner.run(["preview", "--output", png.path, "examples/seeds/basic-fcm.json"], environment: ["PUSHMAP_CHROMIUM": browser])
            #expect(result.status == 3, "\(browser): \(result.stderr)")
            // The intent's two warnings, then the browser's one line.
            #expect(result.stderr.split(separator: "\n").last?.hasPrefix("pushmap: preview: \(browser) ") == true, "\(result.stderr)")
            #expect(try Data(contentsOf: png) == Data("earlier picture".utf8))
        }
    }

    @Test("an invalid intent writes no page: exit 1 with its diagnostics")
    func invalidIntent() throws {
        let page = try temporaryFolder().appendingPathComponent("page.html")
        let result = try CommandRunner.run(["preview", "--output", page.path, "-"], input: Data(#"{"tittle": "Hi"}"#.utf8))
        #expect(result.status == 1)
        #expect(result.stderr.contains("did you mean 'title'? [unknown-field]"))
        #expect(!FileManager.default.fileExists(atPath: page.path))
        let notJSON = try CommandRunner.run(["preview", "-"], input: Data("nope".utf8))
        #expect(notJSON.status == 1)
        #expect(notJSON.stdout.isEmpty)
    }

    @Test("bad usage is exit 64; a missing folder or gallery is exit 1")
    func usage() throws {
        #expect(try CommandRunner.run(["preview", "--output", "page.txt", "examples/seeds/basic-fcm.json"]).status == 64)
        #expect(try CommandRunner.run(["preview", "--gallery", "templates", "examples/seeds/basic-fcm.json"]).status == 64)
        let noFolder = try CommandRunner.run(["preview", "--output", "/nonexistent/page.html", "examples/seeds/basic-fcm.json"])
        #expect(noFolder.status == 1)
        #expect(noFolder.stderr.split(separator: "\n").count == 1)
        #expect(try CommandRunner.run(["preview", "--gallery", "/nonexistent"]).status == 1)
    }

    @Test("the text form: each view's texts and what the phone does with each key")
    func textForm() throws {
        let result = try CommandRunner.run(["preview", "--platform", "apns", "examples/seeds/basic-apns.json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("== iOS (APNS): Adobe's AEPNotificationContent, basic template"))
        #expect(result.stdout.contains("[Banner (collapsed)]"))
        #expect(result.stdout.contains("ignores adb_version"))
        #expect(!result.stdout.contains("Android"))
    }

    /// Source: commands.md (preview: "the fallback where the phone falls back (an Android
    /// carousel of fewer than 3 images shows basic ...)"); the thirty-sixth audit, F6: a payload
    /// a check refuses was not drawn at all.
    @Test("a payload a check refuses is drawn as the phone takes it, the fallback, with the error and exit 1")
    func fallbackDrawn() throws {
        let intent = #"{"template": "carousel", "title": "T", "body": "B", "carousel": {"items": [{"image": "https://e.com/1.png"}, {"image": "https://e.com/2.png"}]}}"#
        let result = try CommandRunner.run(["preview", "--platform", "fcm", "--now", "1767225600", "-"], input: Data(intent.utf8))
        #expect(result.status == 1)
        #expect(result.stderr.contains("[android-carousel-items-count"), "\(result.stderr)")
        #expect(result.stdout.contains("fallback (basic): only 2 carousel images (Android needs 3)"), "\(result.stdout)")
    }

    /// Source: the fortieth audit, F2 to F4: a timer over on arrival said its live keys showed; a
    /// Campaign Classic payload with an empty body, and one over the size limit, were drawn as
    /// shown. FCM's and APNs' 4096 bytes; client-rules.md (Campaign Classic reads an empty body as
    /// absent).
    @Test("what never shows is drawn as nothing, with no key said to show: a payload over the limit, a Campaign Classic one with an empty body")
    func notShownDrawnAsNothing() throws {
        let huge = #"{"title": "T", "body": "\#(String(repeating: "b", count: 5000))"}"#
        let result = try CommandRunner.run(["preview", "--now", "1767225600", "-"], input: Data(huge.utf8))
        #expect(result.status == 1)
        #expect(result.stdout.contains("FCM refuses it, so the phone shows nothing") && result.stdout.contains("APNs refuses it, so the phone shows nothing"), "\(result.stdout)")
        #expect(!result.stdout.contains("    shows   "), "\(result.stdout)")
        let classic = #"{"template": "basic", "title": "T", "body": "", "campaignClassic": {"messageId": "m", "deliveryId": "d"}}"#
        let android = try CommandRunner.run(["preview", "--platform", "fcm", "--now", "1767225600", "-"], input: Data(classic.utf8))
        #expect(android.status == 1)
        #expect(android.stdout.contains("adb_body is empty, which Campaign Classic's extension reads as absent") && android.stdout.contains("(the phone shows nothing)"), "\(android.stdout)")
        let timer = #"{"template": "timer", "title": "T", "body": "B", "timer": {"endsAt": 1700000000}, "expired": {"title": "Over"}}"#
        let over = try CommandRunner.run(["preview", "--now", "1767225600", "-"], input: Data(timer.utf8))
        #expect(over.stdout.contains("ignores adb_title          not drawn: the timer is over on arrival"), "\(over.stdout)")
        #expect(over.stdout.contains("the timer is over on arrival: the alternate content shows at once"), "\(over.stdout)")
    }

    /// Source: the thirty-sixth audit, F12 (a body's later lines printed at the margin) and F10
    /// (the notes counted skipped icons from 1, the warnings beside them from 0).
    @Test("the text form keeps a text's later lines under its first, and counts items as the JSON paths do")
    func textLayout() throws {
        let intent = #"{"title": "T", "body": "one\ntwo"}"#
        let result = try CommandRunner.run(["preview", "--platform", "apns", "--now", "1767225600", "-"], input: Data(intent.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("    body:     one\n              two\n"), "\(result.stdout)")
    }

    /// Source: the thirty-sixth audit, F8: the lowest --now trapped (exit 132, nothing said) in the
    /// date written on the page, where translate took it; the forty-third: --now is 1970 to the
    /// end of 9999, and the ends of 64 bits are a usage error.
    @Test("--now at either end of its range draws the page with its date; the ends of 64 bits are a usage error")
    func nowAtTheEnds() throws {
        let intent = #"{"title": "T", "body": "B"}"#
        for (now, date) in [("0", "1970-01-01"), ("253402300799", "9999-12-31")] {
            let result = try CommandRunner.run(["preview", "--platform", "fcm", "--now=\(now)", "-"], input: Data(intent.utf8))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("arriving at \(date)"), "\(result.stdout)")
        }
        for now in ["-9223372036854775808", "9223372036854775807"] {
            let result = try CommandRunner.run(["preview", "--platform", "fcm", "--now=\(now)", "-"], input: Data(intent.utf8))
            #expect(result.status == 64 && result.stderr.hasPrefix("Error: --now must be an epoch time from 0 to 253402300799"), "\(result.stderr)")
        }
    }

    /// Source: the fourteenth audit, against client-rules.md (basic: 3 actions, 2 beside remind
    /// later; car: 3 downloaded images) and Adobe's iOS UI tests (TimerTemplateTest test_happy,
    /// test_whenAltBodyNotAvailable: after expiry no timer label, and no body without adb_body_alt).
    @Test("the text form draws what each phone builds: 2 buttons beside remind later, no timer or body after an iOS expiry without adb_body_alt")
    func textFormFollowsTheClients() throws {
        let buttons = #"{"template": "basic", "title": "T", "body": "B", "buttons": [{"label": "one"}, {"label": "two"}, {"label": "three"}], "remindLater": {"label": "Later", "after": 600}}"#
        let android = try CommandRunner.run(["preview", "--platform", "fcm", "--now", "1767225600", "-"], input: Data(buttons.utf8))
        #expect(android.status == 0, "\(android.stderr)")
        #expect(android.stdout.contains("buttons:  [one] [two] [Later]\n"), "\(android.stdout)")
        // One finding for the button that does not fit: the rule's, not the script's as well.
        #expect(android.stderr.components(separatedBy: "\n").filter { $0.contains("warning: $.buttons:") }.count == 1, "\(android.stderr)")

        let timer = #"{"template": "timer", "title": "T", "body": "B", "expandedBody": "Running", "timer": {"duration": 60}, "expired": {"title": "Over"}}"#
        let iOS = try CommandRunner.run(["preview", "--platform", "apns", "--now", "1767225600", "-"], input: Data(timer.utf8))
        #expect(iOS.status == 0, "\(iOS.stderr)")
        let expired = iOS.stdout.components(separatedBy: "[Expanded, after expiry]").last?.components(separatedBy: "keys:").first ?? ""
        #expect(expired.contains("title:    Over"), "\(iOS.stdout)")
        #expect(!expired.contains("body:") && !expired.contains("timer:"), "\(expired)")
    }

    @Test("--images embeds a local image file as a data URI; other URLs stay frames")
    func localImages() throws {
        let folder = try temporaryFolder()
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        try Data(png).write(to: folder.appendingPathComponent("local.png"))
        let intent = #"{"template": "basic", "title": "t", "body": "b", "image": "file://\#(folder.path)/local.png"}"#
        let page = folder.appendingPathComponent("page.html")
        let result = try CommandRunner.run(["preview", "--platform", "fcm", "--images", "--output", page.path, "-"], input: Data(intent.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("data:image/png;base64,iVBORw0KGgo="))
        #expect(!html.contains("http://") && !html.contains("https://"))
        // The second audit: no policy told the browser the page runs nothing and fetches nothing.
        #expect(html.contains(#"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">"#))
    }

    /// Source: the second audit (terminal-escapes): a title holding ESC ] 0 ; ... BEL set the
    /// terminal's title and ESC [ 2 J cleared the screen of whoever previewed it.
    @Test("the text form and the diagnostics write an intent's control characters escaped: nothing reaches the terminal")
    func terminalEscapes() throws {
        let intent = #"{"title": "a\u001b]0;PWNED\u0007\u001b[2J\u202e", "body": "b\nc"}"#
        let preview = try CommandRunner.run(["preview", "--platform", "apns", "-"], input: Data(intent.utf8))
        #expect(preview.status == 0, "\(preview.stderr)")
        let translate = try CommandRunner.run(["translate", "-"], input: Data(#"{"tittle\u001b[31m": "x"}"#.utf8))
        for output in [preview.stdout, preview.stderr, translate.stderr] {
            #expect(!output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E }, "\(output)")
        }
        #expect(preview.stdout.contains(#"a\u001B]0;PWNED\u0007\u001B[2J\u202E"#), "\(preview.stdout)")
        #expect(translate.stderr.contains(#"unknown field 'tittle\u001B[31m'"#), "\(translate.stderr)")
    }

    /// Source: the fourth audit's F8: a link holding U+202E showed in the key table turned around
    /// (`https://ok.example/gexe.pn`), and C0 controls went into the page raw (HTML parse errors).
    @Test("the page's key table shows a value's controls and bidirectional overrides escaped; no C0 control goes into the page")
    func pageControls() throws {
        let folder = try temporaryFolder()
        let page = folder.appendingPathComponent("page.html")
        // The twenty-second audit (N14): a data key's override was still raw in the key column.
        let intent = #"{"title": "t", "body": "a\u0001b", "link": {"uri": "https://ok.example/\u202egnp.exe"}, "data": {"k\u202e": "v"}}"#
        let result = try CommandRunner.run(["preview", "--output", page.path, "-"], input: Data(intent.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains(#"https://ok.example/\u202Egnp.exe"#))
        #expect(html.contains(#"<code>k\u202E</code>"#))
        #expect(!html.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x01 })
        #expect(html.contains("a\u{FFFD}b"))
    }

    /// Source: the second audit: an intent naming /etc/shadow as its image had the file embedded
    /// in a page made to be passed around for review.
    @Test("--images embeds only a file that is an image, whatever the intent names; another stays a frame, said in one line")
    func localImagesOnly() throws {
        let folder = try temporaryFolder()
        try Data("root:secret:19000::::::\n".utf8).write(to: folder.appendingPathComponent("shadow.png"))
        let intent = #"{"template": "basic", "title": "t", "body": "b", "image": "\#(folder.path)/shadow.png"}"#
        let page = folder.appendingPathComponent("page.html")
        let result = try CommandRunner.run(["preview", "--platform", "fcm", "--images", "--output", page.path, "-"], input: Data(intent.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("shadow.png: not a PNG, JPEG, GIF, WebP or SVG image; drawn as a frame"), "\(result.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(!html.contains("cm9vdDpzZWNyZXQ") && !html.contains("data:application"), "the file's base64 is in the page")
    }
}
