internal import Logging
internal import LuaHost
internal import PushmapJSON

/// One Lua state with the host API and every template loaded: the unit the translator's pool
/// lends out. Not thread-safe.
final class ScriptRuntime {
    let state: LuaState
    private let run: LuaReference
    private let trace: LuaReference
    /// Every field a template or a team's contract declares: what a script may read of the intent
    /// (see ``IntentAccess``).
    private(set) var declared = IntentSchema.root
    private(set) var templates: [String: TemplateInfo] = [:]
    /// The schema check and the set of pushmap's own templates, this runtime's own copies: a
    /// translation touches only what its borrowed runtime owns, since objects two threads share
    /// cost a contended reference count at every use.
    private(set) var intentCheck = IntentCheck(templates: [:])
    private(set) var ownTemplates: Set<String> = []
    /// What a run needs of each template, in the order of the intent check's names: the
    /// platforms it maps, whether its calls are metered, and whether pushmap's own template
    /// moves findings to fields of its own (``BuiltinTemplates/ownPaths``), found here once.
    private(set) var runs: [(name: String, platforms: [Platform], metered: Bool, ownPaths: Bool)] = []
    /// Whether template `name` is pushmap's own and moves its findings to fields of its own
    /// (``BuiltinTemplates/ownPaths``); a team's template of that name does not.
    func movesFindings(_ name: String) -> Bool {
        ownTemplates.contains(name) && BuiltinTemplates.ownPaths[name] != nil
    }

    /// ``runHead(_:_:)``'s references, by template name and platform list.
    private var runHeads: [(template: String, platforms: [Platform], name: LuaReference, list: LuaReference)] = []
    private static let maxRunHeads = 64

    /// Host API version the prelude provides.
    static let api = 1

