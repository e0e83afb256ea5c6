import Foundation
import PushmapJSON
import Testing

@Suite("Timing (prints only, never asserts)")
struct TimingTests {
    /// About 1.2 KB: 25 string fields, the size of a typical push intent.
    static let sample: JSONValue = {
        let names = ["title", "body", "subtitle", "category", "thread", "sound", "image", "deeplink", "channel", "tag",
                     "group", "icon", "color", "action", "label", "locale", "campaign", "topic", "collapse", "priority",
                     "badge_text", "summary", "ticker", "visibility", "analytics"]
        var object = JSONObject()
        for (index, name) in names.enumerated() {
            object[name] = .string("Text for \(name), number \(index): caf\u{E9}")
        }
        return .object(object)
    }()

    private static func microseconds(_ iterations: Int, _ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        var best = Double.infinity
        for _ in 0..<5 {
            let start = clock.now
            for _ in 0..<iterations { body() }
            let elapsed = clock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            best = min(best, seconds * 1e6 / Double(iterations))
        }
        return (best * 100).rounded() / 100
    }

    @Test("parse and write a 1.2 KB object of 25 string fields")
    func parseAndWrite() throws {
        let compact = JSONWriter(style: .compact).write(Self.sample)
        let pretty = JSONWriter(style: .pretty).write(Self.sample)
        let data = Data(compact)
        #expect(try JSONParser.parse(compact) == Self.sample)
        var sink = 0
        #if DEBUG
        let iterations = 100  // debug figures mean little; keep the suite quick
        #else
        let iterations = 5_000
        #endif
        let parse = Self.microseconds(iterations) { sink &+= (try? JSONParser.parse(compact))?.objectValue?.count ?? 0 }
        let parsePretty = Self.microseconds(iterations) { sink &+= (try? JSONParser.parse(pretty))?.objectValue?.count ?? 0 }
        let writeCompact = Self.microseconds(iterations) { sink &+= JSONWriter(style: .compact).write(Self.sample).count }
        let writePretty = Self.microseconds(iterations) { sink &+= JSONWriter(style: .pretty).write(Self.sample).count }
        let foundationParse = Self.microseconds(iterations) {
            sink &+= ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any])?.count ?? 0
        }
        let object = try JSONSerialization.jsonObject(with: data)
        // Foundation's writer is slow on Linux: fewer rounds keep the suite quick.
        let foundationWrite = Self.microseconds(max(10, iterations / 50)) {
            sink &+= (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))?.count ?? 0
        }
        print("""
            timing of a \(compact.count)-byte object (\(pretty.count) pretty), µs per call, best of 5 × \(iterations):
              parse compact \(parse), parse pretty \(parsePretty)
              write compact \(writeCompact), write pretty \(writePretty) (keys sorted)
              Foundation JSONSerialization: parse \(foundationParse), write \(foundationWrite) (sink \(sink % 2))
            """)
    }
}
