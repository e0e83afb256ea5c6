/// Why an intent does not compile as a campaign: each problem at its path.
@_spi(Tools) public struct CampaignError: Error, Sendable {
    public var diagnostics: [Diagnostic]
}
