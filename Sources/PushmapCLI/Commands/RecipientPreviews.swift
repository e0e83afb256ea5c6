@_spi(Tools) internal import Pushmap
internal import PushmapJSON
internal import PushmapPreview
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// What campaign recipients see, for `preview --recipient` (one) and `preview --recipients`
/// (the longest renderings of a recipients file): each recipient rendered, translated and cut to
/// fit as `pushmap campaign` does it, then drawn.
struct RecipientPreviews {
    let campaign: Campaign
    let translator: Translator
    /// The platforms of a recipient that names none.
    let platforms: [Platform]
    let lenient: Bool
    /// The intent's template, named on the entries of recipients that failed.
    var template = "plain"

    /// The rendered texts "longest" measures: the notification's own, the ones a cut to fit
    /// shortens first, so the longest are where a team looks for cut-offs.
    static let measuredTexts = ["title", "subtitle", "body", "expandedTitle", "expandedBody"]

    /// At most this many failed recipients are listed on a page; the rest are counted.
    static let listedFailures = 50

    /// What one recipient sees, or why nothing is drawn (the rendering's warnings included).
    func preview(_ recipient: CampaignRecipient, name: String) -> Result<NotificationPreview, TranslationError> {
        let now = translator.options.clock()
        let outcome = campaign.translate(recipient, translator: translator, platforms: platforms, lenient: lenient, now: now)
        return outcome.result.map {
            Previewer(translator: translator).preview($0, name: name, platforms: recipient.platforms ?? platforms, now: now)
        }
    }

    /// The characters (grapheme clusters) of ``measuredTexts`` as rendered for `recipient`,
    /// before any cut; the rendering's errors when it fails.
    func renderedLength(_ recipient: CampaignRecipient) -> Result<Int, TranslationError> {
        let rendering = campaign.render(recipient, lenient: lenient, now: translator.options.clock())
        if !rendering.errors.isEmpty {
            return .failure(TranslationError(kind: .invalidRecipient, diagnostics: rendering.warnings + rendering.errors))
        }
        guard let intent = try? JSONParser.parse(rendering.intent) else { return .success(0) }
        return .success(Self.measuredTexts.reduce(0) { $0 + (intent[$1]?.stringValue?.count ?? 0) })
    }

    /// A recipient that is drawn: where it is in the file and how long its texts render.
    private struct Candidate {
        var number: Int
        var recipient: CampaignRecipient
        var length: Int
    }

    /// The `count` recipients of `input` whose texts render longest, longest first (the earlier
    /// line first among equals), then the recipients that failed, in file order.
    func longest(_ count: Int, of input: InputFile) throws -> (previews: [NotificationPreview], failed: Int, recipients: Int) {
        let descriptor = try ParallelLines.open(input)
        defer { if descriptor > 0 { close(descriptor) } }
        let maxBytes = translator.options.maxIntentBytes
        var reader = LineReader(descriptor: descriptor, maxLineBytes: maxBytes)
        let limits = JSONParser.Limits(maxDepth: translator.options.maxIntentDepth, maxBytes: maxBytes)
        var kept: [Candidate] = []
        var failures: [NotificationPreview] = []
        var failed = 0
        var lines = 0
        func fail(_ number: Int, id: String?, locale: LocaleTag? = nil, _ error: TranslationError) {
            failed += 1
            guard failures.count < Self.listedFailures else { return }
            failures.append(.failed(Self.label(number, id: id, locale: locale), error, expected: false, template: template, now: translator.options.clock()))
        }
        while true {
            let next: LineReader.Line?
            do {
                next = try reader.next()
            } catch {
                StandardStream.note("pushmap: \(input.name): \(error.reason)")
                throw ExitStatus.invalid
            }
            guard let line = next else { break }
            lines += 1
            if let length = line.overlongLength {
                fail(line.number, id: nil, TranslationError(kind: .invalidRecipient, diagnostics: [
                    .error("$", "too-large", "a line of \(length) bytes exceeds the limit of \(maxBytes) bytes"),
                ]))
                continue
            }
            let (recipient, errors) = CampaignRecipient.read(line.bytes, limits: limits)
            if !errors.isEmpty {
                fail(line.number, id: recipient.id, TranslationError(kind: .invalidRecipient, diagnostics: errors))
                continue
            }
            switch renderedLength(recipient) {
            case .failure(let error):
                fail(line.number, id: recipient.id, locale: recipient.locale, error)
            case .success(let length):
                // Only the longest are kept: a large audience costs its renderings, not its memory.
                guard kept.count < count || length > kept[kept.count - 1].length else { continue }
                let at = kept.firstIndex { $0.length < length } ?? kept.count
                kept.insert(Candidate(number: line.number, recipient: recipient, length: length), at: at)
                if kept.count > count { kept.removeLast() }
            }
        }
        guard lines > 0 else {
            StandardStream.note("pushmap: \(input.name): no recipients")
            throw ExitStatus.invalid
        }
        var previews: [NotificationPreview] = []
        for candidate in kept {
            let name = Self.label(candidate.number, id: candidate.recipient.id, locale: candidate.recipient.locale) + ", \(candidate.length) characters"
            switch preview(candidate.recipient, name: name) {
            case .success(let preview):
                previews.append(preview)
            case .failure(let error):
                // Rendered, but not translated (a script failed, a payload that no cut fits).
                fail(candidate.number, id: candidate.recipient.id, locale: candidate.recipient.locale, error)
            }
        }
        if failed > failures.count {
            StandardStream.note("pushmap: preview: \(failed - failures.count) more failed recipients not listed; pushmap campaign --check lists them all")
        }
        return (previews + failures, failed, lines)
    }

    /// An entry's heading: the line, the recipient's id and locale when it has them.
    static func label(_ number: Int, id: String?, locale: LocaleTag?) -> String {
        var label = "line \(number)"
        // The id is the recipient line's own text: a line feed in it would start a false entry
        // in the text form, so it is escaped as every control character is.
        if let id { label += ", \(ShownText.escaped(id))" }
        if let locale { label += ", locale \(locale)" }
        return label
    }
}
