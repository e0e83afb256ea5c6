/// What a rendering produced: the text, and what went wrong on the way.
public struct LiquidRendering: Sendable, Equatable {
    /// The rendered text; meaningless when ``problems`` holds a problem that is not lenient.
    public var text: String
    /// Missing variables and filter failures, in the order met.
    public var problems: [LiquidProblem]

    /// A rendering of `text` with these problems.
    public init(text: String, problems: [LiquidProblem]) {
        self.text = text
        self.problems = problems
    }
}
