public import Logging
internal import LuaHost
@_spi(Engine) public import PushmapJSON
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Turns intents into FCM and APNS payloads through the template scripts.
///
/// Build one translator and share it: it is `Sendable`, and behind it a pool of Lua states (one
/// per concurrent caller, as many idle as there are cores) runs the scripts. Every payload is
/// checked against the platform's rules and what Adobe's phone code does with it.
///
/// ```swift
/// let translator = try Translator(logger: logger)
/// let translation = try translator.translate(intentBytes, platforms: [.fcm, .apns])
/// let fcmBody = translation.bytes(for: .fcm, style: .compact)
/// ```
public final class Translator: Sendable {
    /// How a translator runs its scripts.
    public struct Options: Sendable {
        /// Per-call limits of every script.
        public var limits: ScriptLimits
        /// Lua states kept idle for reuse; the cores by default.
        public var idleStates: Int
        /// The time scripts see as `ctx.now` and checks compare against, in epoch seconds.
        public var clock: @Sendable () -> Int64

        /// The times a fixed clock (`--now`) may give: 1970 to the end of 9999, where a ttl or a
        /// timer added to it stays far inside 64 bits (the forty-third audit: `--now` at the
        /// top of Int64 wrapped apns-expiration round, and import crashed at the bottom).
        static let fixedClocks: ClosedRange<Int64> = 0...253_402_300_799

        /// Why `now` cannot be a fixed clock, in the words `--now` refuses it with; nil when it can.
        @_spi(Tools) public static func fixedClockProblem(_ now: Int64) -> String? {
            fixedClocks.contains(now) ? nil : "--now must be an epoch time from 0 to \(fixedClocks.upperBound) (the end of 9999), not \(now)"
        }
        /// Largest intent accepted, in bytes.
        public var maxIntentBytes: Int
        /// Deepest nesting accepted in an intent.
        public var maxIntentDepth: Int
        /// Whether a translation whose team script drew warnings but no error is run again,
        /// traced, so each warning on a value the script wrote names the line that wrote it (a
        /// translation with an error always is). A traced run costs hundreds of plain ones: worth
        /// it for one intent a person reads, not for a batch or a service.
        public var blameWarnings: Bool

        /// Options with the defaults: ``ScriptLimits``' defaults, an idle state per core, the
        /// system clock, intents up to 1 MiB and 32 levels deep, warnings alone not traced.
        public init(
            limits: ScriptLimits = ScriptLimits(),
            idleStates: Int = Translator.cores,
            clock: @escaping @Sendable () -> Int64 = Translator.systemClock,
            maxIntentBytes: Int = 1 << 20,
            maxIntentDepth: Int = 32,
            blameWarnings: Bool = false
        ) {
            self.blameWarnings = blameWarnings
            self.limits = limits
            self.idleStates = idleStates
            self.clock = clock
            self.maxIntentBytes = maxIntentBytes
            self.maxIntentDepth = maxIntentDepth
        }
    }

    /// The scripts in force and the states that run them; replaced whole by a reload.
    final class Generation: Sendable {
        let scripts: TemplateScripts
        let templates: [String: TemplateInfo]
        let pool: LuaStatePool<ScriptRuntime>
        /// The intent check that explains; each runtime has its own for the hot path.
        let check: IntentCheck

        init(scripts: TemplateScripts, options: Options, logger: Logger) throws(ScriptError) {
            let limits = options.limits.lua
            // The first state is made now, so broken scripts fail here and not on first use.
            let own = scripts.ownTemplates
            let first = try ScriptRuntime(scripts: scripts, limits: limits, logger: logger, ownTemplates: own)
            self.scripts = scripts
            self.templates = first.templates
            self.check = IntentCheck(templates: first.templates.mapValues(\.fields))
            // The first runtime goes to the pool's first borrower.
            let seed = Locked<ScriptRuntime?>(first)
            pool = LuaStatePool(capacity: options.idleStates, reusable: { !$0.spent }) {
                if let runtime = seed.withLock({ $0.take() }) { return runtime }
                return try ScriptRuntime(scripts: scripts, limits: limits, logger: logger, ownTemplates: own)
            }
        }
    }

    /// The options the translator was built with.
    public let options: Options
    private let logger: Logger
    private let current: Locked<Generation>

