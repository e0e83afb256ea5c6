internal import PushmapJSON

/// One piece of a compiled template.
enum LiquidNode: Sendable {
    /// Text written out as it is.
    case text(String)
    /// `{{ expression | filter ... }}`.
    case output(LiquidOutput)
    /// `if`/`unless` with its `elsif` branches and an optional `else`: the body of the first
    /// branch that holds is rendered, else the `else` body.
    case conditional([LiquidBranch], otherwise: [LiquidNode])
    /// `case`/`when`: every `when` whose value equals the subject renders, as in Liquid; `else`
    /// when none does.
    case choice(subject: LiquidExpression, [LiquidWhen], otherwise: [LiquidNode])
    /// `for ... in ...`, its `else` rendered when there is nothing to loop over.
    case loop(LiquidLoop)
    /// `break` or `continue` in a loop.
    case interrupt(LiquidInterrupt)
    /// `assign name = value | filters`: a variable for the rest of the text.
    case assign(String, LiquidOutput)
    /// `capture name`: the body's rendering as a variable for the rest of the text.
    case capture(String, [LiquidNode])
    /// `cycle [group:] a, b, ...`: the next of its values each time it renders.
    case cycle(group: String, [LiquidExpression])
    /// `increment name` (writes the counter, then adds 1) or `decrement name` (takes 1, then
    /// writes it): counters apart from assigned variables, starting at the recipient's whole
    /// number of the name, else 0.
    case counter(String, step: Int64)
    /// A comment, or a `raw` with nothing in it: writes nothing, but Liquid counts it as a tag,
    /// after which it looks for a pending `break` or `continue` (the twenty-fourth audit, A2).
    case comment
}

extension LiquidNode {
    /// Plain text: Liquid looks for a pending `break` or `continue` after any other node.
    var isText: Bool {
        if case .text = self { true } else { false }
    }

    /// A block's bodies (each branch, `when` and `else`); nil for a node that is no block.
    var bodies: [[LiquidNode]]? {
        switch self {
        case .conditional(let branches, let otherwise): branches.map(\.body) + [otherwise]
        case .choice(_, let whens, let otherwise): whens.map(\.body) + [otherwise]
        case .loop(let loop): [loop.body, loop.otherwise]
        default: nil
        }
    }
}

/// One `when` of a `case`: the values it matches and its body.
struct LiquidWhen: Sendable {
    let values: [LiquidExpression]
    let body: [LiquidNode]
}

enum LiquidInterrupt: Sendable {
    case `break`, `continue`
}

/// A `for` loop compiled.
struct LiquidLoop: Sendable {
    enum Source: Sendable {
        /// An array's items, an object's `[key, value]` pairs, nil as none, anything else as one.
        case collection(LiquidExpression)
        /// `(first..last)`, both ends included.
        case range(LiquidExpression, LiquidExpression)
    }

    /// The tag's markup: what it loops over, and how.
    struct Header: Sendable {
        let variable: String
        /// The variable and the collection as written (`item-order.items`): loops of one name
        /// share where the last stopped, for `offset: continue`.
        let name: String
        let source: Source
        var reversed = false
        var limit: LiquidExpression?
        var offset: LiquidExpression?
        /// `offset: continue`.
        var continues = false
    }

    let header: Header
    let body: [LiquidNode]
    let otherwise: [LiquidNode]
}

/// One branch of an `if` or `unless`: its condition (negated for `unless`) and its body.
struct LiquidBranch: Sendable {
    let condition: LiquidCondition
    let negated: Bool
    let body: [LiquidNode]
}

/// An output tag compiled: what to show, the filters it goes through, and where it was written.
struct LiquidOutput: Sendable {
    let expression: LiquidExpression
    let filters: [LiquidFilter]
    /// Whether a `default` filter follows, which makes a missing variable no problem.
    let hasDefault: Bool

    init(expression: LiquidExpression, filters: [LiquidFilter]) {
        self.expression = expression
        self.filters = filters
        hasDefault = filters.contains { $0.isDefault }
    }
}
