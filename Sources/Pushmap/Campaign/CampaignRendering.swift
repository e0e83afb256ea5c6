internal import PushmapJSON

/// One recipient's intent, rendered, and what the rendering found.
public struct CampaignRendering: Sendable {
    /// The intent as JSON text, ready to translate; meaningless when ``errors`` is not empty.
    public var intent: [UInt8] = []
    /// What the rendering degraded: a locale fallback, and with `lenient` a missing variable or a failed filter.
    public var warnings: [Diagnostic] = []
    /// Why the recipient gets nothing: a missing variable or a failed filter, each at its intent path.
    public var errors: [Diagnostic] = []
    /// The variables this recipient lacked, each once, in the order met.
    public var missingVariables: [String] = []
    /// The recipient's locale when no layer of its chain exists.
    public var fallback: LocaleTag?
    /// The layer of `locales` the recipient's intent was merged from, if any.
    var layer: LocaleTag?
    /// The intent's target as rendered for the recipient, when it has one and the recipient
    /// gives none.
    var target: JSONValue?

    /// Notes `problem` of the text at `path`; `assigners` gives, for a name some text assigns,
    /// the path of the first that does.
    mutating func note(_ problem: LiquidProblem, at path: String, lenient: Bool, assigners: [String: String] = [:]) {
        switch problem {
        case .missingVariable(let written):
            // One fault, the recipient's lack, however often the templates use the name: one
            // finding, at the first template met, and one count in the summary. A name of
            // thousands of indexes is cut in both (the forty-third audit, F8: 60 KB a line).
            let name = ShownText.clipped(written)
            guard !missingVariables.contains(name) else { return }
            missingVariables.append(name)
            // Each text renders on its own: an assign in the title is not seen by the body (the
            // twenty-eighth audit, F4, where every recipient seemed to lack the name).
            var message = "\(name) is not in this recipient's vars"
            if let assigner = assigners[name.prefix { $0 != "." && $0 != "[" }.description], assigner != path {
                message += " (\(assigner) assigns it, but each text renders on its own: assign it in this text too)"
            }
            if lenient {
                warnings.append(.warning(path, "missing-variable", message + ": rendered empty"))
            } else {
                errors.append(.error(path, "missing-variable", message))
            }
        case .filterFailed(let filter, let message):
            if lenient {
                warnings.append(.warning(path, "filter-failed", "\(filter): \(message)"))
            } else {
                errors.append(.error(path, "filter-failed", "\(filter): \(message)"))
            }
        case .renderFailed(let message):
            if lenient {
                warnings.append(.warning(path, "render-failed", message))
            } else {
                errors.append(.error(path, "render-failed", message))
            }
        case .outputTooLong(let limit):
            warnings.append(.warning(path, "render-too-long", "the rendering passed \(limit) bytes and was cut there"))
        }
    }
}