    /// Builds a translator over `scripts` (the built-in ones by default).
    /// - Throws: ``ScriptError`` when a script does not compile or breaks the template contract.
    public init(scripts: TemplateScripts = .builtin, options: Options = Options(), logger: Logger) throws(ScriptError) {
        self.options = options
        self.logger = logger
        current = Locked(try Generation(scripts: scripts, options: options, logger: logger))
    }

    private var generation: Generation { current.withLock { $0 } }

    /// The templates in force, by name.
    public var templates: [String: TemplateInfo] { generation.templates }

    /// The scripts in force.
    package var scripts: TemplateScripts { generation.scripts }

    /// Replaces the scripts, for a service that picks up new mappings without a restart. When
    /// the new scripts fail to load, the old ones stay in force and the error says why.
    public func reload(_ scripts: TemplateScripts) throws(ScriptError) {
        let next = try Generation(scripts: scripts, options: options, logger: logger)
        current.withLock { $0 = next }
        logger.info("reloaded template scripts", metadata: ["templates": "\(next.templates.keys.sorted())"])
    }

    /// Translates an intent given as JSON text.
    /// - Parameters:
    ///   - intent: the intent's JSON text, one object.
    ///   - platforms: the payloads to make, each platform once.
    ///   - forms: what to write beyond the bare payloads (``RequestForm``); none by default.
    public func translate(_ intent: [UInt8], platforms: [Platform], forms: Set<RequestForm> = []) throws(TranslationError) -> Translation {
        try translateText(intent, platforms: platforms, forms: forms, lent: nil, rendered: false)
    }

    /// As ``translate(_:platforms:forms:)`` for a campaign's rendered intent.
    package func translateRendered(_ intent: [UInt8], platforms: [Platform], forms: Set<RequestForm> = []) throws(TranslationError) -> Translation {
        try translateText(intent, platforms: platforms, forms: forms, lent: nil, rendered: true)
    }

    /// A state lent for several translations, and the scripts it runs.
    struct Lent {
        let generation: Generation
        let runtime: ScriptRuntime
    }

    /// Translations on one borrowed Lua state, for a caller that has many intents at hand: the
    /// state and the scripts in force are looked up once, not at every intent (on two busy
    /// cores, the locks and reference counts they share cost more than the lookup itself).
    @_spi(Tools) public struct Session: ~Copyable {
        let translator: Translator
        let lent: Lent?

        /// As the translator's `translate(_:platforms:forms:)`.
        package func translate(_ intent: [UInt8], platforms: [Platform], forms: Set<RequestForm> = []) throws(TranslationError) -> Translation {
            try translator.translateText(intent, platforms: platforms, forms: forms, lent: lent, rendered: false)
        }

        /// As ``translate(_:platforms:forms:)`` for a campaign's rendered intent.
        package func translateRendered(_ intent: [UInt8], platforms: [Platform], forms: Set<RequestForm> = []) throws(TranslationError) -> Translation {
            try translator.translateText(intent, platforms: platforms, forms: forms, lent: lent, rendered: true)
        }
    }

    /// Runs `body` with a session on one state; a script reload meanwhile takes effect at the
    /// next session.
    @_spi(Tools) public func withSession<Result>(_ body: (borrowing Session) -> Result) -> Result {
        let generation = self.generation
        do {
            return try generation.pool.withElement { runtime in
                body(Session(translator: self, lent: Lent(generation: generation, runtime: runtime)))
            }
        } catch {
            // No state could be made: each translation borrows its own, and says why it fails.
            return body(Session(translator: self, lent: nil))
        }
    }

    /// `rendered`: the intent is a campaign's, its templates rendered, so a `{{` in it is a
    /// recipient's text, not a tag left unrendered (``LiquidLiterals``).
    private func translateText(
        _ intent: [UInt8], platforms: [Platform], forms: Set<RequestForm>, lent: Lent?, rendered: Bool
    ) throws(TranslationError) -> Translation {
        var translation = try parseAndTranslate(intent, platforms: platforms, forms: forms, lent: lent)
        if !rendered, LiquidLiterals.mayHold(intent), let value = try? JSONParser.parse(intent) {
            translation.diagnostics += LiquidLiterals.warnings(value)
        }
        return translation
    }

