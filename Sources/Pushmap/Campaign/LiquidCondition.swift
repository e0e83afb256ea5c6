/// The condition of an `if`, `elsif` or `unless`: tests joined by `and` and `or`.
///
/// Liquid has no precedence and no parentheses: the joins apply from right to left, so
/// `a or b and c` is `a or (b and c)` and `a and b or c` is `a and (b or c)`.
struct LiquidCondition: Sendable {
    enum Join: Sendable { case and, or }

    /// At least one test; `joins[i]` stands between `tests[i]` and `tests[i + 1]`.
    let tests: [LiquidComparison]
    let joins: [Join]

    func holds(_ context: LiquidContext) throws(LiquidFailure) -> Bool {
        var index = tests.count - 1
        var result = try tests[index].holds(context)
        while index > 0 {
            index -= 1
            switch joins[index] {
            case .and: if result { result = try tests[index].holds(context) }
            case .or: if !result { result = try tests[index].holds(context) }
            }
        }
        return result
    }
}
