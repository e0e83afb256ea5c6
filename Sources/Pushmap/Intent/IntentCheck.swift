@_spi(Engine) package import PushmapJSON

/// ``IntentSchema`` compiled once per set of templates, and the one walk that checks an intent's
/// tape against it.
///
/// The walk is generic over what it does with a problem (an ``IntentReporter``): the translator
/// first walks with ``FirstProblem``, which stops at the first problem and builds no message,
/// since almost every intent a service sends is valid; only when that says no does it walk again
/// with ``IntentFindings``, which goes on to the end and says, at each JSON path, what is wrong.
/// Swift specialises the walk for each reporter, so the yes-or-no walk pays for no message.
package struct IntentCheck: Sendable {
    /// The templates' names, in the order of ``accepts(_:)``'s index.
    package let templateNames: [String]
    /// One schema per template, by index (the common fields and the template's own), then the
    /// common fields alone, for an intent whose template is unknown.
    private let roots: [Shape]
    private let templates: WordTable
    private let plainIndex: Int?

    /// Only the cases that hold a shape are boxed: a string or an integer field is matched
    /// without a reference count.
    enum Shape: Sendable {
        case anything, string, boolean, template
        case integer(Int64?, Int64?)
        case number(Double?, Double?)
        case choice(WordTable)
        case object(Object)
        indirect case array(Shape, maxItems: Int?)
        indirect case map(Shape?)
        /// A field only campaigns read: a warning here, said by the explaining walk alone.
        indirect case campaignOnly(Shape, String)
        /// The root's `id`: a string the walk notes the place of as it passes.
        case messageID
    }

    /// A class, so that matching a shape takes one reference rather than copying its arrays.
    final class Object: Sendable {
        let names: WordTable
        let shapes: [Shape]
        /// The required fields, and each group's fields.
        let required: FieldSet
        let exclusive: [FieldSet]
        let oneRequired: [FieldSet]
        /// The names a did-you-mean picks from.
        let suggestible: [String]

        init(_ object: IntentObject, shapes: [Shape]) {
            names = WordTable(object.fields.map(\.name))
            self.shapes = shapes
            required = FieldSet(object.fields.indices.filter { object.fields[$0].required })
            exclusive = object.exclusive.map { FieldSet($0.compactMap(object.fieldIndex(named:))) }
            oneRequired = object.oneRequired.map { FieldSet($0.compactMap(object.fieldIndex(named:))) }
            suggestible = object.fields.map(\.name).filter { $0 != "$schema" }
        }
    }

    /// - Parameter templates: each template's name and its own fields.
    package init(templates: [String: [IntentField]]) {
        let names = templates.keys.sorted()
        templateNames = names
        self.templates = WordTable(names)
        roots = (names.map { templates[$0] ?? [] } + [[]]).map { Self.compile(.object(IntentSchema.root(adding: $0))) }
        plainIndex = names.firstIndex(of: "plain")
    }

    private static func compile(_ shape: IntentShape) -> Shape {
        switch shape {
        case .anything: .anything
        case .string, .text: .string
        case .boolean: .boolean
        case .template: .template
        case .integer(let minimum, let maximum): .integer(minimum, maximum)
        case .number(let minimum, let maximum): .number(minimum, maximum)
        case .choice(let choices): .choice(WordTable(choices))
        case .array(let item, let maxItems): .array(compile(item), maxItems: maxItems)
        case .map(let item): .map(item.map(compile))
        case .object(let object):
            .object(Object(object, shapes: object.fields.map { field in
                if field.isMessageID { return .messageID }
                return field.campaignOnly.map { .campaignOnly(compile(field.shape), $0) } ?? compile(field.shape)
            }))
        }
    }

    /// The index in ``templateNames`` of the intent's template when the intent is valid for it;
    /// nil when it is not valid, or its template is unknown. No string is made and none hashed.
    package func accepts(_ tape: JSONTape) -> Int? {
        var messageID: String?
        return accepts(tape, messageID: &messageID)
    }

    /// As ``accepts(_:)``, with the intent's top-level `id` when it has one.
    package func accepts(_ tape: JSONTape, messageID: inout String?) -> Int? {
        var reporter = FirstProblem()
        let index = templateIndex(tape)
        guard let index, walkIntent(tape, root: roots[index], reporter: &reporter) else { return nil }
        if let position = reporter.messageIDPosition {
            var reader = tape.reader
            reader.position = position
            messageID = String(decoding: reader.string(), as: UTF8.self)
        }
        return index
    }

    /// What is wrong with the intent on `tape`, each problem at its JSON path, in the intent's order.
    package func findings(_ tape: JSONTape) -> [Diagnostic] {
        var reporter = IntentFindings()
        let index = templateIndex(tape)
        _ = walkIntent(tape, root: roots[index ?? templateNames.count], reporter: &reporter)
        // An unknown template is the one thing to say: its fields would all read as unknown.
        if index == nil {
            let unknown = reporter.diagnostics.filter { $0.rule == "unknown-template" }
            if !unknown.isEmpty { return unknown }
        }
        return reporter.diagnostics + localeLayerWarnings(tape)
    }

    /// The rules whose findings no recipient's values can mend: what is wrong with an intent as
    /// written (a campaign's template renders a string where a string is, whatever its text).
    package static let writtenRules: Set<String> = ["unknown-field", "wrong-type", "out-of-range", "too-many-items", "unknown-template"]

    /// The rules only a whole intent answers, whatever its values render to: a campaign checks
    /// them once in its base and in each layer merged over it, not once per recipient.
    package static let wholeRules: Set<String> = ["missing-field", "exclusive-fields"]

    /// The path in the file of the locale layer `key`: `$.locales.fr`, `$.locales["fr-CA"]`.
    package static func layerPath(_ key: String) -> String {
        JSONPath.member(JSONPath.member("$", "locales"), key)
    }

    /// What `pushmap campaign` refuses in the locale layer `key` (a partial intent): its errors
    /// under ``writtenRules``, each at its path in the file (`$.locales.fr.bogus`).
    package func layerErrors(key: String, layer: JSONValue) -> [Diagnostic] {
        let at = Self.layerPath(key)
        return findings(JSONTape(layer)).compactMap { finding in
            guard finding.severity == .error, Self.writtenRules.contains(finding.rule) else { return nil }
            var moved = finding
            moved.path = at + finding.path.dropFirst()
            moved.message = finding.message.replacing(" at $", with: " at " + at, maxReplacements: 1)
            return moved
        }
    }

    /// A locale layer only a campaign reads, checked as the campaign checks it: the translation
    /// sends the base text, so what the campaign would refuse is a warning here (the
    /// twenty-fifth audit, F13: `translate` said nothing of a layer `campaign` refused).
    private func localeLayerWarnings(_ tape: JSONTape) -> [Diagnostic] {
        var reader = tape.reader
        guard reader.op == JSONTape.Op.object else { return [] }
        for _ in 0..<reader.count() {
            guard JSONItems.same(reader.string(), "locales"), reader.op == JSONTape.Op.object else {
                reader.skip()
                continue
            }
            var warnings: [Diagnostic] = []
            for _ in 0..<reader.count() {
                let key = String(decoding: reader.string(), as: UTF8.self)
                if LocaleTag(key) == nil {
                    // No recipient's language is ever this layer's (the forty-fourth audit, campaign F6).
                    let at = Self.layerPath(key)
                    warnings.append(.warning(at, "locale-tag", LocaleTag.notATag(key) + "; pushmap campaign refuses this layer"))
                }
                guard reader.op == JSONTape.Op.object else {
                    reader.skip()
                    continue
                }
                for var error in layerErrors(key: key, layer: reader.value()) {
                    error.severity = .warning
                    error.message += "; pushmap campaign refuses this layer"
                    warnings.append(error)
                }
            }
            return warnings
        }
        return []
    }

    private func walkIntent<Reporter: IntentReporter>(_ tape: JSONTape, root: Shape, reporter: inout Reporter) -> Bool {
        var reader = tape.reader
        guard reader.op == JSONTape.Op.object else {
            guard Reporter.explains else { return false }
            reporter.add(.error("$", "wrong-type", "an intent is a JSON object, got \(reader.typeName)"))
            return false
        }
        return walk(&reader, root, &reporter)
    }

    /// The index of the root object's `template`: plain's when it has none (or it is not a
    /// string: the walk refuses that anyway), nil when it names no template.
    private func templateIndex(_ tape: JSONTape) -> Int? {
        var reader = tape.reader
        guard reader.op == JSONTape.Op.object else { return plainIndex }
        for _ in 0..<reader.count() {
            if JSONItems.same(reader.string(), "template") {
                guard reader.op == JSONTape.Op.string else { return plainIndex }
                return templates.index(of: reader.string())
            }
            reader.skip()
        }
        return plainIndex
    }

    /// Walks one value against `shape`. False: stop, the reporter has had enough.
    private func walk<Reporter: IntentReporter>(_ reader: inout JSONTapeReader, _ shape: Shape, _ reporter: inout Reporter) -> Bool {
        let op = reader.op
        switch shape {
        case .anything:
            reader.skip()
            return true
        case .string:
            guard op == JSONTape.Op.string else { return wrongType(&reader, "a string", &reporter) }
            reader.skip()
            return true
        case .messageID:
            guard op == JSONTape.Op.string else { return wrongType(&reader, "a string", &reporter) }
            reporter.messageID(at: reader.position)
            reader.skip()
            return true
        case .boolean:
            guard op == JSONTape.Op.true || op == JSONTape.Op.false else { return wrongType(&reader, "true or false", &reporter) }
            reader.skip()
            return true
        case .integer(let minimum, let maximum):
            guard op == JSONTape.Op.integer else {
                guard Reporter.explains else { return false }
                if op == JSONTape.Op.double {
                    let number = reader.double()
                    if number.rounded() == number {
                        // Past Int64 only a double holds it, however it was written.
                        // 1e2 is as much a double as 3.0 (intent.md's number table): said as digits.
                        let advice = abs(number) >= 0x1p63 ? "beyond what a 64-bit integer holds" : "write it as \(Int64(number)), digits without a fraction or exponent"
                        reporter.add(.error(reporter.path, "wrong-type", "expected an integer, got \(number): \(advice)"))
                        return true
                    }
                    reporter.add(.error(reporter.path, "wrong-type", "expected an integer, got number"))
                    return true
                }
                return wrongType(&reader, "an integer", &reporter)
            }
            return walkBounds(reader.integer(), minimum, maximum, &reporter)
        case .number(let minimum, let maximum):
            let number: Double
            if op == JSONTape.Op.integer {
                number = Double(reader.integer())
            } else if op == JSONTape.Op.double {
                number = reader.double()
            } else {
                return wrongType(&reader, "a number", &reporter)
            }
            return walkBounds(number, minimum, maximum, &reporter)
        case .choice(let choices):
            guard op == JSONTape.Op.string else { return wrongType(&reader, "a string", &reporter) }
            let bytes = reader.string()
            guard choices.index(of: bytes) == nil else { return true }
            guard Reporter.explains else { return false }
            let text = String(decoding: bytes, as: UTF8.self)
            let message = "'\(text)' is not one of \(choices.names.joined(separator: ", "))" + Self.hint(text, among: choices.names, near: Suggestion.nearest(to: text, among: choices.names))
            reporter.add(.error(reporter.path, "bad-value", message))
            return true
        case .template:
            guard op == JSONTape.Op.string else { return wrongType(&reader, "a string", &reporter) }
            let bytes = reader.string()
            guard templates.index(of: bytes) == nil else { return true }
            guard Reporter.explains else { return false }
            let text = String(decoding: bytes, as: UTF8.self)
            let hint = Self.hint(text, among: templateNames, near: Suggestion.nearest(to: text, among: templateNames))
            var message = "unknown template '\(text)'" + hint + " (known: \(templateNames.joined(separator: ", ")))"
            // No near name: most likely the team's scripts were not given.
            if hint.isEmpty { message += "; a template of your own is loaded from its folder with --scripts DIR or PUSHMAP_SCRIPTS" }
            reporter.add(.error(reporter.path, "unknown-template", message))
            return true
        case .array(let item, let maxItems):
            guard op == JSONTape.Op.array else { return wrongType(&reader, "an array", &reporter) }
            let count = reader.count()
            if let maxItems, count > maxItems {
                guard Reporter.explains else { return false }
                reporter.add(.error(reporter.path, "too-many-items", "\(count) items, at most \(maxItems) allowed"))
            }
            for index in 0..<count {
                reporter.enter(index)
                defer { reporter.leave() }
                guard walk(&reader, item, &reporter) else { return false }
            }
            return true
        case .map(let item):
            guard op == JSONTape.Op.object else { return wrongType(&reader, "an object", &reporter) }
            guard let item else {
                reader.skip()
                return true
            }
            for _ in 0..<reader.count() {
                reporter.enter(reader.string())
                defer { reporter.leave() }
                guard walk(&reader, item, &reporter) else { return false }
            }
            return true
        case .object(let object):
            guard op == JSONTape.Op.object else { return wrongType(&reader, "an object", &reporter) }
            return walkObject(&reader, object, &reporter)
        case .campaignOnly(let shape, let message):
            guard Reporter.explains else { return false }
            reporter.add(.warning(reporter.path, "campaign-only", message))
            return walk(&reader, shape, &reporter)
        }
    }

    /// An object's members in their order, then its required fields and groups.
    private func walkObject<Reporter: IntentReporter>(_ reader: inout JSONTapeReader, _ object: Object, _ reporter: inout Reporter) -> Bool {
        var present = FieldSet()
        // The fields an unknown key was taken for (`tokn` for token): their absence is that
        // key's one finding, not a second one.
        var meant = FieldSet()
        for _ in 0..<reader.count() {
            let key = reader.string()
            guard let index = object.names.index(of: key) else {
                guard Reporter.explains else { return false }
                let name = String(decoding: key, as: UTF8.self)
                let near = Suggestion.nearest(to: name, among: object.suggestible)
                let message = "unknown field '\(ShownText.clipped(name))' at \(reporter.path)" + Self.hint(name, among: object.suggestible, near: near)
                if let near, let field = object.names.names.firstIndex(of: near) { meant.insert(field) }
                reporter.enter(key)
                reporter.add(.error(reporter.path, "unknown-field", message))
                reporter.leave()
                reader.skip()
                continue
            }
            present.insert(index)
            reporter.enter(key)
            defer { reporter.leave() }
            guard walk(&reader, object.shapes[index], &reporter) else { return false }
        }
        // Rarely anything to say here: each rule is a word operation unless it is broken.
        if !present.isSuperset(of: object.required) {
            guard Reporter.explains else { return false }
            for index in object.required.indices where !present.contains(index) && !meant.contains(index) {
                reporter.add(.error(reporter.path, "missing-field", "missing required field '\(object.names.names[index])'"))
            }
        }
        for group in object.exclusive where present.intersection(group).count > 1 {
            guard Reporter.explains else { return false }
            let names = group.indices.map { object.names.names[$0] }
            let given = present.intersection(group).indices.map { object.names.names[$0] }
            reporter.add(.error(reporter.path, "exclusive-fields", "give only one of \(Self.quoted(names)), not \(Self.quoted(given))"))
        }
        for group in object.oneRequired where present.intersection(group).count == 0 && meant.intersection(group).count == 0 {
            guard Reporter.explains else { return false }
            reporter.add(.error(reporter.path, "missing-field", "needs one of \(Self.quoted(group.indices.map { object.names.names[$0] }))"))
        }
        return true
    }

    private func walkBounds<Number: Comparable, Reporter: IntentReporter>(
        _ number: Number, _ minimum: Number?, _ maximum: Number?, _ reporter: inout Reporter
    ) -> Bool {
        if let minimum, number < minimum {
            guard Reporter.explains else { return false }
            reporter.add(.error(reporter.path, "out-of-range", "\(number) is below the minimum of \(minimum)"))
        }
        if let maximum, number > maximum {
            guard Reporter.explains else { return false }
            reporter.add(.error(reporter.path, "out-of-range", "\(number) is above the maximum of \(maximum)"))
        }
        return true
    }

    private func wrongType<Reporter: IntentReporter>(_ reader: inout JSONTapeReader, _ expected: String, _ reporter: inout Reporter) -> Bool {
        guard Reporter.explains else { return false }
        reporter.add(.error(reporter.path, "wrong-type", "expected \(expected), got \(reader.typeName)"))
        reader.skip()
        return true
    }

    /// "Did you mean" for `text`; a name it only equals by canonical equivalence looks the same
    /// when printed, so that case is spelt out.
    /// What to say after an unknown name: that it is a known one in other characters, or
    /// `near`, the nearest of `names` (found by the caller, which may want it too).
    private static func hint(_ text: String, among names: [String], near: String?) -> String {
        if let twin = names.first(where: { $0 == text }) {
            return "; it looks like '\(twin)' but is written with other Unicode characters (such as a Kelvin sign for K)"
        }
        return near.map { "; did you mean '\($0)'?" } ?? ""
    }

    private static func quoted(_ names: [String]) -> String {
        names.map { "'\($0)'" }.joined(separator: names.count == 2 ? " and " : ", ")
    }
}

