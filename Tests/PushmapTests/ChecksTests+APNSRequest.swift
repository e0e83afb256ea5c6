import Testing
@_spi(Tools) @testable import Pushmap
import PushmapJSON

/// Apple's Live Activity keys and the APNS request headers, in a request `{headers, payload}`
/// and inside an FCM message's `apns`.
extension ChecksTests {
    static func request(_ headers: JSONObject, _ aps: JSONObject, _ keys: JSONObject = [:]) -> JSONValue {
        ["headers": .object(headers), "payload": F.apns(aps, keys)]
    }

    static let alertHeaders: JSONObject = ["apns-push-type": "alert", "apns-priority": "10", "apns-topic": "com.example.app"]

    @Test("Live Activity keys are read only with aps.event; each event needs its keys")
    func apnsLiveActivity() {
        F.expectOne(F.check(F.apns(F.merged(F.plainAps, ["stale-date": 5])), .apns), "apns-live-activity", .warning, at: #"$.aps["stale-date"]"#)
        let update = F.check(F.apns(["event": "update", "content-state": ["score": 1]]), .apns)
        F.expectOne(update, "apns-live-activity", .error, at: "$.aps.timestamp")
        let start = F.check(F.apns(["event": "start", "timestamp": 1, "content-state": [:]]), .apns).filter { $0.rule == "apns-live-activity" }
        #expect(start.map(\.path).sorted() == ["$.aps.alert", "$.aps.attributes", #"$.aps["attributes-type"]"#])
        F.expectOne(F.check(F.apns(["event": "stop", "timestamp": 1]), .apns), "apns-live-activity", .error, at: "$.aps.event")
        let good: JSONObject = ["event": "update", "timestamp": 1_700_000_000, "content-state": ["score": 2], "relevance-score": 75, "stale-date": 1_700_000_600]
        #expect(F.check(F.apns(good), .apns).isEmpty)
        let score = F.expectOne(F.check(F.apns(F.merged(good, ["relevance-score": "high"])), .apns), "apns-relevance-score", .warning, at: #"$.aps["relevance-score"]"#)
        #expect(score?.message.contains("must be a number, not") == true)
    }

    @Test("a request's headers: strings of Apple's forms; an unknown header is ignored by APNs (a warning)")
    func apnsHeaderValues() {
        let aps = F.plainAps
        F.expectOne(F.check(Self.request(F.merged(Self.alertHeaders, ["apns-priority": true]), aps), .apns), "apns-header-string", .error, at: #"$.headers["apns-priority"]"#)
        // A whole number goes as its digits (node-apn's Notification writes apns-priority 5 and
        // apns-expiration 1000 so, test/notification/index.js "headers"): a warning when the
        // digits fit the header, else the header's own error alone.
        let number = F.check(Self.request(F.merged(Self.alertHeaders, ["apns-priority": 10, "apns-expiration": 1000]), aps), .apns)
        #expect(number.map(\.rule) == ["apns-header-string", "apns-header-string"])
        #expect(number.allSatisfy { $0.severity == .warning })
        let badNumber = F.check(Self.request(F.merged(Self.alertHeaders, ["apns-priority": 7]), aps), .apns)
        F.expectOne(badNumber, "apns-priority", .error, at: #"$.headers["apns-priority"]"#)
        F.expectNone(badNumber, "apns-header-string")
        F.expectOne(F.check(Self.request(F.merged(Self.alertHeaders, ["apns-priority": "7"]), aps), .apns), "apns-priority", .error, at: #"$.headers["apns-priority"]"#)
        F.expectOne(F.check(Self.request(F.merged(Self.alertHeaders, ["apns-push-type": "silent"]), aps), .apns), "apns-push-type", .error, at: #"$.headers["apns-push-type"]"#)
        F.expectOne(F.check(Self.request(F.merged(Self.alertHeaders, ["apns-expiration": "tomorrow"]), aps), .apns), "apns-expiration", .error, at: #"$.headers["apns-expiration"]"#)
        let long = String(repeating: "c", count: 65)
        F.expectOne(
            F.check(Self.request(F.merged(Self.alertHeaders, ["apns-collapse-id": .string(long)]), aps), .apns, intentPaths: true), "apns-collapse-id", .error,
            at: "$.collapseKey", payloadPath: #"$.headers["apns-collapse-id"]"#)
        F.expectOne(F.check(Self.request(F.merged(Self.alertHeaders, ["apns-id": "1234"]), aps), .apns), "apns-id", .error, at: #"$.headers["apns-id"]"#)
        // Beside apns-priority the stray header changes nothing (a warning); in its place the
        // priority meant is missing (an error).
        let typo = F.expectOne(F.check(Self.request(F.merged(Self.alertHeaders, ["apns-prority": "5"]), aps), .apns), "apns-header-key", .warning, at: #"$.headers["apns-prority"]"#)
        #expect(typo?.message.contains("did you mean apns-priority?") == true)
        let instead: JSONObject = ["apns-push-type": "alert", "apns-prority": "10", "apns-topic": "com.example.app"]
        F.expectOne(F.check(Self.request(instead, aps), .apns), "apns-header-key", .error, at: #"$.headers["apns-prority"]"#)
        let good = F.merged(Self.alertHeaders, ["apns-id": "123E4567-e89b-12d3-a456-426655440000", "apns-expiration": "0", "apns-collapse-id": .string(String(long.dropLast()))])
        #expect(F.check(Self.request(good, aps), .apns).isEmpty)
        // Values Apple names no answer for are warnings, not a refusal APNs is not known to give
        // (the thirtieth audit, F3 and F7: APNSwift's test server takes them, node-apn drops a
        // negative expiry).
        for (name, value): (String, JSONValue) in [("apns-expiration", "-1"), ("apns-expiration", -1), ("apns-collapse-id", "")] {
            let findings = F.check(Self.request(F.merged(Self.alertHeaders, [name: value]), aps), .apns)
            F.expectOne(findings, name, .warning, at: "$.headers[\"\(name)\"]")
        }
    }

    @Test("header names ignore case, as HTTP reads them: Go's Apns-Topic is apns-topic (sideshow/apns2 client.go setHeaders)")
    func apnsHeaderNameCase() {
        // HTTP's own headers beside them (apns2's Content-Type, HTTP/2's :path) are no finding.
        let canonical: JSONObject = [
            "Apns-Push-Type": "alert", "Apns-Priority": "10", "Apns-Topic": "com.example.app", "Content-Type": "application/json", ":path": "/3/device/ab",
        ]
        #expect(F.check(Self.request(canonical, F.plainAps), .apns).isEmpty)
        // Lowered, the rules read them: a background push at Apns-Priority 10 is still one,
        // found at the name as written.
        let background: JSONObject = ["Apns-Push-Type": "background", "APNS-PRIORITY": "10", "apns-topic": "com.example.app"]
        F.expectOne(F.check(Self.request(background, ["content-available": 1]), .apns), "apns-background", .error, at: #"$.headers["APNS-PRIORITY"]"#)
        // The same header twice, in two cases: HTTP/2 sends both lowered, and APNs refuses a
        // repeated header (DuplicateHeaders in Apple's error table; the thirtieth audit, F6).
        let twice = F.check(Self.request(F.merged(Self.alertHeaders, ["Apns-Topic": "com.example.other"]), F.plainAps), .apns)
        let repeated = F.expectOne(twice, "apns-header-key", .error, at: #"$.headers["Apns-Topic"]"#)
        #expect(repeated?.message.contains("is apns-topic again") == true)
        #expect(twice.count == 1)
        // The pseudo-headers a request file may carry: APNs refuses a GET, a device path with no
        // token or one that is not hexadecimal (Apple's error table; APNSwift's test server
        // testMethodNotAllowed_GET, testMissingDeviceToken, testBadDeviceToken_nonHexCharacters).
        for (name, value) in [(":method", "GET"), (":path", "/3/device/"), (":path", "/3/device/not-hex")] {
            F.expectOne(F.check(Self.request(F.merged(Self.alertHeaders, [name: .string(value)]), F.plainAps), .apns), "apns-request", .error, at: "$.headers[\"\(name)\"]")
        }
        // Inside an FCM message, message.apns.headers too.
        let fcm: JSONValue = ["message": ["token": "t", "apns": ["headers": ["Apns-Priority": "5"], "payload": ["aps": ["content-available": 1]]]]]
        #expect(F.check(fcm, .fcm).isEmpty)
    }

    @Test("a background push: content-available 1, no alert, sound or badge, priority 5")
    func apnsBackground() {
        let silent: JSONObject = ["content-available": 1]
        let headers: JSONObject = ["apns-push-type": "background", "apns-priority": "5", "apns-topic": "com.example.app"]
        #expect(F.check(Self.request(headers, silent), .apns).isEmpty)
        F.expectOne(F.check(Self.request(F.merged(headers, ["apns-priority": "10"]), silent), .apns), "apns-background", .error, at: #"$.headers["apns-priority"]"#)
        // None given: APNs takes 10, but the peers send none by default and no source says APNs
        // refuses it (sideshow/apns2 TestDefaultHeaders): a warning (the fifth audit's A29).
        F.expectOne(F.check(Self.request(F.merged(headers, [:], removing: ["apns-priority"]), silent), .apns), "apns-background", .warning, at: #"$.headers["apns-priority"]"#)
        let defaults = F.check(Self.request(["apns-push-type": "alert", "apns-topic": "com.example.app"], silent), .apns)
        #expect(!defaults.contains { $0.severity == .error }, "\(defaults)")
        F.expectOne(defaults, "apns-background", .warning, at: #"$.headers["apns-priority"]"#)
        F.expectOne(F.check(Self.request(headers, ["thread-id": "t"]), .apns), "apns-background", .error, at: #"$.payload.aps["content-available"]"#)
        // A badge or sound: one finding, the iOS rule's warning.
        let alerting = F.check(Self.request(headers, F.merged(silent, ["sound": "default"])), .apns, intentPaths: true)
        #expect(alerting.count == 1)
        F.expectOne(alerting, "ios-silent-push-alerts", .warning, at: "$.sound", payloadPath: "$.payload.aps.sound")
        let alert = F.check(Self.request(headers, F.merged(silent, ["alert": "Hi", "badge": 1])), .apns)
        #expect(alert.count == 1)
        F.expectOne(alert, "apns-background", .error, at: "$.payload.aps.alert")
        // An empty alert: the push still wakes the app; one warning to leave it out, no
        // "send it as alert" and no apns-alert error beside it (the eighteenth audit).
        for empty in [JSONValue.string(""), JSONValue.object([:])] {
            let findings = F.check(Self.request(headers, F.merged(silent, ["alert": empty])), .apns)
            #expect(findings.count == 1, "\(findings)")
            F.expectOne(findings, "apns-background", .warning, at: "$.payload.aps.alert")
        }
        // The twenty-second and twenty-third audits (N8, A3, A4): an alert of the wrong type, or
        // with a text of the wrong type, is apns-background's one error, not the walk's too; with
        // no content-available it is no alert "to show", so not told to go as alert.
        for wrong: JSONValue in [5, .null, false, [], ["title": 5]] {
            let findings = F.check(Self.request(headers, F.merged(silent, ["alert": wrong])), .apns)
            #expect(findings.count == 1, "\(wrong): \(findings)")
            F.expectOne(findings, "apns-background", .error, at: "$.payload.aps.alert")
        }
        for wrong: JSONValue in [5, false, []] {
            let findings = F.check(Self.request(headers, ["alert": wrong]), .apns)
            #expect(!findings.contains { $0.message.contains("send it as alert") && $0.path.contains("apns-push-type") }, "\(wrong): \(findings)")
        }
        // A silent payload sent as alert: APNs takes it (sideshow/apns2 sends alert by default)
        // and Apple calls background "recommended" on iOS, so a warning. With no push type, too.
        F.expectOne(F.check(Self.request(Self.alertHeaders, silent), .apns), "apns-push-type", .warning, at: #"$.headers["apns-push-type"]"#)
        // Whatever the push type, priority 10 for content-available alone is Apple's error
        // (sideshow/apns2 notification.go PriorityHigh); at 5 only the push type's warning.
        F.expectOne(F.check(Self.request(Self.alertHeaders, silent), .apns), "apns-background", .error, at: #"$.headers["apns-priority"]"#)
        let noType: JSONObject = ["apns-priority": "10", "apns-topic": "com.example.app"]
        F.expectOne(F.check(Self.request(noType, silent), .apns), "apns-background", .error, at: #"$.headers["apns-priority"]"#)
        F.expectNone(F.check(Self.request(F.merged(Self.alertHeaders, ["apns-priority": "5"]), silent), .apns), "apns-background")
        F.expectNone(F.check(Self.request(Self.alertHeaders, F.merged(silent, ["alert": "Hi"])), .apns), "apns-background")
        // content-available true on a background push: the flag rule's one warning.
        let flagTrue = F.check(Self.request(headers, ["content-available": true]), .apns)
        #expect(flagTrue.count == 1 && flagTrue.first?.rule == "apns-flag" && flagTrue.first?.severity == .warning, "\(flagTrue)")
        // With no push type APNs may delay or drop it (a warning); FCM sets one itself.
        F.expectOne(F.check(Self.request(["apns-priority": "5"], silent), .apns), "apns-push-type", .warning, at: #"$.headers["apns-push-type"]"#)
        F.expectNone(F.check(["message": ["token": "t", "apns": Self.request(["apns-priority": "5"], silent)]], .fcm), "apns-push-type")
        // Nothing to show is the payload's fault: the path points there.
        F.expectOne(F.check(Self.request(Self.alertHeaders, ["mutable-content": 1]), .apns), "apns-push-type", .error, at: "$.payload.aps")
    }

    @Test("the topic carries the suffix its push type needs")
    func apnsTopic() {
        let voip: JSONObject = ["apns-push-type": "voip", "apns-priority": "10"]
        F.expectOne(F.check(Self.request(F.merged(voip, ["apns-topic": "com.example.app"]), F.plainAps), .apns), "apns-topic", .error, at: #"$.headers["apns-topic"]"#)
        #expect(F.check(Self.request(F.merged(voip, ["apns-topic": "com.example.app.voip"]), F.plainAps), .apns).filter { $0.rule == "apns-topic" }.isEmpty)
        F.expectOne(
            F.check(Self.request(F.merged(Self.alertHeaders, ["apns-topic": "com.example.app.push-type.liveactivity"]), F.plainAps), .apns), "apns-topic", .error,
            at: #"$.headers["apns-topic"]"#)
        let live: JSONObject = ["event": "end", "timestamp": 2]
        F.expectOne(F.check(Self.request(Self.alertHeaders, live), .apns), "apns-push-type", .error, at: #"$.headers["apns-push-type"]"#)
        let liveHeaders: JSONObject = ["apns-push-type": "liveactivity", "apns-priority": "10", "apns-topic": "com.example.app.push-type.liveactivity"]
        #expect(F.check(Self.request(liveHeaders, live), .apns).isEmpty)
        // The forty-fifth audit, validate F2: ActivityKit's guide gives 5 or 10; 1 is unclear.
        F.expectOne(
            F.check(Self.request(F.merged(liveHeaders, ["apns-priority": "1"]), live), .apns), "apns-push-type", .warning,
            at: #"$.headers["apns-priority"]"#)
        #expect(F.check(Self.request(F.merged(liveHeaders, ["apns-priority": "5"]), live), .apns).isEmpty)
        // Live Activity and location pushes go with token authentication only: no topic, MissingTopic.
        F.expectOne(F.check(Self.request(F.merged(liveHeaders, [:], removing: ["apns-topic"]), live), .apns), "apns-topic-required", .error, at: #"$.headers["apns-topic"]"#)
        F.expectOne(F.check(["headers": ["apns-push-type": "location"], "payload": [:]], .apns), "apns-topic-required", .error, at: #"$.headers["apns-topic"]"#)
        F.expectNone(F.check(["headers": ["apns-push-type": "voip"], "payload": [:]], .apns), "apns-topic-required")
    }

    /// Source: Apple's "Creating a Push to Talk app" (Receive Audio): "Set the APNs priority to
    /// 10 to request immediate delivery, and set an expiration of 0 to prevent the system from
    /// delivering older pushes"; its example request carries both.
    @Test("a pushtotalk push asks for priority 10 and expiration 0: another value is a warning, as APNs still delivers it")
    func apnsPushToTalk() {
        let ptt: JSONObject = ["apns-push-type": "pushtotalk", "apns-priority": "10", "apns-expiration": "0", "apns-topic": "com.example.app.voip-ptt"]
        let payload: JSONValue = ["activeSpeaker": "Ann"]
        #expect(F.check(["headers": .object(ptt), "payload": payload], .apns).isEmpty)
        // No priority is APNs' 10: nothing to say. No expiration: what APNs stores then, Apple
        // does not say, and the guide asks for 0 (a warning; translate writes 0).
        #expect(F.check(["headers": .object(F.merged(ptt, [:], removing: ["apns-priority"])), "payload": payload], .apns).isEmpty)
        F.expectOne(
            F.check(["headers": .object(F.merged(ptt, [:], removing: ["apns-expiration"])), "payload": payload], .apns), "apns-pushtotalk", .warning,
            at: #"$.headers["apns-expiration"]"#)
        F.expectOne(
            F.check(["headers": .object(F.merged(ptt, ["apns-priority": "5"])), "payload": payload], .apns), "apns-pushtotalk", .warning,
            at: #"$.headers["apns-priority"]"#)
        F.expectOne(
            F.check(["headers": .object(F.merged(ptt, ["apns-expiration": "1700000600"])), "payload": payload], .apns), "apns-pushtotalk", .warning,
            at: #"$.headers["apns-expiration"]"#)
        // Another push type is not held to it.
        F.expectNone(F.check(Self.request(F.merged(Self.alertHeaders, ["apns-expiration": "1700000600"]), F.plainAps), .apns), "apns-pushtotalk")
    }

    @Test("a byte limit says the bytes found; the apns-id example is a UUID")
    func apnsHeaderMessages() {
        let collapse = String(repeating: "c", count: 63) + "é"
        let found = F.expectOne(
            F.check(Self.request(F.merged(Self.alertHeaders, ["apns-collapse-id": .string(collapse)]), F.plainAps), .apns), "apns-collapse-id", .error,
            at: #"$.headers["apns-collapse-id"]"#)
        #expect(found?.message.contains("(65 bytes)") == true)
        let id = F.expectOne(F.check(Self.request(F.merged(Self.alertHeaders, ["apns-id": "x"]), F.plainAps), .apns), "apns-id", .error, at: #"$.headers["apns-id"]"#)
        // Apple's page once printed the last group with 11 digits; the example here has 12.
        let example = "123e4567-e89b-12d3-a456-426614174000"
        #expect(id?.message.contains("in the form \(example),") == true)
        #expect(Array(example.utf8).withUnsafeBytes { APNSWalker.isUUID($0) })
    }

    @Test("a request is {headers, payload}; the payload's findings are at its paths in the request")
    func apnsRequestShape() {
        F.expectOne(F.check(["headers": ["apns-priority": "5"]], .apns), "apns-request", .error, at: "$.payload")
        F.expectOne(F.check(["headers": 5, "payload": F.apns(F.plainAps)], .apns), "apns-request", .error, at: "$.headers")
        F.expectOne(F.check(Self.request(Self.alertHeaders, ["alert": 5]), .apns), "apns-alert", .error, at: "$.payload.aps.alert")
    }

    @Test("an FCM message's apns block is held to the APNS checks at its paths in the message")
    func fcmAPNS() {
        let apns: JSONValue = ["headers": ["apns-push-type": "background", "apns-priority": "10"], "payload": ["aps": ["alert": ["titel": "Hi"], "content-available": 1]]]
        let findings = F.check(["message": ["token": "t", "apns": apns]], .fcm)
        // On a background push the alert does not belong: apns-background's to say, once, and
        // nothing of what is inside it (the twenty-third audit, A4).
        F.expectNone(findings, "apns-alert-key")
        F.expectNone(findings, "apns-alert")
        #expect(findings.filter { $0.rule == "apns-background" }.map(\.path).sorted() == [#"$.message.apns.headers["apns-priority"]"#, "$.message.apns.payload.aps.alert"])
        #expect(findings.allSatisfy { $0.platform == .fcm })
        // Sent as alert at priority 10 with content-available alone: the same error as outside
        // FCM, which passes the headers on (the nineteenth audit found it only warned).
        let silentAlert: JSONValue = ["headers": ["apns-push-type": "alert", "apns-priority": "10"], "payload": ["aps": ["content-available": 1]]]
        F.expectOne(F.check(["message": ["token": "t", "apns": silentAlert]], .fcm), "apns-background", .error, at: #"$.message.apns.headers["apns-priority"]"#)
        // Headers alone: FCM builds the payload from the notification.
        F.expectOne(F.check(["message": ["token": "t", "apns": ["headers": ["apns-priority": "11"]]]], .fcm), "apns-priority", .error, at: #"$.message.apns.headers["apns-priority"]"#)
    }
}
