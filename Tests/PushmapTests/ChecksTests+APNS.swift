import Testing
@_spi(Tools) @testable import Pushmap
import PushmapJSON

/// Apple's rules for the APNS payload.
extension ChecksTests {
    // MARK: - APNS payload

    @Test("an APNS payload is an object; aps an object, missing only where the push type needs none")
    func apnsApsObject() {
        F.expectOne(F.check("text", .apns), "apns-aps-object", .error, at: "$")
        F.expectOne(F.check(["aps": 1], .apns), "apns-aps-object", .error, at: "$.aps")
        F.expectNone(F.check(F.apns(F.plainAps), .apns), "apns-aps-object")
        // No push type: a PushKit payload or an alert that shows nothing; which one, only the
        // push type says, so a warning.
        let bare = F.expectOne(F.check(["adb_media": "x"], .apns), "apns-aps-object", .warning, at: "$.aps")
        #expect(bare?.message.contains("APNs refuses") == false)
        // An MDM payload says what it is.
        #expect(F.check(["mdm": "00000000-1111-3333-4444-555555555555"], .apns).isEmpty)
        // PushKit and MDM push types carry no aps; the others need one, a payload fault.
        for type in ["voip", "complication", "fileprovider", "location", "pushtotalk"] {
            let headers: JSONObject = ["apns-push-type": .string(type)]
            F.expectNone(F.check(["headers": .object(headers), "payload": ["caller": "Ann"]], .apns), "apns-aps-object")
        }
        for type in ["alert", "background", "liveactivity", "widgets"] {
            let headers: JSONObject = ["apns-push-type": .string(type), "apns-priority": "5", "apns-topic": "com.example.app"]
            F.expectOne(F.check(["headers": .object(headers), "payload": ["id": "1"]], .apns), "apns-aps-object", .error, at: "$.payload.aps")
        }
    }

