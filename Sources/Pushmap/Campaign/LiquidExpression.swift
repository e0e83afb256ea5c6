internal import PushmapJSON

/// A value in a tag: a literal or a variable's path.
indirect enum LiquidExpression: Sendable {
    case literal(JSONValue)
    /// `blank`: equal to nil, false, and empty or all-blank strings, arrays and objects.
    case blank
    /// `empty`: equal to empty strings, arrays and objects.
    case empty
    case variable(LiquidPath)
    /// `(first..last)`: the whole numbers from one to the other, both included.
    case range(LiquidExpression, LiquidExpression)

    /// Whether this is `empty` or `blank`, which stand for tests, not values.
    var isSpecial: Bool {
        switch self {
        case .empty, .blank: true
        default: false
        }
    }

    /// Whether this is a value written in the template.
    var isLiteral: Bool {
        if case .literal = self { return true }
        return false
    }

    /// The path as written of a variable the context lacks; nil for a literal or a variable found.
    func missingPath(_ context: LiquidContext) -> String? {
        if case .range(let first, let last) = self { return first.missingPath(context) ?? last.missingPath(context) }
        guard case .variable(let path) = self, path.resolve(context) == nil else { return nil }
        return path.written
    }

    /// The value in `context`; nil when a variable's path does not resolve.
    func evaluate(_ context: LiquidContext) -> JSONValue? {
        switch self {
        case .literal(let value): value
        case .blank, .empty: .string("")
        case .range(let first, let last): Self.numbers(first, last, context)
        case .variable(let path): path.resolve(context)
        }
    }

    /// A range as a list of its numbers: nil when an end is missing, no numbers when an end is
    /// no whole number. Past the loops' limit the rest is left out: no loop could reach it.
    private static func numbers(_ first: LiquidExpression, _ last: LiquidExpression, _ context: LiquidContext) -> JSONValue? {
        guard let from = first.evaluate(context), let to = last.evaluate(context) else { return nil }
        guard let start = try? LiquidLoopItems.end(from, of: first), let end = try? LiquidLoopItems.end(to, of: last) else { return .array([]) }
        let items = LiquidLoopItems.range(from: start, to: end)
        return .array((0..<min(items.count, LiquidTemplate.maxLoopPasses + 1)).map { items[$0] })
    }
}

/// A variable's path: a name, then `.key`, `[index]`, `["key"]` or `[variable]` steps.
struct LiquidPath: Sendable {
    enum Step: Sendable {
        /// `.key`: a member, else a property (`size`, `first`, `last`).
        case key(String)
        /// `["key"]`: a member only. Liquid reads a property by a dot alone (a command of its
        /// VariableLookup): `h["first"]` is no variable (the twenty-second audit, N12).
        case bracketed(String)
        case index(Int)
        /// `[variable]`: its value an index, or a member's name (as `["key"]`).
        case lookup(LiquidExpression)
    }

    let root: String
    let steps: [Step]
    /// The path as written, for messages.
    let written: String

    /// The value at the path in the recipient's variables, or nil when some step finds nothing.
    func resolve(_ context: LiquidContext) -> JSONValue? {
        guard var value = context[root] else { return nil }
        for step in steps {
            let next: JSONValue?
            switch step {
            case .key(let key): next = Self.member(key, of: value)
            case .bracketed(let key): next = Self.member(key, of: value, properties: false)
            case .index(let index): next = Self.element(index, of: value)
            case .lookup(let expression):
                switch expression.evaluate(context) {
                case .integer(let index)?: next = Self.element(Int(truncatingIfNeeded: index), of: value)
                case .string(let key)?: next = Self.member(key, of: value, properties: false)
                default: next = nil
                }
            }
            guard let next else { return nil }
            value = next
        }
        return value
    }

    /// An object's member, else the properties Liquid gives arrays (`size`, `first`, `last`),
    /// objects (`size`, and `first` as Ruby's Hash#first: the first member as [key, value]) and
    /// strings (`size`, counting characters, as `truncate` does).
    static func member(_ key: String, of value: JSONValue, properties: Bool = true) -> JSONValue? {
        // A whole number beyond 64 bits is a number, whatever its mark is made of.
        if LiquidWholeNumber(value) != nil { return nil }
        if !properties {
            guard case .object(let object) = value else { return nil }
            return object[key]
        }
        switch value {
        case .object(let object):
            if let member = object[key] { return member }
            switch key {
            case "size": return .integer(Int64(object.count))
            case "first":
                var members = object.makeIterator()
                return members.next().map { .array([.string($0.key), $0.value]) }
            default: return nil
            }
        case .array(let array):
            switch key {
            case "size": return .integer(Int64(array.count))
            case "first": return array.first
            case "last": return array.last
            default: return nil
            }
        case .string(let string):
            guard key == "size" else { return nil }
            return .integer(Int64(string.count))
        default:
            return nil
        }
    }

    /// An array's element; a negative index counts from the end (`[-1]` is the last).
    static func element(_ index: Int, of value: JSONValue) -> JSONValue? {
        guard case .array(let array) = value, LiquidWholeNumber(value) == nil else { return nil }
        let position = index < 0 ? array.count + index : index
        // Not a ternary: with JSONValue's nil literal, `: nil` would be `.null`, a value found.
        guard array.indices.contains(position) else { return nil }
        return array[position]
    }
}

/// What a rendering reads: the recipient's variables, those the template sets (`assign`,
/// `capture`, a loop's item and `forloop`), which hide the recipient's of the same name, and
/// the time `"now"` means.
struct LiquidContext {
    let variables: JSONValue
    let now: Int64
    /// What `assign` and `capture` set: for the rest of the text, loops included.
    var locals: [String: JSONValue] = [:]
    /// Each open loop's item and `forloop`, the innermost last: they hide an assigned variable of
    /// the same name inside the loop, and an assignment there outlives the loop, as in Liquid.
    var loops: [(item: String, value: JSONValue, forloop: JSONValue)] = []
    /// The counters of `increment` and `decrement`, which an assigned variable of the same name
    /// hides, as in Liquid.
    var counters: [String: JSONValue] = [:]

    init(variables: JSONValue, now: Int64) {
        self.variables = variables
        self.now = now
    }

    /// A variable by its name.
    subscript(root: String) -> JSONValue? {
        for loop in loops.reversed() {
            if loop.item == root { return loop.value }
            if root == "forloop" { return loop.forloop }
        }
        if let local = locals[root] { return local }
        if let counter = counters[root] { return counter }
        return variables[root]
    }
}