    init(scripts: TemplateScripts, limits: LuaLimits, logger: Logger, ownTemplates: Set<String> = []) throws(ScriptError) {
        do {
            state = try LuaState(limits: limits, library: "pushmap", logger: logger)
            let prelude = try state.load(BuiltinFiles.prelude, name: "pushmap/prelude.lua", own: true)
            let host = try state.callForReference(prelude)
            guard let run = try state.field("run", of: host) else {
                throw ScriptError(LuaError(kind: .runtime, message: "the prelude does not define run"), script: nil)
            }
            self.run = run
            // The host's modules, with the prelude's host table: the contract and the templates'
            // rules (before intent.lua, which reads them), pushmap.get and pushmap.path, the
            // intent's admission and strict access, Apple's push types, and what the sandbox
            // leaves out.
            let modules = [
                (BuiltinFiles.contractPath, "pushmap/contract.lua"), (BuiltinFiles.pathsPath, "pushmap/paths.lua"),
                (BuiltinFiles.intentPath, "pushmap/intent.lua"), (BuiltinFiles.apnsPath, "pushmap/apns.lua"),
                (BuiltinFiles.absentPath, "pushmap/absent.lua"),
            ]
            for (path, name) in modules {
                let module = try state.load(BuiltinFiles.source(path), name: name, own: true)
                _ = try state.call(module, [.reference(host)], resultCount: 0)
                state.release(module)
            }
            guard let register = try state.field("register", of: host) else {
                throw ScriptError(LuaError(kind: .runtime, message: "pushmap/contract.lua does not define register"), script: nil)
            }
            guard let declare = try state.field("declare", of: host) else {
                throw ScriptError(LuaError(kind: .runtime, message: "pushmap/intent.lua does not define declare"), script: nil)
            }
            // The tracer takes the debug functions the host lent before any script can run.
            let tracer = try state.load(BuiltinFiles.tracer, name: "pushmap/trace.lua", own: true)
            trace = try state.callForReference(tracer, [.reference(host)])
            state.release(tracer)
            // Sealed before any template runs: no script can change what another one sees.
            try state.seal()
            var seen: [String: TemplateScript] = [:]
            var bases: [(script: TemplateScript, base: String)] = []
            var ignored: [(script: TemplateScript, fields: [String])] = []
            for script in scripts.scripts {
                let info = try load(script, register: register)
                if let base = info.base { bases.append((script, base)) }
                if !info.ignores.isEmpty { ignored.append((script, info.ignores)) }
                templates[script.name] = TemplateInfo(
                    name: script.name, api: info.api, platforms: info.platforms, fields: info.fields,
                    path: script.path, layer: script.layer, replaces: seen[script.name]?.path,
                    replacesBuiltIn: seen[script.name]?.layer == TemplateScript.builtinLayer
                )
                seen[script.name] = script
            }
            // A base names a template loaded from any folder, known only once all are loaded: a
            // misspelt one built on nothing, and its fields read as another template's.
            for (script, base) in bases where templates[base] == nil {
                let hint = Suggestion.nearest(to: base, among: templates.keys.sorted()).map { " (did you mean \($0)?)" } ?? ""
                throw Self.broken("'base': no template is named \"\(base)\"\(hint)", in: script)
            }
            // A base that leads back to the template builds on nothing: ownership went round, and
            // a run said the template "calls itself" (the twenty-sixth audit, F15).
            let baseOf = Dictionary(bases.map { ($0.script.name, $0.base) }, uniquingKeysWith: { _, last in last })
            for (script, _) in bases where seen[script.name] == script {
                var chain = [script.name]
                while let next = baseOf[chain[chain.count - 1]], chain.count <= baseOf.count {
                    chain.append(next)
                    if next == script.name {
                        throw Self.broken("'base' goes round: \(chain.joined(separator: " -> ")); a template builds on another, never on itself", in: script)
                    }
                }
            }
            // Fields of shared.lua, declared once for every template; a later folder's add to them.
            var shared: [IntentField] = []
            for script in scripts.shared {
                for field in try loadShared(script) {
                    // A later folder may add to the fields, or repeat one as it is; given another
                    // type, one of the two is wrong, and the later one won without a word (the
                    // twenty-sixth audit, F21).
                    if let earlier = shared.first(where: { $0.name == field.name }), earlier.shape != field.shape {
                        throw Self.broken("field '\(field.name)' is declared with another type in an earlier folder's shared.lua", in: script)
                    }
                    shared.removeAll { $0.name == field.name }
                    shared.append(field)
                }
            }
            if !shared.isEmpty {
                for (name, info) in templates {
                    guard let script = seen[name] else { continue }
                    var info = info
                    info.fields = try Self.adding(shared, to: info.fields, script: script)
                    templates[name] = info
                }
            }
            intentCheck = IntentCheck(templates: templates.mapValues(\.fields))
            // Any template's field may be read by any script (a template reads its base's).
            declared = IntentSchema.root(adding: templates.keys.sorted().flatMap { templates[$0]?.fields ?? [] })
            // An `ignores` name is a field an intent may have: a misspelt one ignored nothing, and
            // the host's own read of it was reported as an undeclared read on every translation
            // (the twenty-sixth audit, F11).
            let fieldNames = declared.fields.map(\.name)
            for (script, fields) in ignored {
                for field in fields where !fieldNames.contains(field) {
                    let hint = Suggestion.nearest(to: field, among: fieldNames).map { "; did you mean \($0)?" } ?? ""
                    throw Self.broken("'ignores' names '\(field)', which is no intent field\(hint)", in: script)
                }
            }
            _ = try state.call(declare, [.value(IntentAccess.spec(declared))], resultCount: 0)
            state.release(declare)
            // A fresh set, not a copy sharing the translator's storage.
            self.ownTemplates = Set(ownTemplates.map { String(decoding: Array($0.utf8), as: UTF8.self) })
            runs = intentCheck.templateNames.map { name in
                (name, templates[name]?.platforms ?? [], !self.ownTemplates.contains(name), movesFindings(name))
            }
        } catch let failure as ScriptError {
            throw failure
        } catch let error as LuaError {
            throw ScriptError(error, script: nil)
        } catch {
            throw ScriptError(LuaError(kind: .runtime, message: "\(error)"), script: nil)
        }
    }

