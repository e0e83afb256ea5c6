import Testing
@_spi(Tools) @testable import Pushmap
import PushmapJSON

/// `validate --platform fcm` against the Firebase Admin SDKs' own tests: each case is a message
/// from one test of one SDK, named by repository, file and test.
///
/// - Accepted: the request body an SDK's test expects the SDK to send (its `want`/`expected`
///   wire JSON, or the message it passes through unchanged, with the target the test adds).
///   `validate` must give it no error: the SDKs send it, and FCM takes it.
/// - Refused: the wire form of a value an SDK's validator refuses (the SDK never sends it; a
///   sender writing JSON by hand can). `validate` must give an error of the rule named, at the
///   path where the fix goes.
/// - Warned: what an SDK refuses but FCM, as far as its documents say, takes and the phone
///   degrades (an image it cannot fetch, loc args with no key), or a message a sender completes
///   later (no target): a warning of the rule named, at its path, and no error.
///
/// Read at firebase-admin-go eebb06f2, firebase-admin-python b40e7388, firebase-admin-node
/// 5a203f67. Cases where pushmap differs from an SDK on purpose say why in `note`.
@Suite("FCM cases from the Firebase Admin SDKs' tests")
struct FCMPeerCasesTests {
    enum Outcome: Sendable {
        case accepted
        case refused(rule: String, at: String)
        case warned(rule: String, at: String)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        /// Repository, file and test the message comes from.
        let source: String
        /// The body's `message`, as JSON.
        let message: String
        let outcome: Outcome
        var note: String = ""
        var testDescription: String { source }
    }

    static let go = "firebase/firebase-admin-go messaging/messaging_test.go"
    static let python = "firebase/firebase-admin-python tests/test_messaging.py"
    static let node = "firebase/firebase-admin-node test/unit/messaging/messaging.spec.ts"

    static func accepted(_ source: String, _ message: String, note: String = "") -> Case {
        Case(source: source, message: message, outcome: .accepted, note: note)
    }

    static func refused(_ source: String, _ message: String, _ rule: String, at path: String, note: String = "") -> Case {
        Case(source: source, message: message, outcome: .refused(rule: rule, at: path), note: note)
    }

    // MARK: - what the SDKs send

