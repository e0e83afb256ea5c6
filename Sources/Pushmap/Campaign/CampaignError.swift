/// Why an intent does not compile as a campaign: each problem at its path.
public struct CampaignError: Error, Sendable {
    /// Every problem found, each at its path in the intent.
    public var diagnostics: [Diagnostic]
}
