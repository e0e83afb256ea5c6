import Foundation
import Testing
@_spi(Tools) @testable import Pushmap
@_spi(Engine) import PushmapJSON

/// Payload builders and expectations for the payload checks.
enum CheckFixtures {
    /// 2024-01-01T00:00:00Z, after the seed payloads' timer end and remind-later time.
    static let now: Int64 = 1_704_067_200

    static let payloadChecker = PayloadChecker(now: now, intentPaths: false)
    static let intentChecker = PayloadChecker(now: now, intentPaths: true)

    static let basicData: JSONObject = [
        "adb_version": "1", "adb_template_type": "basic", "adb_title": "Game request", "adb_body": "Shall we play?",
    ]
    static let threeItems =
        #"[{"img":"https://x.com/1.png","uri":"https://x.com/1"},{"img":"https://x.com/2.png","uri":"https://x.com/2"},{"img":"https://x.com/3.png","uri":"https://x.com/3"}]"#
    static let carouselData = merged(basicData, [
        "adb_template_type": "car", "adb_car_layout": "default", "adb_car_mode": "manual", "adb_items": .string(threeItems),
    ])
    static let timerData = merged(basicData, [
        "adb_template_type": "timer", "adb_title_alt": "Too late", "adb_tmr_dur": "3600",
    ])

    static let templateAps: JSONObject = [
        "alert": ["title": "Need a break?", "body": "Book your beach escape now!"],
        "category": "AEPNotification", "mutable-content": 1,
    ]
    static let basicKeys: JSONObject = ["adb_template_type": "basic", "adb_version": "1.0", "adb_media": "https://x.com/a.png"]
    static let carouselKeys: JSONObject = [
        "adb_template_type": "car", "adb_version": "1.0", "adb_car_mode": "manual",
        "adb_items": [
            ["img": "https://x.com/1.png", "txt": "One", "uri": "myapp://1"],
            ["img": "https://x.com/2.png", "txt": "Two", "uri": "myapp://2"],
            ["img": "https://x.com/3.png", "txt": "Three", "uri": "myapp://3"],
        ],
    ]
    static let timerKeys: JSONObject = [
        "adb_template_type": "timer", "adb_version": "1.0", "adb_title_alt": "Missed out?", "adb_tmr_dur": "10",
    ]
    static let plainAps: JSONObject = ["alert": ["title": "Hello", "body": "Stay safe"]]

    /// `base` with `extra`'s members set over it and `removing` taken out.
    static func merged(_ base: JSONObject, _ extra: JSONObject, removing: [String] = []) -> JSONObject {
        var object = base
        for (key, value) in extra { object[key] = value }
        for key in removing { object[key] = nil }
        return object
    }

    /// An FCM payload with `data` as its data map and `message` members set over the defaults.
    static func fcm(_ data: JSONObject, message extra: JSONObject = [:]) -> JSONValue {
        .object(["message": .object(merged(["token": "FCM_TOKEN", "data": .object(data)], extra))])
    }

    /// An APNS payload: `aps` and the keys beside it.
    static func apns(_ aps: JSONObject, _ keys: JSONObject = [:]) -> JSONValue {
        .object(merged(keys, ["aps": .object(aps)]))
    }

    static func parse(_ text: String) throws -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    static func check(_ payload: JSONValue, _ platform: Platform, intentPaths: Bool = false) -> [Diagnostic] {
        (intentPaths ? intentChecker : payloadChecker).check(payload, platform: platform)
    }

    /// Expects exactly one finding of `rule`, with this severity and path, and returns it.
    @discardableResult
    static func expectOne(
        _ diagnostics: [Diagnostic], _ rule: String, _ severity: Diagnostic.Severity, at path: String,
        payloadPath: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Diagnostic? {
        let found = diagnostics.filter { $0.rule == rule }
        #expect(found.count == 1, "\(rule): \(diagnostics)", sourceLocation: sourceLocation)
        guard let diagnostic = found.first else { return nil }
        #expect(diagnostic.severity == severity, sourceLocation: sourceLocation)
        #expect(diagnostic.path == path, sourceLocation: sourceLocation)
        if let payloadPath { #expect(diagnostic.payloadPath == payloadPath, sourceLocation: sourceLocation) }
        #expect(!diagnostic.message.contains("\n"), sourceLocation: sourceLocation)
        return diagnostic
    }

    /// Expects no finding of `rule`.
    static func expectNone(_ diagnostics: [Diagnostic], _ rule: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!diagnostics.contains { $0.rule == rule }, "\(diagnostics)", sourceLocation: sourceLocation)
    }

    /// Expects no finding at all.
    static func expectClean(_ diagnostics: [Diagnostic], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(diagnostics.isEmpty, "\(diagnostics)", sourceLocation: sourceLocation)
    }
}

typealias F = CheckFixtures

@Suite("Payload checks")
struct ChecksTests {
    // MARK: - Paths