    static let goSends: [Case] = [
        accepted("\(go) validMessages TokenOnly", #"{"token": "test-token"}"#),
        accepted("\(go) validMessages FidOnly", #"{"fid": "test-fid"}"#),
        accepted("\(go) validMessages TopicOnly", #"{"topic": "test-topic"}"#),
        accepted("\(go) validMessages PrefixedTopicOnly", #"{"topic": "test-topic"}"#, note: "the SDK strips /topics/ before sending"),
        accepted(
            "\(go) validMessages DataMessage",
            #"{"data": {"k1": "v1", "k2": "v2"}, "fcm_options": {"analytics_label": "Analytics"}, "topic": "test-topic"}"#),
        accepted(
            "\(go) validMessages NotificationMessage", #"{"notification": {"title": "t", "body": "b", "image": "http://image.jpg"}, "topic": "test-topic"}"#),
        accepted(
            "\(go) validMessages AndroidDataMessage",
            #"{"android": {"collapse_key": "ck", "data": {"k1": "v1", "k2": "v2"}, "priority": "normal", "ttl": "10s"}, "topic": "test-topic"}"#),
        accepted(
            "\(go) validMessages AndroidDataMessageWithBooleanOptions",
            #"{"android": {"direct_boot_ok": true, "bandwidth_constrained_ok": true, "restricted_satellite_ok": true, "collapse_key": "ck", "data": {"k1": "v1", "k2": "v2"}, "priority": "normal", "ttl": "10s"}, "topic": "test-topic"}"#
        ),
        accepted(
            "\(go) validMessages AndroidNotificationMessage",
            #"""
            {"android": {"restricted_package_name": "rpn", "notification": {"title": "t", "body": "b", "color": "#112233", "sound": "s",
              "title_loc_key": "tlk", "title_loc_args": ["t1", "t2"], "body_loc_key": "blk", "body_loc_args": ["b1", "b2"],
              "channel_id": "channel", "image": "http://image.jpg", "ticker": "tkr", "sticky": true, "event_time": "2019-01-01T01:02:03.123000000Z",
              "local_only": true, "notification_priority": "PRIORITY_MAX", "vibrate_timings": ["0.100000000s", "0.050000000s", "0.100000000s"],
              "default_vibrate_timings": true, "default_sound": true,
              "light_settings": {"color": {"red": 0.2, "green": 0.4, "blue": 0.6, "alpha": 0.4}, "light_on_duration": "0.100000000s", "light_off_duration": "0.050000000s"},
              "visibility": "PRIVATE", "default_light_settings": true},
              "ttl": "1.500000000s", "fcm_options": {"analytics_label": "Analytics"}}, "topic": "test-topic"}
            """#),
        accepted(
            "\(go) validMessages AndroidNotificationLightSettings",
            #"{"android": {"notification": {"light_settings": {"color": {"red": 0.2, "green": 0.4, "blue": 0.6, "alpha": 1.0}, "light_on_duration": "0.100000000s", "light_off_duration": "0.050000000s"}}}, "topic": "test-topic"}"#
        ),
        accepted("\(go) validMessages AndroidNoTTL", #"{"android": {"priority": "high"}, "topic": "test-topic"}"#),
        accepted(
            "\(go) validMessages WebpushMessage",
            #"""
            {"webpush": {"headers": {"h1": "v1", "h2": "v2"}, "data": {"k1": "v1", "k2": "v2"},
              "notification": {"title": "title", "body": "body", "icon": "icon",
                "actions": [{"action": "a1", "title": "a1-title"}, {"action": "a2", "title": "a2-title", "icon": "a2-icon"}],
                "badge": "badge", "data": "data", "image": "image", "lang": "lang", "renotify": true, "requireInteraction": true,
                "silent": true, "tag": "tag", "timestamp": 12345, "vibrate": [100, 200, 100], "k1": "v1", "k2": "v2"},
              "fcm_options": {"link": "https://link.com"}}, "topic": "test-topic"}
            """#),
        accepted("\(go) validMessages APNSHeadersOnly", #"{"apns": {"headers": {"h1": "v1", "h2": "v2"}}, "topic": "test-topic"}"#),
        accepted("\(go) validMessages APNSLiveActivity", #"{"token": "test-token", "apns": {"live_activity_token": "live-activity-token"}}"#),
    ] + ["Min", "Low", "Default", "High", "Max"].map { level in
        accepted(
            "\(go) validMessages AndroidNotificationPriority\(level)",
            #"{"android": {"notification": {"notification_priority": "PRIORITY_"# + level.uppercased() + #""}}, "topic": "test-topic"}"#)
    } + [("Allow", "ALLOW"), ("Deny", "DENY"), ("IfPriorityLowered", "IF_PRIORITY_LOWERED")].map { name, word in
        accepted("\(go) validMessages AndroidNotificationProxy\(name)", #"{"android": {"notification": {"proxy": ""# + word + #""}}, "topic": "test-topic"}"#)
    }

    static let pythonSends: [Case] = [
        accepted("\(python) TestMessageEncoder test_empty_message (token)", #"{"token": "value"}"#),
        accepted("\(python) TestMessageEncoder test_empty_message (fid)", #"{"fid": "value"}"#),
        accepted("\(python) TestMessageEncoder test_prefixed_topic", #"{"topic": "topic"}"#, note: "the SDK strips /topics/ before sending"),
        accepted("\(python) TestMessageEncoder test_data_message", #"{"topic": "topic", "data": {"k1": "v1", "k2": "v2"}}"#),
        accepted("\(python) TestMessageEncoder test_fcm_options", #"{"topic": "topic", "fcm_options": {"analytics_label": "analytics_label_v1"}}"#),
        accepted(
            "\(python) TestFcmOptionEncoder test_fcm_options",
            #"""
            {"topic": "topic", "fcm_options": {"analytics_label": "message-label"},
             "android": {"fcm_options": {"analytics_label": "android-label"}, "direct_boot_ok": false},
             "apns": {"fcm_options": {"analytics_label": "apns-label", "image": "https://images.unsplash.com/photo-1494438639946-1ebd1d20bf85?fit=crop&w=900&q=60"}}}
            """#),
        accepted(
            "\(python) TestAndroidConfigEncoder test_android_config",
            #"""
            {"topic": "topic", "android": {"collapse_key": "key", "restricted_package_name": "package", "priority": "high", "ttl": "123s",
             "data": {"k1": "v1", "k2": "v2"}, "fcm_options": {"analytics_label": "analytics_label_v1"},
             "direct_boot_ok": true, "bandwidth_constrained_ok": true, "restricted_satellite_ok": true}}
            """#),
    ] + ["0.500000000s", "123s", "123.450000000s", "86500s"].map { ttl in
        accepted("\(python) TestAndroidConfigEncoder test_android_ttl \(ttl)", #"{"topic": "topic", "android": {"ttl": ""# + ttl + #""}}"#)
    } + [
        accepted(
            "\(python) TestAndroidNotificationEncoder test_android_notification",
            #"""
            {"topic": "topic", "android": {"notification": {"title": "t", "body": "b", "icon": "i", "color": "#112233", "sound": "s", "tag": "t",
              "click_action": "ca", "title_loc_key": "tlk", "body_loc_key": "blk", "title_loc_args": ["t1", "t2"], "body_loc_args": ["b1", "b2"],
              "channel_id": "c", "ticker": "ticker", "sticky": true, "event_time": "2019-10-20T20:12:23.000123Z", "local_only": false,
              "notification_priority": "PRIORITY_HIGH", "vibrate_timings": ["0.100000000s", "0.050000000s", "0.250000000s"],
              "default_vibrate_timings": false, "default_sound": true,
              "light_settings": {"color": {"red": 0.6666666666666666, "green": 0.7333333333333333, "blue": 0.8, "alpha": 0.8666666666666667},
                "light_on_duration": "0.200000000s", "light_off_duration": "0.300000000s"},
              "default_light_settings": false, "visibility": "PUBLIC", "notification_count": 1, "proxy": "IF_PRIORITY_LOWERED"}}}
            """#),
        accepted(
            "\(python) TestLightSettingsEncoder test_light_settings",
            #"{"topic": "topic", "android": {"notification": {"light_settings": {"color": {"red": 0.6666666666666666, "green": 0.7333333333333333, "blue": 0.8, "alpha": 1}, "light_on_duration": "0.200000000s", "light_off_duration": "0.300000000s"}}}}"#
        ),
        accepted(
            "\(python) TestWebpushConfigEncoder test_webpush_config",
            #"{"topic": "topic", "webpush": {"headers": {"h1": "v1", "h2": "v2"}, "data": {"k1": "v1", "k2": "v2"}}}"#),
        accepted("\(python) TestWebpushFCMOptionsEncoder test_webpush_options", #"{"topic": "topic", "webpush": {"fcm_options": {"link": "https://example"}}}"#),
    ]

    /// Node's `Options validation` messages, sent with the `token` the test adds.
    static let nodeSends: [Case] = [
        accepted("\(node) Options validation: Generic data message", #"{"data": {"k1": "v1", "k2": "v2"}, "token": "mock-token"}"#),
        accepted(
            "\(node) Options validation: Generic notification message",
            #"{"notification": {"title": "test.title", "body": "test.body", "image": "https://example.com/image.png"}, "token": "mock-token"}"#),
        accepted("\(node) Options validation: Generic fcmOptions message", #"{"fcmOptions": {"analyticsLabel": "test.analytics"}, "token": "mock-token"}"#),
        accepted("\(node) Options validation: Android data message", #"{"android": {"data": {"k1": "v1", "k2": "v2"}}, "token": "mock-token"}"#),
        accepted(
            "\(node) Options validation: Android notification message",
            #"""
            {"android": {"notification": {"title": "test.title", "body": "test.body", "icon": "test.icon", "color": "#112233", "sound": "test.sound",
              "tag": "test.tag", "image": "https://example.com/image.png", "ticker": "test.ticker", "sticky": true, "visibility": "PRIVATE",
              "proxy": "DENY"}}, "token": "mock-token"}
            """#),
        accepted(
            "\(node) Options validation: Android camel cased properties",
            #"""
            {"android": {"collapse_key": "test.key", "restricted_package_name": "test.package", "direct_boot_ok": true, "bandwidth_constrained_ok": true,
              "restricted_satellite_ok": true, "notification": {"click_action": "test.click.action", "title_loc_key": "title.loc.key",
              "title_loc_args": ["arg1", "arg2"], "body_loc_key": "body.loc.key", "body_loc_args": ["arg1", "arg2"], "channel_id": "test.channel",
              "event_time": "2019-10-20T18:30:00.000Z", "local_only": true, "notification_priority": "PRIORITY_HIGH",
              "vibrate_timings": ["0.100000000s", "0.050000000s", "0.250000000s"], "default_vibrate_timings": false, "default_sound": true,
              "light_settings": {"color": {"red": 0.6666666666666666, "green": 0.7333333333333333, "blue": 0.8, "alpha": 0.8666666666666667},
                "light_on_duration": "0.200000000s", "light_off_duration": "0.300000000s"},
              "default_light_settings": false, "notification_count": 1}}, "token": "mock-token"}
            """#),
        accepted(
            "\(node) Options validation: Android TTL",
            #"{"android": {"priority": "high", "collapse_key": "test.key", "restricted_package_name": "test.package", "ttl": "5s"}, "token": "mock-token"}"#),
        accepted(
            "\(node) Options validation: All Android properties",
            #"""
            {"android": {"priority": "high", "collapse_key": "test.key", "restricted_package_name": "test.package", "direct_boot_ok": true,
              "bandwidth_constrained_ok": true, "restricted_satellite_ok": true, "ttl": "0.005000000s", "data": {"k1": "v1", "k2": "v2"},
              "notification": {"title": "test.title", "body": "test.body", "icon": "test.icon", "color": "#112233", "sound": "test.sound",
                "tag": "test.tag", "image": "https://example.com/image.png", "click_action": "test.click.action", "title_loc_key": "title.loc.key",
                "title_loc_args": ["arg1", "arg2"], "body_loc_key": "body.loc.key", "body_loc_args": ["arg1", "arg2"], "channel_id": "test.channel",
                "ticker": "test.ticker", "sticky": true, "visibility": "PRIVATE", "event_time": "2019-10-20T18:30:00.000Z", "local_only": true,
                "notification_priority": "PRIORITY_HIGH", "vibrate_timings": ["0.100000000s", "0.050000000s", "0.250000000s"],
                "default_vibrate_timings": false, "default_sound": true,
                "light_settings": {"color": {"red": 0.6666666666666666, "green": 0.7333333333333333, "blue": 0.8, "alpha": 1},
                  "light_on_duration": "0.200000000s", "light_off_duration": "0.300000000s"},
                "default_light_settings": false, "notification_count": 1, "proxy": "IF_PRIORITY_LOWERED"},
              "fcmOptions": {"analyticsLabel": "test.analytics"}}, "token": "mock-token"}
            """#),
        accepted("\(node) Options validation: Webpush data message", #"{"webpush": {"data": {"k1": "v1", "k2": "v2"}}, "token": "mock-token"}"#),
        accepted(
            "\(node) Options validation: Webpush notification message",
            #"{"webpush": {"notification": {"title": "test.title", "body": "test.body", "icon": "test.icon"}}, "token": "mock-token"}"#),
        accepted(
            "\(node) Options validation: All Webpush properties",
            #"""
            {"webpush": {"headers": {"h1": "v1", "h2": "v2"}, "data": {"k1": "v1", "k2": "v2"},
              "notification": {"title": "test.title", "body": "test.body", "icon": "test.icon",
                "actions": [{"action": "test.action.1", "title": "test.action.1.title", "icon": "test.action.1.icon"},
                  {"action": "test.action.2", "title": "test.action.2.title", "icon": "test.action.2.icon"}],
                "badge": "test.badge", "data": {"key": "value"}, "dir": "auto", "image": "test.image", "requireInteraction": true},
              "fcmOptions": {"link": "https://example.com"}}, "token": "mock-token"}
            """#),
        accepted("\(node) Options validation: APNS headers only", #"{"apns": {"headers": {"k1": "v1", "k2": "v2"}}, "token": "mock-token"}"#),
        accepted("\(node) send(): valid message {\"topic\":\"mock-topic\"}", #"{"topic": "mock-topic"}"#),
        accepted("\(node) send(): valid message {\"topic\":\"/topics/mock-topic\"}", #"{"topic": "mock-topic"}"#, note: "the SDK strips /topics/ before sending"),
        accepted("\(node) send(): valid message {\"condition\":\"\\\"foo\\\" in topics\"}", #"{"condition": "\"foo\" in topics"}"#),
        accepted("\(node) send(): valid message {\"fid\":\"mock-fid\"}", #"{"fid": "mock-fid"}"#),
    ]

    // MARK: - what the SDKs refuse, as a hand-written message would carry it

    static let goRefuses: [Case] = [
        Case(source: "\(go) invalidMessages NoTargets", message: "{}", outcome: .warned(rule: "fcm-no-target", at: "$.message"),
             note: "a warning: a sender may add the token later"),
        refused("\(go) invalidMessages MultipleTargets", #"{"token": "token", "topic": "topic"}"#, "fcm-one-target", at: "$.message"),
        refused("\(go) invalidMessages MultipleTargetsWithFid", #"{"fid": "fid", "topic": "topic"}"#, "fcm-one-target", at: "$.message"),
        refused("\(go) invalidMessages InvalidPrefixedTopicName", #"{"topic": "/topics/"}"#, "fcm-topic", at: "$.message.topic"),
        refused("\(go) invalidMessages InvalidTopicName", #"{"topic": "foo*bar"}"#, "fcm-topic", at: "$.message.topic"),
        refused("\(go) invalidMessages InvalidAndroidTTL", #"{"topic": "topic", "android": {"ttl": "-10s"}}"#, "fcm-ttl", at: "$.message.android.ttl"),
        refused(
            "\(go) invalidMessages InvalidAndroidPriority", #"{"topic": "topic", "android": {"priority": "not normal"}}"#, "fcm-delivery-priority",
            at: "$.message.android.priority"),
        refused(
            "\(go) invalidMessages InvalidAndroidColor1", #"{"topic": "topic", "android": {"notification": {"color": "112233"}}}"#,
            "fcm-notification-color", at: "$.message.android.notification.color"),
        refused(
            "\(go) invalidMessages InvalidAndroidColor2", ##"{"topic": "topic", "android": {"notification": {"color": "#112233X"}}}"##,
            "fcm-notification-color", at: "$.message.android.notification.color"),
        refused(
            "\(go) invalidMessages InvalidLightSettingsOnDuration",
            #"{"topic": "topic", "android": {"notification": {"light_settings": {"color": {"red": 0.0667, "green": 0.1333, "blue": 0.2, "alpha": 1}, "light_on_duration": "-0.001000000s", "light_off_duration": "0s"}}}}"#,
            "fcm-duration", at: "$.message.android.notification.light_settings.light_on_duration"),
        refused(
            "\(go) invalidMessages InvalidLightSettingsOffDuration",
            #"{"topic": "topic", "android": {"notification": {"light_settings": {"color": {"red": 0.0667, "green": 0.1333, "blue": 0.2, "alpha": 1}, "light_on_duration": "0s", "light_off_duration": "-0.001000000s"}}}}"#,
            "fcm-duration", at: "$.message.android.notification.light_settings.light_off_duration"),
        refused(
            "\(go) invalidMessages InvalidVibrateTimings",
            #"{"topic": "topic", "android": {"notification": {"vibrate_timings": ["0.100000000s", "-0.001000000s", "0.100000000s"]}}}"#, "fcm-duration",
            at: "$.message.android.notification.vibrate_timings[1]"),
        refused(
            "\(go) invalidMessages InvalidWebpushFcmOptionsLink", #"{"topic": "topic", "webpush": {"notification": {}, "fcm_options": {"link": "link"}}}"#,
            "fcm-webpush-link", at: "$.message.webpush.fcm_options.link"),
        refused(
            "\(go) invalidMessages InvalidWebpushFcmOptionsLinkScheme",
            #"{"topic": "topic", "webpush": {"notification": {}, "fcm_options": {"link": "http://link.com"}}}"#, "fcm-webpush-link",
            at: "$.message.webpush.fcm_options.link"),
        Case(
            source: "\(go) invalidMessages InvalidNotificationImage", message: #"{"topic": "topic", "notification": {"image": "image.jpg"}}"#,
            outcome: .warned(rule: "fcm-image-url", at: "$.message.notification.image"), note: "the phone cannot fetch it and shows no image"),
        Case(
            source: "\(go) invalidMessages InvalidAndroidImage", message: #"{"topic": "topic", "android": {"notification": {"image": "image.jpg"}}}"#,
            outcome: .warned(rule: "fcm-image-url", at: "$.message.android.notification.image"), note: "the phone cannot fetch it and shows no image"),
        Case(
            source: "\(go) invalidMessages InvalidAPNSImage", message: #"{"topic": "topic", "apns": {"fcm_options": {"image": "image.jpg"}}}"#,
            outcome: .warned(rule: "fcm-image-url", at: "$.message.apns.fcm_options.image"), note: "iOS's service extension cannot fetch it and shows no image"),
        Case(
            source: "\(go) invalidMessages InvalidWebpushNotificationDirection",
            message: #"{"topic": "topic", "webpush": {"notification": {"dir": "invalid"}}}"#,
            outcome: .warned(rule: "fcm-webpush-notification", at: "$.message.webpush.notification.dir"),
            note: "FCM passes it through; the browser's showNotification throws for it"),
        Case(
            source: "\(go) invalidMessages InvalidAndroidTitleLocArgs", message: #"{"topic": "topic", "android": {"notification": {"title_loc_args": ["a1"]}}}"#,
            outcome: .warned(rule: "fcm-loc-args", at: "$.message.android.notification.title_loc_args"), note: "Android drops arguments with no key"),
        Case(
            source: "\(go) invalidMessages InvalidAndroidBodyLocArgs", message: #"{"topic": "topic", "android": {"notification": {"body_loc_args": ["a1"]}}}"#,
            outcome: .warned(rule: "fcm-loc-args", at: "$.message.android.notification.body_loc_args"), note: "Android drops arguments with no key"),
        Case(
            source: "\(go) invalidMessages InvalidAPNSTitleLocArgs",
            message: #"{"topic": "topic", "apns": {"payload": {"aps": {"alert": {"title": "t", "title-loc-args": ["a1"]}}}}}"#,
            outcome: .warned(rule: "apns-loc-args", at: #"$.message.apns.payload.aps.alert["title-loc-args"]"#), note: "iOS drops arguments with no key; a title added, as the test's alert alone shows nothing (apns-alert's error)"),
        Case(
            source: "\(go) invalidMessages InvalidAPNSSubTitleLocArgs",
            message: #"{"topic": "topic", "apns": {"payload": {"aps": {"alert": {"title": "t", "subtitle-loc-args": ["a1"]}}}}}"#,
            outcome: .warned(rule: "apns-loc-args", at: #"$.message.apns.payload.aps.alert["subtitle-loc-args"]"#), note: "iOS drops arguments with no key; a title added, as the test's alert alone shows nothing (apns-alert's error)"),
        Case(
            source: "\(go) invalidMessages InvalidAPNSLocArgs",
            message: #"{"topic": "topic", "apns": {"payload": {"aps": {"alert": {"title": "t", "loc-args": ["a1"]}}}}}"#,
            outcome: .warned(rule: "apns-loc-args", at: #"$.message.apns.payload.aps.alert["loc-args"]"#), note: "iOS drops arguments with no key; a title added, as the test's alert alone shows nothing (apns-alert's error)"),
        refused(
            "\(go) validMessages ConditionOnly", #"{"condition": "test-condition"}"#, "fcm-condition", at: "$.message.condition",
            note: "the SDK encodes any condition unchecked, and its test sends this one to a mock; it is no expression FCM reads"),
    ]

    static let pythonRefuses: [Case] = [
        // An alert text or category of the wrong type: FCM passes apns.payload on, and iOS drops
        // that part alone (a title added where the test's alert has none, so the alert shows).
        Case(
            source: "\(python) TestApsAlertEncoder test_invalid_subtitle",
            message: #"{"topic": "topic", "apns": {"payload": {"aps": {"alert": {"title": "t", "subtitle": 1}}}}}"#,
            outcome: .warned(rule: "apns-alert", at: "$.message.apns.payload.aps.alert.subtitle"), note: "the title still shows"),
        Case(
            source: "\(python) TestApsAlertEncoder test_invalid_loc_key",
            message: #"{"topic": "topic", "apns": {"payload": {"aps": {"alert": {"title": "t", "loc-key": ["k"]}}}}}"#,
            outcome: .warned(rule: "apns-alert", at: #"$.message.apns.payload.aps.alert["loc-key"]"#), note: "the title still shows"),
        refused(
            "\(python) TestApsAlertEncoder test_invalid_title", #"{"topic": "topic", "apns": {"payload": {"aps": {"alert": {"title": 1}}}}}"#,
            "apns-alert", at: "$.message.apns.payload.aps.alert.title", note: "nothing else in the alert: iOS shows no alert"),
        Case(
            source: "\(python) TestApsEncoder test_invalid_category",
            message: #"{"topic": "topic", "apns": {"payload": {"aps": {"alert": "a", "category": 1}}}}"#,
            outcome: .warned(rule: "apns-aps-type", at: "$.message.apns.payload.aps.category"), note: "the alert shows, without the category's actions"),
        Case(
            source: "\(python) TestWebpushNotificationEncoder test_invalid_icon",
            message: #"{"topic": "topic", "webpush": {"notification": {"title": "t", "icon": {}}}}"#,
            outcome: .warned(rule: "fcm-webpush-notification", at: "$.message.webpush.notification.icon"), note: "FCM passes it on; the browser loads no icon"),
        Case(
            source: "\(python) TestWebpushNotificationEncoder test_invalid_title",
            message: #"{"topic": "topic", "webpush": {"notification": {"title": []}}}"#,
            outcome: .warned(rule: "fcm-webpush-notification", at: "$.message.webpush.notification.title"), note: "the browser shows the text it converts it to"),
        Case(
            source: "\(python) TestWebpushNotificationEncoder test_invalid_timestamp",
            message: #"{"topic": "topic", "webpush": {"notification": {"title": "t", "timestamp": "foo"}}}"#,
            outcome: .warned(rule: "fcm-webpush-notification", at: "$.message.webpush.notification.timestamp"), note: "text that is no number gives 0"),
        Case(
            source: "\(python) TestWebpushNotificationEncoder test_invalid_action_icon",
            message: #"{"topic": "topic", "webpush": {"notification": {"title": "t", "actions": [{"action": "a", "title": "b", "icon": 1}]}}}"#,
            outcome: .warned(rule: "fcm-webpush-notification", at: "$.message.webpush.notification.actions[0].icon"), note: "the browser loads no icon"),
        Case(source: "\(python) TestMessageEncoder test_invalid_target_message Message()", message: "{}",
             outcome: .warned(rule: "fcm-no-target", at: "$.message"), note: "a warning: a sender may add the token later"),
        refused("\(python) TestMessageEncoder test_invalid_target_message topic+token", #"{"topic": "topic", "token": "token"}"#, "fcm-one-target", at: "$.message"),
        refused(
            "\(python) TestMessageEncoder test_invalid_target_message fid+token+topic", #"{"fid": "fid", "token": "token", "topic": "topic"}"#,
            "fcm-one-target", at: "$.message"),
        refused("\(python) TestMessageEncoder test_invalid_token ''", #"{"token": ""}"#, "fcm-token", at: "$.message.token"),
        refused("\(python) TestMessageEncoder test_invalid_fid ''", #"{"fid": ""}"#, "fcm-fid", at: "$.message.fid"),
        refused("\(python) TestMessageEncoder test_invalid_topic ''", #"{"topic": ""}"#, "fcm-topic", at: "$.message.topic"),
        refused("\(python) TestMessageEncoder test_invalid_condition ''", #"{"condition": ""}"#, "fcm-condition", at: "$.message.condition"),
        refused("\(python) TestMessageEncoder test_invalid_token 1", #"{"token": 1}"#, "fcm-field-type", at: "$.message.token"),
        Case(
            source: "\(python) TestWebpushNotificationEncoder test_invalid_direction foo",
            message: #"{"topic": "topic", "webpush": {"notification": {"dir": "foo"}}}"#,
            outcome: .warned(rule: "fcm-webpush-notification", at: "$.message.webpush.notification.dir"),
            note: "FCM passes it through; the browser's showNotification throws for it"),
        Case(
            source: "\(python) TestWebpushNotificationEncoder test_invalid_actions [1, 2]",
            message: #"{"topic": "topic", "webpush": {"notification": {"actions": [1, 2]}}}"#,
            outcome: .warned(rule: "fcm-webpush-notification", at: "$.message.webpush.notification.actions[0]"),
            note: "FCM passes it through; the browser's showNotification throws for it"),
        Case(
            source: "\(python) TestWebpushNotificationEncoder test_invalid_actions ''",
            message: #"{"topic": "topic", "webpush": {"notification": {"actions": ""}}}"#,
            outcome: .warned(rule: "fcm-webpush-notification", at: "$.message.webpush.notification.actions"),
            note: "FCM passes it through; the browser's showNotification throws for it"),
        Case(
            source: "\(python) TestApsEncoder test_invalid_sound ''", message: #"{"topic": "topic", "apns": {"payload": {"aps": {"sound": ""}}}}"#,
            outcome: .warned(rule: "apns-sound", at: "$.message.apns.payload.aps.sound"), note: "names no sound file; what iOS plays then, Apple does not say"),
        Case(
            source: "\(node) Payload validation: should throw given invalid APNS critical sound name: ''",
            message: #"{"topic": "topic", "apns": {"payload": {"aps": {"sound": {"critical": 1, "name": ""}}}}}"#,
            outcome: .warned(rule: "apns-sound", at: "$.message.apns.payload.aps.sound.name"), note: "names no sound file"),
    ] + ["/topics/", "/foo/bar", "foo bar"].map { topic in
        refused("\(python) TestMessageEncoder test_malformed_topic_name \(topic)", #"{"topic": ""# + topic + #""}"#, "fcm-topic", at: "$.message.topic")
    } + ["!", "THIS_IS_LONGER_THAN_50_CHARACTERS_WHICH_IS_NOT_ALLOWED"].map { label in
        refused(
            "\(python) TestFcmOptionEncoder test_invalid_fcm_options \(label)", #"{"topic": "topic", "fcm_options": {"analytics_label": ""# + label + #""}}"#,
            "fcm-analytics-label", at: "$.message.fcm_options.analytics_label")
    } + [
        accepted(
            "\(python) TestFcmOptionEncoder test_invalid_fcm_options ''", #"{"topic": "topic", "fcm_options": {"analytics_label": ""}}"#,
            note: "the SDK refuses it, but on the wire \"\" is proto3's default, which FCM reads as no label"),
        refused(
            "\(python) TestAndroidConfigEncoder test_invalid_priority foo", #"{"topic": "topic", "android": {"priority": "foo"}}"#, "fcm-delivery-priority",
            at: "$.message.android.priority"),
        refused(
            "\(python) TestAndroidConfigEncoder test_invalid_analytics_label 1", #"{"topic": "topic", "android": {"fcm_options": {"analytics_label": 1}}}"#,
            "fcm-field-type", at: "$.message.android.fcm_options.analytics_label"),
        Case(
            source: "\(python) TestAndroidNotificationEncoder test_no_title_loc_key",
            message: #"{"topic": "topic", "android": {"notification": {"title_loc_args": ["foo"]}}}"#,
            outcome: .warned(rule: "fcm-loc-args", at: "$.message.android.notification.title_loc_args"), note: "Android drops arguments with no key"),
        Case(
            source: "\(python) TestAndroidNotificationEncoder test_no_body_loc_key",
            message: #"{"topic": "topic", "android": {"notification": {"body_loc_args": ["foo"]}}}"#,
            outcome: .warned(rule: "fcm-loc-args", at: "$.message.android.notification.body_loc_args"), note: "Android drops arguments with no key"),
        refused(
            "\(python) TestAndroidNotificationEncoder test_invalid_priority foo",
            #"{"topic": "topic", "android": {"notification": {"notification_priority": "foo"}}}"#, "fcm-enum-value",
            at: "$.message.android.notification.notification_priority"),
    ] + ["foo", "#xxyyzz", "112233", "#11223"].map { color in
        refused(
            "\(python) TestAndroidNotificationEncoder test_invalid_color \(color)",
            #"{"topic": "topic", "android": {"notification": {"color": ""# + color + #""}}}"#, "fcm-notification-color",
            at: "$.message.android.notification.color")
    } + [
        ("test_no_color", #"{"light_on_duration": "0.200000000s", "light_off_duration": "0.200000000s"}"#),
        ("test_no_light_on_duration_millis", #"{"color": {"red": 0.6666666666666666, "green": 0.7333333333333333, "blue": 0.8, "alpha": 1}, "light_off_duration": "0.200000000s"}"#),
        ("test_no_light_off_duration_millis", #"{"color": {"red": 0.6666666666666666, "green": 0.7333333333333333, "blue": 0.8, "alpha": 1}, "light_on_duration": "0.200000000s"}"#),
    ].map { test, light in
        refused(
            "\(python) TestLightSettingsEncoder \(test)", #"{"topic": "topic", "android": {"notification": {"light_settings": "# + light + "}}}",
            "fcm-light-settings", at: "$.message.android.notification.light_settings")
    } + [
        refused(
            "\(python) TestLightSettingsEncoder test_invalid_light_on_duration_millis -1.23",
            #"{"topic": "topic", "android": {"notification": {"light_settings": {"color": {"red": 0.6666666666666666, "green": 0.7333333333333333, "blue": 0.8, "alpha": 1}, "light_on_duration": "-0.001230000s", "light_off_duration": "0.200000000s"}}}}"#,
            "fcm-duration", at: "$.message.android.notification.light_settings.light_on_duration"),
    ] + ["foo", "http://example"].map { link in
        refused(
            "\(python) TestWebpushFCMOptionsEncoder test_invalid_link_format \(link)",
            #"{"topic": "topic", "webpush": {"fcm_options": {"link": ""# + link + #""}}}"#, "fcm-webpush-link", at: "$.message.webpush.fcm_options.link")
    } + [
        accepted(
            "\(python) TestWebpushFCMOptionsEncoder test_invalid_link_format ''", #"{"topic": "topic", "webpush": {"fcm_options": {"link": ""}}}"#,
            note: "the SDK refuses it, but on the wire \"\" is proto3's default, which FCM reads as no link"),
        refused(
            "\(python) TestWebpushFCMOptionsEncoder test_invalid_link_type 1", #"{"topic": "topic", "webpush": {"fcm_options": {"link": 1}}}"#,
            "fcm-field-type", at: "$.message.webpush.fcm_options.link"),
        refused(
            "\(python) TestMessageEncoder test_empty_message (condition)", #"{"condition": "value"}"#, "fcm-condition", at: "$.message.condition",
            note: "the SDK encodes any condition unchecked; \"value\" is no expression FCM reads"),
    ]

    static let nodeRefuses: [Case] = ["/topics/", "/foo/bar", "foo bar"].map { topic in
        refused("\(node) send(): should throw given invalid topic name \(topic)", #"{"topic": ""# + topic + #""}"#, "fcm-topic", at: "$.message.topic")
    } + ["abc", "-123s", "1.2.3s", "As", "s"].map { ttl in
        refused(
            "\(node) Payload validation: should throw given an invalid ttl \(ttl)", #"{"condition": "'topic-name' in topics", "android": {"ttl": ""# + ttl + #""}}"#,
            "fcm-ttl", at: "$.message.android.ttl")
    } + ["a", "foo", "image.jpg"].flatMap { image in
        [
            Case(
                source: "\(node) Payload validation: should throw given an invalid imageUrl \(image) (notification)",
                message: #"{"condition": "'topic-name' in topics", "notification": {"image": ""# + image + #""}}"#,
                outcome: .warned(rule: "fcm-image-url", at: "$.message.notification.image"), note: "the phone cannot fetch it and shows no image"),
            Case(
                source: "\(node) Payload validation: should throw given an invalid imageUrl \(image) (android.notification)",
                message: #"{"condition": "'topic-name' in topics", "android": {"notification": {"image": ""# + image + #""}}}"#,
                outcome: .warned(rule: "fcm-image-url", at: "$.message.android.notification.image"), note: "the phone cannot fetch it and shows no image"),
        ]
    } + ["foo", "123", "#AABBCX", "112233", "#11223"].map { color in
        refused(
            "\(node) Payload validation: should throw given an invalid color \(color)",
            #"{"condition": "'topic-name' in topics", "android": {"notification": {"color": ""# + color + #""}}}"#, "fcm-notification-color",
            at: "$.message.android.notification.color")
    } + [
        accepted(
            "\(node) Payload validation: should throw given an invalid color ''",
            #"{"condition": "'topic-name' in topics", "android": {"notification": {"color": ""}}}"#,
            note: "the SDK refuses it, but on the wire \"\" is proto3's default, which FCM reads as no colour"),
        refused(
            "\(node) Payload validation: should throw given a negative light on duration",
            #"{"condition": "'topic-name' in topics", "android": {"notification": {"light_settings": {"color": {"red": 0.6666666666666666, "green": 0.7333333333333333, "blue": 0.8, "alpha": 1}, "light_on_duration": "-0.001000000s", "light_off_duration": "0.800000000s"}}}}"#,
            "fcm-duration", at: "$.message.android.notification.light_settings.light_on_duration"),
        Case(
            source: "\(node) Payload validation: should throw given android titleLocArgs without titleLocKey",
            message: #"{"condition": "'topic-name' in topics", "android": {"notification": {"title_loc_args": ["foo"]}}}"#,
            outcome: .warned(rule: "fcm-loc-args", at: "$.message.android.notification.title_loc_args"), note: "Android drops arguments with no key"),
        Case(
            source: "\(node) Payload validation: should throw given android bodyLocArgs without bodyLocKey",
            message: #"{"condition": "'topic-name' in topics", "android": {"notification": {"body_loc_args": ["foo"]}}}"#,
            outcome: .warned(rule: "fcm-loc-args", at: "$.message.android.notification.body_loc_args"), note: "Android drops arguments with no key"),
        refused(
            "\(node) Payload validation: invalid data message data", #"{"token": "t", "data": {"k1": true}}"#, "fcm-data-string", at: "$.message.data.k1"),
        refused(
            "\(node) Payload validation: invalid data message android.data", #"{"token": "t", "android": {"data": {"k1": true}}}"#, "fcm-data-string",
            at: "$.message.android.data.k1"),
        refused(
            "\(node) Payload validation: invalid data message webpush.data", #"{"token": "t", "webpush": {"data": {"k1": true}}}"#, "fcm-field-type",
            at: "$.message.webpush.data.k1"),
        refused(
            "\(node) Payload validation: invalid data message webpush.headers", #"{"token": "t", "webpush": {"headers": {"k1": true}}}"#, "fcm-field-type",
            at: "$.message.webpush.headers.k1"),
        refused(
            "\(node) Payload validation: invalid data message apns.headers", #"{"token": "t", "apns": {"headers": {"k1": true}}}"#, "fcm-field-type",
            at: "$.message.apns.headers.k1"),
        refused(
            "\(node) Payload validation: should throw given an invalid imageUrl (condition 'topic-name')",
            #"{"condition": "topic-name", "notification": {"image": "https://example.com/a.png"}}"#, "fcm-condition", at: "$.message.condition",
            note: "the SDK's tests address these messages to the condition topic-name, which FCM does not read as a condition"),
    ]

    static let all = goSends + pythonSends + nodeSends + goRefuses + pythonRefuses + nodeRefuses

    // MARK: - the tests

    @Test("every case gives what the platform does with it", arguments: all)
    func outcome(of peer: Case) throws {
        let message = try F.parse(peer.message)
        let findings = F.check(.object(["message": message]), .fcm)
        let errors = findings.filter { $0.severity == .error }
        switch peer.outcome {
        case .accepted:
            #expect(errors.isEmpty, "\(peer.source): \(errors)")
        case .refused(let rule, let path):
            #expect(errors.contains { $0.rule == rule && $0.path == path }, "\(peer.source): \(findings)")
        case .warned(let rule, let path):
            #expect(errors.isEmpty, "\(peer.source): \(errors)")
            #expect(findings.contains { $0.rule == rule && $0.path == path && $0.severity == .warning }, "\(peer.source): \(findings)")
        }
    }

    @Test("every case names its source, and each SDK gives both kinds")
    func sources() {
        for source in [Self.go, Self.python, Self.node] {
            let cases = Self.all.filter { $0.source.hasPrefix(source + " ") }
            #expect(cases.contains { if case .accepted = $0.outcome { true } else { false } }, "\(source)")
            #expect(cases.contains { if case .refused = $0.outcome { true } else { false } }, "\(source)")
        }
        #expect(Self.all.allSatisfy { [Self.go, Self.python, Self.node].contains(where: $0.source.hasPrefix) })
        #expect(Set(Self.all.map(\.source)).count == Self.all.count, "two cases name the same test")
    }
}
