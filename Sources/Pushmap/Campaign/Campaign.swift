public import PushmapJSON

/// One intent sent to many recipients: compiled once, then rendered for each recipient with
/// their variables and in their language.
///
/// Every string of the intent that holds `{{` or `{%` (at any depth; not `template`, not the
/// keys of `locales`) is a ``LiquidTemplate``. `locales` maps language tags to partial intents
/// laid over the base: objects merge by key, arrays and other values replace. A recipient's tag
/// gives a chain by truncation (`fr-CA`, `fr`, the base), each field from the most specific layer
/// that has it. Each layer's merge is made once here, and written as JSON text with holes for the
/// templates and the target, so a recipient costs the renderings and one concatenation.
public struct Campaign: Sendable {
    /// A compiled string and where it is written in the intent file.
    struct Text: Sendable {
        let template: LiquidTemplate
        let path: String
    }

    /// A node of an intent layer: a template string stands for its compiled text.
    indirect enum Node: Sendable {
        case object([(key: String, value: Node)])
        case array([Node])
        case text(Int)
        case value(JSONValue)
    }

    /// The JSON text of one merged intent: constant bytes, rendered strings, and the target.
    indirect enum Piece: Sendable {
        case bytes([UInt8])
        case text(Int)
        /// `"target":...` (with a comma before when the root has other members): the
        /// recipient's target, else the intent's (nil: none).
        case target(intent: [Piece]?, comma: Bool)
    }

    let texts: [Text]
    /// Each name an `assign` or `capture` gives a value, with the path of the first text that
    /// does: a text that uses the name without assigning it is told where it is assigned.
    let assigners: [String: String]
    let base: [Piece]
    /// Each locale layer merged over its truncations and the base.
    let localized: [LocaleTag: [Piece]]
    /// For each merged layer, the intent paths of the values its layers wrote, and where in the
    /// file each was written (`$.body` → `$.locales["fr-CA"].body`): a finding goes there.
    let layerOrigins: [LocaleTag: [String: String]]
    /// The bytes of the base written out with no recipient, for an estimate of a line's size.
    let sizeHint: Int
    /// The intent as written: the base (without `locales`), and each layer by its key.
    let written: (base: JSONValue, layers: [(key: String, value: JSONValue)])

    /// Whether the intent has `locales`.
    public var hasLocales: Bool { !localized.isEmpty }

    /// Compiles `intent` and checks it as `translator` checks intents, before any recipient: a
    /// typo is one error here, not one per recipient.
    /// - Throws: every template syntax error and every malformed `locales` entry, each at its
    ///   path in the intent (a template's message names its column); when there are none, what
    ///   is wrong with the intent whoever receives it (an unknown field, a wrong type...), in the
    ///   base and in each layer.
    public init(intent: JSONValue, translator: Translator) throws(CampaignError) {
        try self.init(compiling: intent)
        let problems = problems(translator)
        if !problems.isEmpty { throw CampaignError(diagnostics: problems) }
    }

    /// Compiles `intent`: its templates and its locale layers, with no check of its fields.
    init(compiling intent: JSONValue) throws(CampaignError) {
        guard case .object(let root) = intent else {
            throw CampaignError(diagnostics: [.error("$", "wrong-type", "an intent is a JSON object, got \(intent.typeName)")])
        }
        var compiler = Compiler()
        var baseMembers: [(key: String, value: Node)] = []
        var layers: [(tag: LocaleTag, key: String, node: Node)] = []
        var writtenBase = JSONObject()
        var writtenLayers: [(key: String, value: JSONValue)] = []
        for (key, value) in root {
            guard key == "locales" else {
                writtenBase.append(key: key, value: value)
                baseMembers.append((key, compiler.node(value, path: JSONPath.root.appending(key), key: key)))
                continue
            }
            layers = compiler.layers(value)
            writtenLayers = value.objectValue.map { $0.filter { $0.value.objectValue != nil }.map { ($0.key, $0.value) } } ?? []
        }
        written = (.object(writtenBase), writtenLayers)
        if !compiler.diagnostics.isEmpty { throw CampaignError(diagnostics: compiler.diagnostics) }
        let baseNode = Node.object(baseMembers)
        texts = compiler.texts
        var assigners: [String: String] = [:]
        for text in texts {
            for name in text.template.assignedNames where assigners[name] == nil { assigners[name] = text.path }
        }
        self.assigners = assigners
        base = Self.pieces(baseNode)
        var merged: [LocaleTag: Node] = [:]
        var origins: [LocaleTag: [String: String]] = [:]
        for layer in Self.layered(layers.map { ($0.tag, $0.key, $0.node) }, over: baseNode, merge: Self.merge) {
            merged[layer.tag] = layer.merged
            var own = layer.lower.flatMap { origins[$0] } ?? [:]
            Self.leaves(layer.value, at: JSONPath.root, in: JSONPath.root.appending("locales").appending(layer.key), into: &own)
            origins[layer.tag] = own
        }
        localized = merged.mapValues(Self.pieces)
        layerOrigins = origins
        sizeHint = base.reduce(0) { total, piece in
            if case .bytes(let bytes) = piece { return total + bytes.count }
            return total + 64
        }
    }