    private func parseAndTranslate(_ intent: [UInt8], platforms: [Platform], forms: Set<RequestForm>, lent: Lent?) throws(TranslationError) -> Translation {
        let limits = JSONParser.Limits(maxDepth: options.maxIntentDepth, maxBytes: options.maxIntentBytes)
        // The tape parser reads almost every intent; what it leaves (bad JSON, and a few rare
        // forms such as a number it cannot convert exactly) goes to JSONParser, which says where
        // the JSON goes wrong.
        if let tape = intent.withUnsafeBufferPointer({ JSONTape.parse($0, limits: limits) }) {
            return try translateTape(tape, platforms: platforms, forms: forms, now: nil, lent: lent)
        }
        let value: JSONValue
        var inexact: [JSONParser.InexactNumber] = []
        do {
            value = try JSONParser.parse(intent, limits: limits, inexact: &inexact)
        } catch {
            var failure = TranslationError(kind: .invalidIntent, diagnostics: [.jsonSyntax(error)])
            // A batch line still names its intent when the JSON goes wrong after the id.
            failure.messageID = error.topLevelString("id", in: intent)
            throw failure
        }
        return try translateTape(
            JSONTape(value), platforms: platforms, forms: forms, now: nil, lent: lent, read: inexact.map(Diagnostic.inexactNumber))
    }

    /// Translates an intent given as a JSON value.
    /// - Parameters:
    ///   - intent: the intent, a JSON object.
    ///   - platforms: the payloads to make, each platform once.
    ///   - now: the time the scripts and checks see, in epoch seconds; the clock's by default.
    ///   - forms: what to write beyond the bare payloads (``RequestForm``); none by default.
    public func translate(
        _ intent: JSONValue, platforms: [Platform], now: Int64? = nil, forms: Set<RequestForm> = []
    ) throws(TranslationError) -> Translation {
        // The depth an intent's text may have holds for a value too: deeper, a script's payload
        // failed as the built-in script's fault (an imported payload's 31 levels of custom data:
        // the forty-sixth audit, cli F5).
        var path: [JSONPath.Component] = []
        if Self.nestsTooDeep(intent, depth: 1, limit: options.maxIntentDepth, path: &path) {
            throw TranslationError(
                kind: .invalidIntent,
                diagnostics: [.error(JSONPath(path).description, "json-syntax", "nesting deeper than \(options.maxIntentDepth) levels")])
        }
        return try translateTape(JSONTape(intent), platforms: platforms, forms: forms, now: now, lent: nil)
    }

    /// Whether a container in `value` (itself at `depth`) lies deeper than `limit`, with `path`
    /// left at the first such one, as the parser names it in text.
    private static func nestsTooDeep(_ value: JSONValue, depth: Int, limit: Int, path: inout [JSONPath.Component]) -> Bool {
        switch value {
        case .array(let items):
            if depth > limit { return true }
            for (index, item) in items.enumerated() {
                path.append(.index(index))
                if nestsTooDeep(item, depth: depth + 1, limit: limit, path: &path) { return true }
                path.removeLast()
            }
        case .object(let members):
            if depth > limit { return true }
            for (key, member) in members {
                path.append(.key(key))
                if nestsTooDeep(member, depth: depth + 1, limit: limit, path: &path) { return true }
                path.removeLast()
            }
        default:
            break
        }
        return false
    }

    /// The translation or its error, with the intent's top-level `id` (batch lines carry it).
    /// `read`: what reading the intent's text found (numbers that lose digits).
    private func translateTape(
        _ tape: JSONTape, platforms: [Platform], forms: Set<RequestForm>, now: Int64?, lent: Lent?, read: [Diagnostic] = []
    ) throws(TranslationError) -> Translation {
        var messageID: String?
        do {
            var translation = try translateTape(
                tape, platforms: platforms, forms: forms, now: now, lent: lent, read: read, messageID: &messageID)
            translation.messageID = messageID
            return translation
        } catch {
            var error = error
            error.messageID = messageID
            throw error
        }
    }

