/// What a phone does with one payload key: shows it, uses it without drawing it, ignores it,
/// or leaves it to the push service; and why.
package struct KeyReading: Sendable, Hashable {
    /// The four outcomes, with their stable names (the page's `data-verdict`).
    package enum Verdict: String, Sendable, Hashable, CaseIterable {
        /// Drawn in the notification.
        case shows
        /// Read and acted on (sound, tap, channel, grouping...) but not drawn.
        case uses
        /// Not read by the phone's code, or read and thrown away.
        case ignores
        /// Read by FCM or APNs on the way, not by the phone's app.
        case service
    }

    /// The key's path in the payload: `adb_title`, `aps.alert.title`, `message.token`.
    package var key: String
    /// The value as the payload has it, shortened for a table.
    package var value: String
    package var verdict: Verdict
    /// Why, in a few words: where it shows, or what the phone's code does instead.
    package var reason: String

    package init(key: String, value: String, verdict: Verdict, reason: String) {
        self.key = key
        self.value = value
        self.verdict = verdict
        self.reason = reason
    }
}