    private func load(
        _ script: TemplateScript, register: LuaReference
    ) throws(ScriptError) -> (api: Int, platforms: [Platform], fields: [IntentField], base: String?, ignores: [String]) {
        do {
            // A first line starting with '#' (`#!/usr/bin/env lua`) is skipped, as `lua` itself
            // skips it (the twenty-sixth audit, F22: a syntax error); made a comment, so that
            // every line keeps its number.
            let chunk = try state.load(script.source.hasPrefix("#") ? "--" + script.source : script.source, name: script.path)
            let returned = try state.callForOptionalReference(chunk)
            state.release(chunk)
            // An empty file, or one that ends with no `return`: the first step of a new script.
            guard let table = returned else {
                throw Self.broken(
                    "the script returns nothing; it must end with `return` and a table (name, api, platforms, and a mapping per platform)",
                    in: script)
            }
            let description = try state.call(register, [
                .value(.string(script.layer)), .value(.string(script.name)), .value(.string(script.path)),
                .reference(table), .value(.integer(Int64(Self.returnLine(of: script.source)))),
            ])[0]
            return try Self.contract(description, script: script)
        } catch let error as LuaError {
            throw ScriptError(error, script: script)
        } catch let failure as ScriptError {
            throw failure
        } catch {
            throw ScriptError(LuaError(kind: .runtime, message: "\(error)"), script: script)
        }
    }

    /// Reads the description `register` returned.
    private static func contract(
        _ value: JSONValue, script: TemplateScript
    ) throws(ScriptError) -> (api: Int, platforms: [Platform], fields: [IntentField], base: String?, ignores: [String]) {
        let api = Int(value["api"]?.integerValue ?? 1)
        let platforms = (value["platforms"]?.arrayValue ?? []).compactMap(\.stringValue).map(Platform.init)
        let required = (value["required"]?.arrayValue ?? []).compactMap(\.stringValue)
        let ignores = (value["ignores"]?.arrayValue ?? []).compactMap(\.stringValue)
        let owns = (value["owns"]?.arrayValue ?? []).compactMap(\.stringValue)
        if let both = required.first(where: ignores.contains) {
            // The host takes an ignored field out before the mappings run, and a required one
            // must be there: no intent could pass (the twenty-sixth audit, F15).
            throw broken("'required' and 'ignores' both name '\(both)': a template cannot need a field it leaves out", in: script)
        }
        if !script.isBuiltin, let common = owns.first(where: Self.isCommon) {
            // Every template reads a common field, and a claim on it made each built-in one warn
            // that it ignores the field it then wrote (the twenty-sixth audit, F10).
            throw broken(
                "'owns' names '\(common)', a common intent field the built-in templates read; own a field of your own, declared in 'fields'",
                in: script)
        }
        return (
            api, platforms, try declaredFields(value["fields"]?.objectValue, required: required, script: script), value["base"]?.stringValue,
            ignores
        )
    }

    /// Whether `field` (`title`, `colors.title`) is one of the intent's common fields, which no
    /// built-in template owns: `carousel` and `colors.timer` are owned, `colors` and `target` not.
    private static func isCommon(_ field: String) -> Bool {
        let owned = BuiltinTemplates.all.flatMap { $0.fields.map(\.name) + $0.ownedInside }
        guard !owned.contains(field) else { return false }
        let parts = field.split(separator: ".", maxSplits: 1).map(String.init)
        guard let top = IntentSchema.root.field(named: parts[0]), !owned.contains(parts[0]) else { return false }
        guard parts.count == 2 else { return true }
        if case .object(let object) = top.shape { return object.field(named: parts[1]) != nil }
        return false
    }

    /// A contract error in `script`, at the line of its last top-level `return`.
    private static func broken(_ what: String, in script: TemplateScript) -> ScriptError {
        let line = returnLine(of: script.source)
        return ScriptError(LuaError(kind: .runtime, script: script.path, line: line, message: "template contract: \(what)"), script: script, contract: true)
    }