    /// The stages before the script: parse (done by the caller) and admit. An intent the
    /// runtime's own check accepts goes from the tape into the Lua state, with no JSONValue and
    /// no message built on the way; anything else is walked again by a check that says what is
    /// wrong, and runs only when that finds no error.
    private func translateTape(
        _ tape: JSONTape, platforms: [Platform], forms: Set<RequestForm>, now: Int64?, lent: Lent?, read: [Diagnostic],
        messageID: inout String?
    ) throws(TranslationError) -> Translation {
        let generation = lent?.generation ?? self.generation
        let now = now ?? options.clock()
        let plan = TranslationPlan(platforms: platforms, forms: forms)
        // The fast path admits an intent with nothing to say; findings from reading it go the long way.
        if read.isEmpty, options.maxIntentDepth <= options.limits.maxValueDepth {
            let translated = try borrowing(generation, lent: lent) { lent throws(TranslationError) -> Translation? in
                guard let index = lent.runtime.intentCheck.accepts(tape, messageID: &messageID), lent.runtime.runs.indices.contains(index) else {
                    return nil
                }
                let template = lent.runtime.runs[index]
                guard plan.runs.allSatisfy({ template.platforms.contains($0) }) else { return nil }
                return try run(
                    .tape(tape), TemplateRun(name: template.name, known: true, metered: template.metered, ownPaths: template.ownPaths), plan: plan, now: now,
                    admitted: [], on: lent)
            }
            if let translated { return translated }
        }
        var reader = tape.reader
        let intent = reader.value()
        messageID = intent["id"]?.stringValue
        let name = intent["template"]?.stringValue ?? "plain"
        let template = generation.templates[name]
        let checked = generation.check.findings(tape)
        // A number the check refuses needs no word on its digits as well.
        var diagnostics = read.filter { number in !checked.contains { $0.path == number.path } } + checked
        if let template {
            // The FCM message's apns block comes from the apns mapping.
            let needed = forms.contains(.fcmAPNS) && !platforms.contains(.apns) ? platforms + [.apns] : platforms
            for platform in needed where !template.platforms.contains(platform) {
                diagnostics.append(.error("$.template", "unsupported-platform",
                    "the \(name) template has no \(platform) mapping (it supports \(template.platforms.map(\.name).joined(separator: ", ")))",
                    platform: platform))
            }
        }
        if diagnostics.hasErrors {
            diagnostics.collapseRepeats()
            throw TranslationError(kind: .invalidIntent, diagnostics: diagnostics)
        }
        return try borrowing(generation, lent: lent) { lent throws(TranslationError) in
            try run(
                .value(intent),
                TemplateRun(
                    name: name, known: template != nil, metered: !lent.runtime.ownTemplates.contains(name),
                    ownPaths: lent.runtime.movesFindings(name)),
                plan: plan, now: now, admitted: diagnostics, on: lent)
        }
    }

    /// Runs `body` with a runtime no other thread is using; a runtime that cannot be made (its
    /// scripts failed to load since) is a script failure.
    private func borrowing<Result>(
        _ generation: Generation, lent: Lent? = nil, _ body: (Lent) throws(TranslationError) -> Result
    ) throws(TranslationError) -> Result {
        // A runtime a team's script has filled is not used for another intent (ScriptRuntime.spent).
        if let lent, !lent.runtime.spent { return try body(lent) }
        do {
            return try generation.pool.withElement { runtime in try body(Lent(generation: generation, runtime: runtime)) }
        } catch let error as TranslationError {
            throw error
        } catch let error as ScriptError {
            throw TranslationError(kind: .scriptFailed, diagnostics: [], scriptError: error)
        } catch {
            throw TranslationError(kind: .scriptFailed, diagnostics: [], scriptError: ScriptError(kind: .runtime, script: nil, line: nil, message: "\(error)"))
        }
    }

    /// The template a valid intent runs: its name, whether the scripts have it (`plain`, when no
    /// script provides it, is the script host's to report), and whether it is a team's (metered,
    /// and blamed at its lines).
    struct TemplateRun {
        let name: String
        let known: Bool
        let metered: Bool
        /// Whether its findings move to fields of its own (``BuiltinTemplates/ownPaths``).
        var ownPaths = false
    }

