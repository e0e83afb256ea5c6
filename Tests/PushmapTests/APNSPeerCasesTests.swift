import Testing
@_spi(Tools) @testable import Pushmap
import PushmapJSON

/// APNS payloads and requests taken from the APNs client libraries' own tests (sideshow/apns2,
/// swift-server-community/APNSwift, node-apn/node-apn, Pr0Ger/PyAPNs2) and from the shapes Apple's
/// pages give, each naming where it comes from. What a library or Apple's page sends validates
/// with no error; what APNs answers with 400 or 413, or what leaves the phone showing nothing,
/// is an error at the path where the fix goes. Values are our own; the shapes are theirs.
@Suite("APNS cases from the peers' tests")
struct APNSPeerCasesTests {
    enum Expected: Sendable, CustomStringConvertible {
        /// No error (warnings allowed).
        case valid
        /// No error, and this warning at this path.
        case warning(String, String)
        /// This error at this path.
        case error(String, String)

        var description: String {
            switch self {
            case .valid: "valid"
            case .warning(let rule, let path): "warning \(rule) at \(path)"
            case .error(let rule, let path): "error \(rule) at \(path)"
            }
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        /// Repository and file (and test), or Apple's page.
        let source: String
        /// A bare payload, or a request {headers, payload}.
        let document: String
        let expected: Expected

        init(_ source: String, _ document: String, _ expected: Expected = .valid) {
            self.source = source
            self.document = document
            self.expected = expected
        }

        var testDescription: String { "\(source): \(expected)" }
    }

    static let apns2 = "sideshow/apns2 payload/builder_test.go"
    static let apns2Notification = "sideshow/apns2 notification.go"
    static let apnswift = "swift-server-community/APNSwift Tests/APNSTests"
    static let nodeAPN = "node-apn/node-apn test/notification"
    static let pyapns2 = "Pr0Ger/PyAPNs2 test/test_payload.py"
    static let applePayload = "Apple, Generating a remote notification"
    static let appleRequest = "Apple, Sending notification requests to APNs"
    static let appleLive = "Apple, Starting and updating Live Activities with ActivityKit push notifications"
    static let appleFileProvider = "Apple, File Provider: signalling changes with push notifications"

