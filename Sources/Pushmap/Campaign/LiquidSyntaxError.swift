/// Why a template does not compile.
public struct LiquidSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where it goes wrong: characters from the start of the text, from 1.
    public let column: Int
    /// What is wrong, in one sentence.
    public let message: String

    /// `column N: message`, in one line.
    public var description: String { "column \(column): \(message)" }

    /// An error at `column` (characters from 1) saying `message`.
    public init(column: Int, message: String) {
        self.column = column
        self.message = message
    }
}