    /// The stages after the intent is admitted: map (the template's script on `runtime`), check
    /// (each payload as the run writes it), send-ready (the request forms), blame (a team
    /// script's line for a finding on a value it wrote).
    private func run(
        _ intent: LuaArgument, _ template: TemplateRun, plan: TranslationPlan, now: Int64, admitted diagnostics: [Diagnostic],
        on lent: Lent
    ) throws(TranslationError) -> Translation {
        // Each payload is checked and its text kept as the host reads it, still in the state: no
        // JSONValue is built (``Translation/payloads`` parses the text if someone asks). The
        // size rules read the text's length, and the caller, who sends the payload, gets the text.
        let checker = PayloadChecker(now: now, intentPaths: true, intent: TranslatedIntent(argument: intent))
        let (generation, runtime, name) = (lent.generation, lent.runtime, template.name)
        // The payloads in the order of the runs, as the run hands them over, then the headers.
        var texts: [(platform: Platform, text: [UInt8])] = []
        texts.reserveCapacity(plan.runs.count)
        var headers: [UInt8]?
        var findings: [Diagnostic] = []
        var scriptDiagnostics: [Diagnostic]
        do {
            scriptDiagnostics = try runtime.translate(
                intent, template: name, platforms: plan.runs, now: now, metered: template.metered, request: plan.request
            ) { index, node, text in
                if index == plan.runs.count, plan.request { headers = Array(text) }
                // After a payload that did not come, the rest are not kept: the first missing
                // one is the error.
                guard index < plan.runs.count, index == texts.count else { return }
                texts.append((plan.runs[index], Array(text)))
                guard index != plan.checkedLater else { return }
                findings.join(checker.check(node, platform: plan.runs[index], compactSize: text.count))
            }
        } catch {
            var scriptError = ScriptError(error, script: template.known ? generation.scripts.winners[name] : nil)
            if template.metered, let line = badValueLine(error, intent, name: name, plan: plan, now: now, on: lent) {
                (scriptError.script, scriptError.line) = (line.script, line.line)
            }
            let limit = [.instructionLimit, .timeLimit, .memoryLimit].contains(scriptError.kind)
            let teamScripts = limit ? Self.teamScripts(lent) : []
            if template.metered, let own = scriptError.script, let team = generation.scripts.winners[name]?.path,
               own.hasPrefix("pushmap/") || (limit && !teamScripts.contains(own))
            {
                // Stopped inside pushmap's own Lua or a built-in template: the team's line that
                // called into it, from a limit's traceback (the thirty-second audit, F7), else the
                // team's file (a tail call leaves no line), pushmap's place after; never pushmap's
                // file as the one to fix (the twenty-sixth audit, F5 and F6).
                scriptError.message += " (in \(scriptError.line.map { "\(own):\($0)" } ?? own))"
                let caller = limit ? Self.teamFrame(in: scriptError.traceback, teamScripts: teamScripts) : nil
                (scriptError.script, scriptError.line) = caller.map { ($0.script, $0.line) } ?? (team, nil)
            }
            throw TranslationError(kind: .scriptFailed, diagnostics: diagnostics, scriptError: scriptError)
        }
        // A template's finding about the intent is made by each platform's run: said once.
        if plan.runs.count > 1 { scriptDiagnostics.mergePlatforms() }
        if scriptDiagnostics.hasErrors {
            var all = diagnostics + scriptDiagnostics
            all.collapseRepeats()
            throw TranslationError(kind: .invalidIntent, diagnostics: all)
        }

        if texts.count < plan.runs.count {
            let platform = plan.runs[texts.count]
            let path = template.known ? generation.templates[name]?.path : nil
            let scriptError = ScriptError(kind: .badValue, script: path, line: nil, message: "the \(platform) mapping returned no payload")
            throw TranslationError(kind: .scriptFailed, diagnostics: diagnostics + scriptDiagnostics, scriptError: scriptError)
        }
        if plan.request {
            texts = sendReady(texts, headers: headers ?? Array("{}".utf8), plan: plan, checker: checker, findings: &findings)
        }
        // One list: the validator's, the script's, then the checks' findings.
        var all = diagnostics
        all.join(consume scriptDiagnostics)
        all.join(findings)
        // An error on a value a team's script wrote names the line that wrote it, and so do the
        // warnings beside it. Warnings alone are traced only when asked: a trace costs hundreds
        // of translations.
        let traced = template.metered && (findings.hasErrors || (options.blameWarnings && !findings.isEmpty))
        let blame = traced ? blamed(intent, name: name, plan: plan, now: now, all, texts: texts, on: lent) : nil
        if case .success(let blame)? = blame {
            all = blame.findings
            if let scriptError = blame.scriptError { throw TranslationError(kind: .scriptFailed, diagnostics: all, scriptError: scriptError) }
        } else if template.metered, !findings.isEmpty {
            // Untraced, a team script's findings stay at the payload path: which intent field (if
            // any) a value came from only a trace can say, and a guess could name a field the
            // intent does not have. A trace that failed says so at each error it could not place.
            let untraced: String? = if case .failure(let error)? = blame { Self.untraced(error) } else { nil }
            for index in all.indices where all[index].payloadPath != nil {
                all[index].path = all[index].payloadPath ?? all[index].path
                if let untraced, all[index].severity == .error { all[index].message += untraced }
            }
        }
        if template.ownPaths {
            for index in all.indices { all[index].path = BuiltinTemplates.ownPath(all[index].path, template: name) }
        }
        all.collapseRepeats()
        if all.hasErrors {
            var error = TranslationError(kind: .failedCheck, diagnostics: all)
            error.unchecked = Translation(template: name, compact: texts, diagnostics: all)
            throw error
        }
        return Translation(template: name, compact: texts, diagnostics: all)
    }

