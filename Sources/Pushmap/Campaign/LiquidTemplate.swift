public import PushmapJSON

/// A string of an intent compiled as a Liquid template, rendered once per recipient.
///
/// INTERIM: this file fixes the API the campaign code is written against; the compiler and
/// renderer are being written on the `liquid` branch. Until then every text is plain.
public struct LiquidTemplate: Sendable {
    /// The text as written.
    public let source: String

    /// Compiles `source`.
    /// - Throws: ``LiquidSyntaxError`` naming the column (in characters, from 1) where it goes wrong.
    public init(_ source: String) throws(LiquidSyntaxError) {
        self.source = source
    }

    /// Whether the text has no tag at all, so rendering it gives the text back.
    public var isPlainText: Bool { true }

    /// Renders the template with `variables` (a JSON object: the recipient's `vars`).
    /// - Parameter lenient: whether a missing variable renders empty (and is reported) instead of
    ///   stopping the rendering.
    public func render(_ variables: JSONValue, lenient: Bool) -> LiquidRendering {
        LiquidRendering(text: source, problems: [])
    }
}

/// What a rendering produced: the text, and what went wrong on the way.
public struct LiquidRendering: Sendable, Equatable {
    /// The rendered text; meaningless when ``problems`` holds a problem that is not lenient.
    public var text: String
    /// Missing variables and filter failures, in the order met.
    public var problems: [LiquidProblem]

    public init(text: String, problems: [LiquidProblem]) {
        self.text = text
        self.problems = problems
    }
}

/// One thing a rendering could not do.
public enum LiquidProblem: Sendable, Equatable {
    /// A variable (its dotted path as written, such as `order.items[0].name`) the recipient's
    /// `vars` lack, with no `default` filter.
    case missingVariable(String)
    /// A filter given a value or argument it cannot use (`date` on a value that is no time).
    case filterFailed(filter: String, message: String)
}

/// Why a template does not compile.
public struct LiquidSyntaxError: Error, Sendable, Equatable {
    /// Where it goes wrong: characters from the start of the text, from 1.
    public let column: Int
    /// What is wrong, in one sentence.
    public let message: String

    public init(column: Int, message: String) {
        self.column = column
        self.message = message
    }
}
