public import PushmapJSON

/// A test case for a template script: an intent and the payloads (or the error) it must give.
/// Stored as `NAME.test/CASE.json` beside the script:
/// `{"intent": {...}, "now": 1700000000, "fcm": {...}, "apns": {...}}` or
/// `{"intent": {...}, "error": "part of the expected message"}`.
package struct Fixture: Sendable, Hashable {
    package var path: String
    package var intent: JSONValue
    /// The time the translation runs at; fixtures with timers need a fixed one.
    package var now: Int64
    package var expected: [Platform: JSONValue]
    package var expectedError: String?

    /// The time fixtures run at when they name none: 2024-01-01T00:00:00Z.
    package static let defaultNow: Int64 = 1_704_067_200

    /// Reads a fixture file's content; `defaultNow` is its time when it names none.
    package init(path: String, bytes: [UInt8], defaultNow: Int64 = Self.defaultNow) throws(FixtureProblem) {
        self.path = path
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw FixtureProblem(path: path, reason: "\(error)")
        }
        guard let intent = value["intent"] else { throw FixtureProblem(path: path, reason: "no \"intent\"") }
        self.intent = intent
        now = value["now"]?.integerValue ?? defaultNow
        expected = [:]
        for platform in Platform.all {
            if let payload = value[platform.name] { expected[platform] = payload }
        }
        expectedError = value["error"]?.stringValue
        if expected.isEmpty, expectedError == nil {
            throw FixtureProblem(path: path, reason: "names neither an expected payload (\"fcm\", \"apns\") nor an \"error\"")
        }
    }
}

/// A fixture file that cannot be read as one.
package struct FixtureProblem: Error, Sendable, CustomStringConvertible {
    package var path: String
    package var reason: String
    package var description: String { "\(path): \(reason)" }
}
