import Foundation
import Testing

/// `pushmap import` then `pushmap translate`, as a user moving to pushmap runs them.
enum RoundTrip {
    /// The payload's keys that differ after import and translate, as "data.KEY", "KEY" or
    /// "aps.KEY"; JSON-encoded values are compared as what they encode.
    static func differingKeys(_ a: Any, _ b: Any, platform: String) -> [String] {
        func flat(_ payload: Any) -> [String: NSObject] {
            guard let object = payload as? [String: Any] else { return [:] }
            var keys: [String: NSObject] = [:]
            if platform == "fcm" {
                let message = object["message"] as? [String: Any] ?? [:]
                var data = message["data"] as? [String: Any] ?? [:]
                var android = message["android"] as? [String: Any] ?? [:]
                if let inner = android.removeValue(forKey: "data") as? [String: Any] { data.merge(inner) { _, new in new } }
                for (key, value) in data {
                    let decoded = (value as? String).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) }
                    keys["data." + key] = (["adb_act", "adb_items", "adb_rate_act"].contains(key) ? decoded ?? value : value) as? NSObject
                }
                for (key, value) in message where key != "data" && key != "android" { keys["message." + key] = value as? NSObject }
                for (key, value) in android { keys["android." + key] = value as? NSObject }
            } else {
                for (key, value) in object where key != "aps" { keys[key] = value as? NSObject }
                for (key, value) in object["aps"] as? [String: Any] ?? [:] { keys["aps." + key] = value as? NSObject }
            }
            return keys
        }
        let x = flat(a), y = flat(b)
        return Set(x.keys).union(y.keys).filter { x[$0] != y[$0] }.sorted()
    }

    /// When both run: 2023-12-01, before every time in the examples and fixtures. Later, a timer
    /// that has run out is refused on Android (dropped on arrival), and the round trip is not
    /// about when a payload is sent.
    static let now = ["--now", "1701388800"]

    /// What is wrong with importing `payload` and translating the intent back: nothing when the
    /// same payload comes back, or every key that does not is named in a warning of the import.
    static func problems(_ payload: Data, platform: String) throws -> [String] {
        let imported = try CommandRunner.run(["import", "--platform", platform, "-"] + now, input: payload)
        guard imported.status == 0 else { return ["import exits \(imported.status): \(imported.stderr)"] }
        if imported.stderr.contains(": error:") { return ["import reports an error: \(imported.stderr)"] }
        let translated = try CommandRunner.run(["translate", "--platform", platform, "-"] + now, input: imported.stdoutBytes)
        guard translated.status == 0 else { return ["translate of the imported intent exits \(translated.status): \(translated.stderr)\n\(imported.stdout)"] }
        guard let before = try? JSONSerialization.jsonObject(with: payload), let after = CommandRunner.json(translated.stdout) else {
            return ["the payloads do not parse"]
        }
        let warnings = imported.stderr.split(separator: "\n").filter { $0.contains(": warning: ") }
        return differingKeys(before, after, platform: platform).compactMap { key in
            let name = String(key.split(separator: ".").last ?? "")
            let named = warnings.contains { $0.contains(".\(name): ") || $0.contains("[\"\(name)\"]: ") }
            return named ? nil : "\(key) differs and no warning names it"
        }
    }
}

@Suite("pushmap import")
struct ImportCommandTests {
    /// Every fixture of the built-in templates that has a payload.
    static var fixturePayloads: [(String, String)] {
        let templates = CommandRunner.root.appendingPathComponent("templates")
        var found: [(String, String)] = []
        for folder in (try? FileManager.default.contentsOfDirectory(atPath: templates.path)) ?? [] where folder.hasSuffix(".test") {
            for file in (try? FileManager.default.contentsOfDirectory(atPath: templates.appendingPathComponent(folder).path)) ?? [] where file.hasSuffix(".json") {
                for platform in ["fcm", "apns"] { found.append(("\(folder)/\(file)", platform)) }
            }
        }
        return found.sorted { $0.0 + $0.1 < $1.0 + $1.1 }
    }

    /// The fixtures whose payload holds what Android ignores, which the intent leaves out (the
    /// thirty-sixth audit, F4 and F5): the one warning each gets, by its rule.
    static let leftOut = [
        "basic.test/color-not-hex-ignored.json fcm": "$.message.data.adb_clr_bg: adb_clr_bg is not kept: adb_clr_bg \"FFFFFéC\" is not 6 or 8 hex digits",
        "icon.test/one-icon-left-out.json fcm": "$.message.data.adb_items: adb_items changes:",
    ]

