/// A text as a phone draws it: the whole text, and what is left when it is cut at the
/// platform's guideline (the seeds' "recommended max # of characters").
package struct PreviewText: Sendable, Hashable {
    /// The text the payload carries.
    package var full: String
    /// What the phone shows: the text, or its first `limit` characters and an ellipsis.
    package var shown: String
    /// The guideline it was held to, if any.
    package var limit: Int?

    /// Cuts `text` after `limit` characters (grapheme clusters, as a reader counts them).
    package init(_ text: String, limit: Int?) {
        full = text
        self.limit = limit
        if let limit, text.count > limit {
            shown = String(text.prefix(limit)) + "…"
        } else {
            shown = text
        }
    }

    /// Whether the phone cuts the text.
    package var isCut: Bool { shown != full }
}