    @Test("a finding carries the intent path when translating and the payload path when validating")
    func intentAndPayloadPaths() {
        let payload = F.fcm(F.merged(F.basicData, [:], removing: ["adb_title"]))
        F.expectOne(F.check(payload, .fcm), "android-required-key", .error, at: "$.message.data.adb_title", payloadPath: "$.message.data.adb_title")
        let finding = F.expectOne(
            F.check(payload, .fcm, intentPaths: true), "android-required-key", .error, at: "$.title", payloadPath: "$.message.data.adb_title")
        #expect(finding?.platform == .fcm)
    }

    @Test("words that only look like the ones the phones expect are refused, byte for byte")
    func canonicalLookalikes() {
        // U+212A KELVIN SIGN: canonically K for Swift's ==, not for Java's equals or Objective-C's.
        let kelvin = "DEEPLIN\u{212A}"
        F.expectOne(F.check(F.fcm(F.merged(F.basicData, ["adb_uri": "myapp://x", "adb_a_type": .string(kelvin)])), .fcm), "android-link-type", .error, at: "$.message.data.adb_a_type")
        let actions = #"[{"label":"Open","uri":"myapp://x","type":"\#(kelvin)"}]"#
        F.expectOne(F.check(F.fcm(F.merged(F.basicData, ["adb_act": .string(actions)])), .fcm), "android-action-type", .warning, at: "$.message.data.adb_act[0].type")
        F.expectNone(F.check(F.fcm(F.merged(F.basicData, ["adb_uri": "myapp://x", "adb_a_type": "DEEPLINK"])), .fcm), "android-link-type")
    }

    @Test("keys that are not identifiers use the bracket form in both paths")
    func bracketPaths() {
        let payload = F.apns(F.merged(F.plainAps, ["thread-id": 5]), ["my key": 1])
        F.expectOne(F.check(payload, .apns, intentPaths: true), "apns-aps-type", .warning, at: "$.ios.threadId", payloadPath: #"$.aps["thread-id"]"#)
        F.expectOne(F.check(payload, .apns), "apns-aps-type", .warning, at: #"$.aps["thread-id"]"#)
        #expect(IntentOrigin.customKey("my key") == #"$.data["my key"]"#)
        #expect(IntentOrigin.customKey("some_custom_data_key") == "$.data.some_custom_data_key")
        #expect(JSONPath.member("$.data", #"a"b"#) == #"$.data["a\"b"]"#)
    }

    @Test("a member path renders keys as the payload checks always have: dot form, or quoted and escaped")
    func memberPaths() {
        #expect(JSONPath.member("$.data", "adb_title") == "$.data.adb_title")
        #expect(JSONPath.member("$.aps", "thread-id") == #"$.aps["thread-id"]"#)
        #expect(JSONPath.member("$", "a\\b") == #"$["a\\b"]"#)
        #expect(JSONPath.member("$", "a\nb") == #"$["a\nb"]"#)
        #expect(JSONPath.member("$", "a\tb") == #"$["a\tb"]"#)
        #expect(JSONPath.element("$.carousel.items", 12) == "$.carousel.items[12]")
    }

    @Test("payload keys map to the intent fields they come from", arguments: [
        ("adb_body_ex", "$.expandedBody"), ("adb_media", "$.image"), ("adb_image", "$.image"), ("adb_uri", "$.link.uri"),
        ("adb_clr_bg", "$.colors.background"), ("adb_rem_sec", "$.remindLater.after"), ("adb_tmr_end", "$.timer.endsAt"),
        ("adb_media_alt", "$.expired.image"), ("adb_small_icon", "$.android.smallIcon"), ("adb_template_type", "$.template"),
    ])
    func intentOrigins(key: String, path: String) {
        #expect(IntentOrigin.customKey(key) == path)
    }

    @Test("a platform with no rules gives no findings")
    func unknownPlatform() {
        F.expectClean(F.payloadChecker.check(.array([]), platform: Platform("web")))
    }

    // MARK: - Seed payloads

    static let seedPayloads = [
        "basic-apns-sneakers.json", "basic-apns.json", "basic-fcm.json", "carousel-apns.json", "carousel-fcm.json",
        "plain-apns.json", "plain-fcm.json", "timer-apns.json", "timer-fcm.json",
    ]

    static var seedDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("examples/seed-payloads")
    }

    @Test("the seed payload directory holds the nine payloads checked here")
    func seedDirectoryListing() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.seedDirectory.path).filter { $0.hasSuffix(".json") }
        #expect(names.sorted() == Self.seedPayloads)
    }