    @Test("gives back the payload of every built-in fixture exactly, with no warning but for what Android ignores", arguments: fixturePayloads)
    func fixtures(file: String, platform: String) throws {
        let data = try Data(contentsOf: CommandRunner.root.appendingPathComponent("templates/\(file)"))
        let fixture = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        guard let payload = fixture[platform] else { return }
        let bytes = try JSONSerialization.data(withJSONObject: payload)
        let imported = try CommandRunner.run(["import", "--platform", platform, "-"] + RoundTrip.now, input: bytes)
        #expect(imported.status == 0, "\(imported.stderr)")
        if let warning = Self.leftOut["\(file) \(platform)"] {
            #expect(imported.stderr.hasPrefix("<stdin>: warning: \(warning)") && imported.stderr.split(separator: "\n").count == 1, "\(imported.stderr)")
        } else {
            #expect(imported.stderr.isEmpty, "\(file) \(platform): \(imported.stderr)")
        }
        #expect(try RoundTrip.problems(bytes, platform: platform) == [], "\(file) \(platform)")
    }

    @Test("round-trips each example payload, naming in a warning each key it cannot keep", arguments: SeedPayloads.names)
    func seeds(name: String) throws {
        let platform = name.contains("-fcm") ? "fcm" : "apns"
        let bytes = try Data(contentsOf: SeedPayloads.folder.appendingPathComponent("\(name).json"))
        #expect(try RoundTrip.problems(bytes, platform: platform) == [])
    }

