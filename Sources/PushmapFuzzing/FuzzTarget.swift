public import Logging
internal import LuaHost
@_spi(Tools) internal import Pushmap
@_spi(Engine) internal import PushmapJSON

/// One fuzz target: bytes in, and either nothing (the input was handled as promised: a result or
/// a clear error) or a finding that says which promise broke.
///
/// The same code runs under libFuzzer (`scripts/fuzz`) and in the test suite, which replays the
/// seed corpora and every input that ever broke a promise (`fuzz/regressions`).
public struct FuzzTarget: Sendable {
    /// The name `scripts/fuzz` and `pushmap-fuzz` take.
    public let name: String
    /// What the target feeds its input to.
    public let summary: String
    let body: @Sendable (UnsafeBufferPointer<UInt8>) -> String?

    /// Runs one input; nil when every promise held, else what broke.
    public func run(_ input: UnsafeBufferPointer<UInt8>) -> String? { body(input) }

    /// Runs one input given as an array.
    public func run(_ input: [UInt8]) -> String? { input.withUnsafeBufferPointer { body($0) } }

    /// Every target, by name.
    public static func all(logger: Logger = Logger(label: "pushmap-fuzz", factory: { _ in SwiftLogNoOpLogHandler() })) throws -> [FuzzTarget] {
        [try translate(logger: logger), fastPath(), try luaValues(logger: logger), try validate(logger: logger), try importPayload(logger: logger), liquid(), try campaign(logger: logger)]
    }

    /// The target named `name`, or nil.
    public static func named(_ name: String, logger: Logger = Logger(label: "pushmap-fuzz", factory: { _ in SwiftLogNoOpLogHandler() })) throws -> FuzzTarget? {
        try all(logger: logger).first { $0.name == name }
    }

    /// Bytes as an intent, through parsing, validation, the built-in scripts and the checks, to
    /// both platforms. Promises: a translation or a typed error; never a failure of a built-in
    /// script other than a resource limit; payloads that read back equal, pass the checks
    /// again and come out byte for byte the same on a second run.
    static func translate(logger: Logger) throws -> FuzzTarget {
        let now: Int64 = 1_767_225_600
        let translator = try Translator(options: Translator.Options(idleStates: 1, clock: { now }), logger: logger)
        let both: [Platform] = [.fcm, .apns]
        return FuzzTarget(name: "translate", summary: "intent bytes through translation and checks, to FCM and APNS") { input in
            let bytes = Array(input)
            let first: Translation
            do throws(TranslationError) {
                first = try translator.translate(bytes, platforms: both)
            } catch {
                if error.kind == .scriptFailed {
                    let kind = error.scriptError?.kind
                    if kind == .instructionLimit || kind == .memoryLimit || kind == .timeLimit { return nil }
                    return "a built-in script failed on an intent that passed validation: \(error)"
                }
                if error.diagnostics.isEmpty { return "an error with no diagnostic: \(error)" }
                if !error.diagnostics.hasErrors { return "an error whose diagnostics are all warnings: \(error)" }
                return nil
            }
            for platform in both {
                guard let payload = first.payloads[platform] else { return "no \(platform) payload" }
                let text = first.bytes(for: platform, style: .compact)
                guard let reread = try? JSONParser.parse(text) else { return "the \(platform) payload does not parse back" }
                if reread != payload { return "the \(platform) payload reads back different" }
                let findings = translator.validate(payload, platform: platform)
                if findings.hasErrors { return "the \(platform) payload fails its own checks: \(findings)" }
            }
            guard let second = try? translator.translate(bytes, platforms: both) else { return "a second run failed" }
            for platform in both where second.bytes(for: platform, style: .compact) != first.bytes(for: platform, style: .compact) {
                return "the \(platform) payload differs between two runs"
            }
            if second.diagnostics != first.diagnostics { return "the warnings differ between two runs" }
            return nil
        }
    }

