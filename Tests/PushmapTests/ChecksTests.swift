import Foundation
import Testing
@testable import Pushmap
import PushmapJSON
import PushmapTestSupport

/// Payload builders and expectations for the payload checks.
private enum CheckFixtures {
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

private typealias F = CheckFixtures

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
        F.expectOne(F.check(F.fcm(F.merged(F.basicData, ["adb_act": .string(actions)])), .fcm), "android-action-type", .error, at: "$.message.data.adb_act[0].type")
        F.expectNone(F.check(F.fcm(F.merged(F.basicData, ["adb_uri": "myapp://x", "adb_a_type": "DEEPLINK"])), .fcm), "android-link-type")
    }

    @Test("keys that are not identifiers use the bracket form in both paths")
    func bracketPaths() {
        let payload = F.apns(F.merged(F.plainAps, ["thread-id": 5]), ["my key": 1])
        F.expectOne(F.check(payload, .apns, intentPaths: true), "apns-aps-type", .error, at: "$.ios.threadId", payloadPath: #"$.aps["thread-id"]"#)
        F.expectOne(F.check(payload, .apns), "apns-aps-type", .error, at: #"$.aps["thread-id"]"#)
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

    @Test("every seed payload passes with no errors, warning only about times already past", arguments: seedPayloads)
    func seedPayloadPasses(name: String) throws {
        let bytes = try Data(contentsOf: Self.seedDirectory.appendingPathComponent(name))
        let payload = try JSONParser.parse(Array(bytes))
        let platform: Platform = name.hasSuffix("-fcm.json") ? .fcm : .apns
        let diagnostics = F.check(payload, platform, intentPaths: true)
        #expect(!diagnostics.hasErrors, "\(diagnostics)")
        // basic-fcm's remind-later time and timer-fcm's end are 2023-12-25, before `now`.
        let expected: [String: [String]] = [
            "basic-fcm.json": ["android-remind-later-past"],
            "timer-fcm.json": ["android-timer-expired"],
        ]
        #expect(diagnostics.map(\.rule) == expected[name, default: []], "\(diagnostics)")
    }

    // MARK: - FCM message

    @Test("an FCM payload must be an object holding an object message")
    func fcmMessageObject() throws {
        F.expectOne(F.check(.array([]), .fcm), "fcm-message-object", .error, at: "$")
        F.expectOne(F.check(["message": "hi"], .fcm), "fcm-message-object", .error, at: "$.message")
        F.expectOne(F.check(["data": [:]], .fcm), "fcm-message-object", .error, at: "$.message")
        F.expectNone(F.check(F.fcm(F.basicData), .fcm), "fcm-message-object")
    }

    @Test("message.android must be an object")
    func fcmAndroidObject() {
        F.expectOne(F.check(F.fcm(F.basicData, message: ["android": "HIGH"]), .fcm), "fcm-android-object", .error, at: "$.message.android")
        F.expectNone(F.check(F.fcm(F.basicData, message: ["android": ["collapse_key": "k"]]), .fcm), "fcm-android-object")
    }

    @Test("message.data must be an object")
    func fcmDataMap() {
        F.expectOne(F.check(F.fcm([:], message: ["data": ["a", "b"]]), .fcm), "fcm-data-map", .error, at: "$.message.data")
        F.expectOne(
            F.check(F.fcm(F.basicData, message: ["android": ["data": "x"]]), .fcm), "fcm-data-map", .error, at: "$.message.android.data")
        F.expectNone(F.check(F.fcm(F.basicData), .fcm), "fcm-data-map")
    }

    @Test("every FCM data value is a string, in data and in android.data")
    func fcmDataString() throws {
        let payload = F.fcm(F.merged(F.basicData, ["adb_n_count": 3]))
        let finding = F.expectOne(F.check(payload, .fcm, intentPaths: true), "fcm-data-string", .error, at: "$.badge", payloadPath: "$.message.data.adb_n_count")
        #expect(finding?.message.contains("integer") == true)
        let nested = F.fcm(F.basicData, message: ["android": ["data": ["adb_act": [["label": "a", "type": "OPENAPP"]]]]])
        F.expectOne(F.check(nested, .fcm), "fcm-data-string", .error, at: "$.message.android.data.adb_act")
        F.expectOne(F.check(nested, .fcm, intentPaths: true), "fcm-data-string", .error, at: "$.buttons")
        let custom = F.fcm(F.merged(F.basicData, ["flag": true]))
        F.expectOne(F.check(custom, .fcm, intentPaths: true), "fcm-data-string", .error, at: "$.data.flag")
        F.expectNone(F.check(F.fcm(F.merged(F.basicData, ["adb_n_count": "3"])), .fcm), "fcm-data-string")
    }

    @Test("reserved FCM data keys are refused", arguments: ["from", "message_type", "google.sent_time", "gcm.notification.x"])
    func fcmReservedKey(key: String) {
        let payload = F.fcm(F.merged(F.basicData, [key: "x"]))
        F.expectOne(F.check(payload, .fcm), "fcm-reserved-key", .error, at: JSONPath.member("$.message.data", key))
    }

    @Test("keys that only look like reserved ones are accepted")
    func fcmReservedKeyLookalikes() {
        let payload = F.fcm(F.merged(F.basicData, ["fromage": "x", "googleplex": "y", "my.gcm.key": "z"]))
        F.expectNone(F.check(payload, .fcm), "fcm-reserved-key")
    }

    @Test("a message has at most one of token, topic and condition")
    func fcmOneTarget() {
        let two = F.fcm(F.basicData, message: ["topic": "news"])
        F.expectOne(F.check(two, .fcm, intentPaths: true), "fcm-one-target", .error, at: "$.target", payloadPath: "$.message")
        F.expectNone(F.check(F.fcm(F.basicData), .fcm), "fcm-one-target")
    }

    @Test("android.priority is the delivery priority NORMAL or HIGH")
    func fcmDeliveryPriority() {
        let bad = F.fcm(F.basicData, message: ["android": ["priority": "PRIORITY_HIGH"]])
        F.expectOne(F.check(bad, .fcm, intentPaths: true), "fcm-delivery-priority", .error, at: "$.android.delivery", payloadPath: "$.message.android.priority")
        F.expectOne(F.check(F.fcm(F.basicData, message: ["android": ["priority": "high"]]), .fcm), "fcm-delivery-priority", .error, at: "$.message.android.priority")
        for priority: JSONValue in ["NORMAL", "HIGH"] {
            F.expectNone(F.check(F.fcm(F.basicData, message: ["android": ["priority": priority]]), .fcm), "fcm-delivery-priority")
        }
    }

    @Test("android.ttl is a duration string of at most 28 days", arguments: [
        ("3600s", true), ("1.5s", true), ("0.000000001s", true), ("2419200s", true), ("2419200.000s", true),
        ("3600", false), ("1.1234567891s", false), ("2419201s", false), ("2419200.5s", false), ("s", false), ("1.s", false), ("-1s", false),
    ])
    func fcmTTL(ttl: String, valid: Bool) {
        let diagnostics = F.check(F.fcm(F.basicData, message: ["android": ["ttl": .string(ttl)]]), .fcm, intentPaths: true)
        if valid {
            F.expectNone(diagnostics, "fcm-ttl")
        } else {
            F.expectOne(diagnostics, "fcm-ttl", .error, at: "$.android.ttl", payloadPath: "$.message.android.ttl")
        }
    }

    @Test("a number of seconds is not a ttl")
    func fcmTTLNumber() {
        F.expectOne(F.check(F.fcm(F.basicData, message: ["android": ["ttl": 3600]]), .fcm), "fcm-ttl", .error, at: "$.message.android.ttl")
    }

    @Test("the FCM message is at most 4096 bytes written compactly")
    func fcmSize() {
        let big = F.fcm(F.merged(F.basicData, ["filler": .string(String(repeating: "x", count: 4096))]))
        let finding = F.expectOne(F.check(big, .fcm), "fcm-size", .error, at: "$.message")
        #expect(finding?.message.contains("bytes") == true)
        let fits = F.fcm(F.merged(F.basicData, ["filler": .string(String(repeating: "x", count: 3500))]))
        F.expectNone(F.check(fits, .fcm), "fcm-size")
    }

    // MARK: - Android: every template

    @Test("templates need adb_version, adb_title and adb_body", arguments: ["adb_version", "adb_title", "adb_body"])
    func androidRequiredKey(key: String) {
        let payload = F.fcm(F.merged(F.basicData, [:], removing: [key]))
        F.expectOne(F.check(payload, .fcm), "android-required-key", .error, at: "$.message.data.\(key)")
    }

    @Test("required keys: empty strings count, the icon template needs no title or body, plain needs none")
    func androidRequiredKeyPasses() {
        F.expectNone(F.check(F.fcm(F.merged(F.basicData, ["adb_title": "", "adb_body": ""])), .fcm), "android-required-key")
        F.expectNone(F.check(F.fcm(["adb_template_type": "icon", "adb_version": "1"]), .fcm), "android-required-key")
        F.expectOne(F.check(F.fcm(["adb_template_type": "icon"]), .fcm), "android-required-key", .error, at: "$.message.data.adb_version")
        F.expectNone(F.check(F.fcm(["adb_body": "only a body"]), .fcm), "android-required-key")
    }

    @Test("adb_a_type must be exactly DEEPLINK, WEBURL, DISMISS or OPENAPP", arguments: ["weburl", "", "LINK"])
    func androidLinkType(type: String) {
        let template = F.fcm(F.merged(F.basicData, ["adb_a_type": .string(type), "adb_uri": "https://x.com"]))
        F.expectOne(F.check(template, .fcm, intentPaths: true), "android-link-type", .error, at: "$.link.type", payloadPath: "$.message.data.adb_a_type")
        let plain = F.fcm(["adb_title": "t", "adb_body": "b", "adb_a_type": .string(type)])
        F.expectOne(F.check(plain, .fcm), "android-link-type", .error, at: "$.message.data.adb_a_type")
    }

    @Test("the four link types are accepted", arguments: ["DEEPLINK", "WEBURL", "DISMISS", "OPENAPP"])
    func androidLinkTypePasses(type: String) {
        F.expectNone(F.check(F.fcm(F.merged(F.basicData, ["adb_a_type": .string(type)])), .fcm), "android-link-type")
    }

    @Test("adb_uri without adb_a_type is a warning")
    func androidLinkWithoutType() {
        let bare = F.fcm(F.merged(F.basicData, ["adb_uri": "https://x.com"]))
        F.expectOne(F.check(bare, .fcm, intentPaths: true), "android-link-without-type", .warning, at: "$.link.uri")
        let typed = F.fcm(F.merged(F.basicData, ["adb_uri": "https://x.com", "adb_a_type": "WEBURL"]))
        F.expectNone(F.check(typed, .fcm), "android-link-without-type")
    }

    @Test("an FCM payload with iOS's adb_media and no adb_image warns")
    func androidImageKey() {
        F.expectOne(
            F.check(F.fcm(F.merged(F.basicData, ["adb_media": "https://x.com/a.png"])), .fcm), "android-image-key", .warning,
            at: "$.message.data.adb_media")
        F.expectNone(F.check(F.fcm(F.merged(F.basicData, ["adb_image": "https://x.com/a.png"])), .fcm), "android-image-key")
    }

    @Test("adb_act must be a JSON-encoded array", arguments: [
        #"[{"label":"accept","uri":"https://chess.com/games/552","type":"DEEPLINK"{"label":"decline","uri":"","type":"OPENAPP"}]"#,
        #"{"label":"a","type":"OPENAPP"}"#, "accept",
    ])
    func androidActionsJSON(text: String) {
        let payload = F.fcm(F.merged(F.basicData, ["adb_act": .string(text)]))
        F.expectOne(F.check(payload, .fcm, intentPaths: true), "android-actions-json", .error, at: "$.buttons", payloadPath: "$.message.data.adb_act")
    }

    @Test("a JSON-encoded value read through the one parser reads as JSONParser reads it")
    func encodedValuesReadAsTheFullParserReadsThem() throws {
        var random = SeededGenerator(seed: 0x6164625F616374)
        let keys = ["label", "type", "uri", "aid", "lab\\u0065l", "type"]
        let values = [#""accept""#, #""""#, #""WEBURL""#, #""DEEP\nLINK""#, #""x\"y""#, "1", "null", "true", #"{"a":1}"#, #"["b"]"#, #""é✓""#]
        let spaces = ["", " ", "\n", "\t ", "\r\n"]
        var parsedCount = 0
        for round in 0..<3000 {
            func pick(_ list: [String]) -> String { list[Int.random(in: 0..<list.count, using: &random)] }
            func space() -> String { Int.random(in: 0..<4, using: &random) == 0 ? pick(spaces) : "" }
            var objects: [String] = []
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                if Int.random(in: 0..<12, using: &random) == 0 { objects.append(pick(values)); continue }
                var members: [String] = []
                for _ in 0..<Int.random(in: 0...4, using: &random) {
                    members.append(space() + "\"" + pick(keys) + "\"" + space() + ":" + space() + pick(values) + space())
                }
                objects.append(space() + "{" + members.joined(separator: ",") + "}" + space())
            }
            var text = space() + "[" + objects.joined(separator: ",") + "]" + space()
            // Now and then a cut or a stray byte: what neither reader may take.
            if Int.random(in: 0..<10, using: &random) == 0, !text.isEmpty {
                text = String(text.utf8.prefix(Int.random(in: 0..<text.utf8.count, using: &random))) ?? text
            }
            if Int.random(in: 0..<20, using: &random) == 0 { text += "x" }
            let bytes = Array(text.utf8)
            let parsed = try? JSONParser.parse(bytes)
            let read = bytes.withUnsafeBytes { text in EncodedJSON.withValue(text) { $0.node?.value() } }
            #expect(read == parsed, "round \(round): \(text)")
            if read != nil { parsedCount += 1 }
        }
        // The texts are JSON often enough for the reading to be tested, not only the refusing.
        #expect(parsedCount > 100, "\(parsedCount)")
    }

    @Test("a well-formed adb_act passes")
    func androidActionsPass() {
        let actions = #"[{"label":"accept","uri":"https://x.com/1","type":"WEBURL"},{"label":"later","type":"DISMISS"},{"label":"open","type":"OPENAPP"}]"#
        let diagnostics = F.check(F.fcm(F.merged(F.basicData, ["adb_act": .string(actions)])), .fcm)
        F.expectClean(diagnostics)
    }

    @Test("an action without a label or a type is skipped by the phone", arguments: [
        #"[{"uri":"https://x.com","type":"WEBURL"}]"#, #"[{"label":"","type":"OPENAPP"}]"#, #"[{"label":"go"}]"#, #"["go"]"#,
    ])
    func androidActionIncomplete(text: String) {
        let payload = F.fcm(F.merged(F.basicData, ["adb_act": .string(text)]))
        F.expectOne(F.check(payload, .fcm, intentPaths: true), "android-action-incomplete", .error, at: "$.buttons[0]", payloadPath: "$.message.data.adb_act[0]")
    }

    @Test("an action type outside the four values is an error")
    func androidActionType() {
        let bad = F.fcm(F.merged(F.basicData, ["adb_act": #"[{"label":"go","type":"OPEN"}]"#]))
        F.expectOne(F.check(bad, .fcm, intentPaths: true), "android-action-type", .error, at: "$.buttons[0].type", payloadPath: "$.message.data.adb_act[0].type")
        let good = F.fcm(F.merged(F.basicData, ["adb_act": #"[{"label":"go","type":"OPENAPP"}]"#]))
        F.expectNone(F.check(good, .fcm), "android-action-type")
        F.expectNone(F.check(good, .fcm), "android-action-incomplete")
    }

    @Test("adb_act gets the same findings when the full parser reads it (an action of more keys than the tape parser takes)")
    func androidActionsThroughTheFullParser() {
        let extra = (1...60).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        let bad = F.fcm(F.merged(F.basicData, ["adb_act": .string(#"[{"label":"go","type":"OPEN",\#(extra)},"x",{"label":"","type":"WEBURL"}]"#)]))
        let findings = F.check(bad, .fcm, intentPaths: true)
        F.expectOne(findings, "android-action-type", .error, at: "$.buttons[0].type", payloadPath: "$.message.data.adb_act[0].type")
        #expect(findings.filter { $0.rule == "android-action-incomplete" }.map(\.path) == ["$.buttons[1]", "$.buttons[2]"])
        #expect(findings.contains { $0.rule == "android-action-uri" && $0.path == "$.buttons[2]" })
    }

    @Test("at most 3 actions, or 2 beside remind later")
    func androidActionCount() {
        let one = #"{"label":"go","type":"OPENAPP"}"#
        func actions(_ count: Int) -> JSONValue { .string("[" + Array(repeating: one, count: count).joined(separator: ",") + "]") }
        let remind: JSONObject = ["adb_rem_txt": "Later", "adb_rem_sec": "600"]
        F.expectOne(F.check(F.fcm(F.merged(F.basicData, ["adb_act": actions(4)])), .fcm), "android-action-count", .error, at: "$.message.data.adb_act")
        F.expectOne(
            F.check(F.fcm(F.merged(F.merged(F.basicData, remind), ["adb_act": actions(3)])), .fcm, intentPaths: true), "android-action-count", .error,
            at: "$.buttons")
        F.expectNone(F.check(F.fcm(F.merged(F.basicData, ["adb_act": actions(3)])), .fcm), "android-action-count")
        F.expectNone(F.check(F.fcm(F.merged(F.merged(F.basicData, remind), ["adb_act": actions(2)])), .fcm), "android-action-count")
    }

    @Test("a WEBURL or DEEPLINK action without a uri is a warning")
    func androidActionURI() {
        let bad = F.fcm(F.merged(F.basicData, ["adb_act": #"[{"label":"a","type":"OPENAPP"},{"label":"b","type":"WEBURL","uri":""}]"#]))
        F.expectOne(F.check(bad, .fcm, intentPaths: true), "android-action-uri", .warning, at: "$.buttons[1]")
        let good = F.fcm(F.merged(F.basicData, ["adb_act": #"[{"label":"a","type":"OPENAPP"},{"label":"b","type":"DEEPLINK","uri":"app://x"}]"#]))
        F.expectNone(F.check(good, .fcm), "android-action-uri")
    }

    @Test("a remind-later time at or before now is a warning")
    func androidRemindLaterPast() {
        let past = F.fcm(F.merged(F.basicData, ["adb_rem_txt": "Later", "adb_rem_ts": .string(String(F.now))]))
        F.expectOne(F.check(past, .fcm, intentPaths: true), "android-remind-later-past", .warning, at: "$.remindLater.at")
        let future = F.fcm(F.merged(F.basicData, ["adb_rem_txt": "Later", "adb_rem_ts": .string(String(F.now + 60))]))
        F.expectNone(F.check(future, .fcm), "android-remind-later-past")
        // A positive adb_rem_sec wins over adb_rem_ts.
        let seconds = F.fcm(F.merged(F.basicData, ["adb_rem_txt": "Later", "adb_rem_ts": "100", "adb_rem_sec": "60"]))
        F.expectNone(F.check(seconds, .fcm), "android-remind-later-past")
    }

    @Test("Android colours are 6 or 8 hex digits without #", arguments: ["#FF0000", "FFF", "GG0000", "FF00001", ""])
    func androidColor(colour: String) {
        let payload = F.fcm(F.merged(F.basicData, ["adb_clr_title": .string(colour)]))
        let finding = F.expectOne(F.check(payload, .fcm, intentPaths: true), "android-color", .error, at: "$.colors.title", payloadPath: "$.message.data.adb_clr_title")
        #expect(finding?.message.contains("ignores") == true)
    }

    @Test("valid Android colours pass")
    func androidColorPasses() {
        let payload = F.fcm(F.merged(F.basicData, ["adb_clr_title": "FF0000", "adb_clr_bg": "80ff00AA", "adb_clr_icon": "abcdef"]))
        F.expectNone(F.check(payload, .fcm), "android-color")
    }

    @Test("adb_n_count must be an integer string")
    func androidBadgeCount() {
        F.expectOne(F.check(F.fcm(F.merged(F.basicData, ["adb_n_count": "two"])), .fcm, intentPaths: true), "android-badge-count", .warning, at: "$.badge")
        F.expectNone(F.check(F.fcm(F.merged(F.basicData, ["adb_n_count": "2"])), .fcm), "android-badge-count")
    }

    @Test("adb_sticky must be true or false")
    func androidSticky() {
        F.expectOne(F.check(F.fcm(F.merged(F.basicData, ["adb_sticky": "yes"])), .fcm, intentPaths: true), "android-sticky", .warning, at: "$.android.sticky")
        F.expectNone(F.check(F.fcm(F.merged(F.basicData, ["adb_sticky": "TRUE"])), .fcm), "android-sticky")
        F.expectNone(F.check(F.fcm(F.merged(F.basicData, ["adb_sticky": "false"])), .fcm), "android-sticky")
    }

    @Test("adb_n_priority must be one of Android's display priorities")
    func androidDisplayPriority() {
        F.expectOne(
            F.check(F.fcm(F.merged(F.basicData, ["adb_n_priority": "HIGH"])), .fcm, intentPaths: true), "android-display-priority", .warning,
            at: "$.android.priority")
        F.expectNone(F.check(F.fcm(F.merged(F.basicData, ["adb_n_priority": "PRIORITY_MAX"])), .fcm), "android-display-priority")
    }

    @Test("adb_n_visibility must be PRIVATE, PUBLIC or SECRET")
    func androidVisibility() {
        F.expectOne(
            F.check(F.fcm(F.merged(F.basicData, ["adb_n_visibility": "public"])), .fcm), "android-visibility", .warning,
            at: "$.message.data.adb_n_visibility")
        F.expectNone(F.check(F.fcm(F.merged(F.basicData, ["adb_n_visibility": "SECRET"])), .fcm), "android-visibility")
    }

    @Test("Android text longer than the guidelines is a warning")
    func androidTextLength() {
        let long = F.fcm(F.merged(F.basicData, ["adb_title": .string(String(repeating: "é", count: 36))]))
        F.expectOne(F.check(long, .fcm, intentPaths: true), "android-text-length", .warning, at: "$.title")
        let body = F.fcm(F.merged(F.basicData, ["adb_body_ex": .string(String(repeating: "b", count: 111))]))
        F.expectOne(F.check(body, .fcm, intentPaths: true), "android-text-length", .warning, at: "$.expandedBody")
        let fits = F.fcm(F.merged(F.basicData, [
            "adb_title": .string(String(repeating: "🏀", count: 35)), "adb_body": .string(String(repeating: "b", count: 110)),
        ]))
        F.expectNone(F.check(fits, .fcm), "android-text-length")
    }

    // MARK: - Android: carousel

    @Test("a valid Android carousel passes")
    func androidCarouselPasses() {
        F.expectClean(F.check(F.fcm(F.carouselData), .fcm))
        F.expectClean(F.check(F.fcm(F.merged(F.carouselData, ["adb_car_layout": "filmstrip", "adb_car_mode": "auto"])), .fcm))
    }

    @Test("adb_car_layout is required by Android's carousel code")
    func androidCarouselLayoutMissing() {
        let payload = F.fcm(F.merged(F.carouselData, [:], removing: ["adb_car_layout"]))
        let finding = F.expectOne(F.check(payload, .fcm, intentPaths: true), "android-carousel-layout-missing", .error, at: "$.carousel.layout")
        #expect(finding?.message.contains("not shown") == true)
    }

    @Test("adb_car_layout is default or filmstrip")
    func androidCarouselLayout() {
        let payload = F.fcm(F.merged(F.carouselData, ["adb_car_layout": "grid"]))
        F.expectOne(F.check(payload, .fcm), "android-carousel-layout", .error, at: "$.message.data.adb_car_layout")
        F.expectNone(F.check(payload, .fcm), "android-carousel-layout-missing")
    }

    @Test("Android's adb_items must be a JSON-encoded array")
    func androidCarouselItemsJSON() {
        let payload = F.fcm(F.merged(F.carouselData, ["adb_items": "[{\"img\":"]))
        F.expectOne(F.check(payload, .fcm, intentPaths: true), "android-carousel-items-json", .error, at: "$.carousel.items")
        F.expectNone(F.check(F.fcm(F.carouselData), .fcm), "android-carousel-items-json")
    }

    @Test("an Android carousel needs at least 3 items")
    func androidCarouselItemsCount() {
        let two = #"[{"img":"https://x.com/1.png"},{"img":"https://x.com/2.png"}]"#
        F.expectOne(
            F.check(F.fcm(F.merged(F.carouselData, ["adb_items": .string(two)])), .fcm, intentPaths: true), "android-carousel-items-count", .error,
            at: "$.carousel.items", payloadPath: "$.message.data.adb_items")
        F.expectOne(
            F.check(F.fcm(F.merged(F.carouselData, [:], removing: ["adb_items"])), .fcm), "android-carousel-items-count", .error,
            at: "$.message.data.adb_items")
        F.expectNone(F.check(F.fcm(F.carouselData), .fcm), "android-carousel-items-count")
    }

    @Test("an Android carousel item without img loses it and every later item")
    func androidCarouselItemImage() {
        let items = #"[{"img":"https://x.com/1.png"},{"txt":"no image"},{"img":"https://x.com/3.png"},{"img":"https://x.com/4.png"}]"#
        let diagnostics = F.check(F.fcm(F.merged(F.carouselData, ["adb_items": .string(items)])), .fcm, intentPaths: true)
        let finding = F.expectOne(diagnostics, "android-carousel-item-image", .error, at: "$.carousel.items[1]", payloadPath: "$.message.data.adb_items[1]")
        #expect(finding?.message.contains("2 after it") == true)
        // Only one item is left, so the carousel falls back to basic too.
        F.expectOne(diagnostics, "android-carousel-items-count", .error, at: "$.carousel.items")
        F.expectNone(F.check(F.fcm(F.carouselData), .fcm), "android-carousel-item-image")
    }

    @Test("an auto carousel item without uri is a warning; a manual one is not")
    func androidCarouselItemURI() {
        let items = #"[{"img":"https://x.com/1.png","uri":"https://x.com/1"},{"img":"https://x.com/2.png","uri":"https://x.com/2"},{"img":"https://x.com/3.png"}]"#
        let auto = F.fcm(F.merged(F.carouselData, ["adb_items": .string(items), "adb_car_mode": "auto"]))
        F.expectOne(F.check(auto, .fcm, intentPaths: true), "android-carousel-item-uri", .warning, at: "$.carousel.items[2]")
        let manual = F.fcm(F.merged(F.carouselData, ["adb_items": .string(items), "adb_car_mode": "manual"]))
        F.expectNone(F.check(manual, .fcm), "android-carousel-item-uri")
    }

    // MARK: - Android: timer

    @Test("a valid Android timer passes")
    func androidTimerPasses() {
        F.expectClean(F.check(F.fcm(F.timerData), .fcm))
        F.expectClean(F.check(F.fcm(F.merged(F.timerData, ["adb_tmr_end": .string(String(F.now + 3600))], removing: ["adb_tmr_dur"])), .fcm))
    }

    @Test("an Android timer needs adb_title_alt")
    func androidTimerAlternateTitle() {
        let payload = F.fcm(F.merged(F.timerData, [:], removing: ["adb_title_alt"]))
        F.expectOne(F.check(payload, .fcm, intentPaths: true), "android-timer-alternate-title", .error, at: "$.expired.title")
    }

    @Test("an Android timer needs adb_tmr_dur or adb_tmr_end")
    func androidTimerMissing() {
        let payload = F.fcm(F.merged(F.timerData, [:], removing: ["adb_tmr_dur"]))
        F.expectOne(F.check(payload, .fcm, intentPaths: true), "android-timer-missing", .error, at: "$.timer", payloadPath: "$.message.data.adb_tmr_dur")
        F.expectNone(F.check(F.fcm(F.timerData), .fcm), "android-timer-missing")
    }

    @Test("adb_tmr_dur is a positive integer string and adb_tmr_end an integer string")
    func androidTimerValue() {
        for duration: JSONValue in ["0", "ten", "1.5", "-5"] {
            let payload = F.fcm(F.merged(F.timerData, ["adb_tmr_dur": duration]))
            F.expectOne(F.check(payload, .fcm, intentPaths: true), "android-timer-value", .error, at: "$.timer.duration")
        }
        let end = F.fcm(F.merged(F.timerData, ["adb_tmr_end": "tomorrow"], removing: ["adb_tmr_dur"]))
        F.expectOne(F.check(end, .fcm, intentPaths: true), "android-timer-value", .error, at: "$.timer.endsAt")
        F.expectNone(F.check(F.fcm(F.timerData), .fcm), "android-timer-value")
    }

    @Test("an Android timer ending at or before now is a warning, unless a duration wins")
    func androidTimerExpired() {
        let past = F.fcm(F.merged(F.timerData, ["adb_tmr_end": "1703462400"], removing: ["adb_tmr_dur"]))
        F.expectOne(F.check(past, .fcm, intentPaths: true), "android-timer-expired", .warning, at: "$.timer.endsAt")
        let withDuration = F.fcm(F.merged(F.timerData, ["adb_tmr_end": "1703462400"]))
        F.expectNone(F.check(withDuration, .fcm), "android-timer-expired")
    }

    // MARK: - APNS payload

    @Test("an APNS payload must be an object holding an object aps")
    func apnsApsObject() {
        F.expectOne(F.check("text", .apns), "apns-aps-object", .error, at: "$")
        F.expectOne(F.check(["adb_media": "x"], .apns), "apns-aps-object", .error, at: "$.aps")
        F.expectOne(F.check(["aps": 1], .apns), "apns-aps-object", .error, at: "$.aps")
        F.expectNone(F.check(F.apns(F.plainAps), .apns), "apns-aps-object")
    }

    @Test("custom keys go beside aps, never inside it")
    func apnsApsKey() {
        let payload = F.apns(F.merged(F.plainAps, ["adb_media": "https://x.com/a.png"]))
        F.expectOne(F.check(payload, .apns, intentPaths: true), "apns-aps-key", .error, at: "$.aps.adb_media")
        let live = F.apns(F.merged(F.plainAps, ["timestamp": 1, "event": "update", "content-state": [:], "stale-date": 2]))
        F.expectNone(F.check(live, .apns), "apns-aps-key")
    }

    @Test("aps.alert is a string or an object of strings and string arrays")
    func apnsAlert() throws {
        F.expectOne(F.check(F.apns(["alert": 5]), .apns), "apns-alert", .error, at: "$.aps.alert")
        F.expectOne(F.check(F.apns(["alert": ["title": 5]]), .apns, intentPaths: true), "apns-alert", .error, at: "$.title", payloadPath: "$.aps.alert.title")
        F.expectOne(F.check(F.apns(["alert": ["loc-args": ["a", 1]]]), .apns), "apns-alert", .error, at: #"$.aps.alert["loc-args"]"#)
        F.expectNone(F.check(F.apns(["alert": "Hello"]), .apns), "apns-alert")
        let full = try F.parse(#"{"aps":{"alert":{"title":"t","subtitle":"s","body":"b","loc-key":"K","loc-args":["x"],"title-loc-args":[]}}}"#)
        F.expectNone(F.check(full, .apns), "apns-alert")
    }

    @Test("aps.badge is an integer of 0 or more", arguments: [JSONValue.double(1.0), "1", -1, true])
    func apnsBadge(badge: JSONValue) {
        let payload = F.apns(F.merged(F.plainAps, ["badge": badge]))
        F.expectOne(F.check(payload, .apns, intentPaths: true), "apns-badge", .error, at: "$.badge", payloadPath: "$.aps.badge")
    }

    @Test("an integer badge passes")
    func apnsBadgePasses() {
        F.expectNone(F.check(F.apns(F.merged(F.plainAps, ["badge": 0])), .apns), "apns-badge")
        F.expectNone(F.check(F.apns(F.merged(F.plainAps, ["badge": 12])), .apns), "apns-badge")
    }

    @Test("aps.sound is a name or {critical, name, volume}")
    func apnsSound() {
        F.expectOne(F.check(F.apns(F.merged(F.plainAps, ["sound": 1])), .apns), "apns-sound", .error, at: "$.aps.sound")
        F.expectOne(
            F.check(F.apns(F.merged(F.plainAps, ["sound": ["critical": 2, "name": "alarm"]])), .apns), "apns-sound", .error,
            at: "$.aps.sound.critical")
        F.expectOne(
            F.check(F.apns(F.merged(F.plainAps, ["sound": ["name": "alarm", "volume": 1.5]])), .apns, intentPaths: true), "apns-sound", .error,
            at: "$.sound", payloadPath: "$.aps.sound.volume")
        F.expectOne(F.check(F.apns(F.merged(F.plainAps, ["sound": ["critical": 1]])), .apns), "apns-sound", .error, at: "$.aps.sound.name")
        F.expectNone(F.check(F.apns(F.merged(F.plainAps, ["sound": "default"])), .apns), "apns-sound")
        F.expectNone(F.check(F.apns(F.merged(F.plainAps, ["sound": ["critical": 1, "name": "alarm", "volume": 0.5]])), .apns), "apns-sound")
    }

    @Test("content-available and mutable-content are exactly the integer 1", arguments: [JSONValue.bool(true), "1", 0, .double(1.0)])
    func apnsFlag(value: JSONValue) {
        let payload = F.apns(F.merged(F.plainAps, ["mutable-content": value]))
        F.expectOne(F.check(payload, .apns, intentPaths: true), "apns-flag", .error, at: "$.ios.mutableContent", payloadPath: #"$.aps["mutable-content"]"#)
        let background = F.apns(["content-available": value])
        F.expectOne(F.check(background, .apns), "apns-flag", .error, at: #"$.aps["content-available"]"#)
    }

    @Test("the integer 1 passes as a flag")
    func apnsFlagPasses() {
        F.expectNone(F.check(F.apns(F.merged(F.plainAps, ["mutable-content": 1, "content-available": 1])), .apns), "apns-flag")
    }

    @Test("aps.interruption-level is one of Apple's four")
    func apnsInterruptionLevel() {
        F.expectOne(
            F.check(F.apns(F.merged(F.plainAps, ["interruption-level": "urgent"])), .apns, intentPaths: true), "apns-interruption-level", .error,
            at: "$.ios.interruptionLevel")
        for level: JSONValue in ["passive", "active", "time-sensitive", "critical"] {
            F.expectNone(F.check(F.apns(F.merged(F.plainAps, ["interruption-level": level])), .apns), "apns-interruption-level")
        }
    }

    @Test("aps.relevance-score is a number from 0 to 1")
    func apnsRelevanceScore() {
        for score: JSONValue in [1.5, -0.1, "0.5", 2] {
            F.expectOne(
                F.check(F.apns(F.merged(F.plainAps, ["relevance-score": score])), .apns), "apns-relevance-score", .error,
                at: #"$.aps["relevance-score"]"#)
        }
        for score: JSONValue in [0, 1, 0.25] {
            F.expectNone(F.check(F.apns(F.merged(F.plainAps, ["relevance-score": score])), .apns), "apns-relevance-score")
        }
    }

    @Test("thread-id, category and target-content-id are strings")
    func apnsApsType() {
        F.expectOne(F.check(F.apns(F.merged(F.plainAps, ["category": 3])), .apns, intentPaths: true), "apns-aps-type", .error, at: "$.ios.category")
        F.expectNone(F.check(F.apns(F.merged(F.plainAps, ["category": "c", "thread-id": "t", "target-content-id": "x"])), .apns), "apns-aps-type")
    }

    @Test("the APNS payload is at most 4096 bytes written compactly")
    func apnsSize() {
        let big = F.apns(F.plainAps, ["filler": .string(String(repeating: "x", count: 4100))])
        F.expectOne(F.check(big, .apns), "apns-size", .error, at: "$")
        F.expectNone(F.check(F.apns(F.plainAps, ["filler": .string(String(repeating: "x", count: 3900))]), .apns), "apns-size")
    }

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
        F.expectOne(diagnostics, "ios-string-value", .error, at: "$.timer.duration", payloadPath: "$.adb_tmr_dur")
        // Counted as absent, the timer has no duration at all.
        F.expectOne(diagnostics, "ios-timer-missing", .error, at: "$.timer")
        F.expectOne(F.check(F.apns(F.templateAps, F.merged(F.basicKeys, ["adb_version": 1])), .apns), "ios-string-value", .error, at: "$.adb_version")
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
    }

    @Test("a template needs mutable-content 1")
    func iosTemplateMutableContent() {
        let payload = F.apns(F.merged(F.templateAps, [:], removing: ["mutable-content"]), F.carouselKeys)
        F.expectOne(F.check(payload, .apns), "ios-template-mutable-content", .error, at: #"$.aps["mutable-content"]"#)
        F.expectNone(F.check(F.apns(F.templateAps, F.carouselKeys), .apns), "ios-template-mutable-content")
    }

    @Test("a template needs aps.alert.title and aps.alert.body")
    func iosTemplateAlert() {
        let payload = F.apns(F.merged(F.templateAps, ["alert": ["body": "b"]]), F.basicKeys)
        F.expectOne(F.check(payload, .apns, intentPaths: true), "ios-template-alert", .error, at: "$.title", payloadPath: "$.aps.alert.title")
        let stringAlert = F.apns(F.merged(F.templateAps, ["alert": "just text"]), F.basicKeys)
        #expect(F.check(stringAlert, .apns).filter { $0.rule == "ios-template-alert" }.count == 2)
        F.expectNone(F.check(F.apns(F.templateAps, F.basicKeys), .apns), "ios-template-alert")
    }

    @Test("iOS colours are 6 or 8 hex digits, # allowed")
    func iosColor() {
        F.expectOne(
            F.check(F.apns(F.templateAps, F.merged(F.basicKeys, ["adb_clr_bg": "##FFFFFF"])), .apns, intentPaths: true), "ios-color", .error,
            at: "$.colors.background", payloadPath: "$.adb_clr_bg")
        F.expectOne(F.check(F.apns(F.templateAps, F.merged(F.basicKeys, ["adb_clr_title": "red"])), .apns), "ios-color", .error, at: "$.adb_clr_title")
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

    @Test("iOS timer values are whole seconds")
    func iosTimerValue() {
        F.expectOne(F.check(F.apns(F.templateAps, F.merged(F.timerKeys, ["adb_tmr_dur": "10s"])), .apns), "ios-timer-value", .error, at: "$.adb_tmr_dur")
        let end = F.apns(F.templateAps, F.merged(F.timerKeys, ["adb_tmr_end": "soon"], removing: ["adb_tmr_dur"]))
        F.expectOne(F.check(end, .apns, intentPaths: true), "ios-timer-value", .error, at: "$.timer.endsAt")
        F.expectNone(F.check(F.apns(F.templateAps, F.timerKeys), .apns), "ios-timer-value")
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
        #expect(KeyPrint.adobePrefix == KeyPrint("adb_").head)
        #expect(KeyPrint.colourPrefix == KeyPrint("adb_clr_").head)
        #expect(FCMPayloadChecks.fromPrint == KeyPrint("from"))
        #expect(FCMPayloadChecks.messageTypePrint == KeyPrint("message_type"))
        #expect(FCMPayloadChecks.googlePrefix == KeyPrint("google.").head)
        #expect(FCMPayloadChecks.gcmPrefix == KeyPrint("gcm.").head)
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

extension EncodedNode {
    /// The value as a ``JSONValue``, to hold the reading to what ``JSONParser`` reads.
    func value() -> JSONValue {
        switch op {
        case JSONTape.Op.null: .null
        case JSONTape.Op.true: .bool(true)
        case JSONTape.Op.false: .bool(false)
        case JSONTape.Op.integer: .integer(tape.loadUnaligned(fromByteOffset: offset + 1, as: Int64.self))
        case JSONTape.Op.double: .double(Double(bitPattern: tape.loadUnaligned(fromByteOffset: offset + 1, as: UInt64.self)))
        case JSONTape.Op.string: .string(utf8.map { String(decoding: $0, as: UTF8.self) } ?? "")
        case JSONTape.Op.array: .array(elements.map { $0.map { $0.value() } } ?? [])
        default: .object(JSONObject(members: members.map { $0.map { (key: String(decoding: $0.key, as: UTF8.self), value: $0.value.value()) } } ?? []))
        }
    }
}
