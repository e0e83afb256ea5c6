internal import CoreMetrics
@_spi(Tools) internal import PushmapOutput

/// What `/v1/campaign` counts, as the summary of `pushmap campaign` does. Labels take bounded
/// values only: the outcome, and the field a truncation cut from the fixed list the cutter works
/// through. Variable names and locales come from the campaign's users, so their counters have no
/// label (their names are in each line's diagnostics and in `check=true`'s summary); so do data
/// keys, counted together under `$.data`, and carousel captions, whatever their index.
extension ServerMetrics {
    /// The texts a fit cuts, as their paths are written (PayloadFit's order), each its own label.
    static let truncatedFields: Set<String> = [
        "$.expandedBody", "$.body", "$.subtitle", "$.expandedTitle", "$.title", "$.expired.expandedBody", "$.expired.body", "$.expired.title",
    ]

    /// One recipient of a campaign, counted by outcome, and each of its missing variables,
    /// its locale fallback and its truncations.
    func campaignRecipient(_ output: CampaignLine.Output) {
        CoreMetrics.Counter(label: "pushmap_campaign_recipients_total", dimensions: [("outcome", output.ok ? "translated" : "failed")]).increment()
        if !output.missingVariables.isEmpty {
            CoreMetrics.Counter(label: "pushmap_campaign_missing_variables_total").increment(by: output.missingVariables.count)
        }
        if output.fallback != nil { CoreMetrics.Counter(label: "pushmap_campaign_locale_fallbacks_total").increment() }
        for path in output.truncated {
            CoreMetrics.Counter(label: "pushmap_campaign_truncations_total", dimensions: [("field", Self.truncationField(path))]).increment()
        }
    }

    /// The counters at zero from the start, so a dashboard sees zeros rather than nothing.
    func startCampaignCounters() {
        for outcome in ["translated", "failed"] {
            CoreMetrics.Counter(label: "pushmap_campaign_recipients_total", dimensions: [("outcome", outcome)]).increment(by: 0)
        }
        CoreMetrics.Counter(label: "pushmap_campaign_missing_variables_total").increment(by: 0)
        CoreMetrics.Counter(label: "pushmap_campaign_locale_fallbacks_total").increment(by: 0)
    }

    /// A truncated text's label: its path when it is one of the fixed fields, else its kind.
    static func truncationField(_ path: String) -> String {
        if truncatedFields.contains(path) { return path }
        if path.hasPrefix("$.carousel.items[") { return "$.carousel.items[].text" }
        if path.hasPrefix("$.data") { return "$.data" }
        return "other"
    }
}