/// A set of an object's fields, by index: one word for the usual object, more words only for an
/// object with more than 64 fields (a team may declare that many).
struct FieldSet: Sendable {
    private var first: UInt64 = 0
    private var rest: [UInt64]?

    init() {}

    init(_ indices: [Int]) {
        for index in indices { insert(index) }
    }

    /// Inlined for the one-word case, which every intent field takes: a call per member cost
    /// more than the bit.
    @inline(__always)
    mutating func insert(_ index: Int) {
        if index < 64 {
            first |= 1 << index
            return
        }
        insertBeyondFirstWord(index)
    }

    private mutating func insertBeyondFirstWord(_ index: Int) {
        var words = rest ?? []
        let word = index / 64 - 1
        if words.count <= word { words += [UInt64](repeating: 0, count: word + 1 - words.count) }
        words[word] |= 1 << (index % 64)
        rest = words
    }

    func contains(_ index: Int) -> Bool {
        if index < 64 { return first & (1 << index) != 0 }
        let word = index / 64 - 1
        guard let rest, word < rest.count else { return false }
        return rest[word] & (1 << (index % 64)) != 0
    }

    func isSuperset(of other: FieldSet) -> Bool {
        guard first & other.first == other.first else { return false }
        guard let wanted = other.rest else { return true }
        return wanted.indices.allSatisfy { word in (rest.map { word < $0.count ? $0[word] : 0 } ?? 0) & wanted[word] == wanted[word] }
    }

    func intersection(_ other: FieldSet) -> FieldSet {
        var both = FieldSet()
        both.first = first & other.first
        if let mine = rest, let theirs = other.rest {
            both.rest = zip(mine, theirs).map { $0 & $1 }
        }
        return both
    }

    var count: Int { first.nonzeroBitCount + (rest?.reduce(0) { $0 + $1.nonzeroBitCount } ?? 0) }

    /// The indices in the set, in order.
    var indices: [Int] {
        var all = (0..<64).filter { first & (1 << $0) != 0 }
        for (word, bits) in (rest ?? []).enumerated() {
            all += (0..<64).filter { bits & (1 << $0) != 0 }.map { (word + 1) * 64 + $0 }
        }
        return all
    }
}