    /// What is wrong with the intent whoever receives it: the base and each layer checked as
    /// `translator` checks intents, each error at its path in the file; then each layer merged
    /// over what lies under it, for what only the whole intent shows (a required field no layer
    /// gives, two exclusive fields from two layers). Each found once, where a recipient's line
    /// would repeat it for every recipient of that language (the forty-fourth audit, campaign F1).
    private func problems(_ translator: Translator) -> [Diagnostic] {
        var found = translator.intentFindings(written.base).filter {
            $0.severity == .error && (IntentCheck.writtenRules.contains($0.rule) || IntentCheck.wholeRules.contains($0.rule))
        }
        for (key, layer) in written.layers {
            found += translator.layerErrors(key: key, layer: layer)
        }
        // A merged layer is checked only on a base without these faults, so what it finds is
        // the layer's own.
        guard found.isEmpty else { return found }
        let layers = written.layers.compactMap { layer in LocaleTag(layer.key).map { ($0, layer.key, layer.value) } }
        for layer in Self.layered(layers, over: written.base, merge: Self.merge) {
            for finding in translator.intentFindings(layer.merged) where finding.severity == .error && IntentCheck.wholeRules.contains(finding.rule) {
                var moved = finding
                // Where the layer wrote the value, or the same path under the layer: `$.timer`
                // given `endsAt` by fr over the base's `duration` is `$.locales.fr.timer`.
                moved.path = writtenPath(finding.path, layer: layer.tag) ?? IntentCheck.layerPath(layer.key) + finding.path.dropFirst()
                moved.message += " (in the \(layer.tag) layer, merged over the base)"
                found.append(moved)
            }
        }
        return found
    }

    /// Each layer merged over the nearest of its truncations that has a layer (`fr` under
    /// `fr-CA`), else over `base`: shorter tags first, so that a truncation is merged before the
    /// layers over it. The one order of the compiled layers and of the checked ones.
    static func layered<Value>(
        _ layers: [(tag: LocaleTag, key: String, value: Value)], over base: Value, merge: (Value, Value) -> Value
    ) -> [(tag: LocaleTag, key: String, value: Value, lower: LocaleTag?, merged: Value)] {
        var merged: [LocaleTag: Value] = [:]
        return layers.sorted { $0.tag.subtags.count < $1.tag.subtags.count }.map { layer in
            let lower = layer.tag.chain.dropFirst().first { merged[$0] != nil }
            let value = merge(lower.flatMap { merged[$0] } ?? base, layer.value)
            merged[layer.tag] = value
            return (layer.tag, layer.key, layer.value, lower, value)
        }
    }

    /// `layer` laid over `base` as ``merge(_:_:)-(Node,Node)`` lays nodes: objects by key.
    static func merge(_ base: JSONValue, _ layer: JSONValue) -> JSONValue {
        guard case .object(var members) = base, case .object(let over) = layer else { return layer }
        for (key, value) in over {
            members[key] = merge(members[key] ?? .null, value)
        }
        return .object(members)
    }

    /// The values `layer` writes, by their intent path, with their path in the file; an object's
    /// members each, anything else whole (an array replaces).
    static func leaves(_ layer: Node, at path: JSONPath, in file: JSONPath, into origins: inout [String: String]) {
        guard case .object(let members) = layer else {
            origins[path.description] = file.description
            return
        }
        for (key, value) in members { leaves(value, at: path.appending(key), in: file.appending(key), into: &origins) }
    }

