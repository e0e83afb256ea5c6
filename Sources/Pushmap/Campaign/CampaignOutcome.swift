internal import PushmapJSON

/// What became of one recipient of a campaign: their translation or why there is none, and
/// what a campaign's summary counts.
public struct CampaignOutcome: Sendable {
    /// The payloads with every warning (the rendering's, the translation's, each cut's), or the
    /// error.
    public var result: Result<Translation, TranslationError>
    /// The variables the recipient lacked.
    public var missingVariables: [String] = []
    /// The recipient's locale, when none of its chain is in the intent.
    public var fallback: LocaleTag?
    /// The paths of the texts shortened to fit.
    public var truncated: [String] = []
    /// Where the message goes: the recipient's target, else the intent's as rendered for them.
    package var target: JSONValue?

    init(result: Result<Translation, TranslationError>) {
        self.result = result
    }
}

extension Campaign {
    /// Renders the intent for `recipient` and translates it for the recipient's platforms (or
    /// `platforms` when the recipient names none), as `pushmap campaign` does each line: texts
    /// over a payload's limit are shortened unless `truncate` is false, and a variable the
    /// recipient lacks is an error unless `lenient`. `now` is the campaign's time (the `date`
    /// filter's "now"); the translator's clock by default.
    ///
    /// ```swift
    /// let campaign = try Campaign(intent: intent, translator: translator)
    /// let recipient = CampaignRecipient(id: "u-1", locale: LocaleTag("fr-CA"), variables: ["first_name": "Ada"])
    /// let outcome = campaign.translate(recipient, translator: translator, platforms: [.fcm, .apns])
    /// ```
    public func translate(
        _ recipient: CampaignRecipient, translator: Translator, platforms: [Platform], forms: Set<RequestForm> = [],
        lenient: Bool = false, truncate: Bool = true, now: Int64? = nil
    ) -> CampaignOutcome {
        let now = now ?? translator.options.clock()
        let asked = recipient.platforms ?? platforms
        return translate(recipient, lenient: lenient, truncate: truncate, now: now) { intent throws(TranslationError) in
            try translator.translateRendered(intent, platforms: asked, forms: forms)
        }
    }

    /// Renders the intent for `recipient` and translates it with `translate` (a translator's
    /// session, in a batch), shortening the texts of a payload over its limit unless
    /// `truncate` is false. `now` is the campaign's time, as ``render(_:lenient:now:)`` reads it.
    public func translate(
        _ recipient: CampaignRecipient, lenient: Bool, truncate: Bool, now: Int64,
        with translate: ([UInt8]) throws(TranslationError) -> Translation
    ) -> CampaignOutcome {
        let rendering = render(recipient, lenient: lenient, now: now)
        var outcome: CampaignOutcome
        if !rendering.errors.isEmpty {
            outcome = CampaignOutcome(result: .failure(TranslationError(kind: .invalidRecipient, diagnostics: rendering.warnings + rendering.errors)))
        } else {
            outcome = CampaignOutcome(result: Self.translate(rendering, truncate: truncate, with: translate))
        }
        // A finding about a value a locale layer wrote goes where the layer wrote it.
        if rendering.layer != nil {
            switch outcome.result {
            case .success(var translation):
                translation.diagnostics = translation.diagnostics.map { written($0, rendering.layer) }
                outcome.result = .success(translation)
            case .failure(var error):
                error.diagnostics = error.diagnostics.map { written($0, rendering.layer) }
                outcome.result = .failure(error)
            }
        }
        // The recipient's target replaces the intent's: a fault in it is the recipient line's.
        if recipient.target != nil, case .failure(var error) = outcome.result, error.kind == .invalidIntent,
            error.diagnostics.allSatisfy({ $0.severity != .error || $0.path == "$.target" || $0.path.hasPrefix("$.target.") })
        {
            error.kind = .invalidRecipient
            outcome.result = .failure(error)
        }
        outcome.missingVariables = rendering.missingVariables
        outcome.fallback = rendering.fallback
        outcome.target = recipient.target ?? rendering.target
        if case .success(let translation) = outcome.result {
            outcome.truncated = translation.diagnostics.filter { $0.rule == "truncated" }.map(\.path)
        }
        return outcome
    }

    /// `diagnostic` at the path in the file where `layer` wrote its value, when it did.
    private func written(_ diagnostic: Diagnostic, _ layer: LocaleTag?) -> Diagnostic {
        guard let path = writtenPath(diagnostic.path, layer: layer) else { return diagnostic }
        var moved = diagnostic
        moved.path = path
        return moved
    }

    private static func translate(
        _ rendering: CampaignRendering, truncate: Bool, with translate: ([UInt8]) throws(TranslationError) -> Translation
    ) -> Result<Translation, TranslationError> {
        // With cuts allowed, a payload that may be over its limit (a size warning) is cut as one
        // that is; when no cut fits, it goes as it was, with its warning.
        let sized: ([UInt8]) throws(TranslationError) -> Translation = { bytes throws(TranslationError) in
            let translation = try translate(bytes)
            if truncate, let oversize = PayloadFit.oversize(translation) { throw oversize }
            return translation
        }
        let first = Result { () throws(TranslationError) in try translate(rendering.intent) }
        // What a cut would mend: a size error, or a size warning.
        let oversize: TranslationError? = switch first {
        case .success(let translation): PayloadFit.oversize(translation)
        case .failure(let error): error
        }
        var result = first
        if truncate, let oversize, let overflows = PayloadFit.overflows(oversize), !overflows.isEmpty, let intent = try? JSONParser.parse(rendering.intent) {
            do {
                let fitted = try PayloadFit.fit(intent, overflows: overflows, firstError: oversize, translate: sized)
                var translation = fitted.translation
                translation.diagnostics += fitted.cuts.map(\.warning)
                result = .success(translation)
            } catch {
                // A payload that went with its warning still goes; one that failed fails as the
                // last cut left it, its size findings naming the largest value no cut shortens
                // (the twenty-eighth audit, F6: a data value of 5,000 bytes was said at `$`).
                if case .failure = first { result = .failure(PayloadFit.namingUncut(error, intent)) }
            }
        }
        switch result {
        case .success(var translation):
            if !rendering.warnings.isEmpty { translation.diagnostics = rendering.warnings + translation.diagnostics }
            return .success(translation)
        case .failure(let error):
            return .failure(warned(error, rendering.warnings))
        }
    }

    private static func warned(_ error: TranslationError, _ warnings: [Diagnostic]) -> TranslationError {
        var error = error
        error.diagnostics = warnings + error.diagnostics
        return error
    }
}
