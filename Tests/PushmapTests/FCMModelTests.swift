import Foundation
import Testing
@_spi(Tools) @testable import Pushmap
@_spi(Engine) import PushmapJSON

/// The FCM checks against Google's reference: cases generated from the model (every field of
/// every object a message nests, in both spellings) and cases picked by hand from the v1 API
/// reference.
@Suite("FCM model")
struct FCMModelTests {
    /// One field of the model, at its place in a message.
    struct FieldCase: Sendable, CustomTestStringConvertible {
        /// Member names from `message` down, in the spelling under test.
        let names: [String]
        let schema: String
        let camel: String
        let type: FCMModel.ValueType
        let isArray: Bool
        var testDescription: String { "message." + names.joined(separator: ".") }
        var path: String { names.reduce("$.message") { JSONPath.member($0, $1) } }
    }

    /// Every field reachable from Message, each spelled camelCase and snake_case; an object met
    /// again deeper (none today) is not walked twice.
    static let fieldCases: [FieldCase] = {
        var cases: [FieldCase] = []
        func visit(_ schema: String, _ prefix: [String], _ seen: Set<String>) {
            guard let entry = FCMModel.schemas.first(where: { ValueFormat.text($0.name) == schema }) else { return }
            for field in entry.fields {
                let camel = ValueFormat.text(field.camel), snake = ValueFormat.text(field.snake)
                var type = field.type
                var isArray = false
                if case .array(let element) = type { (type, isArray) = (element, true) }
                for name in Set([camel, snake]).sorted() {
                    cases.append(FieldCase(names: prefix + [name], schema: schema, camel: camel, type: type, isArray: isArray))
                }
                if case .object(let inner) = type, !seen.contains(ValueFormat.text(inner)) {
                    visit(ValueFormat.text(inner), prefix + [snake], seen.union([schema]))
                }
            }
        }
        visit("Message", [], [])
        return cases
    }()

    /// The fields a rule of their own checks, with that rule's name.
    static let ownRules: [String: String] = [
        "Message.data": "fcm-data-map", "Message.android": "fcm-android-object", "AndroidConfig.data": "fcm-data-map",
        "AndroidConfig.priority": "fcm-delivery-priority", "AndroidConfig.ttl": "fcm-ttl",
        "AndroidConfigV2.data": "fcm-data-map", "AndroidConfigV2.ttl": "fcm-ttl",
    ]

    static func valid(_ type: FCMModel.ValueType) -> JSONValue {
        switch type {
        case .string: "x"
        case .boolean: true
        case .number: .double(0.5)
        case .int32: 7
        case .duration: "3.5s"
        case .timestamp: "2026-01-31T12:00:00.5+01:00"
        case .enumeration(let words): .string(ValueFormat.text(words[words.count - 1]))
        case .object: [:]
        case .stringMap: ["k": "v"]
        case .anyMap: ["k": 1, "n": ["x": [true]]]
        case .array(let element): [valid(element)]
        }
    }

    static func wrongType(_ type: FCMModel.ValueType) -> JSONValue {
        switch type {
        case .string, .duration, .timestamp: 5
        // An enum takes its numbers as well as its words.
        case .enumeration: true
        case .boolean: "true"
        case .number: true
        case .int32: "seven"
        case .object, .anyMap: "x"
        case .stringMap: ["x"]
        case .array: "x"
        }
    }

    /// `{"message": ...}` with `value` at `names`.
    static func message(_ names: [String], _ value: JSONValue) -> JSONValue {
        let inner = names.reversed().reduce(value) { nested, name in .object(JSONObject([(name, nested)])) }
        return .object(JSONObject([("message", inner)]))
    }

    static func errors(_ payload: JSONValue) -> [Diagnostic] {
        F.check(payload, .fcm).filter { $0.severity == .error }
    }

    static func errors(_ text: String) throws -> [Diagnostic] {
        errors(try F.parse(text))
    }

    // MARK: - generated from the model

