/// One thing a rendering could not do.
public enum LiquidProblem: Sendable, Equatable {
    /// A variable (its dotted path as written, such as `order.items[0].name`) the recipient's
    /// `vars` lack, with no `default` filter.
    case missingVariable(String)
    /// A filter given a value or argument it cannot use (`date` on a value that is no time).
    case filterFailed(filter: String, message: String)
    /// A value used where Liquid refuses it (a number ordered against a string) or where it cannot
    /// stay exact (a whole number of `vars` beyond 64 bits compared with a fraction).
    case renderFailed(message: String)
    /// The rendering grew past `limit` UTF-8 bytes and was cut there (at a character's end).
    case outputTooLong(limit: Int)
}
