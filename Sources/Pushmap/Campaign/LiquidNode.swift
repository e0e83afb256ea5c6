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