    @Test("the model covers the whole message", arguments: [
        "message.android.notification.notification_priority", "message.android.fcm_options.analyticsLabel", "message.apns.headers",
        "message.apns.payload", "message.webpush.fcm_options.link", "message.fcm_options.analytics_label", "message.fid", "message.token",
        "message.topic", "message.condition", "message.android.notification.light_settings.color.red", "message.notification.image",
    ])
    func coverage(field: String) {
        #expect(Self.fieldCases.contains { $0.testDescription == field })
    }

    /// Fields whose strings have a format of their own (a rule beside the model's checks it),
    /// and a value of that format.
    static let formatted: [String: JSONValue] = [
        "Message.condition": "'x' in topics", "AndroidNotification.color": "#3f51b5", "AndroidNotificationV2.color": "#3f51b5",
        "WebpushFcmOptions.link": "https://example.com/news",
    ]

    @Test("each field takes a value of its type, in either spelling", arguments: fieldCases)
    func validValue(field: FieldCase) {
        let one = Self.formatted["\(field.schema).\(field.camel)"] ?? Self.valid(field.type)
        let value = field.isArray ? .array([one]) : one
        // Light settings need their three fields together: fcm-light-settings' own test.
        let inLight = field.names.contains { $0 == "light_settings" || $0 == "lightSettings" }
        F.expectClean(Self.errors(Self.message(field.names, value)).filter { !(inLight && $0.rule == "fcm-light-settings") })
    }

    @Test("each field refuses a value of another type", arguments: fieldCases)
    func wrongTypeRefused(field: FieldCase) {
        let value = field.isArray ? .array([Self.wrongType(field.type)]) : Self.wrongType(field.type)
        let rule = Self.ownRules["\(field.schema).\(field.camel)"] ?? "fcm-field-type"
        let at = field.isArray ? JSONPath.element(field.path, 0) : field.path
        F.expectOne(Self.errors(Self.message(field.names, value)), rule, .error, at: at)
        if field.isArray {
            F.expectOne(Self.errors(Self.message(field.names, Self.wrongType(.array(field.type)))), rule, .error, at: field.path)
        }
    }

    @Test("each object refuses a field it does not have", arguments: fieldCases.filter {
        if case .object = $0.type { return true } else { return false }
    })
    func unknownField(field: FieldCase) {
        let payload = Self.message(field.names + ["bogus_field"], 1)
        let finding = F.expectOne(Self.errors(payload), "fcm-unknown-field", .error, at: JSONPath.member(field.path, "bogus_field"))
        #expect(finding?.message.contains("FCM refuses") == true)
    }

    @Test("each enumeration refuses a word it does not have", arguments: fieldCases.filter {
        if case .enumeration = $0.type { return true } else { return false }
    })
    func badEnum(field: FieldCase) {
        let rule = Self.ownRules["\(field.schema).\(field.camel)"] ?? "fcm-enum-value"
        F.expectOne(Self.errors(Self.message(field.names, "PRIORITY_URGENT")), rule, .error, at: field.path)
        F.expectOne(Self.errors(Self.message(field.names, "")), rule, .error, at: field.path)
    }

    @Test("each enumeration takes its words in any case and its numbers, as protobuf's JSON does", arguments: fieldCases.filter {
        if case .enumeration = $0.type { return true } else { return false }
    })
    func enumSpellings(field: FieldCase) {
        guard case .enumeration(let words) = field.type else { return }
        let word = ValueFormat.text(words[1])
        // android.priority "high" is what every Firebase Admin SDK sends.
        for value: JSONValue in [.string(word.lowercased()), .string(word), 0, .integer(Int64(words.count - 1)), "1"] {
            F.expectClean(Self.errors(Self.message(field.names, value)))
        }
    }