    /// Where in the file the value at intent path `path` was written, for a recipient given
    /// `layer`: its layer's path, or nil when the base wrote it.
    func writtenPath(_ path: String, layer: LocaleTag?) -> String? {
        guard let layer, let origins = layerOrigins[layer] else { return nil }
        // The longest written path that is `path` or holds it.
        var end = path.endIndex
        while true {
            if let file = origins[String(path[..<end])] { return file + path[end...] }
            guard let cut = path[..<end].lastIndex(where: { $0 == "." || $0 == "[" }) else { return nil }
            end = cut
        }
    }

    /// `layer` laid over `base`: objects merge by key; anything else in the layer replaces.
    static func merge(_ base: Node, _ layer: Node) -> Node {
        guard case .object(var members) = base, case .object(let over) = layer else { return layer }
        for (key, value) in over {
            if let index = members.firstIndex(where: { $0.key == key }) {
                members[index].value = merge(members[index].value, value)
            } else {
                members.append((key, value))
            }
        }
        return .object(members)
    }

    /// A merged intent as JSON text with holes; the root's `target` becomes the target hole.
    static func pieces(_ root: Node) -> [Piece] {
        var writer = PieceWriter()
        writer.bytes.append(UInt8(ascii: "{"))
        guard case .object(let members) = root else { return [] }
        var intentTarget: [Piece]?
        var first = true
        for (key, value) in members {
            if key == "target" {
                var target = PieceWriter()
                target.write(value)
                target.cut()
                intentTarget = target.pieces
                continue
            }
            if !first { writer.bytes.append(UInt8(ascii: ",")) }
            first = false
            JSONWriter.escapeJSONString(key, into: &writer.bytes)
            writer.bytes.append(UInt8(ascii: ":"))
            writer.write(value)
        }
        writer.cut()
        writer.pieces.append(.target(intent: intentTarget, comma: !first))
        writer.bytes.append(UInt8(ascii: "}"))
        writer.cut()
        return writer.pieces
    }

    /// Renders the intent for one recipient: their layer of the locales, their variables in
    /// every template, their target. `now` (epoch seconds) is what the `date` filter's "now"
    /// means: one time for the whole campaign.
    public func render(_ recipient: CampaignRecipient, lenient: Bool, now: Int64) -> CampaignRendering {
        var rendering = CampaignRendering()
        var pieces = base
        if let locale = recipient.locale, !localized.isEmpty {
            if let tag = locale.chain.first(where: { localized[$0] != nil }), let found = localized[tag] {
                pieces = found
                rendering.layer = tag
            } else {
                rendering.fallback = locale
                let tried = locale.chain.map(\.description)
                let names = tried.count == 1 ? tried[0] : tried.dropLast().joined(separator: ", ") + " or " + (tried.last ?? "")
                rendering.warnings.append(.warning("$.locales", "locale-fallback", "no \(names): sent in the default language"))
            }
        }
        // One buffer for the whole intent: each string escaped into it, not into a buffer of its own.
        var buffer = OutputBuffer(capacity: sizeHint + 64)
        let variables = LiquidWholeNumber.mark(recipient.variables, recipient.wholeNumbers)
        append(pieces, for: recipient, variables: variables, lenient: lenient, now: now, into: &buffer, rendering: &rendering)
        buffer.append(to: &rendering.intent)
        return rendering
    }

    private func append(
        _ pieces: [Piece], for recipient: CampaignRecipient, variables: JSONValue, lenient: Bool, now: Int64, into buffer: inout OutputBuffer,
        rendering: inout CampaignRendering
    ) {
        for piece in pieces {
            switch piece {
            case .bytes(let constant):
                constant.withUnsafeBufferPointer { if let base = $0.baseAddress { buffer.append(base, count: $0.count) } }
            case .text(let index):
                let text = texts[index]
                let rendered = text.template.render(variables, lenient: lenient, now: now)
                for problem in rendered.problems { rendering.note(problem, at: text.path, lenient: lenient, assigners: assigners) }
                JSONWriter.escape(rendered.text, into: &buffer)
            case .target(let intentTarget, let comma):
                guard recipient.target != nil || intentTarget != nil else { continue }
                if comma { buffer.append(UInt8(ascii: ",")) }
                buffer.append(ascii: #""target":"#)
                if let given = recipient.target {
                    // The translator reads keys in any order: no sorting.
                    let target = JSONWriter(style: .compact, sortKeys: false).write(given)
                    target.withUnsafeBufferPointer { if let base = $0.baseAddress { buffer.append(base, count: $0.count) } }
                } else if let intentTarget {
                    let start = buffer.count
                    append(intentTarget, for: recipient, variables: variables, lenient: lenient, now: now, into: &buffer, rendering: &rendering)
                    // As rendered, for the summary's count of targets (the thirty-seventh audit,
                    // F3: recipients rendered to one token were not counted).
                    rendering.target = try? JSONParser.parse(Array(UnsafeBufferPointer(start: buffer.start + start, count: buffer.count - start)))
                }
            }
        }
    }
}

/// Builds the layers' nodes, compiling each template once and noting what does not compile.
private struct Compiler {
    var texts: [Campaign.Text] = []
    var diagnostics: [Diagnostic] = []