    /// Source: the thirty-sixth audit, F1: the payload as given is dropped by Android at --now
    /// (client-rules.md, timer), which import said nothing of.
    @Test("a timer already over imports with its end kept, and a warning that Android drops the payload as given")
    func expiredTimer() throws {
        let bytes = try Data(contentsOf: SeedPayloads.folder.appendingPathComponent("timer-fcm.json"))
        let result = try CommandRunner.run(["import", "--platform", "fcm", "--now", "1800000000", "-"], input: bytes)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "<stdin>: warning: $.message.data.adb_tmr_end: as given, adb_tmr_end 1703462400 is at or before now (1800000000): Android drops the notification on arrival unless one with the same adb_tag is showing; the intent keeps it [android-timer-expired, fcm]\n")
        let intent = try #require(CommandRunner.json(result.stdout) as? [String: Any])
        #expect((intent["timer"] as? [String: Any])?["endsAt"] as? Int == 1_703_462_400, "\(result.stdout)")
    }

    /// Source: validate's reading of a repeated APNS key (apns-duplicate-key: a warning, the last
    /// value read; a repeated header, which APNs refuses, apns-header-key); the thirty-fourth
    /// audit's note that import still refused such a payload as not JSON.
    @Test("an APNS payload that repeats a key imports with the last value and validate's warning; FCM's is not JSON")
    func repeatedKeys() throws {
        let apns = try CommandRunner.run(["import", "--platform", "apns", "-"], input: Data(#"{"aps": {"alert": {"title": "a", "body": "b"}, "badge": 1, "badge": 2}}"#.utf8))
        #expect(apns.status == 0, "\(apns.stderr)")
        #expect((CommandRunner.json(apns.stdout) as? [String: Any])?["badge"] as? Int == 2, "\(apns.stdout)")
        #expect(apns.stderr.hasPrefix("<stdin>: warning: $.aps.badge: 1:60: duplicate key 'badge'") && apns.stderr.hasSuffix("[apns-duplicate-key, apns]\n"), "\(apns.stderr)")
        let fcm = try CommandRunner.run(["import", "--platform", "fcm", "-"], input: Data(#"{"message": {"data": {"adb_title": "a", "adb_title": "b"}}}"#.utf8))
        #expect(fcm.status == 1 && fcm.stderr.contains("[json-syntax]"), "\(fcm.stderr)")
    }

    /// Source: the thirty-eighth audit, F4 to F7: a fault the import had to take out was still a
    /// neutral import-not-kept; a refused import said a path twice; a fault inside a key was said
    /// twice; a catalog's button colour with # (ignored by Android, required by the template)
    /// came back applied, said as a neutral change.
    @Test("a fault of the payload as given is said once, under validate's rule, also when the import takes the field out or it sits inside a key")
    func faultsSaidOnce() throws {
        func imported(_ message: String) throws -> CommandRunner.Result {
            try CommandRunner.run(["import", "--platform", "fcm", "--now", "1700000000", "-"], input: Data(#"{"message": {\#(message)}}"#.utf8))
        }
        let topic = try imported(#""topic": "/topics/news", "data": {"adb_title": "T", "adb_body": "B"}"#)
        #expect(topic.status == 0)
        #expect(topic.stderr.hasPrefix("<stdin>: warning: $.message.topic: as given, message.topic \"/topics/news\" starts with /topics/"), "\(topic.stderr)")
        #expect(topic.stderr.hasSuffix("; the intent leaves topic out [fcm-topic, fcm]\n"), "\(topic.stderr)")

        // A reserved key with a dot leaves the other data keys in (the fortieth audit, F1).
        let reserved = try imported(#""token": "t", "data": {"adb_title": "A", "adb_body": "B", "fromage": "1", "google.x": "2"}"#)
        #expect(reserved.status == 0, "\(reserved.stderr)")
        #expect(((CommandRunner.json(reserved.stdout) as? [String: Any])?["data"] as? [String: String]) == ["fromage": "1"], "\(reserved.stdout)")
        #expect(reserved.stderr.contains(#"$.message.data["google.x"]: as given, FCM refuses the data key google.x"#), "\(reserved.stderr)")

        let items = (1...4).map { #"{\"title\":\"t\",\"body\":\"b\",\"img\":\"img\#($0)\",\"price\":\"1\",\"uri\":\"https://e.com\"}"# }.joined(separator: ",")
        let catalog = try imported(##""token": "t", "data": {"adb_version": "1", "adb_template_type": "cat", "adb_title": "T", "adb_body": "B", "adb_cta_txt": "Buy", "adb_cta_clr": "#FF0000", "adb_cta_txt_clr": "FFFFFF", "adb_cta_uri": "https://e.com", "adb_display": "horizontal", "adb_items": "[\##(items)]"}"##)
        #expect(catalog.status == 1)
        #expect(catalog.stderr.split(separator: "\n").filter { $0.contains("$.message.data.adb_items:") }.count == 1, "\(catalog.stderr)")

        let rating = try imported(#""token": "t", "data": {"adb_version": "1", "adb_template_type": "rate", "adb_title": "T", "adb_body": "B", "adb_rate_unselected_icon": "a", "adb_rate_selected_icon": "b", "adb_rate_act": "[{\"type\":\"deeplink\"},{\"type\":\"NONE\"},{\"type\":\"NONE\"}]"}"#)
        #expect(rating.status == 0, "\(rating.stderr)")
        #expect(rating.stderr.split(separator: "\n").count == 1, "\(rating.stderr)")
        #expect(rating.stderr.contains("warning: $.message.data.adb_rate_act[0]: as given, rating action 0 has type \"deeplink\""), "\(rating.stderr)")

        let items3 = (1...3).map { #"{\"title\":\"t\",\"body\":\"b\",\"img\":\"https://e.com/\#($0).png\",\"price\":\"1\",\"uri\":\"https://e.com\"}"# }.joined(separator: ",")
        let colour = try imported(##""token": "t", "data": {"adb_version": "1", "adb_template_type": "cat", "adb_title": "T", "adb_body": "B", "adb_cta_txt": "Buy", "adb_cta_clr": "#FF0000", "adb_cta_txt_clr": "FFFFFF", "adb_cta_uri": "https://e.com", "adb_display": "horizontal", "adb_items": "[\##(items3)]"}"##)
        #expect(colour.status == 0, "\(colour.stderr)")
        #expect(colour.stderr.contains(##"$.message.data.adb_cta_clr: as given, adb_cta_clr "#FF0000" is not 6 or 8 hex digits (RRGGBB or AARRGGBB, no #): the phone ignores the colour; the intent writes "FF0000" [android-color, fcm]"##), "\(colour.stderr)")
    }

    /// Source: the forty-fifth audit, import F1 to F3, with the FCM v1 reference (one target of
    /// token, topic, condition; data a map of strings) and intent.md's readers table (Campaign
    /// Classic's extension draws a payload without adb_template_type as basic): a data array
    /// said "the intent keeps it" and was dropped; two targets made three findings that disagreed;
    /// a Campaign Classic payload with no type read as plain, its basic keys "not kept".
    @Test("a fault the import mends says what the intent does, once; Campaign Classic's payload without a type reads as basic")
    func faultOutcomesTrue() throws {
        func imported(_ message: String) throws -> CommandRunner.Result {
            try CommandRunner.run(["import", "--platform", "fcm", "--now", "1700000000", "-"], input: Data(#"{"message": {\#(message)}}"#.utf8))
        }
        let array = try imported(#""data": [1, 2]"#)
        #expect(array.status == 0)
        #expect(array.stderr == "<stdin>: warning: $.message.data: as given, FCM data must be an object of string values, not an array: FCM refuses the message; the intent leaves it out [fcm-data-map, fcm]\n")

        let targets = try imported(#""token": "t", "topic": "x", "data": {"adb_title": "a", "adb_body": "b"}"#)
        #expect(targets.status == 0)
        #expect(targets.stderr.split(separator: "\n").count == 1, "\(targets.stderr)")
        #expect(targets.stderr.contains("warning: $.message: as given, a message has at most one of token, topic, condition and fid"), "\(targets.stderr)")
        #expect(targets.stderr.hasSuffix("FCM refuses it; the intent leaves token and topic out [fcm-one-target, fcm]\n"), "\(targets.stderr)")

        // The forty-sixth audit, cli F5: custom data 31 levels deep made an intent past the
        // intent's 32 levels, and the built-in plain.lua was blamed (exit 2, HTTP 500).
        let nested = String(repeating: "[", count: 31) + String(repeating: "]", count: 31)
        let deep = try CommandRunner.run(["import", "--platform", "apns", "-"], input: Data(#"{"aps": {"alert": {"body": "x"}}, "d": \#(nested)}"#.utf8))
        #expect(deep.status == 0)
        #expect(deep.stderr == "<stdin>: warning: $.d: d is not kept: the intent made from it is refused (nesting deeper than 32 levels) [import-not-kept, apns]\n")

        let classic = try imported(#""token": "t", "data": {"adb_version": "1", "adb_title": "T", "adb_body": "B", "_mId": "m1", "_dId": "d1", "adb_sticky": "true", "adb_tag": "t1", "adb_small_icon": "ic"}"#)
        #expect(classic.status == 0)
        let intent = CommandRunner.json(classic.stdout) as? [String: Any]
        #expect(intent?["template"] as? String == "basic", "\(classic.stdout)")
        #expect(intent?["android"] as? [String: AnyHashable] == ["smallIcon": "ic", "sticky": true, "tag": "t1"], "\(classic.stdout)")
        #expect(classic.stderr == #"<stdin>: warning: $.message.data.adb_template_type: adb_template_type is added: translating the intent writes "basic" [import-added, fcm]"# + "\n")

        // F7: a member of the request beside the message is said, not left out unsaid.
        let validateOnly = try CommandRunner.run(
            ["import", "--platform", "fcm", "-"], input: Data(#"{"validate_only": true, "message": {"token": "t", "data": {"adb_title": "a", "adb_body": "b"}}}"#.utf8))
        #expect(validateOnly.status == 0)
        #expect(validateOnly.stderr == "<stdin>: warning: $.validate_only: validate_only true is not kept: no intent field writes it in a plain payload for FCM [import-not-kept, fcm]\n")

        // F5 and F6: a key of the alert not kept is said at its own path, naming the payload.
        let alert = try CommandRunner.run(
            ["import", "--platform", "apns", "-"], input: Data(#"{"aps": {"alert": {"title": "T", "body": "B", "launch-image": "li.png"}}}"#.utf8))
        #expect(alert.status == 0)
        #expect(alert.stderr == #"<stdin>: warning: $.aps.alert["launch-image"]: launch-image "li.png" is not kept: no intent field writes it in a plain payload for APNS [import-not-kept, apns]"# + "\n")
    }

    /// Source: the forty-first audit, F1: validate measures an APNS payload's size on its text,
    /// escapes as written, and import measured the value: a payload APNs refuses was said fine.
    @Test("a payload over APNs' limit as written, by its escapes, is said so as validate says it")
    func sizeAsWritten() throws {
        let body = String(repeating: #"\u0026"#, count: 700)
        let payload = #"{"aps": {"alert": {"title": "T", "body": "\#(body)"}}}"#
        let result = try CommandRunner.run(["import", "--platform", "apns", "-"], input: Data(payload.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: $: as given, the payload is ") && result.stderr.contains("[apns-size, apns]"), "\(result.stderr)")
    }

    @Test("warns at its payload path about a number that loses digits on the way into the intent")
    func inexactNumber() throws {
        let payload = #"{"aps": {"alert": {"title": "t", "body": "b"}}, "order": 12345678901234567890}"#
        let result = try CommandRunner.run(["import", "--platform", "apns", "-"], input: Data(payload.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("<stdin>: warning: $.order: 12345678901234567890 has more digits than a number keeps"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("[inexact-number, apns]\n"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    /// Source: Adobe's timer-05 test map ("adb_sticky": true, which Gson reads as "true"); the
    /// thirty-fourth audit, F7: the value was dropped, said to have no intent field.
    @Test("reads a boolean or whole number where FCM takes text as the text it stands for, and says it changes")
    func nonStringDataValue() throws {
        let payload = #"{"message": {"token": "t1", "data": {"adb_template_type": "basic", "adb_version": "1", "adb_title": "T", "adb_body": "B", "adb_sticky": true, "adb_n_count": 5}}}"#
        let result = try CommandRunner.run(["import", "--platform", "fcm", "-"], input: Data(payload.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let intent = try #require(CommandRunner.json(result.stdout) as? [String: Any])
        #expect((intent["android"] as? [String: Any])?["sticky"] as? Bool == true, "\(result.stdout)")
        #expect(intent["badge"] as? Int == 5, "\(result.stdout)")
        // FCM refuses the payload as given: said as validate says it, with what the intent writes.
        #expect(result.stderr.contains(#"$.message.data.adb_sticky: as given, FCM data values must be strings; adb_sticky is a boolean: FCM refuses the message (JSON-encode it into a string); the intent writes "true" [fcm-data-string, fcm]"#), "\(result.stderr)")
    }

    /// Source: the thirty-sixth audit, F2 and F9; client-rules.md ("adb_a_type: any other value,
    /// including lower case or \"\", throws"), adobe-templates.md (icon items), index.json
    /// timer-07-invalid.
    @Test("a payload's own fault is said as validate says it: a type Android throws on, a timer over on arrival, icons Android skips")
    func faultsOfThePayloadAsGiven() throws {
        func imported(_ data: String) throws -> CommandRunner.Result {
            try CommandRunner.run(["import", "--platform", "fcm", "--now", "1767225600", "-"], input: Data(#"{"message": {"token": "t", "data": {\#(data)}}}"#.utf8))
        }
        let lower = try imported(#""adb_version": "1", "adb_title": "T", "adb_body": "B", "adb_template_type": "basic", "adb_a_type": "weburl", "adb_uri": "https://e.com""#)
        #expect(lower.status == 0)
        #expect(lower.stderr.hasSuffix(#"Android's template code throws and the notification is not shown; the intent writes "WEBURL" [android-link-type, fcm]"# + "\n"), "\(lower.stderr)")
        #expect(lower.stderr.split(separator: "\n").count == 1, "\(lower.stderr)")

        let over = try imported(#""adb_version": "1", "adb_title": "T", "adb_body": "B", "adb_template_type": "timer", "adb_tmr_dur": "-5", "adb_title_alt": "Over""#)
        #expect(over.status == 1)
        #expect(over.stderr.hasPrefix(#"<stdin>: error: $.message.data.adb_tmr_dur: adb_tmr_dur "-5" is not above 0"#), "\(over.stderr)")

        let icons = try imported(#""adb_version": "1", "adb_template_type": "icon", "adb_items": "[{\"img\":\"a\",\"type\":\"dismiss\"},{\"img\":\"b\",\"type\":\"DISMISS\"},{\"img\":\"c\",\"type\":\"NONE\"},{\"img\":\"d\"},{\"img\":\"e\",\"type\":\"OPENAPP\"},{\"img\":\"f\",\"type\":\"WEBURL\"}]""#)
        let intent = try #require(CommandRunner.json(icons.stdout) as? [String: Any], "\(icons.stderr)")
        let items = (intent["icons"] as? [String: Any])?["items"] as? [[String: Any]] ?? []
        #expect(items.map { $0["image"] as? String } == ["b", "c", "e"], "\(icons.stdout)")
    }

    @Test("reads a payload's template and fields: a carousel comes back as a carousel intent")
    func carousel() throws {
        let payload = #"{"message": {"token": "t1", "data": {"adb_template_type": "car", "adb_version": "1", "adb_title": "Pick", "adb_body": "One", "adb_car_layout": "default", "adb_car_mode": "manual", "adb_clr_bg": "80FF0000", "adb_items": "[{\"img\":\"https://e.com/1.png\",\"txt\":\"One\"},{\"img\":\"https://e.com/2.png\"},{\"img\":\"https://e.com/3.png\"}]", "campaign": "fall"}}}"#
        let result = try CommandRunner.run(["import", "--platform", "fcm", "-"], input: Data(payload.utf8))
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let intent = try #require(CommandRunner.json(result.stdout) as? [String: Any])
        #expect(intent["template"] as? String == "carousel")
        #expect((intent["carousel"] as? [String: Any])?["mode"] as? String == "manual")
        #expect(((intent["carousel"] as? [String: Any])?["items"] as? [Any])?.count == 3)
        // Android's AARRGGBB is the intent's RRGGBBAA.
        #expect((intent["colors"] as? [String: Any])?["background"] as? String == "FF000080")
        #expect((intent["data"] as? [String: Any])?["campaign"] as? String == "fall")
        #expect((intent["target"] as? [String: Any])?["token"] as? String == "t1")
    }

    @Test("names each key it cannot keep in a warning with its payload path")
    func notKept() throws {
        let payload = #"{"aps": {"alert": {"title": "t", "body": "b"}, "category": "AEPNotification", "mutable-content": 1}, "adb_template_type": "basic", "adb_version": "1", "adb_act": [{"label": "Go", "type": "WEBURL", "uri": "https://e.com"}]}"#
        let result = try CommandRunner.run(["import", "--platform", "apns", "-"], input: Data(payload.utf8))
        #expect(result.status == 0)
        #expect(result.stderr.contains("warning: $.adb_act: adb_act"), "\(result.stderr)")
        #expect(result.stderr.contains("[import-not-kept, apns]"), "\(result.stderr)")
    }

    /// Source: fcm.v1.json, AndroidConfig.data: "If present, it will override Message.data" (on
    /// Android); the fifth audit found both moved into the intent's one data map with no word.
    @Test("android.data's keys move to the intent's data with a warning each, and a data value they override is named as lost")
    func androidData() throws {
        let payload = #"{"message": {"token": "t", "data": {"k": "top", "same": "s"}, "android": {"data": {"k": "android", "only": "a"}}}}"#
        let result = try CommandRunner.run(["import", "--platform", "fcm", "-"], input: Data(payload.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let intent = try #require(CommandRunner.json(result.stdout) as? [String: Any])
        #expect(intent["data"] as? [String: String] == ["k": "android", "only": "a", "same": "s"])
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 3, "\(result.stderr)")
        #expect(result.stderr.contains(#"warning: $.message.data.k: k "top" is not kept: android.data gives k "android""#), "\(result.stderr)")
        #expect(result.stderr.contains("warning: $.message.android.data.only: only comes back in message.data"), "\(result.stderr)")
        #expect(result.stderr.contains("warning: $.message.android.data.k: k comes back in message.data"), "\(result.stderr)")
    }

    /// Source: the fifth audit: import refused `translate --request`'s own output, which validate
    /// takes, and APNSwift's Live Activity update and sideshow/apns2's MDM payload (TestMdm).
    @Test("imports an APNS request, a Live Activity and an MDM push: the request's intent translates back to the same request")
    func requestForm() throws {
        let intent = #"{"title": "Hi", "body": "There", "collapseKey": "c1", "delivery": "normal", "ttl": 3600, "ios": {"topic": "com.example.app"}}"#
        let request = try CommandRunner.run(["translate", "--platform", "apns", "--request", "--now", "1767225600", "--compact", "-"], input: Data(intent.utf8))
        #expect(request.status == 0, "\(request.stderr)")
        let imported = try CommandRunner.run(["import", "--platform", "apns", "--now", "1767225600", "-"], input: Data(request.stdout.utf8))
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.isEmpty, "\(imported.stderr)")
        let back = try CommandRunner.run(["translate", "--platform", "apns", "--request", "--now", "1767225600", "--compact", "-"], input: Data(imported.stdout.utf8))
        #expect(back.stdout == request.stdout, "\(imported.stdout)")

        let voip = #"{"headers": {"apns-push-type": "voip", "apns-topic": "com.example.app.voip", "apns-priority": "10"}, "payload": {"caller": "Ann"}}"#
        let call = try CommandRunner.run(["import", "--platform", "apns", "-"], input: Data(voip.utf8))
        #expect(call.status == 0 && call.stderr.isEmpty, "\(call.stderr)")
        let ios = (CommandRunner.json(call.stdout) as? [String: Any])?["ios"] as? [String: Any]
        #expect(ios?["pushType"] as? String == "voip" && ios?["topic"] as? String == "com.example.app", "\(call.stdout)")

        let activity = #"{"aps": {"event": "update", "content-state": {"score": 1}, "timestamp": 1672680658}}"#
        let update = try CommandRunner.run(["import", "--platform", "apns", "-"], input: Data(activity.utf8))
        #expect(update.status == 0 && update.stderr.isEmpty, "\(update.stderr)")
        let live = ((CommandRunner.json(update.stdout) as? [String: Any])?["ios"] as? [String: Any])?["liveActivity"] as? [String: Any]
        #expect(live?["event"] as? String == "update" && live?["timestamp"] as? Int == 1_672_680_658, "\(update.stdout)")

        let mdm = try CommandRunner.run(["import", "--platform", "apns", "-"], input: Data(#"{"aps": {}, "mdm": "996ac527"}"#.utf8))
        #expect(mdm.status == 0, "\(mdm.stderr)")
        #expect(((CommandRunner.json(mdm.stdout) as? [String: Any])?["ios"] as? [String: Any])?["pushType"] as? String == "mdm")
    }

    /// Source: the thirteenth audit. Go's http.Header.Set writes `Apns-Topic` (sideshow/apns2
    /// client.go setHeaders), and HTTP names ignore case; APNSwift's widgets payload
    /// (APNSWidgetsNotificationTests testEncode) is `{"aps": {"content-changed": true}}`; a Live
    /// Activity's sound is in its alert, where translate writes it.
    @Test("imports header names in any case, a widgets push, and a Live Activity's sound: each translates back")
    func requestVariants() throws {
        let canonical = #"{"headers": {"Apns-Push-Type": "voip", "Apns-Topic": "com.example.app.voip"}, "payload": {"caller": "Ann"}}"#
        let call = try CommandRunner.run(["import", "--platform", "apns", "-"], input: Data(canonical.utf8))
        #expect(call.status == 0, "\(call.stderr)")
        let ios = (CommandRunner.json(call.stdout) as? [String: Any])?["ios"] as? [String: Any]
        #expect(ios?["pushType"] as? String == "voip" && ios?["topic"] as? String == "com.example.app", "\(call.stdout)")

        let widgets = try CommandRunner.run(["import", "--platform", "apns", "-"], input: Data(#"{"aps": {"content-changed": true}}"#.utf8))
        #expect(widgets.status == 0 && widgets.stderr.isEmpty, "\(widgets.stderr)")
        #expect(((CommandRunner.json(widgets.stdout) as? [String: Any])?["ios"] as? [String: Any])?["pushType"] as? String == "widgets")

        let intent = #"{"title": "Score", "body": "2-1", "sound": "chime.aiff", "ios": {"pushType": "liveactivity", "liveActivity": {"event": "update", "contentState": {"home": 2}}}}"#
        let payload = try CommandRunner.run(["translate", "--platform", "apns", "--now", "1767225600", "--compact", "-"], input: Data(intent.utf8))
        #expect(payload.status == 0 && payload.stderr.isEmpty, "\(payload.stderr)")
        let imported = try CommandRunner.run(["import", "--platform", "apns", "-"], input: Data(payload.stdout.utf8))
        #expect(imported.status == 0 && imported.stderr.isEmpty, "\(imported.stderr)")
        #expect((CommandRunner.json(imported.stdout) as? [String: Any])?["sound"] as? String == "chime.aiff", "\(imported.stdout)")
        let back = try CommandRunner.run(["translate", "--platform", "apns", "--now", "1767225600", "--compact", "-"], input: Data(imported.stdout.utf8))
        #expect(back.stdout == payload.stdout)
    }

    /// Source: the fourteenth audit, against client-rules.md: Android skips a button with no
    /// label or type (Adobe's basic-08 builds 2 of 4), stops at a carousel item with no image,
    /// adb_tmr_dur wins over adb_tmr_end, any
    /// adb_car_mode but auto is manual, adb_sticky is "true" in any case; adobe-templates.md 5:
    /// iOS reads "1712417524.5" as a time.
    @Test("reads a payload as the phone does: skipped buttons, the winning timer, Android's mode and sticky, an iOS fraction")
    func readsAsThePhone() throws {
        func imported(_ platform: String, _ payload: String) throws -> (intent: [String: Any], stderr: String) {
            let result = try CommandRunner.run(["import", "--platform", platform, "--now", "1767225600", "-"], input: Data(payload.utf8))
            #expect(result.status == 0, "\(result.stderr)")
            return ((CommandRunner.json(result.stdout) as? [String: Any]) ?? [:], result.stderr)
        }
        let base = #""adb_template_type": "basic", "adb_version": "1", "adb_title": "T", "adb_body": "B""#
        let act = #"[{\"label\": \"\", \"type\": \"OPENAPP\"}, {}, {\"label\": \"Open\", \"uri\": \"\", \"type\": \"NONE\"}, {\"label\": \"Go\", \"uri\": \"https://e.com\", \"type\": \"WEBURL\"}]"#
        let buttons = try imported("fcm", #"{"message": {"data": {\#(base), "adb_act": "\#(act)"}}}"#).intent["buttons"] as? [[String: Any]]
        #expect(buttons?.map { $0["label"] as? String } == ["Open", "Go"], "\(String(describing: buttons))")
        #expect(buttons?.first?["uri"] == nil)

        let timer = #""adb_template_type": "timer", "adb_version": "1", "adb_title": "T", "adb_body": "B", "adb_title_alt": "Over""#
        let both = try imported("fcm", #"{"message": {"data": {\#(timer), "adb_tmr_dur": "060", "adb_tmr_end": "1767229200"}}}"#)
        #expect(both.intent["timer"] as? [String: Int] == ["duration": 60])
        #expect(both.stderr.contains("$.message.data.adb_tmr_end: adb_tmr_end \"1767229200\" is not kept"), "\(both.stderr)")
        let fraction = try imported(
            "apns", #"{"aps": {"alert": {"title": "T", "body": "B"}}, "adb_template_type": "timer", "adb_title_alt": "Over", "adb_tmr_end": "1767229200.5"}"#)
        #expect(fraction.intent["timer"] as? [String: Int] == ["endsAt": 1_767_229_200])
        #expect(fraction.stderr.contains("adb_tmr_end changes: \"1767229200.5\" becomes \"1767229200\""), "\(fraction.stderr)")
        // A bare payload's own "headers" key is the app's data, kept as written.
        let custom = try imported("apns", #"{"aps": {"alert": {"body": "B"}}, "headers": {"Foo": "x"}}"#)
        #expect((custom.intent["data"] as? [String: Any])?["headers"] as? [String: String] == ["Foo": "x"], "\(custom.intent)")

        let sticky = try imported("fcm", #"{"message": {"data": {\#(base), "adb_sticky": "TRUE"}}}"#)
        #expect((sticky.intent["android"] as? [String: Any])?["sticky"] as? Bool == true)
        let items = #"[{\"img\": \"https://e.com/1.png\"}, {\"img\": \"https://e.com/2.png\"}, {\"img\": \"https://e.com/3.png\"}]"#
        let car = #""adb_template_type": "car", "adb_version": "1", "adb_title": "T", "adb_body": "B", "adb_car_layout": "default""#
        let mode = try imported("fcm", #"{"message": {"data": {\#(car), "adb_car_mode": "MANUAL", "adb_items": "\#(items)"}}}"#)
        #expect((mode.intent["carousel"] as? [String: Any])?["mode"] as? String == "manual", "\(mode.intent)")
        // Android stops reading the items at one without an image: the ones after it are lost.
        let stop = String(items.dropLast()) + #", {\"txt\": \"no image\"}, {\"img\": \"https://e.com/5.png\"}]"#
        let stopped = try imported("fcm", #"{"message": {"data": {\#(car), "adb_items": "\#(stop)"}}}"#)
        #expect(((stopped.intent["carousel"] as? [String: Any])?["items"] as? [Any])?.count == 3, "\(stopped.intent)")
    }

    @Test("refuses what is not a payload of the platform, one line, exit 1", arguments: [
        ("not json", "{", "[json-syntax]"),
        ("no message", #"{"data": {}}"#, "an FCM payload is a JSON object holding an object `message`"),
        ("array", "[1]", "an FCM payload is a JSON object holding an object `message`"),
    ])
    func refuses(name: String, input: String, expected: String) throws {
        let result = try CommandRunner.run(["import", "--platform", "fcm", "-"], input: Data(input.utf8))
        #expect(result.status == 1, "\(name)")
        #expect(result.stdout.isEmpty, "\(name)")
        #expect(result.stderr.contains(expected), "\(name): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(name): \(result.stderr)")
    }

    @Test("a mapping script that fails on the intent is exit 2 naming the script, not an intent compared with nothing")
    func scriptFails() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushmap-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
            return {
              name = "basic", api = 1, platforms = { "fcm", "apns" },
              fcm = function(intent, ctx) error("this mapping always fails") end,
              apns = function(intent, ctx) error("this mapping always fails") end,
            }
            """.write(to: folder.appendingPathComponent("basic.lua"), atomically: true, encoding: .utf8)
        let payload = try Data(contentsOf: SeedPayloads.folder.appendingPathComponent("basic-fcm.json"))
        let result = try CommandRunner.run(["import", "--platform", "fcm", "--scripts", folder.path, "-"], input: payload)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("basic.lua") && result.stderr.contains("this mapping always fails"), "\(result.stderr)")
    }

    /// Sources: APNSwift's APNSTestServerValidationTests.testPayloadExactly4096Bytes (APNs takes a
    /// payload of 4,096 bytes) with apns2's string alert (builder_test.go TestAlert), which the
    /// intent writes back as {"body": ...}, 9 bytes more; apns2's TestCustom, `{"aps":{},"key":"val"}`,
    /// which validate warns of (apns-aps-object) and whose intent has nothing to show.
    @Test("a payload validate passes whose intent does not translate as it is: the intent, with a warning saying why, exit 0")
    func intentRefusedWhole() throws {
        let prefix = #"{"aps":{"alert":"Hi"},"data":""#
        let filler = String(repeating: "x", count: 4096 - prefix.utf8.count - 2)
        let full = Data((prefix + filler + #""}"#).utf8)
        #expect(full.count == 4096)
        let validated = try CommandRunner.run(["validate", "--platform", "apns", "-"], input: full)
        #expect(validated.status == 0, "\(validated.stdout)")
        let cases: [(Data, String)] = [
            (full, "the intent made from the payload is refused when translated: the payload is 4105 bytes written compactly; APNs refuses payloads over 4096 bytes"),
            (Data(#"{"aps":{},"key":"val"}"#.utf8), "the intent made from the payload is refused when translated: nothing to show"),
        ]
        for (payload, said) in cases {
            let result = try CommandRunner.run(["import", "--platform", "apns", "-"] + RoundTrip.now, input: payload)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("<stdin>: warning: $: \(said)") || result.stderr.contains("warning: $: \(said)"), "\(result.stderr)")
            #expect(!result.stderr.contains(": error:"), "\(result.stderr)")
            let intent = try #require(CommandRunner.json(result.stdout) as? [String: Any])
            #expect(intent["template"] as? String == "plain")
        }
    }

    @Test("needs a platform")
    func needsPlatform() throws {
        #expect(try CommandRunner.run(["import", "-"], input: Data("{}".utf8)).status == 64)
    }
}
