import Testing
@_spi(Tools) @testable import Pushmap
import PushmapJSON

/// What the built-in mapping says of an intent whose push type cannot be sent as asked
/// (docs/intent.md, "Push types"); the shapes of the ones that can are PropertyTests'.
@Suite("Push types from an intent")
struct PushTypeTranslationTests {
    static func translate(_ intent: String) throws -> Translation {
        try builtinTranslator().translate(Array(intent.utf8), platforms: [.apns], forms: [.apnsRequest])
    }

    static func errors(_ intent: String) -> [Diagnostic] {
        translationError { _ = try translate(intent) }?.diagnostics.filter { $0.severity == .error } ?? []
    }

    /// Source: the forty-third audit, F1: a library clock far before 1970 and an expiration at
    /// the top of 64 bits took the ttl past them, and import trapped.
    @Test("import of an apns-expiration whose ttl is past 64 bits from the clock gives no ttl, and no trap")
    func expirationPastSixtyFourBits() throws {
        let translator = try Translator(options: Translator.Options(clock: { -1 }), logger: quietLogger)
        let request = try JSONParser.parse(Array(#"{"headers": {"apns-push-type": "alert", "apns-expiration": "9223372036854775807"}, "payload": {"aps": {"alert": "Hi"}}}"#.utf8))
        let (intent, _) = try translator.importIntent(request, platform: .apns)
        #expect(intent?["body"]?.stringValue == "Hi")
        #expect(intent?["ttl"] == nil)
    }

    @Test("a template draws an alert: another push type is an error at ios.pushType")
    func templateNeedsAlert() {
        for type in ["voip", "mdm", "widgets", "liveactivity"] {
            let found = Self.errors(#"{"template": "basic", "title": "t", "body": "b", "data": {"mdm": "m"}, "ios": {"pushType": "\#(type)"}}"#)
            #expect(found.map(\.path) == ["$.ios.pushType"], "\(type): \(found)")
        }
    }

    @Test("an MDM push needs data.mdm; its topic is the certificate's, never the bundle id")
    func mdm() throws {
        #expect(Self.errors(#"{"ios": {"pushType": "mdm", "topic": "com.apple.mgmt.External.1"}}"#).map(\.path) == ["$.data.mdm"])
        let bundle = try Self.translate(#"{"data": {"mdm": "m"}, "ios": {"pushType": "mdm", "topic": "com.example.app"}}"#)
        #expect(bundle.payloads[.apns]?["headers"]?["apns-topic"] == "com.example.app")
        #expect(bundle.diagnostics.map(\.path) == ["$.ios.topic"])
        let certificate = try Self.translate(#"{"data": {"mdm": "m", "x": "1"}, "ios": {"pushType": "mdm", "topic": "com.apple.mgmt.External.1"}}"#)
        #expect(certificate.payloads[.apns]?["payload"] == ["mdm": "m"])
        #expect(certificate.diagnostics.map(\.path) == ["$.data.x"])
    }

    @Test("a PushKit push leaves the alert fields out, with a warning each")
    func pushKit() throws {
        let voip = try Self.translate(#"{"title": "Call", "badge": 1, "data": {"caller": "Ann"}, "ios": {"pushType": "voip", "topic": "com.example.app"}}"#)
        #expect(voip.payloads[.apns]?["payload"] == ["caller": "Ann"])
        #expect(voip.diagnostics.map(\.path) == ["$.title", "$.badge"])
        #expect(voip.diagnostics.allSatisfy { $0.severity == .warning })
        // The bare payload, with no headers to say its type: the intent says it, so no word on
        // the aps a PushKit push goes without (the thirteenth audit).
        for type in ["voip", "complication", "fileprovider", "location", "pushtotalk"] {
            let bare = try builtinTranslator().translate(
                Array(#"{"data": {"k": "v"}, "ios": {"pushType": "\#(type)", "topic": "com.example.app"}}"#.utf8), platforms: [.apns])
            #expect(bare.diagnostics.isEmpty, "\(type): \(bare.diagnostics)")
        }
    }

    @Test("a silent payload goes at priority 5 whatever the push type: Apple calls 10 an error for content-available alone")
    func silentPriority() throws {
        let asAlert = try Self.translate(#"{"ios": {"pushType": "alert", "contentAvailable": true, "topic": "com.example.app"}}"#)
        #expect(asAlert.payloads[.apns]?["headers"]?["apns-priority"] == "5")
        #expect(!asAlert.diagnostics.contains { $0.severity == .error }, "\(asAlert.diagnostics)")
    }

    /// Source: Apple, WidgetKit "Updating controls locally and remotely" (iOS 18): apns-push-type
    /// controls, the topic <bundle id>.push-type.controls, aps {"content-changed": true}; the
    /// twenty-seventh audit, F1, found the push type refused.
    @Test("a controls push is aps.content-changed alone, to the bundle id's .push-type.controls topic")
    func controls() throws {
        let controls = try Self.translate(#"{"title": "t", "data": {"k": "v"}, "ios": {"pushType": "controls", "topic": "com.example.MyApp"}}"#)
        #expect(controls.payloads[.apns]?["payload"] == ["aps": ["content-changed": true], "k": "v"])
        #expect(controls.payloads[.apns]?["headers"]?["apns-push-type"] == "controls")
        #expect(controls.payloads[.apns]?["headers"]?["apns-topic"] == "com.example.MyApp.push-type.controls")
        #expect(controls.diagnostics.map(\.path) == ["$.title"])
    }

    @Test("a Live Activity push needs ios.liveActivity, and a start its attributes and an alert")
    func liveActivity() throws {
        #expect(Self.errors(#"{"title": "t", "ios": {"pushType": "liveactivity", "topic": "com.example.app"}}"#).map(\.path) == ["$.ios.liveActivity"])
        let start = Self.errors(#"{"ios": {"pushType": "liveactivity", "topic": "com.example.app", "liveActivity": {"event": "start", "contentState": {}}}}"#)
        #expect(start.map(\.path) == ["$.ios.liveActivity.attributesType", "$.ios.liveActivity.attributes", "$.title"])
        let update = try Self.translate(#"{"title": "Goal", "sound": "goal.caf", "ios": {"pushType": "liveactivity", "topic": "com.example.app", "liveActivity": {"event": "update", "contentState": {"score": "1-0"}}}}"#)
        let aps = try #require(update.payloads[.apns]?["payload"]?["aps"])
        #expect(aps["alert"] == ["title": "Goal", "sound": "goal.caf"])
        #expect(aps["timestamp"] == .integer(1_704_067_200))
        #expect(update.diagnostics.isEmpty)
        // Token authentication only: no topic, MissingTopic.
        let noTopic = Self.errors(#"{"ios": {"pushType": "liveactivity", "liveActivity": {"event": "end"}}}"#)
        #expect(noTopic.map(\.rule) == ["apns-topic-required"])
    }
}
