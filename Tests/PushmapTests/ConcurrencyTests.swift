import Foundation
@_spi(Tools) @testable import Pushmap
import PushmapJSON
import Testing

/// One translator shared by many tasks, as a service uses it: templates, invalid intents and
/// failing scripts mixed, from many tasks at once, reloads in flight. Every result is checked
/// against the same input translated alone. scripts/tsan runs this suite under ThreadSanitizer.
@Suite("One translator, many tasks")
struct ConcurrencyTests {
    static let now: Int64 = 1_704_067_200

    /// Scripts that fail in each way a script can, beside the built-ins.
    static let failing: [String: String] = [
        "raises": "return { name = 'raises', api = 1, platforms = {'fcm', 'apns'}, fcm = function(i) error('no luck') end, apns = function(i) error('no luck') end }",
        "loops": "return { name = 'loops', api = 1, platforms = {'fcm', 'apns'}, fcm = function(i) while true do end end, apns = function(i) while true do end end }",
        "hogs": "return { name = 'hogs', api = 1, platforms = {'fcm', 'apns'}, fcm = function(i) local t = {} for n = 1, 1e9 do t[n] = ('x'):rep(4096) .. n end end, apns = function(i) return {} end }",
        "wrongtype": "return { name = 'wrongtype', api = 1, platforms = {'fcm', 'apns'}, fcm = function(i) return { message = { data = { x = print } } } end, apns = function(i) return { aps = {}, x = print } end }",
    ]

    /// What translating an input alone gives: the payload bytes, or the error's kind and the
    /// script error's kind.
    enum Outcome: Equatable, CustomStringConvertible {
        case payloads([UInt8], [UInt8])
        case failure(TranslationError.Kind, ScriptError.Kind?)

        var description: String {
            switch self {
            case .payloads(let fcm, let apns): "payloads of \(fcm.count) and \(apns.count) bytes"
            case .failure(let kind, let script): "\(kind) \(script.map { "(\($0))" } ?? "")"
            }
        }
    }

    static func outcome(_ translate: () throws(TranslationError) -> Translation) -> Outcome {
        do {
            let translation = try translate()
            return .payloads(translation.bytes(for: .fcm, style: .compact), translation.bytes(for: .apns, style: .compact))
        } catch {
            return .failure(error.kind, error.scriptError?.kind)
        }
    }