    mutating func node(_ value: JSONValue, path: JSONPath, key: String? = nil) -> Campaign.Node {
        switch value {
        case .string(let string):
            // `template` names a script: never a template of text.
            guard key != "template", LiquidLexer.hasMarkup(string) else { return .value(value) }
            do {
                let template = try LiquidTemplate(string)
                if template.isPlainText { return .value(value) }
                texts.append(Campaign.Text(template: template, path: path.description))
                return .text(texts.count - 1)
            } catch {
                diagnostics.append(.error(path.description, "template-syntax", "\(Self.place(error.column, in: string)): \(error.message)"))
                return .value(value)
            }
        case .object(let object):
            // Only values render: a key holding a tag went to every phone as written (the
            // twenty-eighth audit, F1: a data key `{{ k }}`), refused before any recipient.
            for member in object where LiquidLexer.hasMarkup(member.key) {
                diagnostics.append(
                    .error(
                        path.appending(member.key).description, "template-syntax",
                        "the key holds a Liquid tag, but a campaign renders values only, never keys: every phone would get the key as written; put the personal part in the value"))
            }
            return .object(object.map { member in (member.key, node(member.value, path: path.appending(member.key))) })
        case .array(let items):
            return .array(items.enumerated().map { index, item in node(item, path: path.appending(index)) })
        default:
            return .value(value)
        }
    }

    /// `locales`: an object of partial intents by language tag.
    mutating func layers(_ value: JSONValue) -> [(tag: LocaleTag, key: String, node: Campaign.Node)] {
        let path = JSONPath.root.appending("locales")
        guard case .object(let object) = value else {
            diagnostics.append(.error(path.description, "wrong-type", "expected an object of partial intents by language tag, got \(value.typeName)"))
            return []
        }
        var layers: [(tag: LocaleTag, key: String, node: Campaign.Node)] = []
        for (key, layer) in object {
            let at = path.appending(key)
            guard let tag = LocaleTag(key) else {
                diagnostics.append(.error(at.description, "locale-tag", LocaleTag.notATag(key)))
                continue
            }
            if let twin = layers.first(where: { $0.tag == tag }) {
                diagnostics.append(.error(at.description, "locale-tag", "'\(key)' is \(twin.tag) again: give each language once"))
                continue
            }
            guard case .object(let members) = layer else {
                diagnostics.append(.error(at.description, "wrong-type", "expected an object (a partial intent), got \(layer.typeName)"))
                continue
            }
            if members["locales"] != nil {
                diagnostics.append(.error(at.appending("locales").description, "unknown-field", "a locale's layer cannot hold locales of its own"))
                continue
            }
            layers.append((tag, key, .object(members.map { member in (member.key, node(member.value, path: at.appending(member.key), key: member.key)) })))
        }
        return layers
    }

    /// Where character `column` (from 1) of `text` is: "column 12", or "line 2, column 10" in a
    /// text of many lines, counted from its last line feed.
    static func place(_ column: Int, in text: String) -> String {
        var line = 1, start = 0
        for (offset, character) in text.prefix(max(column - 1, 0)).enumerated() where character == "\n" || character == "\r\n" {
            line += 1
            start = offset + 1
        }
        return line == 1 ? "column \(column)" : "line \(line), column \(column - start)"
    }
}

/// Writes nodes as JSON text, cutting it into pieces at each template.
private struct PieceWriter {
    var pieces: [Campaign.Piece] = []
    var bytes: [UInt8] = []

    mutating func cut() {
        if !bytes.isEmpty { pieces.append(.bytes(bytes)) }
        bytes = []
    }

    mutating func write(_ node: Campaign.Node) {
        switch node {
        case .value(let value):
            JSONWriter(style: .compact).write(value, into: &bytes)
        case .text(let index):
            cut()
            pieces.append(.text(index))
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(item)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONWriter.escapeJSONString(member.key, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                write(member.value)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }
}