    /// The texts of the platforms asked for with the request forms applied: the APNS request
    /// (the apns mapping's payload and its script's headers) checked where it lies in the output,
    /// written as the APNS output with `apnsRequest`, and into the FCM message with `fcmAPNS`.
    private func sendReady(
        _ texts: [(platform: Platform, text: [UInt8])], headers: [UInt8], plan: TranslationPlan, checker: PayloadChecker,
        findings: inout [Diagnostic]
    ) -> [(platform: Platform, text: [UInt8])] {
        let (platforms, apnsRequest, fcmAPNS) = (plan.platforms, plan.apnsRequest, plan.fcmAPNS)
        let sent = RequestText(payload: texts.first { $0.platform == .apns }?.text ?? [], headers: headers)
        // Where the request lies in the output, and whose findings they are; a bare APNS payload
        // asked for has been checked as one already.
        let apnsAsked = platforms.contains(.apns)
        let (base, platform) = apnsRequest ? ("$", Platform.apns) : ("$.message.apns", apnsAsked ? Platform.apns : .fcm)
        if fcmAPNS {
            // What the fcm mapping wrote at message.apns is replaced, not sent: its findings go with it.
            findings.removeAll { $0.platform == .fcm && ($0.payloadPath ?? $0.path).hasPrefix("$.message.apns") }
        }
        findings += checker.checkAPNSRequest(sent, base: base, platform: platform, checkPayload: apnsRequest || !apnsAsked)
        return texts.compactMap { entry in
            guard platforms.contains(entry.platform) else { return nil }
            if entry.platform == .apns, apnsRequest { return (entry.platform, sent.bytes) }
            guard entry.platform == .fcm, fcmAPNS else { return entry }
            let (text, replaced) = sent.inserted(into: entry.text)
            if replaced {
                findings.append(.warning(
                    "$", "fcm-apns", "the fcm mapping wrote message.apns; --fcm-apns replaces it with the apns mapping's request", platform: .fcm))
            }
            return (entry.platform, text)
        }
    }

    /// A check that fails on a value a team's script wrote is the script's failure, at the line
    /// that wrote it, and a warning on one names that line too: the same run again, with the
    /// payload tables (and with `request` the APNS headers) traced, says which. Only a failing
    /// run pays for it. A failure when the trace could not run to its end; no script error when
    /// no line of a team's script wrote an error's value.
    private func blamed(
        _ intent: LuaArgument, name: String, plan: TranslationPlan, now: Int64, _ diagnostics: [Diagnostic],
        texts: [(platform: Platform, text: [UInt8])], on lent: Lent
    ) -> Result<(findings: [Diagnostic], scriptError: ScriptError?), LuaError> {
        var blame: PayloadBlame
        do {
            blame = try lent.runtime.blame(intent, template: name, platforms: plan.runs, now: now, request: plan.request)
        } catch {
            return .failure(error)
        }
        blame.fcmAPNSReplaced = plan.fcmAPNS
        let team = Self.teamScripts(lent)
        let returner = lent.generation.scripts.winners[name].map(\.path).flatMap { team.contains($0) ? $0 : nil }
        // The payloads checked, read only when a finding asks whether a value is there.
        var read: [Platform: JSONValue] = [:]
        let present = { (platform: Platform, path: String) -> Bool in
            if read[platform] == nil, let text = texts.first(where: { $0.platform == platform })?.text {
                read[platform] = try? JSONParser.parse(text)
            }
            guard let payload = read[platform], let parsed = JSONPath(parsing: path) else { return false }
            return payload[path: parsed] != nil
        }
        return .success(blame.attribute(diagnostics, teamScripts: team, returner: returner, present: present))
    }