    static func inputs() -> [[UInt8]] {
        var generator = IntentGenerator(seed: 0xC0C0, now: now)
        var inputs: [[UInt8]] = []
        for index in 0..<40 {
            let template = ["plain", "basic", "carousel", "timer"][index % 4]
            inputs.append(JSONWriter(style: .compact).write(.object(generator.intent(template))))
        }
        inputs += [
            Array(#"{"title": 5}"#.utf8), Array("{not json".utf8), Array(#"{"template": "nope"}"#.utf8),
            // Over FCM's 4096 bytes: a failed check.
            Array(#"{"template": "basic", "title": "t", "body": "b", "data": {"filler": "\#(String(repeating: "x", count: 5000))"}}"#.utf8),
        ]
        for name in failing.keys.sorted() { inputs.append(Array(#"{"template": "\#(name)", "title": "t", "body": "b"}"#.utf8)) }
        return inputs
    }

    static func scriptsWithFailing() -> TemplateScripts { scripts(failing) }

    /// Tighter limits than the defaults (still far above what the built-ins need), so the
    /// looping and hogging scripts fail fast and the suite stays quick.
    static let options = Translator.Options(limits: ScriptLimits(instructions: 300_000, memoryBytes: 8 << 20), clock: { now })

    @Test("many tasks through one translator get what each input gets alone, while it reloads")
    func sharedTranslator() async throws {
        let translator = try Translator(scripts: Self.scriptsWithFailing(), options: Self.options, logger: quietLogger)
        let inputs = Self.inputs()
        let expected = inputs.map { input in Self.outcome { () throws(TranslationError) in try translator.translate(input, platforms: [.fcm, .apns]) } }
        // The mix covers every kind of result.
        #expect(expected.contains { if case .payloads = $0 { true } else { false } })
        for kind in [ScriptError.Kind.runtime, .instructionLimit, .memoryLimit, .badValue] {
            #expect(expected.contains(.failure(.scriptFailed, kind)), "no input fails with \(kind)")
        }
        #expect(expected.contains(.failure(.invalidIntent, nil)))
        #expect(expected.contains(.failure(.failedCheck, nil)))

        let tasks = 32
        let mismatches = await withTaskGroup(of: [String].self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var mismatches: [String] = []
                    // Each task walks the inputs from its own starting point.
                    for step in 0..<inputs.count {
                        let index = (task * 7 + step) % inputs.count
                        let got = Self.outcome { () throws(TranslationError) in try translator.translate(inputs[index], platforms: [.fcm, .apns]) }
                        if got != expected[index] { mismatches.append("task \(task), input \(index): \(got), alone \(expected[index])") }
                    }
                    return mismatches
                }
            }
            // Reloads while the tasks run: the same scripts (results must not change), and a
            // broken set that must be refused without disturbing anyone.
            group.addTask {
                var problems: [String] = []
                for round in 0..<20 {
                    do {
                        try translator.reload(Self.scriptsWithFailing())
                    } catch {
                        problems.append("reload \(round) failed: \(error)")
                    }
                    var broken = Self.scriptsWithFailing()
                    broken.add(name: "broken", source: "return {", layer: "custom")
                    do {
                        try translator.reload(broken)
                        problems.append("a broken reload was accepted")
                    } catch {}
                    await Task.yield()
                }
                return problems
            }
            var all: [String] = []
            for await result in group { all += result }
            return all
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(translator.templates.keys.sorted() == ["basic", "carousel", "cat", "hogs", "icon", "input", "loops", "plain", "raises", "rate", "timer", "wrongtype", "zb"])
    }

    @Test("threads outside Swift concurrency share a translator too")
    func plainThreads() throws {
        let translator = try Translator(options: Translator.Options(clock: { Self.now }), logger: quietLogger)
        let inputs = Array(Self.inputs().prefix(40))
        let expected = inputs.map { input in Self.outcome { () throws(TranslationError) in try translator.translate(input, platforms: [.fcm, .apns]) } }
        let results = ResultSlots(count: 8 * inputs.count)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for (index, input) in inputs.enumerated() {
                results.set(thread * inputs.count + index, Self.outcome { () throws(TranslationError) in try translator.translate(input, platforms: [.fcm, .apns]) })
            }
        }
        for thread in 0..<8 {
            for index in inputs.indices {
                #expect(results.get(thread * inputs.count + index) == expected[index], "thread \(thread), input \(index)")
            }
        }
    }

    @Test("threads reading one translation's payloads at once all get the values its text holds")
    func lazyPayloadsAcrossThreads() throws {
        let translator = try Translator(options: Translator.Options(clock: { Self.now }), logger: quietLogger)
        for input in Self.inputs().prefix(8) {
            guard let translation = try? translator.translate(input, platforms: [.fcm, .apns]) else { continue }
            let expected = try [Platform.fcm, .apns].map { try JSONParser.parse(translation.bytes(for: $0, style: .compact)) }
            let seen = ResultSlots(count: 8)
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                let payloads = translation.payloads
                let same = payloads[.fcm] == expected[0] && payloads[.apns] == expected[1]
                seen.set(thread, same ? .payloads([], []) : .failure(.failedCheck, nil))
            }
            for thread in 0..<8 { #expect(seen.get(thread) == .payloads([], []), "thread \(thread)") }
        }
    }

    @Test("sessions on many threads give what each input gets alone, failing scripts included, and see a reload at the next session")
    func sessions() throws {
        let translator = try Translator(scripts: Self.scriptsWithFailing(), options: Self.options, logger: quietLogger)
        let inputs = Self.inputs()
        let expected = inputs.map { input in Self.outcome { () throws(TranslationError) in try translator.translate(input, platforms: [.fcm, .apns]) } }
        let results = ResultSlots(count: 4 * inputs.count)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            translator.withSession { session in
                for (index, input) in inputs.enumerated() {
                    results.set(thread * inputs.count + index, Self.outcome { () throws(TranslationError) in try session.translate(input, platforms: [.fcm, .apns]) })
                }
            }
        }
        for thread in 0..<4 {
            for index in inputs.indices {
                #expect(results.get(thread * inputs.count + index) == expected[index], "thread \(thread), input \(index)")
            }
        }
        // A session keeps the scripts it started with; the next one runs the reloaded ones.
        let raising = Array(#"{"template": "raises", "title": "t", "body": "b"}"#.utf8)
        let (reloaded, during, after) = translator.withSession { session -> (Bool, Outcome, Outcome) in
            let reloaded = (try? translator.reload(.builtin)) != nil
            let during = Self.outcome { () throws(TranslationError) in try session.translate(raising, platforms: [.fcm]) }
            return (reloaded, during, translator.withSession { next in Self.outcome { () throws(TranslationError) in try next.translate(raising, platforms: [.fcm]) } })
        }
        #expect(reloaded)
        #expect(during == Outcome.failure(.scriptFailed, .runtime))
        #expect(after == Outcome.failure(.invalidIntent, nil))
    }
}

/// Results written by several threads, each slot by one.
private final class ResultSlots: @unchecked Sendable {
    // @unchecked: every access goes through the lock.
    private let lock = NSLock()
    private var slots: [ConcurrencyTests.Outcome?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ outcome: ConcurrencyTests.Outcome) { lock.withLock { slots[index] = outcome } }
    func get(_ index: Int) -> ConcurrencyTests.Outcome? { lock.withLock { slots[index] } }
}
