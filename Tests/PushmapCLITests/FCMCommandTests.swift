import Foundation
import Testing

/// FCM's model as a user meets it: `pushmap validate --platform fcm` on messages from the v1
/// reference, a team's script with typos in FCM fields, and output a line splitter can trust.
@Suite("FCM checks through the binary")
struct FCMCommandTests {
    @Test("validate refuses what FCM refuses, with the path and rule of each", arguments: [
        (#"{"message": {"token": "t", "bogus": 1}}"#, "$.message.bogus", "fcm-unknown-field"),
        (#"{"message": {"to": "t"}}"#, "$.message.to", "fcm-unknown-field"),
        (#"{"message": {"token": "t", "android": {"time_to_live": 60}}}"#, "$.message.android.time_to_live", "fcm-unknown-field"),
        (#"{"message": {"token": "t", "android": {"channel_id": "c"}}}"#, "$.message.android.channel_id", "fcm-unknown-field"),
        (#"{"message": {"token": 5}}"#, "$.message.token", "fcm-field-type"),
        (#"{"message": {"notification": {"title": ["t"]}}}"#, "$.message.notification.title", "fcm-field-type"),
        (#"{"message": {"android": {"notification": {"visibility": "HIDDEN"}}}}"#, "$.message.android.notification.visibility", "fcm-enum-value"),
        (#"{"message": {"android": {"notification": {"event_time": "yesterday"}}}}"#, "$.message.android.notification.event_time", "fcm-timestamp"),
        (#"{"message": {"android": {"notification": {"vibrate_timings": ["1"]}}}}"#, "$.message.android.notification.vibrate_timings[0]", "fcm-duration"),
        (#"{"message": {"android": {"notification": {"notification_count": 2147483648}}}}"#, "$.message.android.notification.notification_count", "fcm-int32"),
        (#"{"message": {"webpush": {"fcm_options": {"link": 1}}}}"#, "$.message.webpush.fcm_options.link", "fcm-field-type"),
        (#"{"message": {"apns": {"headers": {"apns-priority": 10}}}}"#, #"$.message.apns.headers["apns-priority"]"#, "fcm-field-type"),
        (#"{"message": {"android": {"ttl": "1 hour"}}}"#, "$.message.android.ttl", "fcm-ttl"),
        (#"{"message": {"token": ""}}"#, "$.message.token", "fcm-token"),
        (#"{"message": {"topic": "news 2"}}"#, "$.message.topic", "fcm-topic"),
        (#"{"message": {"condition": "news"}}"#, "$.message.condition", "fcm-condition"),
        (#"{"message": {"token": "t", "android": {}, "android_v2": {}}}"#, "$.message.android_v2", "fcm-android-v2"),
        (#"{"message": {"token": "t", "android": {"notification": {"color": "112233"}}}}"#, "$.message.android.notification.color", "fcm-notification-color"),
        (#"{"message": {"token": "t", "android": {"notification": {"light_settings": {"color": {"red": 1}}}}}}"#, "$.message.android.notification.light_settings", "fcm-light-settings"),
        (#"{"message": {"token": "t", "webpush": {"fcm_options": {"link": "http://x.com"}}}}"#, "$.message.webpush.fcm_options.link", "fcm-webpush-link"),
        (#"{"message": {"token": "t", "fcm_options": {"analytics_label": "my label"}}}"#, "$.message.fcm_options.analytics_label", "fcm-analytics-label"),
    ])
    func validateRefuses(payload: String, path: String, rule: String) throws {
        let result = try CommandRunner.run(["validate", "--platform", "fcm", "-"], input: Data(payload.utf8))
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains("error: \(path): "), "\(result.stdout)")
        #expect(result.stdout.contains("[\(rule), fcm]"), "\(result.stdout)")
    }

    @Test("validate accepts what FCM accepts", arguments: [
        #"{"message": {"fid": "f1", "data": {"gcm.foo": "1"}}}"#,
        #"{"message": {"topic": "news", "notification": {"title": "t", "body": "b"}}}"#,
        #"{"message": {"token": "t", "apns": {"headers": {"apns-priority": "5"}, "payload": {"aps": {"content-available": 1}}}}}"#,
        #"{"message": {"condition": "'a' in topics", "webpush": {"headers": {"TTL": "60"}, "notification": {"title": "t"}, "fcmOptions": {"link": "https://x.com"}}}}"#,
        #"{"message": {"token": "t", "android": {"collapseKey": "k", "notification": {"channelId": "c", "notificationPriority": "PRIORITY_HIGH"}}}}"#,
        #"{"message": {"notification": {"title": "t"}}}"#,
        // As every Firebase Admin SDK writes the delivery priority, and as protobuf's JSON takes an enum.
        #"{"message": {"token": "t", "android": {"priority": "high", "notification": {"visibility": 1, "notification_priority": "priority_max"}}}}"#,
    ])
    func validateAccepts(payload: String) throws {
        let result = try CommandRunner.run(["validate", "--platform", "fcm", "-"], input: Data(payload.utf8))
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("valid fcm payload: 0 errors"), "\(result.stdout)")
    }

    /// Source: the fortieth audit, F9: a data key holding a line feed took two lines of the
    /// report, and `adb_clr_bg\n`, a key Android does not read, was judged as a colour too.
    @Test("a key with a line feed is one line of the report, and an adb_clr_ key Android does not read is one finding")
    func oddKeys() throws {
        let payload = #"{"message": {"token": "t", "data": {"adb_title": "A", "adb_body": "B", "google.\nx": "2", "adb_clr_bg\n": "x"}}}"#
        let result = try CommandRunner.run(["validate", "--platform", "fcm", "-"], input: Data(payload.utf8))
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 3, "\(result.stdout)")
        #expect(lines.filter { $0.contains("adb_clr_bg") }.count == 1 && result.stdout.contains("[android-unknown-key, fcm]"), "\(result.stdout)")
        #expect(result.stdout.contains(#"FCM refuses the data key google.\nx"#), "\(result.stdout)")
    }

    @Test("a /topics/ prefix is refused, with the advice to strip it as the Admin SDKs do")
    func topicPrefix() throws {
        let result = try CommandRunner.run(["validate", "--platform", "fcm", "-"], input: Data(#"{"message": {"topic": "/topics/news"}}"#.utf8))
        #expect(result.status == 1)
        #expect(result.stdout.contains(#"error: $.message.topic: message.topic "/topics/news" starts with /topics/"#), "\(result.stdout)")
        #expect(result.stdout.contains(#"strip it ("news")"#), "\(result.stdout)")
    }

    /// Source: the forty-sixth audit (FCM), against Google's FCM v1 error reference (ErrorCode,
    /// INVALID_ARGUMENT: 2048 bytes for messages to topics; gcm and keys prefixed by google used
    /// internally; collapse_key's value replaced), fcm.v1.json (android_v2's data and
    /// remote_notification described as android's), RFC 8030 (4096 bytes a push service must
    /// take; Topic at most 32 URL-safe base64 characters; Urgency in ABNF, any case) and the
    /// Go and Python Admin SDKs' link checks, which send "https://".
    @Test("validate says what Google's error reference, RFC 8030 and the Admin SDKs say, once a fault")
    func googleReferences() throws {
        func validate(_ message: String) throws -> (status: Int32, lines: [String]) {
            let result = try CommandRunner.run(["validate", "--platform", "fcm", "-"], input: Data(#"{"message": \#(message)}"#.utf8))
            return (result.status, result.stdout.split(separator: "\n").map(String.init).filter { !$0.contains("fcm payload:") })
        }
        func expectOne(_ message: String, _ severity: String, _ path: String, _ rule: String, _ sourceLocation: SourceLocation = #_sourceLocation) throws {
            let (status, lines) = try validate(message)
            #expect(status == (severity == "error" ? 1 : 0), sourceLocation: sourceLocation)
            #expect(lines.count == 1 && lines[0].hasPrefix("<stdin>: \(severity): \(path):") && lines[0].contains("[\(rule), fcm]"), "\(lines)", sourceLocation: sourceLocation)
        }
        let text = String(repeating: "x", count: 3000)
        try expectOne(#"{"topic": "news", "data": {"k": "\#(text)"}}"#, "warning", "$.message", "fcm-size")
        try expectOne(#"{"condition": "'a' in topics", "data": {"k": "\#(text)"}}"#, "warning", "$.message", "fcm-size")
        #expect(try validate(#"{"token": "t", "data": {"k": "\#(text)"}}"#).lines.isEmpty)
        // android_v2 counted as android: its data overrides, its notification counts.
        let half = String(repeating: "y", count: 1500)
        try expectOne(#"{"token": "t", "data": {"k": "\#(text)"}, "android_v2": {"data": {"k": "\#(half)"}}}"#, "warning", "$.message", "fcm-size")
        let long = String(repeating: "z", count: 5000)
        try expectOne(#"{"token": "t", "android_v2": {"remote_notification": {"notification": {"body": "\#(long)"}}}}"#, "error", "$.message", "fcm-size")
        try expectOne(#"{"token": "t", "webpush": {"data": {"k": "\#(long)"}}}"#, "warning", "$.message.webpush", "fcm-size")
        try expectOne(#"{"token": "t", "webpush": {"fcm_options": {"link": "https://"}}}"#, "warning", "$.message.webpush.fcm_options.link", "fcm-webpush-link")
        for key in ["gcm", "google_sent_time", "collapse_key"] {
            try expectOne(#"{"token": "t", "data": {"\#(key)": "v"}}"#, "warning", "$.message.data.\(key)", "fcm-reserved-key")
        }
        try expectOne(#"{"token": "t", "data": {"google.x": "v"}}"#, "error", #"$.message.data["google.x"]"#, "fcm-reserved-key")
        #expect(try validate(#"{"token": "t", "data": {"gcm.foo": "v", "googly": "v"}}"#).lines.isEmpty)
        try expectOne(#"{"token": "t", "webpush": {"headers": {"Topic": "not a topic, and longer than 32 characters"}}}"#, "warning", "$.message.webpush.headers.Topic", "fcm-webpush-headers")
        #expect(try validate(#"{"token": "t", "webpush": {"headers": {"Urgency": "HIGH", "Topic": "orders-552_a"}}}"#).lines.isEmpty)
        // One fault, one finding.
        try expectOne(#"{"topic": "/topics/"}"#, "error", "$.message.topic", "fcm-topic")
        try expectOne(#"{"token": "a", "topic": ""}"#, "error", "$.message", "fcm-one-target")
        try expectOne(#"{"token": "a", "topic": 5}"#, "error", "$.message.topic", "fcm-field-type")
        try expectOne(#"{"token": "a", "apns": {"payload": []}}"#, "error", "$.message.apns.payload", "fcm-field-type")
        try expectOne(#"{"token": "a", "apns": {"headers": "x"}}"#, "error", "$.message.apns.headers", "fcm-field-type")
    }

    @Test("a message with no target is valid, with a warning that says so")
    func noTarget() throws {
        let result = try CommandRunner.run(["validate", "--platform", "fcm", "-"], input: Data(#"{"message": {"data": {"k": "v"}}}"#.utf8))
        #expect(result.status == 0)
        #expect(result.stdout.contains("warning: $.message: the message has no target"), "\(result.stdout)")
        #expect(result.stdout.contains("[fcm-no-target, fcm]"), "\(result.stdout)")
    }

    @Test("a team's script with typos in FCM fields fails, naming the path of each")
    func scriptTypos() throws {
        let folder = try temporaryFolder()
        let script = """
            return {
              name = 'promo', api = 1, platforms = { 'fcm' }, fields = { coupon = 'string' },
              fcm = function(intent)
                return { message = {
                  tokn = 'device-token',
                  android = { tll = '3600s', notification = { notification_priority = 'PRIORITY_URGENT' } },
                  data = { coupon = intent.coupon },
                } }
              end,
            }
            """
        try script.write(to: folder.appendingPathComponent("promo.lua"), atomically: true, encoding: .utf8)
        let intent = #"{"template": "promo", "coupon": "X1"}"#
        let result = try CommandRunner.run(["translate", "--platform", "fcm", "--scripts", folder.path, "-"], input: Data(intent.utf8))
        // The script wrote each bad value: a script failure, each finding with the line that wrote it.
        #expect(result.status == 2, "\(result.stderr)")
        for (path, rule, line) in [
            ("$.message.tokn", "fcm-unknown-field", 5), ("$.message.android.tll", "fcm-unknown-field", 6),
            ("$.message.android.notification.notification_priority", "fcm-enum-value", 6),
        ] {
            #expect(result.stderr.contains("error: \(path): "), "\(path): \(result.stderr)")
            #expect(result.stderr.contains("[\(rule), fcm, written by \(folder.path)/promo.lua:\(line)]"), "\(rule): \(result.stderr)")
        }
        #expect(result.stderr.contains("did you mean token?"))
        #expect(result.stdout.isEmpty)
    }

    @Test("U+2028 and U+2029 leave every output line whole, escaped in payloads and diagnostics")
    func lineSeparators() throws {
        let title = "one\u{2028}two\u{2029}three"
        let lines = (0..<3).map { #"{"title": "\#(title) \#($0)", "body": "b", "data": {"k\#u{2028}": "v"}}"# }
        let result = try CommandRunner.run(["batch", "--platform", "both", "-"], input: Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = [UInt8](result.stdoutBytes)
        var separators = 0
        for index in bytes.indices.dropLast(2) where bytes[index] == 0xE2 && bytes[index + 1] == 0x80 {
            if bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 { separators += 1 }
        }
        #expect(separators == 0, "raw U+2028/U+2029 in the output")
        // Foundation splits on U+2028 as a line break, as many NDJSON readers do.
        let outputLines = result.stdout.components(separatedBy: .newlines).filter { !$0.isEmpty }
        #expect(outputLines.count == 3)
        for (number, line) in outputLines.enumerated() {
            let object = try #require(CommandRunner.json(line) as? [String: Any])
            let fcm = try #require(object["fcm"] as? [String: Any])
            let data = try #require((fcm["message"] as? [String: Any])?["data"] as? [String: Any])
            #expect(data["adb_title"] as? String == "\(title) \(number)")
            #expect(data["k\u{2028}"] as? String == "v")
        }
        // Diagnostics written by the Swift side: a finding quoting the text.
        let invalid = #"{"message": {"bad\#u{2029}key": 1}}"#
        let json = try CommandRunner.run(["validate", "--platform", "fcm", "--format", "json", "-"], input: Data(invalid.utf8))
        #expect(json.status == 1)
        #expect(json.stdout.contains(#"bad\u2029key is not a field"#), "\(json.stdout)")
        #expect(json.stdout.components(separatedBy: .newlines).filter { !$0.isEmpty }.count == 1)
    }
}