    @Test("every seed payload passes, with findings only about times already past", arguments: seedPayloads)
    func seedPayloadPasses(name: String) throws {
        let bytes = try Data(contentsOf: Self.seedDirectory.appendingPathComponent(name))
        let payload = try JSONParser.parse(Array(bytes))
        let platform: Platform = name.hasSuffix("-fcm.json") ? .fcm : .apns
        let diagnostics = F.check(payload, platform, intentPaths: true)
        // basic-fcm's remind-later time and timer-fcm's end are 2023-12-25, before `now`: a
        // remind later then cancels, and the timer is over on arrival, both warnings (issue 3: "a
        // timer end already past" is a warning; the seed must still translate).
        let expected: [String: [String]] = [
            "basic-fcm.json": ["android-remind-later-past"],
            "timer-fcm.json": ["android-timer-expired"],
        ]
        #expect(diagnostics.map(\.rule) == expected[name, default: []], "\(diagnostics)")
        #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics)")
        // Sent while Adobe's example still ran (2023-12-01), it is clean.
        let then = PayloadChecker(now: 1_701_388_800, intentPaths: true).check(payload, platform: platform)
        #expect(then.isEmpty, "\(then)")
    }

    // MARK: - Custom keys

    @Test("the keys the client rules read by name fit the slots kept for them")
    func knownKeysFitTheirSlots() throws {
        #expect(CustomKeys.Known.allCases.count <= 32)
        // Keys compare by bytes: a Kelvin sign is not K, though Swift's == says it is.
        let a = JSONItemStorage(.object(JSONObject([("adb_title", "first"), ("game_K", "letter"), ("game_\u{212A}", "kelvin")])))
        let b = JSONItemStorage(.object(["adb_title": "second"]))
        try a.withRoot { a in
            try b.withRoot { b in
                let first = try #require(a.objectValue), second = try #require(b.objectValue)
                var keys = CustomKeys(base: "$")
                for (key, value) in first { keys.add(try #require(key.utf8), value, in: "$.a") }
                for (key, value) in second { keys.add(try #require(key.utf8), value, in: "$.b") }
                #expect(keys.entries.map { Array($0.name.utf8) } == [Array("adb_title".utf8), Array("game_K".utf8), Array("game_\u{212A}".utf8)])
                #expect(keys.string(.title) == "second")
                #expect(keys.location(.title).payload == "$.b.adb_title")
            }
        }
    }

    @Test("finding messages read as Swift's own interpolation writes them")
    func messagesMatchSwiftInterpolation() {
        for number in [Int64.min, -1_000_000_007, -1, 0, 7, 1_893_456_000, Int64.max] {
            let text = "é \("quoted") \(number) \(Int(truncatingIfNeeded: number)) \(2.5) \(Platform.fcm): end"
            let message: CheckMessage = "é \("quoted") \(number) \(Int(truncatingIfNeeded: number)) \(2.5) \(Platform.fcm): end"
            #expect(message.text == text)
        }
        let plain: CheckMessage = "no interpolation"
        #expect(plain.text == "no interpolation")
    }

    @Test("the key prefixes and reserved words written out as numbers are the words they stand for")
    func writtenOutPrintsMatchTheirWords() {
        #expect(AdobeKeyPrefix.adobe == KeyPrint("adb_").head)
        #expect(AdobeKeyPrefix.colour == KeyPrint("adb_clr_").head)
        #expect(FCMPayloadChecks.fromPrint == KeyPrint("from"))
        #expect(FCMPayloadChecks.messageTypePrint == KeyPrint("message_type"))
        #expect(FCMPayloadChecks.googlePrefix == KeyPrint("google.").head)
        #expect(FCMPayloadChecks.googleWord == KeyPrint("google").head)
        #expect(FCMPayloadChecks.gcmWord == KeyPrint("gcm").head)
        #expect(FCMPayloadChecks.collapseKeyPrint == KeyPrint("collapse_key"))
        #expect(FCMPayloadChecks.gcmNotificationPrefix == KeyPrint("gcm.notification.").head)
    }

    // MARK: - Size

    @Test("a payload whose escapes stay under the limit gets no size finding")
    func escapesCountedExactly() {
        // 1,500 quotes are 3,000 bytes escaped: under 4,096, though every byte needs an escape.
        let quotes = F.fcm(F.merged(F.basicData, ["filler": .string(String(repeating: "\"", count: 1500))]))
        F.expectNone(F.check(quotes, .fcm), "fcm-size")
        F.expectNone(F.check(F.apns(F.plainAps, ["filler": .string(String(repeating: "\"", count: 1500))]), .apns), "apns-size")
    }
}