    /// The fields a script declares (`fields = { name = "type" }`) and those it requires
    /// (`required = { "name" }`): a required common field is the common one, made required.
    private static func declaredFields(_ declared: JSONObject?, required: [String], script: TemplateScript) throws(ScriptError) -> [IntentField] {
        var fields: [IntentField] = []
        for (name, type) in declared ?? JSONObject() {
            let shape: IntentShape
            switch type.stringValue {
            case "string": shape = .string
            case "integer": shape = .integer()
            case "number": shape = .number()
            case "boolean": shape = .boolean
            case "object": shape = .map(nil)
            case "array": shape = .array(.anything)
            default:
                let given = String(decoding: JSONWriter(style: .compact).write(type), as: UTF8.self)
                throw broken("field '\(name)' has the type \(given), expected one of string, integer, number, boolean, object, array", in: script)
            }
            if IntentSchema.root.field(named: name) != nil {
                throw broken("field '\(name)' is already a common intent field", in: script)
            }
            fields.append(IntentField(name, shape, required: required.contains(name), "Declared by \(script.path)."))
        }
        for name in required where !fields.contains(where: { $0.name == name }) {
            guard var common = IntentSchema.root.field(named: name) else {
                throw broken("'required' names '\(name)', which is neither a field of 'fields' nor a common intent field", in: script)
            }
            common.required = true
            fields.append(common)
        }
        return fields.sorted { $0.name < $1.name }
    }

    /// Reads a folder's `shared.lua`: `{ fields = {...}, required = {...} }`, for every template.
    private func loadShared(_ script: TemplateScript) throws(ScriptError) -> [IntentField] {
        let value: JSONValue
        do {
            let chunk = try state.load(script.source, name: script.path)
            value = try state.call(chunk, [], resultCount: 1)[0]
            state.release(chunk)
        } catch {
            // A value JSON cannot hold (a function) under a key shared.lua does not take: that
            // key is the fault, as a template's contract says of its own keys.
            if let key = Self.sharedKeyOf(error), key != "fields", key != "required" {
                throw Self.broken(Self.unknownSharedKey(key), in: script)
            }
            throw ScriptError(error, script: script)
        }
        guard let object = value.objectValue else {
            throw Self.broken("shared.lua must return a table, { fields = { name = \"type\" }, required = { \"name\" } }", in: script)
        }
        for (key, _) in object where key != "fields" && key != "required" {
            throw Self.broken(Self.unknownSharedKey(key), in: script)
        }
        guard object["fields"].map({ $0.objectValue != nil }) ?? true else {
            throw Self.broken("'fields' must be a table of field name = type", in: script)
        }
        // An empty Lua table reads as an object: no names.
        let required = object["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
        return try Self.declaredFields(object["fields"]?.objectValue, required: required, script: script)
    }

    /// The top-level key of the value shared.lua returned that could not be read.
    private static func sharedKeyOf(_ error: LuaError) -> String? {
        guard error.kind == .badValue, let at = error.valuePath, at.hasPrefix("$.") else { return nil }
        return String(at.dropFirst(2).prefix { $0 != "." && $0 != "[" })
    }

    /// shared.lua's contract error for a key it does not take; a template's keys say that it is no
    /// template.
    private static func unknownSharedKey(_ key: String) -> String {
        let template = ["name", "api", "platforms", "fcm", "apns", "apnsHeaders", "base", "owns", "ignores"].contains(key)
        return "unknown key \"\(key)\" in shared.lua (the keys are fields, required)"
            + (template ? "; shared.lua declares fields for every template and is no template itself" : "")
    }

    /// A template's fields with the shared ones added; the same name declared by both must have
    /// the same type.
    private static func adding(_ shared: [IntentField], to own: [IntentField], script: TemplateScript) throws(ScriptError) -> [IntentField] {
        var fields = own
        for field in shared {
            if let mine = own.first(where: { $0.name == field.name }) {
                guard mine.shape == field.shape else {
                    throw broken("field '\(field.name)' is declared with another type in shared.lua", in: script)
                }
                continue
            }
            fields.append(field)
        }
        return fields.sorted { $0.name < $1.name }
    }

    /// The line of the script's last top-level `return`, where its contract table starts: the
    /// line named in contract errors.
    static func returnLine(of source: String) -> Int {
        var line = 1
        var found = 1
        for text in source.split(separator: "\n", omittingEmptySubsequences: false) {
            if text.hasPrefix("return") { found = line }
            line += 1
        }
        return found
    }

    /// Runs template `name` for `platforms` over `intent` (a value, or a parsed tape). Each
    /// platform's payload goes to `payload`, in the order of `platforms`, read in place with its
    /// compact text (written as the host read it) while it is still in the state: valid only
    /// inside the call. Gives the script's findings.
    /// `metered` false for templates that run only pushmap's own Lua (``TemplateScripts/ownTemplates``).
    /// With `request`, the APNS request headers come last, at index `platforms.count`.
    func translate(
        _ intent: LuaArgument, template name: String, platforms: [Platform], now: Int64, metered: Bool = true, request: Bool = false,
        payload: (_ index: Int, _ node: JSONNode, _ text: UnsafeRawBufferPointer) -> Void
    ) throws(LuaError) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let head = runHead(name, platforms)
        var arguments: [LuaArgument] = [head.name, head.platforms, intent, .value(.integer(now))]
        // Strict intent access for a team's template (metered): pushmap's own are read under it by
        // a test instead, since it costs (see pushmap/intent.lua).
        if request || metered { arguments.append(.value(.bool(request))) }
        if metered { arguments.append(.value(.bool(true))) }
        // Whatever the run gives, see afterwards what it left in the state.
        defer { if metered { checkLeftOver() } }
        do {
            // The findings too are read in place: a diagnostic's strings are made, no JSONValue.
            _ = try state.callWithItems(
                run, arguments, resultCount: 1 + platforms.count + (request ? 1 : 0), itemsFrom: 0, metered: metered
            ) { position, node, text in
                if position == 0 {
                    diagnostics = diagnosticsOf(node)
                } else {
                    payload(position - 1, node, text)
                }
            }
        } catch {
            throw Self.payloadRelative(error, platforms: platforms)
        }
        return diagnostics
    }

