@_spi(Tools) public import Pushmap
public import PushmapJSON

/// One recipient of a campaign, written as `pushmap campaign` writes a line (and as a service
/// streams it): `{"line":N,"id":"u-1","fcm":...,"apns":...,"warnings":[...]}` or
/// `{"line":N,"id":"u-1","error":{...}}`, with what the summary counts beside it.
public enum CampaignLine {
    /// A line's bytes (empty when only errors are written and this one translated) and what
    /// became of the recipient.
    public struct Output: Sendable {
        public var bytes: [UInt8] = []
        public var ok = true
        public var missingVariables: [String] = []
        public var fallback: String?
        public var truncated: [String] = []
        /// The recipient's id, and where the message goes (its own target, else the intent's as
        /// rendered) as compact JSON: the summary counts repeats.
        public var id: String?
        public var target: String?

        public init() {}
    }

    /// How a campaign's recipients are translated, the same for every line.
    @_spi(Tools) public struct Settings: Sendable {
        public var campaign: Campaign
        /// The platforms of a recipient that names none.
        public var platforms: [Platform]
        public var forms: Set<RequestForm>
        public var lenient: Bool
        public var truncate: Bool
        /// Whether lines that translated are left out (a check of the audience).
        public var errorsOnly: Bool
        public var limits: JSONParser.Limits
        /// The campaign's time, in epoch seconds: what the `date` filter's "now" means.
        public var now: Int64

        public init(
            campaign: Campaign, platforms: [Platform], forms: Set<RequestForm>, lenient: Bool, truncate: Bool, errorsOnly: Bool,
            maxLineBytes: Int, now: Int64
        ) {
            self.now = now
            self.campaign = campaign
            self.platforms = platforms
            self.forms = forms
            self.lenient = lenient
            self.truncate = truncate
            self.errorsOnly = errorsOnly
            limits = JSONParser.Limits(maxDepth: 32, maxBytes: maxLineBytes)
        }
    }

    /// Translates one recipient line on `session`. `overlongLength` is the length of a line that
    /// was over the limit (and not kept); `number` is written as `line` unless nil.
    @_spi(Tools) public static func translate(
        _ line: [UInt8], number: Int?, overlongLength: Int?, settings: Settings, session: borrowing Translator.Session
    ) -> Output {
        var output = Output()
        if let length = overlongLength {
            let message = "a line of \(length) bytes exceeds the limit of \(settings.limits.maxBytes) bytes"
            output.fail(number: number, id: nil, TranslationError(kind: .invalidRecipient, diagnostics: [.error("$", "too-large", message)]))
            return output
        }
        let (recipient, errors) = CampaignRecipient.read(line, limits: settings.limits)
        output.id = recipient.id
        if !errors.isEmpty {
            output.fail(number: number, id: recipient.id, TranslationError(kind: .invalidRecipient, diagnostics: errors))
            return output
        }
        let platforms = recipient.platforms ?? settings.platforms
        let outcome = settings.campaign.translate(recipient, lenient: settings.lenient, truncate: settings.truncate, now: settings.now) { intent throws(TranslationError) in
            try session.translateRendered(intent, platforms: platforms, forms: settings.forms)
        }
        output.missingVariables = outcome.missingVariables
        output.fallback = outcome.fallback?.description
        output.truncated = outcome.truncated
        // The target is FCM's: a recipient sent on APNS alone goes to none (the thirty-eighth audit, F3).
        if platforms.contains(.fcm), let target = outcome.target {
            output.target = String(decoding: JSONWriter(style: .compact).write(target), as: UTF8.self)
        }
        switch outcome.result {
        case .success(var translation):
            // The recipient's id, never the intent's.
            translation.messageID = recipient.id
            if !settings.errorsOnly { output.bytes = TranslationLine.success(translation, number: number, platforms: platforms) }
        case .failure(let error):
            output.fail(number: number, id: recipient.id, error)
        }
        return output
    }
}

extension CampaignLine.Output {
    mutating func fail(number: Int?, id: String?, _ error: TranslationError) {
        ok = false
        bytes = TranslationLine.failure(
            DiagnosticJSON.json(kind: error.kind.name, diagnostics: error.diagnostics, scriptError: error.scriptError), number: number, id: id)
    }
}
