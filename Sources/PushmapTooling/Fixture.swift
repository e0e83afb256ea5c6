@_spi(Tools) package import Pushmap
package import PushmapJSON

/// A test case for a template script: an intent and the payloads (or the error) it must give.
/// Stored as `NAME.test/CASE.json` beside the script:
/// `{"intent": {...}, "now": 1700000000, "fcm": {...}, "apns": {...}, "warnings": [...]}` or
/// `{"intent": {...}, "error": "part of the expected message"}`.
package struct Fixture: Sendable, Hashable {
    package var path: String
    package var intent: JSONValue
    /// The template the intent names (plain when it names none).
    package var template: String { intent["template"]?.stringValue ?? "plain" }
    /// The time the translation runs at; fixtures with timers need a fixed one.
    package var now: Int64
    package var expected: [Platform: JSONValue]
    package var expectedError: String?
    /// Parts of the warnings the translation must give, one each, and no other warning; nil
    /// when the fixture does not say (warnings then do not matter).
    package var expectedWarnings: [String]?

    /// The time fixtures run at when they name none: 2024-01-01T00:00:00Z.
    package static let defaultNow: Int64 = 1_704_067_200

    /// The keys a fixture may have: a misspelt one (`apsn`) would otherwise leave a platform
    /// silently unchecked.
    package static let keys = ["intent", "now", "fcm", "apns", "error", "warnings"]

    /// Reads a fixture file's content; `defaultNow` is its time when it names none.
    package init(path: String, bytes: [UInt8], defaultNow: Int64 = Self.defaultNow) throws(FixtureProblem) {
        self.path = path
        func problem(_ reason: String) -> FixtureProblem { FixtureProblem(path: path, reason: reason) }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            // The reason may say "not JSON" itself (the forty-sixth audit, cli F12: said twice).
            let reason = error.reason.hasPrefix("not JSON: ") ? String(error.reason.dropFirst("not JSON: ".count)) : error.reason
            throw problem("not JSON: \(error.line):\(error.column): \(reason)")
        }
        guard let object = value.objectValue else { throw problem("a fixture is a JSON object with \"intent\" and what it expects") }
        for (key, _) in object where !Self.keys.contains(key) {
            let hint = Suggestion.nearest(to: key, among: Self.keys).map { "; did you mean \"\($0)\"?" } ?? ""
            throw problem("unknown key \"\(key)\"\(hint) (the keys are \(Self.keys.joined(separator: ", ")))")
        }
        guard let intent = value["intent"] else { throw problem("no \"intent\"") }
        guard intent.objectValue != nil else { throw problem("\"intent\" must be an object, the intent to translate") }
        self.intent = intent
        if let now = value["now"], now.integerValue == nil { throw problem("\"now\" must be an integer, epoch seconds") }
        now = value["now"]?.integerValue ?? defaultNow
        // The times --now takes (the forty-sixth audit, scripts F15: a fixture took -5).
        if Translator.Options.fixedClockProblem(now) != nil {
            throw problem("\"now\" must be an epoch time from 0 to 253402300799 (the end of 9999), as --now, not \(now)")
        }
        expected = [:]
        for platform in Platform.all {
            guard let payload = value[platform.name] else { continue }
            guard payload.objectValue != nil else { throw problem("\"\(platform.name)\" must be an object, the expected payload") }
            expected[platform] = payload
        }
        if let error = value["error"] {
            guard let text = error.stringValue else { throw problem("\"error\" must be a string, a part of the expected message") }
            guard expected.isEmpty else { throw problem("gives both an \"error\" and an expected payload; a case expects one or the other") }
            expectedError = text
        }
        if let warnings = value["warnings"] {
            guard expectedError == nil else { throw problem("\"warnings\" goes with an expected payload; a case that expects an \"error\" gives no payload to warn about") }
            let texts = warnings.arrayValue?.compactMap(\.stringValue)
            guard let texts, texts.count == warnings.arrayValue?.count else {
                throw problem("\"warnings\" must be a list of strings, a part of each warning expected")
            }
            expectedWarnings = texts
        }
        if expected.isEmpty, expectedError == nil {
            throw problem("names neither an expected payload (\"fcm\", \"apns\") nor an \"error\"")
        }
    }
}

/// A fixture file that cannot be read as one.
package struct FixtureProblem: Error, Sendable, CustomStringConvertible {
    package var path: String
    package var reason: String
    package var description: String { "\(path): \(reason)" }
}