    /// Whether the state holds more than half its memory limit between translations, even
    /// after a full collection: what a team's script keeps at file level stays from one
    /// translation to the next, and a state filled by one intent would fail every later intent
    /// it runs, pushmap's own templates too. Such a runtime is used no more (the translator takes
    /// another for the next intent, and the pool does not keep it).
    private(set) var spent = false

    /// Only a team's script can fill the state (pushmap's own keep nothing), so only its runs
    /// look. The host has collected the garbage after a call that left more than half (pmh_call):
    /// what is still there, the scripts keep.
    private func checkLeftOver() {
        spent = state.memoryInUse > state.limits.memoryBytes / 2
    }

    /// The first two arguments of `run`: the template's name and the list of platforms, kept in
    /// the state for the few pairs a service or a batch asks for line after line, so that a
    /// translation makes neither the string nor the list's table (with its share of the
    /// collector's work): 2,300 instructions fewer a batch line (245,077 to 242,817). Any pair
    /// beyond the first `maxRunHeads` goes by value.
    private func runHead(_ name: String, _ platforms: [Platform]) -> (name: LuaArgument, platforms: LuaArgument) {
        for head in runHeads where head.template == name && head.platforms == platforms {
            return (.reference(head.name), .reference(head.list))
        }
        let values: (name: JSONValue, list: JSONValue) = (.string(name), .array(platforms.map { .string($0.name) }))
        guard runHeads.count < Self.maxRunHeads, let kept = try? state.keep(values.name) else {
            return (.value(values.name), .value(values.list))
        }
        guard let list = try? state.keep(values.list) else {
            state.release(kept)
            return (.value(values.name), .value(values.list))
        }
        runHeads.append((name, platforms, kept, list))
        return (.reference(kept), .reference(list))
    }

