import Testing
@_spi(Tools) @testable import Pushmap
import PushmapJSON

/// Google's limits on the FCM message.
extension ChecksTests {
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

    @Test("android.priority is the delivery priority NORMAL or HIGH, in any case, or its number")
    func fcmDeliveryPriority() {
        let bad = F.fcm(F.basicData, message: ["android": ["priority": "PRIORITY_HIGH"]])
        F.expectOne(F.check(bad, .fcm, intentPaths: true), "fcm-delivery-priority", .error, at: "$.android.delivery", payloadPath: "$.message.android.priority")
        for refused: JSONValue in ["urgent", 2, -1, true, 1.0] {
            F.expectOne(F.check(F.fcm(F.basicData, message: ["android": ["priority": refused]]), .fcm), "fcm-delivery-priority", .error, at: "$.message.android.priority")
        }
        // Lower case is what every Firebase Admin SDK sends.
        for priority: JSONValue in ["NORMAL", "HIGH", "high", "normal", "High", 0, 1] {
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
}