    /// Bytes both ways a translator reads an intent: the tape parser with the intent check's
    /// yes-or-no walk (the fast path), and JSONParser with its explaining walk. Promises: the tape
    /// takes only what JSONParser takes, and reads back as the same value; the fast walk accepts
    /// exactly the intents in which the explaining walk finds nothing.
    static func fastPath() -> FuzzTarget {
        let limits = JSONParser.Limits(maxDepth: 32, maxBytes: 1 << 20)
        let check = IntentCheck(templates: ["plain": [], "basic": [], "carousel": [], "timer": []])
        return FuzzTarget(name: "fast-path", summary: "intent bytes through the tape parser and the intent check's two walks") { input in
            let tape = JSONTape.parse(input, limits: limits)
            guard let value = try? JSONParser.parse(input, limits: limits) else {
                return tape == nil ? nil : "the tape took what JSONParser refuses"
            }
            guard let tape else { return nil } // giving up is allowed: the full path then runs
            var reader = tape.reader
            if reader.value() != value || reader.position != tape.length { return "the tape reads back a different value" }
            let findings = check.findings(tape)
            if check.findings(JSONTape(value)) != findings { return "the tape made from the value gives other findings" }
            let name = value["template"]?.stringValue ?? "plain"
            let valid = check.templateNames.contains(name) && !findings.hasErrors
            let accepted = check.accepts(tape).map { check.templateNames[$0] }
            if accepted != (valid ? name : nil) {
                return valid ? "the fast walk refused a valid intent" : "the fast walk accepted an intent the explaining walk refuses"
            }
            return nil
        }
    }

    /// Bytes as JSON, into a Lua state and back out. Promises: what goes in comes back equal
    /// (integers and floats kept apart, empty arrays and objects told apart, null kept), or a
    /// typed error for what Lua cannot hold; the state keeps working after either.
    static func luaValues(logger: Logger) throws -> FuzzTarget {
        let state = try LuaState(logger: logger)
        let identity = try state.load("return ...", name: "identity.lua")
        let limits = JSONParser.Limits(maxDepth: 48, maxBytes: 1 << 20)
        // libFuzzer runs one input at a time, the test suite too; the lock makes that a guarantee.
        let guarded = Locked(state)
        return FuzzTarget(name: "lua-values", summary: "JSON values into a Lua state and back") { input in
            guard let value = try? JSONParser.parse(Array(input), limits: limits) else { return nil }
            return guarded.withLock { state in
                let back: [JSONValue]
                do throws(LuaError) {
                    back = try state.call(identity, [.value(value)])
                } catch {
                    if error.kind == .badValue || error.kind == .memoryLimit { return nil }
                    return "an identity call failed: \(error)"
                }
                guard back.count == 1, let result = back.first else { return "an identity call gave \(back.count) values" }
                if result != value { return "the value came back different" }
                let writer = JSONWriter(style: .compact)
                if writer.write(result) != writer.write(value) { return "the value came back with different text" }
                guard (try? state.call(identity, [.value(.integer(1))])) == [.integer(1)] else { return "the state stopped working" }
                return nil
            }
        }
    }

    /// Bytes as a payload, validated as FCM and as APNS. Promises: the same findings for the same
    /// bytes every time, and for the same value written out and read back (findings follow the
    /// value, not its spelling; sorting its keys may only reorder them); each finding has a rule,
    /// a message and a path from `$`; bytes that are not JSON give one `json-syntax` error alone.
    static func validate(logger: Logger) throws -> FuzzTarget {
        let now: Int64 = 1_767_225_600
        let translator = try Translator(options: Translator.Options(idleStates: 1, clock: { now }), logger: logger)
        return FuzzTarget(name: "validate", summary: "payload bytes through validate, as FCM and as APNS") { input in
            let bytes = Array(input)
            let value = try? JSONParser.parse(bytes)
            for platform in [Platform.fcm, .apns] {
                let findings = translator.validate(bytes, platform: platform)
                if let broken = malformed(findings) { return "\(platform): \(broken)" }
                if translator.validate(bytes, platform: platform) != findings { return "\(platform): the findings differ between two runs" }
                guard let value else {
                    if findings.count != 1 || findings.first?.rule != "json-syntax" { return "\(platform): text that is not JSON gave \(findings)" }
                    continue
                }
                // Findings come in member order: the same order written out gives the same list,
                // sorted keys the same findings in another order.
                let rewritten = JSONWriter(style: .compact, sortKeys: false).write(value)
                if translator.validate(rewritten, platform: platform) != findings {
                    return "\(platform): the same value written out again gets other findings"
                }
                let sorted = translator.validate(JSONWriter(style: .compact).write(value), platform: platform)
                if sorted.map(\.description).sorted() != findings.map(\.description).sorted() {
                    return "\(platform): the same value with its keys sorted gets other findings"
                }
            }
            return nil
        }
    }