    /// Runs template `name` again as ``translate(_:template:platforms:now:metered:request:payload:)``
    /// did, with the payload tables (and, with `request`, the APNS request headers) traced: which
    /// script line wrote each key. Slow (a hook on every line), so only for a run whose output
    /// failed a check.
    func blame(_ intent: LuaArgument, template name: String, platforms: [Platform], now: Int64, request: Bool) throws(LuaError) -> PayloadBlame {
        let head = runHead(name, platforms)
        var arguments: [LuaArgument] = [head.name, head.platforms, intent, .value(.integer(now))]
        if request { arguments.append(.value(.bool(true))) }
        // Unmetered: the same run has just finished within the budget, and the trace's own hook
        // takes the count hook's place.
        let list = try state.call(trace, arguments, resultCount: 1, metered: false)[0]
        return PayloadBlame(list.arrayValue ?? [])
    }

    /// The findings the prelude's `run` returns: nil, or a flat list of severity, path, message
    /// and platform (false for none), four items a finding. An undeclared read (severity
    /// "undeclared") carries the script's file:line as its message.
    private func diagnosticsOf(_ list: JSONNode) -> [Diagnostic] {
        guard let items = list.arrayValue, items.count >= 4 else { return [] }
        var diagnostics: [Diagnostic] = []
        diagnostics.reserveCapacity(items.count / 4)
        var iterator = items.makeIterator()
        while let severity = iterator.next(), let path = iterator.next(), let message = iterator.next(), let platform = iterator.next() {
            let undeclared = severity.equals("undeclared")
            // A script's path and message are cut as its errors are (a data key of 900 KB made a
            // finding of 1.8 MB): nearly always as they are, since the byte count is checked first.
            let path = ShownText.clipped(path.stringValue ?? "$", limit: LogLine.maxBytes)
            diagnostics.append(Diagnostic(
                severity.equals("error") ? .error : .warning,
                path: path,
                rule: undeclared ? "undeclared-field" : "script",
                message: undeclared
                    ? IntentAccess.undeclaredRead(at: path, location: message.stringValue ?? "?", declared: declared)
                    : ShownText.clipped(message.stringValue ?? "", limit: LogLine.maxBytes),
                platform: platform.equals("fcm") ? .fcm : platform.equals("apns") ? .apns : platform.stringValue.map(Platform.init)
            ))
        }
        return diagnostics
    }

    /// A payload the host cannot read is named by its place in the run's results (`$result2` is
    /// the first platform's payload); say it as the user's payload path instead.
    static func payloadRelative(_ error: LuaError, platforms: [Platform]) -> LuaError {
        // A bad value, or a payload too large to write (a memory-limit error that names its root).
        guard error.kind == .badValue || error.kind == .memoryLimit else { return error }
        var error = error
        for (index, platform) in platforms.enumerated().reversed() {
            let prefix = Self.resultRoot(index)
            guard error.message.contains(prefix) else { continue }
            error.message = error.message.replacing(prefix, with: "$") + " (in the \(platform.name) payload)"
            break
        }
        return error
    }

    /// The payload and the path in it of a value the host could not read (a bad value), as the
    /// blame's trace names them: nil when the value is no payload's.
    static func badValuePlace(_ error: LuaError, platforms: [Platform]) -> (platform: Platform, path: String)? {
        guard error.kind == .badValue, let at = error.valuePath else { return nil }
        for (index, platform) in platforms.enumerated().reversed() {
            let root = Self.resultRoot(index)
            guard at.hasPrefix(root) else { continue }
            let rest = at.dropFirst(root.count)
            guard rest.isEmpty || rest.first == "." || rest.first == "[" else { continue }
            return (platform, "$" + rest)
        }
        return nil
    }

    /// How the reader names the payload of the run's `index`th platform: the run's results after
    /// its findings, from 1.
    private static func resultRoot(_ index: Int) -> String { "$result\(index + 2)" }
}

