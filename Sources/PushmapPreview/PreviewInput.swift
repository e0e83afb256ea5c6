@_spi(Tools) package import Pushmap
internal import PushmapJSON
package import PushmapTooling

/// A file given to preview: an intent, or a fixture (`NAME.test/CASE.json`: an object with
/// "intent" and "fcm", "apns" or "error", and maybe "now"), whose intent is drawn at the fixture's time.
package enum PreviewInput: Sendable {
    case intent([UInt8])
    case fixture(Fixture)

    /// Reads a file's content as one or the other; a fixture that is not a valid one is a problem.
    package static func read(path: String, bytes: [UInt8]) throws(FixtureProblem) -> PreviewInput {
        // No intent has a field "intent": an object with one is a fixture, checked as one.
        guard let value = try? JSONParser.parse(bytes), value["intent"] != nil else { return .intent(bytes) }
        return .fixture(try Fixture(path: path, bytes: bytes))
    }

    /// The platforms to draw of those asked for: a fixture's own, those it expects payloads for
    /// (all asked for when it expects an error or no payload at all); none when it gives
    /// payloads for other platforms only (an FCM-only fixture asked for apns: the twenty-fifth
    /// audit, F8, drew it for iOS and failed).
    package func platforms(_ asked: [Platform]) -> [Platform] {
        guard case .fixture(let fixture) = self, fixture.expectedError == nil, !fixture.expected.isEmpty else { return asked }
        return asked.filter { fixture.expected[$0] != nil }
    }

    /// Why a fixture has nothing to draw for `asked` (``platforms(_:)`` is empty), as a sentence
    /// after its name.
    package func uncovered(_ asked: [Platform]) -> String {
        guard case .fixture(let fixture) = self else { return "" }
        let given = Platform.all.filter { fixture.expected[$0] != nil }.map(\.name).joined(separator: " and ")
        return "the fixture gives a payload for \(given) only, none for \(asked.map(\.name).joined(separator: " or "))"
    }
}
