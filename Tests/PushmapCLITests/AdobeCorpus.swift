import Foundation

/// Adobe's own test payloads (`../shared/adobe-test-payloads` beside the clone): 131 payloads from
/// the tests and sample apps of Adobe's push SDKs, with `index.json` saying what Adobe's code does
/// with each. The corpus is Adobe's and is never copied into this repository: where the folder is
/// absent (a fresh clone) the corpus tests are skipped, saying why.
enum AdobeCorpus {
    static let folder = CommandRunner.root.deletingLastPathComponent().appendingPathComponent("shared/adobe-test-payloads")

    static let isPresent = FileManager.default.fileExists(atPath: folder.appendingPathComponent("index.json").path)

    static let absent = "Adobe's test payloads are not beside the clone (../shared/adobe-test-payloads); they are Adobe's and not part of the repository, so the corpus tests are skipped"

    /// One payload of the corpus, as index.json describes it.
    struct Entry: CustomStringConvertible, Sendable {
        let file: String
        /// The template the Adobe test exercises (not always the map's adb_template_type).
        let template: String
        /// Whether Adobe's code shows that template.
        let valid: Bool
        let platform: String
        let kind: String

        var description: String { file }
        var pushmapPlatform: String { platform == "android" ? "fcm" : "apns" }
    }

    static let entries: [Entry] = {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("index.json")),
              let list = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [] }
        return list.compactMap { item in
            guard let file = item["file"] as? String, let template = item["template"] as? String, let valid = item["valid"] as? Bool,
                  let platform = item["platform"] as? String, let kind = item["kind"] as? String else { return nil }
            return Entry(file: file, template: template, valid: valid, platform: platform, kind: kind)
        }
    }()

    /// The kinds that are not a whole payload a server sends, and why each is left out.
    static let excludedKinds: [String: String] = [
        "intent-extras": "the SDK's own Intent extras when it rebuilds a notification after a tap; no server sends them",
        "apns (from unit-test UNNotificationContent)": "the unit test calls the payload parser directly, without aps.category or mutable-content: what decides presentation on a phone was never tested",
        "fcm-data (UNRELEASED)": "an open, unmerged pull request of Adobe's: no released code reads it",
        "fcm-data (UNRELEASED PR test)": "an open, unmerged pull request of Adobe's: no released code reads it",
        "testapp-asset (UNRELEASED)": "an open, unmerged pull request of Adobe's: no released code reads it",
    ]

    /// Single payloads left out, and why.
    static let excludedFiles: [String: String] = [
        "timer-05-valid.json": "a test-app file read with Gson, which turns the JSON boolean adb_sticky into \"true\"; FCM itself refuses a data value that is not a string",
        "timer-18-valid.json": "adb_tmr_end is computed by the Swift test when it runs (the file keeps the interpolation's text)",
    ]

    /// Why `entry` is left out of the full payloads, or nil when it is one.
    static func exclusion(_ entry: Entry) -> String? {
        excludedKinds[entry.kind] ?? excludedFiles[entry.file]
    }

    /// Every whole payload a server could send: the FCM data maps of Adobe's Android tests and test
    /// app, and the APNS payloads of the iOS UI tests and demo app.
    static var fullPayloads: [Entry] { entries.filter { exclusion($0) == nil } }

    /// adb_template_type of each template the Android library builds.
    static let androidTypes = ["basic": "basic", "car": "car", "timer": "timer", "input": "input", "zb": "zb", "cat": "cat", "rate": "rate", "icon": "icon"]

    /// The payload as pushmap reads it, with what the Adobe test supplied outside the map:
    /// - an Android test that built a template class directly (BasicPushTemplate(map), ...) got
    ///   that template whatever the map's adb_template_type says: the type of the class is set;
    /// - the iOS UI tests post a local notification from the demo app, which carries no
    ///   mutable-content; as a remote push it needs `mutable-content: 1`, which is added.
    /// FCM data maps are wrapped in `{"message": {"data": ...}}`.
    static func payload(_ entry: Entry) throws -> Data {
        let data = try Data(contentsOf: folder.appendingPathComponent(entry.file))
        guard var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { return data }
        if entry.platform == "android" {
            if let type = androidTypes[entry.template], entry.kind == "fcm-data", object["adb_template_type"] as? String != type {
                object["adb_template_type"] = type
            }
            object = ["message": ["data": object]]
        } else if entry.kind == "apns (UI test userInfo + DemoApp aps)", var aps = object["aps"] as? [String: Any] {
            aps["mutable-content"] = 1
            object["aps"] = aps
        }
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }
}