    /// A request with these headers (strings, as HTTP/2 sends them) around `payload`.
    static func request(_ headers: String, _ payload: String) -> String { #"{"headers": {\#(headers)}, "payload": \#(payload)}"# }

    static let live = #""apns-push-type": "liveactivity", "apns-priority": "10", "apns-topic": "com.example.game.push-type.liveactivity""#
    static let alert = #""apns-push-type": "alert", "apns-priority": "10", "apns-topic": "com.example.app""#
    static let longBody = String(repeating: "x", count: 4100)

    static let apns2Client = "sideshow/apns2 client_test.go"

    static let cases: [Case] = [
        // sideshow/apns2's client: Go's http.Header writes the names as Apns-Priority, and every
        // request carries Content-Type; a provider token needs a topic; background for an alert
        // is the push type's one fault (the sixteenth audit).
        Case(
            "\(apns2Client) TestHeaders",
            request(#""Content-Type": "application/json; charset=utf-8", "Apns-Push-Type": "alert", "Apns-Priority": "10", "Apns-Topic": "com.example.app""#, #"{"aps": {"alert": "hi"}}"#)),
        Case(
            "\(apns2Client) TestPushTypeBackgroundHeader (Apns-Priority 10 as written)",
            request(#""Apns-Push-Type": "background", "Apns-Priority": "10", "Apns-Topic": "com.example.app""#, #"{"aps": {"content-available": 1}}"#),
            .error("apns-background", #"$.headers["Apns-Priority"]"#)),
        Case(
            "\(apns2Client) TestPushTypeBackgroundHeader (an alert payload)",
            request(#""apns-push-type": "background", "apns-priority": "5", "apns-topic": "com.example.app""#, #"{"aps": {"alert": "hello"}}"#),
            .error("apns-background", #"$.headers["apns-push-type"]"#)),
        Case(
            "\(apns2Client) TestAuthorizationHeader", request(#""authorization": "bearer abc", "apns-push-type": "alert""#, #"{"aps": {"alert": "hi"}}"#),
            .error("apns-topic-required", #"$.headers["apns-topic"]"#)),
        Case(
            "node-apn/node-apn test/client.js (HTTP/2 pseudo-headers)",
            request(#"":method": "POST", ":path": "/3/device/abcd", ":scheme": "https", "apns-push-type": "alert", "apns-topic": "com.example.app""#, #"{"aps": {"alert": "hi"}}"#)),
        // Arguments with no key in an alert with nothing else: apns-alert's error alone.
        Case("\(apns2) TestAlertLocArgs", #"{"aps": {"alert": {"loc-args": ["a", "b"]}}}"#, .error("apns-alert", "$.aps.alert")),
        Case("\(apns2) TestAlertTitleLocArgs", #"{"aps": {"alert": {"title-loc-args": ["a", "b"]}}}"#, .error("apns-alert", "$.aps.alert")),
        // sideshow/apns2: what its payload builder writes.
        Case("\(apns2) TestEmptyPayload", #"{"aps": {}}"#),
        Case("\(apns2) TestAlert", #"{"aps": {"alert": "hello"}}"#),
        Case("\(apns2) TestBadge", #"{"aps": {"badge": 1}}"#),
        Case("\(apns2) TestZeroBadge", #"{"aps": {"badge": 0}}"#),
        Case("\(apns2) TestSound", #"{"aps": {"sound": "Default.caf"}}"#),
        Case("\(apns2) TestSoundDictionary", #"{"aps": {"sound": {"critical": 1, "name": "default", "volume": 0.8}}}"#),
        Case("\(apns2) TestSoundVolume", #"{"aps": {"sound": {"critical": 1, "name": "default", "volume": 0.5}}}"#),
        Case("\(apns2) TestContentAvailable", #"{"aps": {"content-available": 1}}"#),
        Case("\(apns2) TestMutableContent", #"{"aps": {"mutable-content": 1}}"#),
        Case("\(apns2) TestCustom", #"{"aps": {}, "key": "val"}"#),
        Case("\(apns2) TestCustomMap", #"{"aps": {}, "key": {"map": 1}}"#),
        Case("\(apns2) TestAlertTitle", #"{"aps": {"alert": {"title": "hello"}}}"#),
        Case("\(apns2) TestAlertTitleLocKey", #"{"aps": {"alert": {"title-loc-key": "GAME_PLAY_REQUEST_FORMAT"}}}"#),
        Case("\(apns2) TestAlertSubtitle", #"{"aps": {"alert": {"subtitle": "hello"}}}"#),
        Case("\(apns2) TestAlertBody", #"{"aps": {"alert": {"body": "body"}}}"#),
        Case("\(apns2) TestAlertLocKey", #"{"aps": {"alert": {"loc-key": "LOC"}}}"#),
        // A builder fragment: alone, an alert with only a button's key shows nothing.
        Case("\(apns2) TestAlertActionLocKey", #"{"aps": {"alert": {"action-loc-key": "PLAY"}}}"#, .error("apns-alert", "$.aps.alert")),
        Case("\(apns2) TestCategory", #"{"aps": {"category": "NEW_MESSAGE_CATEGORY"}}"#),
        Case("\(apns2) TestThreadID", #"{"aps": {"thread-id": "THREAD_ID"}}"#),
        Case("\(apns2) TestURLArgs", #"{"aps": {"url-args": ["a", "b"]}}"#),
        Case("\(apns2) TestInterruptionLevelPassive", #"{"aps": {"interruption-level": "passive"}}"#),
        Case("\(apns2) TestInterruptionLevelTimeSensitive", #"{"aps": {"interruption-level": "time-sensitive"}}"#),
        Case("\(apns2) TestInterruptionLevelCritical", #"{"aps": {"interruption-level": "critical"}}"#),
        Case("\(apns2) TestRelevanceScore", #"{"aps": {"relevance-score": 0.1}}"#),
        Case("\(apns2) TestRelevanceScoreZero", #"{"aps": {"relevance-score": 0}}"#),
        Case(
            "\(apns2) TestCombined",
            #"{"aps": {"alert": "hello", "badge": 1, "interruption-level": "active", "relevance-score": 0.1, "sound": "Default.caf"}, "key": "val"}"#),
        // Live Activity keys outside a Live Activity push: read only with aps.event.
        Case("\(apns2) TestStaleDate", #"{"aps": {"stale-date": 1674821640}}"#, .warning("apns-live-activity", #"$.aps["stale-date"]"#)),
        // An end event still needs its timestamp (Apple's Live Activity page).
        Case("\(apns2) TestEventEnd", #"{"aps": {"event": "end"}}"#, .error("apns-live-activity", "$.aps.timestamp")),
        // apns2 writes an empty aps beside mdm; the device reads only mdm.
        Case("\(apns2) TestMdm", request(#""apns-push-type": "mdm", "apns-topic": "com.apple.mgmt.External.0f2a""#, #"{"aps": {}, "mdm": "996ac527-9993-4a0a-8528-60b2b3c2f52b"}"#)),
        // The example UUID in its comments has 11 digits in the last group: APNs answers BadMessageId.
        Case(apns2Notification, request(alert + #", "apns-id": "123e4567-e89b-12d3-a456-42665544000""#, #"{"aps": {"alert": "Hi"}}"#), .error("apns-id", #"$.headers["apns-id"]"#)),

        // APNSwift: each notification type as it encodes it, with the headers its client sends.
        Case("\(apnswift)/Alert testEncode", request(alert, #"{"foo": "bar", "aps": {"alert": {"title": "title"}}}"#)),
        Case(
            "\(apnswift)/Alert testEncode_whenDefaultSound",
            request(
                alert,
                #"{"payload": "payload", "aps": {"category": "category", "relevance-score": 1, "badge": 1, "target-content-id": "targetContentID", "sound": "default", "interruption-level": "critical", "alert": {"body": "body", "subtitle-loc-key": "subtitle-key", "title": "title", "launch-image": "launchimage", "subtitle-loc-args": ["arg1"]}, "thread-id": "threadID", "mutable-content": 1}}"#
            )),
        Case(
            "\(apnswift)/Alert testEncode_whenCriticalSound",
            #"{"aps": {"sound": {"name": "file", "volume": 1, "critical": 1}, "alert": {"title": "title", "body": "body"}}}"#),
        Case(
            "\(apnswift)/Background testEncode",
            request(#""apns-push-type": "background", "apns-priority": "5", "apns-topic": "com.example.app""#, #"{"foo": "bar", "aps": {"content-available": 1}}"#)),
        Case(
            "\(apnswift)/LiveActivity testEncodeUpdate",
            request(live, #"{"aps": {"event": "update", "content-state": {"string": "Test", "number": 123}, "timestamp": 1672680658}}"#)),
        Case(
            "\(apnswift)/LiveActivity testEncodeUpdateStale",
            request(live, #"{"aps": {"event": "update", "content-state": {"string": "Test", "number": 123}, "timestamp": 1672680658, "stale-date": 1672680800}}"#)),
        Case(
            "\(apnswift)/LiveActivity testEncodeUpdateAlert",
            request(
                live,
                #"{"aps": {"event": "update", "alert": {"title": "Hi", "body": "Hello", "sound": "default"}, "content-state": {"string": "Test", "number": 123}, "timestamp": 1672680658}}"#
            )),
        Case(
            "\(apnswift)/LiveActivity testEncodeStart",
            request(
                live,
                #"{"aps": {"event": "start", "alert": {"title": "Hi", "body": "Hello"}, "attributes-type": "Attributes", "attributes": {"name": "Test Attribute"}, "content-state": {"string": "Test", "number": 123}, "timestamp": 1672680658, "stale-date": 1672680800}}"#
            )),
        Case(
            "\(apnswift)/LiveActivity testEncodeEndNoDismiss",
            request(live, #"{"aps": {"event": "end", "content-state": {"string": "Test", "number": 123}, "timestamp": 1672680658}}"#)),
        Case(
            "\(apnswift)/LiveActivity testEncodeEndDismiss",
            request(live, #"{"aps": {"event": "end", "content-state": {"string": "Test", "number": 123}, "timestamp": 1672680658, "dismissal-date": 1672680800}}"#)),
        Case(
            "\(apnswift)/Widgets testEncode",
            request(#""apns-push-type": "widgets", "apns-topic": "com.example.app.push-type.widgets""#, #"{"aps": {"content-changed": true}}"#)),
        // iOS 18 controls, Apple's sample request (the twenty-seventh audit, F1: refused as InvalidPushType).
        Case(
            "Apple, Updating controls locally and remotely (WidgetKit): the sample request",
            request(
                #""apns-push-type": "controls", "apns-expiration": "0", "apns-priority": "10", "apns-topic": "com.example.MyApp.push-type.controls""#,
                #"{"aps": {"content-changed": true}}"#)),
        // An alert sent to the controls topic goes to no app (DeviceTokenNotForTopic).
        Case(
            "Apple, Updating controls locally and remotely (WidgetKit): the topic is the controls push type's",
            request(#""apns-push-type": "alert", "apns-topic": "com.example.MyApp.push-type.controls""#, #"{"aps": {"alert": "Hi"}}"#),
            .error("apns-topic", #"$.headers["apns-topic"]"#)),
        // A broadcast names the app in its path and sends no topic (the twenty-seventh audit, F2:
        // refused as MissingTopic); apns-request-id is one of its headers (F3: said unknown).
        Case(
            "Apple, Sending broadcast push notification requests to APNs; parse-community/node-apn broadcast()",
            request(
                #""authorization": "bearer x", "apns-channel-id": "dHN0LXNyY2gtY2hubA==", "apns-push-type": "liveactivity", "apns-priority": "10", "apns-expiration": "0", "apns-request-id": "3f2c9a1e-7b4d-4c1a-9e2f-0a1b2c3d4e5f""#,
                #"{"aps": {"event": "update", "timestamp": 1704067200, "content-state": {"score": "1-0"}}}"#)),
        // The PushKit types: the app's own keys, never aps (APNSwift's doc comments).
        Case(
            "\(apnswift)/VoIP APNSVoIPNotification",
            request(#""apns-push-type": "voip", "apns-priority": "10", "apns-topic": "com.example.app.voip""#, #"{"caller": "Ann", "call-id": "c-1"}"#)),
        Case(
            "\(apnswift)/Complication APNSComplicationNotification",
            request(#""apns-push-type": "complication", "apns-priority": "5", "apns-topic": "com.example.app.complication""#, #"{"score": "2-1"}"#)),
        Case(
            "\(apnswift)/PushToTalk APNSPushToTalkNotification",
            request(#""apns-push-type": "pushtotalk", "apns-priority": "10", "apns-topic": "com.example.app.voip-ptt""#, #"{"activeSpeaker": "Ann"}"#)),
        Case(
            "\(apnswift)/Location APNSLocationNotification",
            request(#""apns-push-type": "location", "apns-priority": "10", "apns-topic": "com.example.app.location-query""#, "{}")),
        Case(
            "\(apnswift)/FileProvider APNSFileProviderNotification",
            request(
                #""apns-push-type": "fileprovider", "apns-priority": "5", "apns-topic": "com.example.app.pushkit.fileprovider""#,
                #"{"container-identifier": "NSFileProviderRootContainerItemIdentifier"}"#)),

        // node-apn: what a Notification compiles to.
        Case("\(nodeAPN)/apsProperties.js mdm", #"{"mdm": "mdm payload"}"#),
        Case("\(nodeAPN)/apsProperties.js mdm, sent as mdm", request(#""apns-push-type": "mdm", "apns-topic": "com.apple.mgmt.External.0f2a""#, #"{"mdm": "mdm payload"}"#)),
        // A raw payload with no aps and no push type: only the push type says whether it shows
        // nothing, so a warning, never "APNs refuses it".
        Case("\(nodeAPN)/index.js rawPayload", #"{"some": "payload"}"#, .warning("apns-aps-object", "$.aps")),
        Case("\(nodeAPN)/index.js rawPayload with aps", #"{"foo": "bar", "baz": 1, "aps": {"badge": 1, "alert": "Hi there!"}}"#),
        Case("\(nodeAPN)/apsProperties.js locKey", #"{"aps": {"alert": {"body": "Test", "launch-image": "test.png", "loc-key": "hello_world"}}}"#),
        Case("\(nodeAPN)/apsProperties.js action", #"{"aps": {"alert": {"body": "Test", "launch-image": "test.png", "action": "View"}}}"#),
        Case("\(nodeAPN)/apsProperties.js titleLocArgs", #"{"aps": {"alert": {"body": "Test", "launch-image": "test.png", "title-loc-args": ["Hi there"]}}}"#),
        Case("\(nodeAPN)/index.js headers", request(alert + #", "apns-expiration": "1000", "apns-collapse-id": "io.apn.collapse""#, #"{"aps": {"alert": "Hi"}}"#)),
        // Its headers() gives apns-expiration as a number, which Node's http2 sends as digits.
        Case(
            "\(nodeAPN)/index.js headers, as headers() gives them",
            request(#""apns-push-type": "alert", "apns-topic": "com.example.app", "apns-expiration": 1000"#, #"{"aps": {"alert": "Hi"}}"#),
            .warning("apns-header-string", #"$.headers["apns-expiration"]"#)),
        Case(
            "\(nodeAPN)/index.js headers: apns-id",
            request(alert + #", "apns-id": "123e4567-e89b-12d3-a456-42665544000""#, #"{"aps": {"alert": "Hi"}}"#), .error("apns-id", #"$.headers["apns-id"]"#)),

        // PyAPNs2: its Payload writes url-args as a string where Apple gives an array of strings;
        // Safari alone reads it, so a warning.
        Case(
            "\(pyapns2) test_payload",
            #"{"aps": {"alert": "my_alert", "badge": 2, "sound": "chime", "content-available": 1, "mutable-content": 1, "thread-id": "42", "category": "my_category", "url-args": "args"}, "extra": "something"}"#,
            .warning("apns-aps-type", #"$.aps["url-args"]"#)),
        Case(
            "\(pyapns2) test_payload_with_payload_alert",
            #"{"aps": {"alert": {"title": "title", "title-loc-key": "title_loc_k", "title-loc-args": ["title_loc_a"], "subtitle": "subtitle", "subtitle-loc-key": "subtitle_loc_k", "subtitle-loc-args": ["subtitle_loc_a"], "body": "body", "loc-key": "body_loc_k", "loc-args": ["body_loc_a"], "action-loc-key": "ac_loc_k", "action": "send", "launch-image": "img"}, "badge": 2, "sound": "chime", "thread-id": "42", "category": "my_category"}, "extra": "something"}"#
        ),

        // Apple's pages: the shapes they document.
        Case(
            applePayload,
            #"{"aps": {"alert": {"title": "Game Request", "subtitle": "Five Card Draw", "body": "Bob wants to play poker"}, "category": "GAME_INVITATION"}, "gameID": "12345678"}"#),
        Case(applePayload, request(#""apns-push-type": "background", "apns-priority": "5", "apns-topic": "com.example.app""#, #"{"aps": {"content-available": 1}, "acme1": "bar", "acme2": 42}"#)),
        // A Live Activity's alert: localisation dictionaries and its own sound.
        Case(
            appleLive,
            request(
                live,
                #"{"aps": {"timestamp": 1685952000, "event": "update", "content-state": {"health": 0.0, "note": "Knocked down"}, "alert": {"title": {"loc-key": "%@ is knocked down!", "loc-args": ["Panda"]}, "body": {"loc-key": "Heal %@ with a potion!", "loc-args": ["Panda"]}, "sound": "Down.mp4"}}}"#
            )),
        Case(
            appleFileProvider,
            request(#""apns-push-type": "fileprovider", "apns-topic": "com.example.app.pushkit.fileprovider""#, #"{"container-identifier": "NSFileProviderWorkingSetContainerItemIdentifier"}"#)),

        // What APNs answers with 400 or 413 (Apple's request page and its error table).
        Case("\(appleRequest): 413 PayloadTooLarge", #"{"aps": {"alert": "\#(longBody)"}}"#, .error("apns-size", "$")),
        Case("\(appleRequest): BadPriority", request(#""apns-push-type": "alert", "apns-priority": "7""#, #"{"aps": {"alert": "Hi"}}"#), .error("apns-priority", #"$.headers["apns-priority"]"#)),
        Case("\(appleRequest): InvalidPushType", request(#""apns-push-type": "silent""#, #"{"aps": {"alert": "Hi"}}"#), .error("apns-push-type", #"$.headers["apns-push-type"]"#)),
        Case(
            "\(appleRequest): BadExpirationDate", request(alert + #", "apns-expiration": "tomorrow""#, #"{"aps": {"alert": "Hi"}}"#),
            .error("apns-expiration", #"$.headers["apns-expiration"]"#)),
        Case(
            "\(appleRequest): BadCollapseId (64 characters, 65 bytes)", request(alert + #", "apns-collapse-id": "\#(String(repeating: "c", count: 63))é""#, #"{"aps": {"alert": "Hi"}}"#),
            .error("apns-collapse-id", #"$.headers["apns-collapse-id"]"#)),
        Case(
            "\(appleRequest): DeviceTokenNotForTopic (voip without .voip)",
            request(#""apns-push-type": "voip", "apns-topic": "com.example.app""#, #"{"caller": "Ann"}"#), .error("apns-topic", #"$.headers["apns-topic"]"#)),
        Case(
            "\(appleRequest): MissingTopic (liveactivity, token auth only)",
            request(#""apns-push-type": "liveactivity""#, #"{"aps": {"event": "end", "timestamp": 1672680658}}"#), .error("apns-topic-required", #"$.headers["apns-topic"]"#)),
        Case(
            "\(appleRequest): MissingTopic (location, token auth only)", request(#""apns-push-type": "location""#, "{}"),
            .error("apns-topic-required", #"$.headers["apns-topic"]"#)),
        Case(
            "\(appleRequest): background at priority 10",
            request(#""apns-push-type": "background", "apns-priority": "10", "apns-topic": "com.example.app""#, #"{"aps": {"content-available": 1}}"#),
            .error("apns-background", #"$.headers["apns-priority"]"#)),
        // What shows nothing: at the payload, where the fix goes.
        Case("\(appleRequest): an alert push with nothing to show", request(alert, #"{"aps": {"mutable-content": 1}}"#), .error("apns-push-type", "$.payload.aps")),
        Case("\(appleRequest): an alert push with no aps", request(alert, #"{"id": "1"}"#), .error("apns-aps-object", "$.payload.aps")),
        Case(
            "\(nodeAPN)/apsProperties.js mdm: sent as mdm without it",
            request(#""apns-push-type": "mdm", "apns-topic": "com.apple.mgmt.External.0f2a""#, #"{"some": "payload"}"#), .error("apns-mdm", "$.payload.mdm")),
    ]

    @Test("each peer's payload or request gets the finding Apple's rules give it", arguments: cases)
    func peerCase(_ peer: Case) throws {
        let document = try JSONParser.parse(Array(peer.document.utf8))
        let findings = try builtinTranslator().validate(document, platform: .apns)
        let errors = findings.filter { $0.severity == .error }
        switch peer.expected {
        case .valid:
            #expect(errors.isEmpty, "\(peer.source): \(errors)")
        case .warning(let rule, let path):
            #expect(errors.isEmpty, "\(peer.source): \(errors)")
            #expect(findings.contains { $0.severity == .warning && $0.rule == rule && $0.path == path }, "\(peer.source): \(findings)")
        case .error(let rule, let path):
            // One finding per fault: the expected error and no other.
            #expect(errors.count == 1 && errors.first?.rule == rule && errors.first?.path == path, "\(peer.source): \(errors)")
        }
    }

    @Test("the suite covers each peer, Apple's pages, and every push type")
    func coverage() {
        let sources = Set(Self.cases.map { $0.source.split(separator: " ").first.map(String.init) ?? "" })
        for peer in ["sideshow/apns2", "swift-server-community/APNSwift", "node-apn/node-apn", "Pr0Ger/PyAPNs2", "Apple,"] {
            #expect(sources.contains(peer), "\(peer)")
        }
        for type in APNSModel.pushTypeNames.map(ValueFormat.text) {
            #expect(Self.cases.contains { $0.document.contains(#""apns-push-type": "\#(type)""#) }, "\(type)")
        }
    }
}
