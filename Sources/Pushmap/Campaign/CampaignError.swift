/// Why an intent does not compile as a campaign: each problem at its path.
public struct CampaignError: Error, Sendable, CustomStringConvertible {
    /// Every problem found, each at its path in the intent.
    public var diagnostics: [Diagnostic]

    /// The first error, and how many more there are, in one line.
    public var description: String {
        let errors = diagnostics.filter { $0.severity == .error }
        let first = errors.first.map(\.description) ?? "no details"
        return "invalid campaign: " + first + (errors.count > 1 ? " (and \(errors.count - 1) more)" : "")
    }
}
