/// The condition of an `if`, `elsif` or `unless`: tests joined by `and` and `or`.
///
/// Liquid has no precedence and no parentheses: the joins apply from right to left, so
/// `a or b and c` is `a or (b and c)` and `a and b or c` is `a and (b or c)`.
struct LiquidCondition: Sendable {
    enum Join: Sendable { case and, or }

    /// At least one test; `joins[i]` stands between `tests[i]` and `tests[i + 1]`.
    let tests: [LiquidComparison]
    let joins: [Join]

    /// Evaluated from the left, as Liquid does, and no further than the answer needs: in
    /// `true or n > s` the comparison Liquid would refuse is never made.
    func holds(_ context: LiquidContext) throws(LiquidFailure) -> Bool {
        var index = 0
        while true {
            let result = try tests[index].holds(context)
            if index == joins.count { return result }
            switch joins[index] {
            case .and: if !result { return false }
            case .or: if result { return true }
            }
            index += 1
        }
    }
}