    /// What an error the trace could not place adds, saying why: whether a line of the team's
    /// script wrote the value, or the intent gave it, is not known.
    private static func untraced(_ error: LuaError) -> String {
        let why = error.message.contains("trace budget spent")
            ? "the run writes too much to trace" : "the trace failed: \(error.message)"
        return " (which script line wrote it, if any, is not named: \(why))"
    }

    /// The line of a team's script that wrote a value JSON cannot hold (a function, a cycle, a
    /// table mixing list and named keys), which fails before any check can blame it: the same run
    /// again, traced, as ``blamed(_:name:plan:now:_:on:)`` does. Nil when the trace cannot say.
    private func badValueLine(
        _ error: LuaError, _ intent: LuaArgument, name: String, plan: TranslationPlan, now: Int64, on lent: Lent
    ) -> (script: String, line: Int)? {
        guard let (platform, path) = ScriptRuntime.badValuePlace(error, platforms: plan.runs),
              let blame = try? lent.runtime.blame(intent, template: name, platforms: plan.runs, now: now, request: plan.request) else {
            return nil
        }
        return blame.writer(platform: platform, path: path, teamScripts: Self.teamScripts(lent))
    }

    /// The first frame of a team's script in Lua's stack traceback (`\tc/promo.lua:7: in ...`,
    /// a long name shortened to `...mo.lua`).
    private static func teamFrame(in traceback: String?, teamScripts: Set<String>) -> (script: String, line: Int)? {
        for frame in traceback?.split(separator: "\n") ?? [] {
            let text = frame.drop { $0 == "\t" }
            guard let end = text.firstRange(of: ": ")?.lowerBound, let colon = text[..<end].lastIndex(of: ":"),
                  let line = Int(text[text.index(after: colon)..<end]) else { continue }
            let name = text[..<colon]
            let tail = name.hasPrefix("...") ? name.dropFirst(3) : name[...]
            if let script = teamScripts.first(where: { $0 == name || (name.hasPrefix("...") && $0.hasSuffix(tail)) }) {
                return (script, line)
            }
        }
        return nil
    }

    /// The paths of the team's scripts in force, whose lines a finding may be put on.
    private static func teamScripts(_ lent: Lent) -> Set<String> {
        Set(lent.generation.scripts.scripts.filter { !$0.isBuiltin }.map(\.path))
    }

    /// What the intent check finds in `intent`, each at its path, with no script run.
    package func intentFindings(_ intent: JSONValue) -> [Diagnostic] {
        generation.check.findings(JSONTape(intent))
    }

    /// What `pushmap campaign` refuses in an intent's locale layer `key`, at its path in the file.
    package func layerErrors(key: String, layer: JSONValue) -> [Diagnostic] {
        generation.check.layerErrors(key: key, layer: layer)
    }

    /// Checks an existing payload (hand-written, or from another tool) against the platform and
    /// client rules, with no intent and no script.
    public func validate(_ payload: JSONValue, platform: Platform) -> [Diagnostic] {
        PayloadChecker(now: options.clock(), intentPaths: false).check(payload, platform: platform)
    }

    /// As ``validate(_:platform:)-(JSONValue,_)``, for a payload given as JSON text; text that is
    /// not JSON is one `json-syntax` error saying where. A key an object repeats is such an error
    /// for FCM; for APNS, a warning (`apns-duplicate-key`: Apple does not say which value counts).
    public func validate(_ payload: [UInt8], platform: Platform) -> [Diagnostic] {
        do {
            return try PayloadChecker(now: options.clock(), intentPaths: false).check(text: payload, platform: platform)
        } catch {
            return [.jsonSyntax(error)]
        }
    }

    /// Bytes one Lua state holds with every script loaded, after a full collection: what Lua
    /// has in use, and the freed small blocks kept for reuse.
    package func stateMemory() -> Int {
        (try? generation.pool.withElement { runtime in
            runtime.state.collectGarbage()
            return runtime.state.memoryInUse + runtime.state.memoryKept
        }) ?? 0
    }

    /// The number of cores, the default size of the idle pool.
    @usableFromInline package static var cores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Seconds since the epoch, from the system clock.
    @usableFromInline package static let systemClock: @Sendable () -> Int64 = { Int64(time(nil)) }
}