    @Test("an enum number past the enum's words is read by FCM: a warning; past int32, an error")
    func enumNumbers() throws {
        let past = F.check(try F.parse(#"{"message": {"android": {"notification": {"visibility": 9}}}}"#), .fcm)
        F.expectOne(past, "fcm-enum-value", .warning, at: "$.message.android.notification.visibility")
        #expect(!past.contains { $0.severity == .error })
        let pastAsText = F.check(try F.parse(#"{"message": {"android": {"notification": {"visibility": "9"}}}}"#), .fcm)
        F.expectOne(pastAsText, "fcm-enum-value", .warning, at: "$.message.android.notification.visibility")
        F.expectOne(
            try Self.errors(#"{"message": {"android": {"notification": {"visibility": 4294967296}}}}"#), "fcm-enum-value", .error,
            at: "$.message.android.notification.visibility")
    }

    @Test("each duration, time and int32 refuses a bad format", arguments: fieldCases.filter {
        switch $0.type {
        case .duration, .timestamp, .int32: true
        default: false
        }
    })
    func badFormat(field: FieldCase) {
        let (bad, rule): ([JSONValue], String) =
            switch field.type {
            case .duration: (["3.5", "3.5 s", "-", "1.1234567891s", "PT3S"], "fcm-duration")
            case .timestamp: (["2026-01-31 12:00:00Z", "2026-02-30T12:00:00Z", "2026-01-31T12:00:00", "2026-01-31T24:00:00Z", "1700000000"], "fcm-timestamp")
            default: ([2_147_483_648, -2_147_483_649, "4294967296"], "fcm-int32")
            }
        for value in bad {
            let placed = field.isArray ? JSONValue.array([value]) : value
            let at = field.isArray ? JSONPath.element(field.path, 0) : field.path
            F.expectOne(Self.errors(Self.message(field.names, placed)), Self.ownRules["\(field.schema).\(field.camel)"] ?? rule, .error, at: at)
        }
    }

    // MARK: - picked from the reference

    @Test("fields of the legacy API and misplaced fields are refused, each at its path", arguments: [
        (#"{"message": {"to": "abc"}}"#, "$.message.to"),
        (#"{"message": {"time_to_live": 60}}"#, "$.message.time_to_live"),
        (#"{"message": {"bogus": true}}"#, "$.message.bogus"),
        (#"{"message": {"android": {"channel_id": "news"}}}"#, "$.message.android.channel_id"),
        (#"{"message": {"notification": {"sound": "default"}}}"#, "$.message.notification.sound"),
        (#"{"message": {"apns": {"aps": {}}}}"#, "$.message.apns.aps"),
        (#"{"message": {"webpush": {"link": "https://x"}}}"#, "$.message.webpush.link"),
        (#"{"message": {"priority": "high"}}"#, "$.message.priority"),
        (#"{"message": {}, "validateonly": true}"#, "$.validateonly"),
    ])
    func misplaced(payload: String, path: String) throws {
        F.expectOne(try Self.errors(payload), "fcm-unknown-field", .error, at: path)
    }

    @Test("a typo is told the field it is near")
    func typoHint() throws {
        let finding = F.expectOne(try Self.errors(#"{"message": {"android": {"tll": "60s"}}}"#), "fcm-unknown-field", .error, at: "$.message.android.tll")
        #expect(finding?.message.contains("did you mean ttl?") == true)
        let moved = F.expectOne(try Self.errors(#"{"message": {"android": {"channel_id": "x"}}}"#), "fcm-unknown-field", .error, at: "$.message.android.channel_id")
        #expect(moved?.message.contains("AndroidNotification") == true)
    }

    @Test("a field spelled both ways in one object is refused; in two objects each is fine")
    func spelledTwice() throws {
        F.expectOne(
            try Self.errors(#"{"message": {"android": {"collapse_key": "a", "collapseKey": "b"}}}"#), "fcm-field-twice", .error,
            at: "$.message.android.collapseKey")
        F.expectClean(try Self.errors(#"{"message": {"android": {"collapse_key": "a", "notification": {"channelId": "c"}}, "fcmOptions": {"analytics_label": "l"}}}"#))
    }

    @Test("valid messages of every kind are accepted", arguments: [
        #"{"message": {"fid": "fid-1", "data": {"k": "v"}}}"#,
        #"{"message": {"topic": "news", "notification": {"title": "Hi", "body": "There", "image": "https://x.com/a.png"}}}"#,
        #"{"message": {"condition": "'a' in topics && 'b' in topics", "webpush": {"headers": {"Urgency": "high"}, "data": {"k": "v"}, "notification": {"title": "t", "actions": [{"action": "a"}], "requireInteraction": true}, "fcm_options": {"link": "https://x.com"}}}}"#,
        #"{"message": {"token": "t", "apns": {"headers": {"apns-priority": "5", "apns-push-type": "background"}, "payload": {"aps": {"content-available": 1}, "custom": [1, 2]}, "fcm_options": {"image": "https://x.com/a.png", "analytics_label": "l"}}}}"#,
        #"{"message": {"token": "t", "android": {"collapseKey": "k", "ttl": "86400s", "directBootOk": true, "notification": {"channelId": "c", "notificationPriority": "PRIORITY_HIGH", "eventTime": "2026-01-31T12:00:00Z", "notificationCount": 3, "vibrateTimings": ["0.5s", "1s"], "lightSettings": {"color": {"red": 1, "green": 0.5, "blue": 0}, "lightOnDuration": "1s", "lightOffDuration": "2s"}}, "fcmOptions": {"analyticsLabel": "l"}}, "fcmOptions": {"analyticsLabel": "l"}}}"#,
        #"{"message": {"token": "t", "data": {"gcm.foo": "1", "gcmx": "2", "google": "3", "fromage": "4"}}, "validate_only": true}"#,
        #"{"message": {"data": {"k": "v"}}}"#,
    ])
    func validMessages(payload: String) throws {
        F.expectClean(try Self.errors(payload))
    }

    @Test("data keys FCM reserves are refused, and only those", arguments: [
        ("from", true), ("message_type", true), ("google.x", true), ("gcm.notification.title", true),
        ("gcm.foo", false), ("gcm.notificationx", false), ("gcm.", false), ("googlex", false),
    ])
    func reservedKeys(key: String, reserved: Bool) {
        let payload = JSONValue.object(["message": .object(["data": .object(JSONObject([(key, "v")]))])])
        if reserved {
            F.expectOne(Self.errors(payload), "fcm-reserved-key", .error, at: JSONPath.member("$.message.data", key))
        } else {
            F.expectClean(Self.errors(payload))
        }
    }

    @Test("data values must be strings in every data map")
    func dataValues() throws {
        F.expectOne(try Self.errors(#"{"message": {"webpush": {"data": {"n": 1}}}}"#), "fcm-field-type", .error, at: "$.message.webpush.data.n")
        F.expectOne(try Self.errors(#"{"message": {"apns": {"headers": {"apns-priority": 10}}}}"#), "fcm-field-type", .error, at: #"$.message.apns.headers["apns-priority"]"#)
        F.expectOne(try Self.errors(#"{"message": {"data": {"n": 1}}}"#), "fcm-data-string", .error, at: "$.message.data.n")
    }

    // MARK: - targets

    @Test("fid is a target like the others: one per message")
    func fidTarget() throws {
        F.expectOne(try Self.errors(#"{"message": {"fid": "f", "token": "t"}}"#), "fcm-one-target", .error, at: "$.message")
        F.expectClean(try Self.errors(#"{"message": {"fid": "f"}}"#))
    }

    @Test("an empty token or fid is refused; a message with no target has no error")
    func emptyToken() throws {
        F.expectOne(try Self.errors(#"{"message": {"token": ""}}"#), "fcm-token", .error, at: "$.message.token")
        F.expectOne(try Self.errors(#"{"message": {"fid": ""}}"#), "fcm-fid", .error, at: "$.message.fid")
        F.expectClean(try Self.errors(#"{"message": {"notification": {"title": "t"}}}"#))
    }

    /// Source: the twenty-ninth audit, F3 (firebase-admin-python integration/test_messaging.py
    /// test_send_malformed_token: FCM answers INVALID_ARGUMENT for a token it cannot read). Only
    /// what no token has is refused: the SDKs' own tests send "test-token" and "mock-token".
    @Test("a token with a space, a line end or a letter beyond ASCII is refused; the SDKs' test tokens pass", arguments: [
        ("abc def", false), ("abc\\n", false), ("t\\u00f6k", false), ("test-token", true), ("mock-token", true),
        ("dGVzdA:APA91bH_x-y", true), ("FCM_TOKEN", true),
    ])
    func tokenCharacters(token: String, passes: Bool) throws {
        let findings = try Self.errors(#"{"message": {"token": "\#(token)", "notification": {"title": "t"}}}"#)
        if passes { F.expectClean(findings) } else { F.expectOne(findings, "fcm-token", .error, at: "$.message.token") }
    }

    @Test("a topic name is one or more of FCM's characters", arguments: [
        ("news", true), ("a-b_c.d~e%20", true), ("news 2", false), ("", false), ("news/2", false), ("ニュース", false),
    ])
    func topicName(topic: String, valid: Bool) {
        let diagnostics = F.check(.object(["message": .object(["topic": .string(topic)])]), .fcm)
        if valid {
            F.expectClean(diagnostics)
        } else {
            F.expectOne(diagnostics, "fcm-topic", .error, at: "$.message.topic")
        }
    }

    @Test("a /topics/ prefix is refused with the advice to strip it; a name after it to mend is the one finding")
    func topicPrefix() {
        let prefixed = F.check(.object(["message": .object(["topic": "/topics/news"])]), .fcm)
        let finding = F.expectOne(prefixed, "fcm-topic", .error, at: "$.message.topic")
        #expect(finding?.message.contains("strip it (\"news\")") == true)
        let bad = F.check(.object(["message": .object(["topic": "/topics/news 2"])]), .fcm)
        // One fault, one finding: the name to mend is said, not the prefix as well.
        let found = bad.filter { $0.rule == "fcm-topic" }
        #expect(found.map(\.severity) == [.error])
        #expect(found.first?.message.contains("is not a topic name") == true)
    }

    @Test("a topic name is at most 900 characters")
    func topicLength() {
        F.expectClean(F.check(.object(["message": .object(["topic": .string(String(repeating: "a", count: 900))])]), .fcm))
        let long = F.check(.object(["message": .object(["topic": .string(String(repeating: "a", count: 901))])]), .fcm)
        let finding = F.expectOne(long, "fcm-topic", .error, at: "$.message.topic")
        #expect(finding?.message.contains("901") == true)
    }

    // MARK: - formats

    @Test("RFC 3339 times", arguments: [
        ("2026-01-31T12:00:00Z", true), ("2024-02-29T23:59:59.123456789Z", true), ("2026-01-31T12:00:00-05:30", true),
        ("2023-02-29T00:00:00Z", false), ("2026-01-31T12:00:00.Z", false), ("2026-01-31T12:00:00.1234567890Z", false),
        ("2026-01-31T12:00:60Z", false), ("2026-01-31T12:00:00+0100", false), ("2026-01-31", false), ("", false),
    ])
    func timestamps(text: String, valid: Bool) {
        var text = text
        let answer = text.withUTF8 { ValueFormat.isTimestamp(UnsafeRawBufferPointer($0)) }
        #expect(answer == valid)
    }

    @Test("the model is the one generated from the discovery document's revision it names")
    func revision() {
        #expect(ValueFormat.text(FCMModel.revision).count == 8)
        #expect(FCMModel.compiled.schemas.count == FCMModel.schemas.count)
        #expect(ValueFormat.text(FCMModel.compiled.schemas[FCMModel.compiled.root].name) == "SendMessageRequest")
    }
}