    /// Bytes as a payload, imported as FCM and as APNS. Promises: an intent that is a JSON object,
    /// or none with an error saying why; a failed import is a typed error with an error in it,
    /// never a built-in script failing other than at a resource limit; the intent translates, or
    /// is refused with its errors; each finding has a path from `$`; a second import gives the
    /// same intent and findings.
    static func importPayload(logger: Logger) throws -> FuzzTarget {
        let now: Int64 = 1_767_225_600
        let translator = try Translator(options: Translator.Options(idleStates: 1, clock: { now }), logger: logger)
        return FuzzTarget(name: "import", summary: "payload bytes through import, as FCM and as APNS, and the intent back through translation") { input in
            guard let payload = try? JSONParser.parse(Array(input)) else { return nil }
            for platform in [Platform.fcm, .apns] {
                let imported: (intent: JSONValue?, diagnostics: [Diagnostic])
                do throws(TranslationError) {
                    imported = try translator.importIntent(payload, platform: platform)
                } catch {
                    if let broken = unclean(error) { return "\(platform): import: \(broken)" }
                    continue
                }
                if let broken = malformed(imported.diagnostics) { return "\(platform): \(broken)" }
                guard let again = try? translator.importIntent(payload, platform: platform),
                      again.intent == imported.intent, again.diagnostics == imported.diagnostics else {
                    return "\(platform): a second import differs"
                }
                guard let intent = imported.intent else {
                    if !imported.diagnostics.hasErrors { return "\(platform): no intent, and no error saying why" }
                    continue
                }
                if intent.objectValue == nil { return "\(platform): the intent is not a JSON object" }
                do throws(TranslationError) {
                    _ = try translator.translate(JSONWriter(style: .compact).write(intent), platforms: [platform])
                } catch {
                    if let broken = unclean(error) { return "\(platform): translating the intent: \(broken)" }
                }
            }
            return nil
        }
    }

    /// Bytes as a recipe for a campaign template (a random mix of text, outputs with paths and
    /// filters, `if`/`unless` blocks closed or not, `raw`, comments, stray delimiters and raw
    /// input bytes) and for a recipient's `vars` (hostile strings, numbers, dates, nesting).
    /// Promises: compiling gives a template or an error with a column inside the text and a
    /// one-line message; rendering twice gives the same text and problems; the text stays within
    /// the output limit, and written into a JSON object reads back as the same string.
    static func liquid() -> FuzzTarget {
        FuzzTarget(name: "liquid", summary: "random Liquid templates and vars, compiled, rendered and written as JSON") { input in
            var recipe = LiquidRecipe(input)
            let vars = recipe.vars()
            let source = recipe.template()
            let template: LiquidTemplate
            do throws(LiquidSyntaxError) {
                template = try LiquidTemplate(source)
            } catch {
                if error.column < 1 || error.column > source.count + 1 { return "a syntax error at column \(error.column) of \(source.count) characters" }
                if error.message.isEmpty || error.message.contains("\n") { return "a syntax error message that is empty or not one line: \(error.message)" }
                return nil
            }
            let rendering = template.render(vars, lenient: false, now: 1_795_687_200)
            if template.render(vars, lenient: true, now: 1_795_687_200) != rendering { return "two renderings differ" }
            if template.isPlainText, rendering.text != source || !rendering.problems.isEmpty { return "a plain text rendered other than itself" }
            if rendering.text.utf8.count > LiquidTemplate.maxOutputBytes { return "a rendering of \(rendering.text.utf8.count) bytes, over the limit" }
            for problem in rendering.problems {
                if case .missingVariable(let path) = problem, path.isEmpty { return "a missing variable with no path" }
            }
            let object: JSONValue = ["text": .string(rendering.text)]
            guard let back = try? JSONParser.parse(JSONWriter(style: .compact).write(object)) else {
                return "the rendered text written as JSON does not parse"
            }
            if back != object { return "the rendered text reads back different from JSON" }
            return nil
        }
    }

    /// What is wrong with a list of findings as a list: a finding with no rule or message, or a
    /// path that does not start at the root.
    private static func malformed(_ findings: [Diagnostic]) -> String? {
        for finding in findings {
            if finding.rule.isEmpty || finding.message.isEmpty { return "a finding with no rule or message: \(finding)" }
            if !finding.path.hasPrefix("$") { return "a finding whose path does not start with $: \(finding)" }
            if let path = finding.payloadPath, !path.hasPrefix("$") { return "a finding whose payload path does not start with $: \(finding)" }
        }
        return nil
    }

    /// What is wrong with a translation error, if anything: a built-in script failing other than
    /// at a resource limit, or an error that says nothing.
    private static func unclean(_ error: TranslationError) -> String? {
        if error.kind == .scriptFailed {
            let kind = error.scriptError?.kind
            return kind == .instructionLimit || kind == .memoryLimit || kind == .timeLimit ? nil : "a built-in script failed: \(error)"
        }
        if error.diagnostics.isEmpty { return "an error with no diagnostic: \(error)" }
        if !error.diagnostics.hasErrors { return "an error whose diagnostics are all warnings: \(error)" }
        return malformed(error.diagnostics)
    }
}
