public import PushmapJSON

/// What a campaign's run counts: recipients, translated, failed, and by name the variables
/// missing, the locales sent in the default language, the texts shortened, and the ids and
/// targets more than one recipient has (a person who is on the list twice gets the message twice).
public struct CampaignSummary: Sendable, Equatable {
    public var recipients = 0
    public var translated = 0
    public var failed = 0
    public var missingVariables: [String: Int] = [:]
    public var localeFallbacks: [String: Int] = [:]
    public var truncated: [String: Int] = [:]
    /// The ids on more than one line, each with the number of lines that have it.
    public var duplicateIDs: [String: Int] = [:]
    /// The targets (as compact JSON) of more than one translated recipient, each with their number.
    public var duplicateTargets: [String: Int] = [:]
    // The ids and targets met so far, as fingerprints rather than the texts: every target's
    // String kept (a heap copy each) held 20 MB more after 100,000 recipients, and hashing into
    // that growing set of scattered strings cost about 7% of a campaign's time (measured).
    private var seenIDs: Set<Fingerprint> = []
    private var seenTargets: Set<Fingerprint> = []

    public init() {}

    /// The counts a line of ``lines`` names; the JSON form has them all.
    public static let shownPerLine = 20

    /// Counts one recipient.
    public mutating func add(_ output: CampaignLine.Output) {
        recipients += 1
        if output.ok { translated += 1 } else { failed += 1 }
        for name in output.missingVariables { missingVariables[name, default: 0] += 1 }
        if let fallback = output.fallback { localeFallbacks[fallback, default: 0] += 1 }
        for path in output.truncated { truncated[path, default: 0] += 1 }
        if let id = output.id, !seenIDs.insert(Fingerprint(id)).inserted { duplicateIDs[id, default: 1] += 1 }
        // A recipient that failed is not sent: only the translated ones can reach a phone twice.
        if output.ok, let target = output.target, !seenTargets.insert(Fingerprint(target)).inserted {
            duplicateTargets[target, default: 1] += 1
        }
    }

    /// `{"recipients":N,"translated":N,"failed":N,"missingVariables":{...},"localeFallbacks":{...},"truncated":{...},
    /// "duplicateIds":{...},"duplicateTargets":{...}}`.
    public var json: JSONValue {
        func counts(_ counts: [String: Int]) -> JSONValue {
            .object(JSONObject(counts.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) }))
        }
        return [
            "recipients": .integer(Int64(recipients)), "translated": .integer(Int64(translated)), "failed": .integer(Int64(failed)),
            "missingVariables": counts(missingVariables), "localeFallbacks": counts(localeFallbacks), "truncated": counts(truncated),
            "duplicateIds": counts(duplicateIDs), "duplicateTargets": counts(duplicateTargets),
        ]
    }

    /// The summary for people: a line of totals, then a line per kind of count that has any,
    /// most frequent first, the first ``shownPerLine`` of each (the locale tags come from the
    /// recipients, who can send thousands: the twenty-eighth audit, F8, met a line of 935 KB).
    public var text: String { lines.joined(separator: "\n") }

    /// The summary's lines, each written as a line of its own.
    public var lines: [String] {
        var lines = ["pushmap: campaign: \(recipients) recipient\(recipients == 1 ? "" : "s"), \(translated) translated, \(failed) failed"]
        func line(_ title: String, _ counts: [String: Int]) {
            guard !counts.isEmpty else { return }
            let sorted = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            let more = sorted.count > Self.shownPerLine ? ", and \(sorted.count - Self.shownPerLine) more" : ""
            lines.append("  \(title): " + sorted.prefix(Self.shownPerLine).map { "\($0.key) \($0.value)" }.joined(separator: ", ") + more)
        }
        line("missing variables", missingVariables)
        line("locale fallbacks", localeFallbacks)
        line("truncated", truncated)
        line("duplicate ids", duplicateIDs)
        line("duplicate targets", duplicateTargets)
        return lines
    }
}

/// 128 bits of a text's bytes, from two differently salted hashers: two texts of an audience of
/// n share one with a chance of about n² / 2¹²⁹, nothing at any audience's size.
private struct Fingerprint: Hashable {
    let high: Int
    let low: Int

    init(_ text: String) {
        var text = text
        (high, low) = text.withUTF8 { bytes in
            var high = Hasher()
            high.combine(0x5A as UInt8)
            high.combine(bytes: UnsafeRawBufferPointer(bytes))
            var low = Hasher()
            low.combine(0xA5 as UInt8)
            low.combine(bytes: UnsafeRawBufferPointer(bytes))
            return (high.finalize(), low.finalize())
        }
    }

    // Already a hash: one word of it is enough for the set.
    func hash(into hasher: inout Hasher) { hasher.combine(low) }
}
