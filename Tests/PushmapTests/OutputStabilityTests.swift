import Foundation
@_spi(Tools) @testable import Pushmap
import PushmapJSON
import PushmapTestSupport
import Testing

/// Holds this version's output to what an earlier version wrote for the same inputs, byte for byte:
/// the payloads and warnings of generated valid intents, the diagnostics of generated broken ones,
/// and what `validate` says of the valid payloads with one value changed. The inputs and outputs
/// live together in `Golden/outputs.ndjson`, so the file does not depend on the generator.
///
/// The file was written by the version before the engine was simplified (issue 15). Run once with
/// PUSHMAP_RECORD_GOLDEN=1 to write it again, only when a change of output is meant.
@Suite("Output stability")
struct OutputStabilityTests {
    static let file = repositoryRoot.appendingPathComponent("Tests/PushmapTests/Golden/outputs.ndjson")
    static let now: Int64 = 1_704_067_200
    static let both: [Platform] = [.fcm, .apns]

    /// What one input gives, as one JSON object.
    static func outcome(of input: [UInt8], translator: Translator) -> JSONObject {
        var line = JSONObject()
        if let text = String(validating: input, as: UTF8.self) {
            line["intent"] = .string(text)
        } else {
            line["intentBase64"] = .string(Data(input).base64EncodedString())
        }
        do {
            let translation = try translator.translate(input, platforms: both)
            for platform in both {
                line[platform.name] = .string(String(decoding: translation.bytes(for: platform, style: .compact), as: UTF8.self))
            }
            line["diagnostics"] = .array(translation.diagnostics.map { .string($0.description) })
            // One value of each payload changed, and what validate says of it.
            var random = SeededGenerator(seed: UInt64(input.count) &* 0x9E37_79B9)
            for platform in both {
                guard let payload = translation.payloads[platform] else { continue }
                var changes: [JSONValue] = []
                for _ in 0..<3 {
                    let changed = mutate(payload, random: &random)
                    changes.append(.object(JSONObject([
                        ("payload", .string(String(decoding: JSONWriter(style: .compact).write(changed), as: UTF8.self))),
                        ("validate", .array(translator.validate(changed, platform: platform).map { .string($0.description) })),
                    ])))
                }
                line["\(platform.name)Changed"] = .array(changes)
            }
        } catch {
            line["error"] = .string(error.kind.description)
            line["diagnostics"] = .array(error.diagnostics.map { .string($0.description) })
            if let script = error.scriptError { line["scriptError"] = .string(script.description) }
        }
        return line
    }

    /// Values a check is likely to have an opinion on.
    static let replacements: [JSONValue] = [
        .string(""), .string("x"), .string("#zz"), .string("FF0000"), .string("[{}]"), .string("-1"), .string("99999999999"),
        .string("OPENAPP"), .string("https://e.com"), .integer(5), .integer(-1), .bool(true), .null, .double(1.5),
        .array([]), .object(JSONObject()), .string(String(repeating: "é", count: 300)),
    ]

    /// `value` with one member or element, somewhere below it, replaced or added. Containers are
    /// entered three times in four, so most changes land deep in a payload, where the checks are.
    static func mutate(_ value: JSONValue, random: inout SeededGenerator, depth: Int = 0) -> JSONValue {
        func pick() -> JSONValue { replacements[Int.random(in: 0..<replacements.count, using: &random)] }
        func enter(_ inner: JSONValue) -> JSONValue {
            switch inner {
            case .object(let object) where !object.isEmpty: break
            case .array(let array) where !array.isEmpty: break
            default: return pick()
            }
            return depth == 0 || Int.random(in: 0..<4, using: &random) > 0 ? mutate(inner, random: &random, depth: depth + 1) : pick()
        }
        switch value {
        case .object(var object) where !object.isEmpty:
            let keys = object.keys
            let key = keys[Int.random(in: 0..<keys.count, using: &random)]
            if Int.random(in: 0..<6, using: &random) == 0 {
                object[key + "_x"] = pick()
            } else if let inner = object[key] {
                object[key] = enter(inner)
            }
            return .object(object)
        case .array(var array) where !array.isEmpty:
            let index = Int.random(in: 0..<array.count, using: &random)
            array[index] = enter(array[index])
            return .array(array)
        default:
            return pick()
        }
    }

    /// The templates of the recorded inputs: those of the version that recorded them (the
    /// templates added since have their fixtures and the property tests).
    static let templates = ["plain", "basic", "carousel", "timer"]

    /// The inputs: the property tests' valid and broken intents, from their fixed seed.
    static func inputs() -> [[UInt8]] {
        var inputs: [[UInt8]] = []
        var valid = IntentGenerator(seed: 0x5EED_2026, now: now)
        for index in 0..<400 {
            let template = Self.templates[index % Self.templates.count]
            inputs.append(JSONWriter(style: .compact, sortKeys: false).write(.object(valid.intent(template))))
        }
        var broken = IntentGenerator(seed: 0x5EED_2027, now: now)
        for index in 0..<200 {
            let template = Self.templates[index % Self.templates.count]
            inputs.append(PropertyTests.broken(broken.intent(template), &broken).bytes)
        }
        return inputs
    }

    static func input(of line: JSONValue) -> [UInt8]? {
        if let text = line["intent"]?.stringValue { return Array(text.utf8) }
        return line["intentBase64"]?.stringValue.flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) }
    }

    @Test("every recorded input gives the recorded payloads, diagnostics and validate findings")
    func sameOutputAsRecorded() throws {
        let translator = try Translator(options: Translator.Options(clock: { Self.now }), logger: quietLogger)
        if ProcessInfo.processInfo.environment["PUSHMAP_RECORD_GOLDEN"] == "1" {
            var text: [UInt8] = []
            for input in Self.inputs() {
                text += JSONWriter(style: .compact, sortKeys: false).write(.object(Self.outcome(of: input, translator: translator)))
                text.append(UInt8(ascii: "\n"))
            }
            try Data(text).write(to: Self.file)
            return
        }
        let lines = try String(contentsOf: Self.file, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 600)
        var differing = 0
        for (number, text) in lines.enumerated() {
            let recorded = try JSONParser.parse(Array(text.utf8))
            let input = try #require(Self.input(of: recorded), "line \(number + 1) has no intent")
            let now = JSONValue.object(Self.outcome(of: input, translator: translator))
            guard now != recorded else { continue }
            differing += 1
            if differing <= 5 {
                Issue.record("line \(number + 1) differs.\nrecorded: \(text)\nnow:      \(String(decoding: JSONWriter(style: .compact, sortKeys: false).write(now), as: UTF8.self))")
            }
        }
        #expect(differing == 0, "\(differing) of \(lines.count) inputs give other output than recorded")
    }
}