    @Test("an aps with nothing to show or wake warns, as a payload with no aps does (twenty-fifth audit, F1)")
    func apnsApsDoesNothing() {
        // validate without headers: {"aps":{}} shows nothing as an alert push, but a VoIP push may
        // carry it, so a warning; with headers the push type rule says it once.
        for aps: JSONObject in [[:], ["thread-id": "x"], ["mutable-content": 1], ["category": "C"], ["content-available": 0]] {
            F.expectOne(F.check(["aps": .object(aps), "k": 1], .apns), "apns-aps-object", .warning, at: "$.aps")
        }
        for aps: JSONObject in [["alert": "Hi"], ["sound": "default"], ["badge": 0], ["content-available": 1], ["content-changed": true], ["event": "end", "timestamp": 1]] {
            F.expectNone(F.check(["aps": .object(aps)], .apns), "apns-aps-object")
        }
        let headers: JSONObject = ["apns-priority": "10"]
        let request = F.check(["headers": .object(headers), "payload": ["aps": [:]]], .apns)
        F.expectNone(request, "apns-aps-object")
        let missing = F.expectOne(request, "apns-push-type", .warning, at: #"$.headers["apns-push-type"]"#)
        #expect(missing?.message.contains("aps has no alert, sound, badge or content-available") == true)
        let voip: JSONObject = ["apns-push-type": "voip", "apns-topic": "com.example.app.voip"]
        #expect(F.check(["headers": .object(voip), "payload": ["aps": [:]]], .apns).isEmpty)
    }

    @Test("an MDM push is {mdm: PushMagic} and nothing else")
    func apnsMDM() {
        let headers: JSONObject = ["apns-push-type": "mdm", "apns-topic": "com.apple.mgmt.External.0f2a"]
        #expect(F.check(["headers": .object(headers), "payload": ["mdm": "magic"]], .apns).isEmpty)
        F.expectOne(F.check(["headers": .object(headers), "payload": [:]], .apns), "apns-mdm", .error, at: "$.payload.mdm")
        F.expectOne(F.check(["headers": .object(headers), "payload": ["mdm": 5]], .apns), "apns-mdm", .error, at: "$.payload.mdm")
        let extra = F.check(["headers": .object(headers), "payload": ["mdm": "magic", "aps": ["alert": "Hi"]]], .apns)
        F.expectOne(extra, "apns-mdm", .warning, at: "$.payload.aps")
        F.expectNone(F.check(F.apns(F.plainAps, ["mdm": "x"]), .apns), "apns-mdm")
    }

    @Test("a Live Activity's alert takes localisation dictionaries and a sound; a widgets push's content-changed is Apple's")
    func apnsLiveActivityAlert() {
        let alert: JSONValue = [
            "title": ["loc-key": "%@ is on an adventure!", "loc-args": ["Power Panda"]],
            "body": ["loc-key": "%@ found a sword!", "loc-args": ["Power Panda"]], "sound": "chime.aiff",
        ]
        let live: JSONObject = ["event": "update", "timestamp": 1_700_000_000, "content-state": ["level": 2], "alert": alert]
        #expect(F.check(F.apns(live), .apns).isEmpty)
        // Outside a Live Activity the title is a string, and the alert's sound is not read.
        let plain = F.check(F.apns(["alert": alert]), .apns)
        F.expectOne(plain, "apns-live-activity", .warning, at: "$.aps.alert.sound")
        #expect(plain.filter { $0.rule == "apns-alert" && $0.severity == .error }.map(\.path).sorted() == ["$.aps.alert.body", "$.aps.alert.title"])
        // A dictionary that is not a localisation is still wrong.
        F.expectOne(F.check(F.apns(F.merged(live, ["alert": ["title": ["text": "Hi"]]])), .apns), "apns-alert", .error, at: "$.aps.alert.title")
        #expect(F.check(F.apns(["content-changed": true]), .apns).isEmpty)
        F.expectOne(F.check(F.apns(["content-changed": 1]), .apns), "apns-flag", .warning, at: #"$.aps["content-changed"]"#)
    }

    /// Source: Apple's Live Activity times are epoch seconds ("Starting and updating Live
    /// Activities with ActivityKit push notifications"); the twenty-seventh audit sent Date.now()'s
    /// milliseconds through FCM's Live Activity example and it passed without a word.
    @Test("a Live Activity time in milliseconds is a warning at its key, with the fix; seconds pass")
    func apnsLiveActivityMilliseconds() {
        let update: JSONObject = ["event": "update", "timestamp": 1_767_225_600_000, "content-state": ["score": "1-0"]]
        F.expectOne(F.check(F.apns(update), .apns), "apns-live-activity", .warning, at: "$.aps.timestamp")
        #expect(F.check(F.apns(update), .apns).first?.message.contains("divide it by 1000") == true)
        let dates = F.merged(update, ["timestamp": 1_767_225_600, "stale-date": 1_767_229_200_000, "dismissal-date": 1_767_229_200_000])
        #expect(F.check(F.apns(dates), .apns).map(\.path) == ["$.aps[\"stale-date\"]", "$.aps[\"dismissal-date\"]"])
        #expect(F.check(F.apns(F.merged(update, ["timestamp": 1_767_225_600])), .apns).isEmpty)
    }

    @Test("a key Apple does not define in aps is ignored by iOS: a warning; a typo of a key the payload lacks is an error")
    func apnsApsKey() {
        let payload = F.apns(F.merged(F.plainAps, ["adb_media": "https://x.com/a.png"]))
        F.expectOne(F.check(payload, .apns, intentPaths: true), "apns-aps-key", .warning, at: "$.aps.adb_media")
        // The key it was written for is missing: the app is never woken.
        let typo = F.expectOne(F.check(F.apns(F.merged(F.plainAps, ["content-availabe": 1])), .apns), "apns-aps-key", .error, at: #"$.aps["content-availabe"]"#)
        #expect(typo?.message.contains("did you mean content-available?") == true)
        // Beside the key it is near, the stray key changes nothing: a warning.
        F.expectOne(
            F.check(F.apns(F.merged(F.plainAps, ["content-available": 1, "content-availabe": 1])), .apns), "apns-aps-key", .warning,
            at: #"$.aps["content-availabe"]"#)
        let live = F.apns(F.merged(F.plainAps, ["timestamp": 1, "event": "update", "content-state": [:], "stale-date": 2, "dismissal-date": 3]))
        F.expectNone(F.check(live, .apns), "apns-aps-key")
    }

    @Test("a typo of the alert's only text is one finding, not a second for the alert that shows nothing (twenty-fifth audit, F5)")
    func apnsAlertTypoOnce() {
        let diagnostics = F.check(["aps": ["alert": ["titel": "Hi"]]], .apns)
        F.expectOne(diagnostics, "apns-alert-key", .error, at: "$.aps.alert.titel")
        F.expectNone(diagnostics, "apns-alert")
        #expect(diagnostics.count == 1)
        // An unknown key near no text leaves the alert with nothing to show: that error stays.
        F.expectOne(F.check(["aps": ["alert": ["foo": "Hi"]]], .apns), "apns-alert", .error, at: "$.aps.alert")
    }

    @Test("aps.alert is a string or an object of strings and string arrays")
    func apnsAlert() throws {
        F.expectOne(F.check(F.apns(["alert": 5]), .apns), "apns-alert", .error, at: "$.aps.alert")
        // A text of the wrong type: iOS drops it and shows the rest, so a warning beside a body,
        // and an error when nothing else would show.
        F.expectOne(F.check(F.apns(["alert": ["title": 5, "body": "b"]]), .apns, intentPaths: true), "apns-alert", .warning, at: "$.title", payloadPath: "$.aps.alert.title")
        F.expectOne(F.check(F.apns(["alert": ["title": 5]]), .apns), "apns-alert", .error, at: "$.aps.alert.title")
        F.expectOne(F.check(F.apns(["alert": ["loc-args": ["a", 1], "loc-key": "K"]]), .apns), "apns-alert", .error, at: #"$.aps.alert["loc-args"]"#)
        // Nothing to show: a typo of the only text key (the title it meant is missing) is an
        // error, the one finding (apnsAlertTypoOnce), as the empty alert is.
        let typo = F.check(F.apns(["alert": ["titel": "Hi"]]), .apns)
        F.expectOne(typo, "apns-alert-key", .error, at: "$.aps.alert.titel")
        F.expectNone(typo, "apns-alert")
        F.expectNone(F.check(F.apns(["alert": "Hello"]), .apns), "apns-alert")
        let full = try F.parse(#"{"aps":{"alert":{"title":"t","subtitle":"s","body":"b","loc-key":"K","loc-args":["x"],"title-loc-args":[]}}}"#)
        F.expectNone(F.check(full, .apns), "apns-alert")
        // Arguments beside an empty title: the alert shows nothing, which is the one finding.
        let empty = F.check(try F.parse(#"{"aps":{"alert":{"title":"","loc-args":["x"]}}}"#), .apns)
        F.expectOne(empty, "apns-alert", .error, at: "$.aps.alert")
        #expect(empty.count == 1, "\(empty)")
    }

    @Test("an alert with nothing to show (empty, or empty strings) is an error alone, a warning beside a sound or badge, which still play and show")
    func apnsEmptyAlert() throws {
        for alert in [#"{}"#, #"{"title": "", "body": ""}"#, #""""#] {
            F.expectOne(F.check(try F.parse(#"{"aps": {"alert": "# + alert + "}}"), .apns), "apns-alert", .error, at: "$.aps.alert")
            for other in [#""badge": 1"#, #""sound": "default""#] {
                let diagnostics = F.check(try F.parse(#"{"aps": {"alert": "# + alert + ", " + other + "}}"), .apns)
                F.expectOne(diagnostics, "apns-alert", .warning, at: "$.aps.alert")
                #expect(!diagnostics.contains { $0.severity == .error }, "\(alert) \(other)")
            }
        }
        F.expectNone(F.check(try F.parse(#"{"aps": {"alert": {"title": "", "body": "b"}}}"#), .apns), "apns-alert")
    }

    /// Source: firebase-admin-python TestApsEncoder.test_invalid_badge, which refuses these in the
    /// SDK; no source says FCM or APNs refuses them. Beside an alert the alert still shows and only
    /// the badge is lost (a warning, as Android's android-badge-count); alone, nothing shows.
    @Test("aps.badge is an integer of 0 or more: a warning beside an alert or a sound, an error alone", arguments: [JSONValue.double(1.5), "1", -1, true, []])
    func apnsBadge(badge: JSONValue) {
        let payload = F.apns(F.merged(F.plainAps, ["badge": badge]))
        F.expectOne(F.check(payload, .apns, intentPaths: true), "apns-badge", .warning, at: "$.badge", payloadPath: "$.aps.badge")
        F.expectOne(F.check(F.apns(["sound": "default", "badge": badge]), .apns), "apns-badge", .warning, at: "$.aps.badge")
        F.expectOne(F.check(F.apns(["badge": badge]), .apns), "apns-badge", .error, at: "$.aps.badge")
        F.expectOne(F.check(F.apns(["alert": "", "badge": badge]), .apns), "apns-badge", .error, at: "$.aps.badge")
    }

    /// Source: the fifth audit: firebase-admin-python's encode_aps takes Aps(badge=42.0) and
    /// sends 42.0, and FCM keeps apns.payload as a protobuf Struct, whose numbers are doubles.
    @Test("an integer badge passes, written 12, 12.0 or 1.2e1")
    func apnsBadgePasses() throws {
        F.expectNone(F.check(F.apns(F.merged(F.plainAps, ["badge": 0])), .apns), "apns-badge")
        F.expectNone(F.check(F.apns(F.merged(F.plainAps, ["badge": 12])), .apns), "apns-badge")
        F.expectNone(F.check(F.apns(F.merged(F.plainAps, ["badge": .double(12.0)])), .apns), "apns-badge")
        let written = try F.parse(#"{"message": {"token": "t", "apns": {"payload": {"aps": {"alert": "a", "badge": 1.2e1, "content-available": 1.0}}}}}"#)
        #expect(F.check(written, .fcm).filter { $0.severity == .error }.isEmpty)
    }

    @Test("aps.sound is a name or {critical, name, volume}; a wrong sound degrades the notification: a warning")
    func apnsSound() {
        F.expectOne(F.check(F.apns(F.merged(F.plainAps, ["sound": 1])), .apns), "apns-sound", .warning, at: "$.aps.sound")
        F.expectOne(
            F.check(F.apns(F.merged(F.plainAps, ["sound": ["critical": 2, "name": "alarm"]])), .apns), "apns-sound", .warning,
            at: "$.aps.sound.critical")
        F.expectOne(
            F.check(F.apns(F.merged(F.plainAps, ["sound": ["name": "alarm", "volume": 1.5]])), .apns, intentPaths: true), "apns-sound", .warning,
            at: "$.ios.criticalSound.volume", payloadPath: "$.aps.sound.volume")
        F.expectOne(F.check(F.apns(F.merged(F.plainAps, ["sound": ["critical": 1]])), .apns), "apns-sound", .warning, at: "$.aps.sound.name")
        F.expectOne(F.check(F.apns(F.merged(F.plainAps, ["sound": ["name": "a", "volum": 1]])), .apns), "apns-sound-key", .warning, at: "$.aps.sound.volum")
        F.expectNone(F.check(F.apns(F.merged(F.plainAps, ["sound": "default"])), .apns), "apns-sound")
        F.expectNone(F.check(F.apns(F.merged(F.plainAps, ["sound": ["critical": 1, "name": "alarm", "volume": 0.5]])), .apns), "apns-sound")
    }

    @Test("content-available and mutable-content are the number 1: another string or number is an error", arguments: [JSONValue.string("1"), 2, .double(0.5)])
    func apnsFlag(value: JSONValue) {
        let payload = F.apns(F.merged(F.plainAps, ["mutable-content": value]))
        F.expectOne(F.check(payload, .apns, intentPaths: true), "apns-flag", .error, at: "$.ios.mutableContent", payloadPath: #"$.aps["mutable-content"]"#)
        let background = F.apns(["content-available": value])
        F.expectOne(F.check(background, .apns), "apns-flag", .error, at: #"$.aps["content-available"]"#)
    }

    /// Source: the fifth audit: beside an alert the notification shows whatever the flag, and the
    /// Node Admin SDK's validateAps turns true into 1 and drops another content-available; Apple
    /// documents only 1. So true, false and 0 are warnings, but content-available 0 as all a
    /// push holds does nothing, an error.
    @Test("a flag of true, false or 0 is a warning, but a push of content-available 0 alone is an error", arguments: [JSONValue.bool(true), false, 0])
    func apnsFlagRead(value: JSONValue) {
        let payload = F.apns(F.merged(F.plainAps, ["mutable-content": value, "content-available": value]))
        let found = F.check(payload, .apns).filter { $0.rule == "apns-flag" }
        #expect(found.count == 2 && found.allSatisfy { $0.severity == .warning && $0.message.contains("Apple documents the number 1") }, "\(found)")
        let alone = F.check(F.apns(["content-available": value]), .apns)
        if value == .bool(true) {
            F.expectOne(alone, "apns-flag", .warning, at: #"$.aps["content-available"]"#)
        } else {
            F.expectOne(alone, "apns-flag", .error, at: #"$.aps["content-available"]"#)
        }
    }

    @Test("the integer 1 passes as a flag")
    func apnsFlagPasses() {
        F.expectNone(F.check(F.apns(F.merged(F.plainAps, ["mutable-content": 1, "content-available": 1])), .apns), "apns-flag")
    }

    @Test("aps.interruption-level is one of Apple's four; another is ignored (a warning)")
    func apnsInterruptionLevel() {
        F.expectOne(
            F.check(F.apns(F.merged(F.plainAps, ["interruption-level": "urgent"])), .apns, intentPaths: true), "apns-interruption-level", .warning,
            at: "$.ios.interruptionLevel")
        for level: JSONValue in ["passive", "active", "time-sensitive", "critical"] {
            F.expectNone(F.check(F.apns(F.merged(F.plainAps, ["interruption-level": level])), .apns), "apns-interruption-level")
        }
    }

    @Test("aps.relevance-score is a number from 0 to 1, ignored otherwise (a warning)")
    func apnsRelevanceScore() {
        for score: JSONValue in [1.5, -0.1, "0.5", 2] {
            F.expectOne(
                F.check(F.apns(F.merged(F.plainAps, ["relevance-score": score])), .apns), "apns-relevance-score", .warning,
                at: #"$.aps["relevance-score"]"#)
        }
        for score: JSONValue in [0, 1, 0.25] {
            F.expectNone(F.check(F.apns(F.merged(F.plainAps, ["relevance-score": score])), .apns), "apns-relevance-score")
        }
    }

    @Test("thread-id, category, target-content-id and filter-criteria are strings")
    func apnsApsType() {
        // The alert shows, without the category's actions (the Python Admin SDK refuses it).
        F.expectOne(F.check(F.apns(F.merged(F.plainAps, ["category": 3])), .apns, intentPaths: true), "apns-aps-type", .warning, at: "$.ios.category")
        F.expectOne(F.check(F.apns(F.merged(F.plainAps, ["thread-id": 3])), .apns), "apns-aps-type", .warning, at: #"$.aps["thread-id"]"#)
        F.expectOne(F.check(F.apns(F.merged(F.plainAps, ["filter-criteria": true])), .apns), "apns-aps-type", .warning, at: #"$.aps["filter-criteria"]"#)
        F.expectNone(F.check(F.apns(F.merged(F.plainAps, ["category": "c", "thread-id": "t", "target-content-id": "x"])), .apns), "apns-aps-type")
    }

    @Test("the APNS payload is at most 4096 bytes written compactly")
    func apnsSize() {
        let big = F.apns(F.plainAps, ["filler": .string(String(repeating: "x", count: 4100))])
        F.expectOne(F.check(big, .apns), "apns-size", .error, at: "$")
        F.expectNone(F.check(F.apns(F.plainAps, ["filler": .string(String(repeating: "x", count: 3900))]), .apns), "apns-size")
    }

    /// Source: the thirtieth audit, F2: sideshow/apns2 marshals with Go's encoder, which writes `&`
    /// as `\u0026`; APNs counts the body's bytes, so a payload given as text is measured as written.
    @Test("a payload given as text is measured as written: escapes count in full, whitespace between tokens does not")
    func apnsSizeAsWritten() throws {
        let translator = try builtinTranslator()
        let escaped = #"{"aps": {"alert": "\#(String(repeating: #"\u0026"#, count: 700))"}}"#
        F.expectOne(translator.validate(Array(escaped.utf8), platform: .apns), "apns-size", .error, at: "$")
        // In a request, the payload is written anew by its sender: & as Go's encoder writes it
        // (sideshow/apns2), six bytes, is past the limit still; é's escapes, which every peer
        // writes as UTF-8, only as written here, a warning (the forty-fifth audit, validate F1).
        let request = #"{"payload": \#(escaped), "headers": {"apns-push-type": "alert", "apns-topic": "com.example.app"}}"#
        F.expectOne(translator.validate(Array(request.utf8), platform: .apns), "apns-size", .error, at: "$.payload")
        let accented = #"{"aps": {"alert": "\#(String(repeating: #"\u00e9"#, count: 700))"}}"#
        let accentedRequest = #"{"payload": \#(accented), "headers": {"apns-push-type": "alert", "apns-topic": "com.example.app"}}"#
        F.expectOne(translator.validate(Array(accentedRequest.utf8), platform: .apns), "apns-size", .warning, at: "$.payload")
        let long = #"{"aps": {"alert": "\#(String(repeating: "é", count: 2100))"}}"#
        let longRequest = #"{"payload": \#(long), "headers": {"apns-push-type": "alert", "apns-topic": "com.example.app"}}"#
        F.expectOne(translator.validate(Array(longRequest.utf8), platform: .apns), "apns-size", .error, at: "$.payload")
        let spaced = "{\n  \"aps\": {\n    \"alert\": \"\(String(repeating: "&", count: 700))\"\n  },\n" + String(repeating: " ", count: 4000) + "}"
        F.expectNone(translator.validate(Array(spaced.utf8), platform: .apns), "apns-size")
    }
}
