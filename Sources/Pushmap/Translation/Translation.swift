public import PushmapJSON
internal import Synchronization

/// A translated intent: a payload per platform asked for, and the warnings found on the way.
public struct Translation: Sendable, Hashable {
    /// The template that made the payloads.
    public var template: String
    /// The payload of each platform asked for. A translator hands over each payload as its
    /// compact text (``bytes(for:style:)``); the values are read from that text the first time
    /// they are asked for, so a caller that only sends the bytes never pays for them.
    public var payloads: [Platform: JSONValue] {
        get { store.payloads }
        set { store = PayloadStore(payloads: newValue) } // a changed payload is written anew
    }
    /// Warnings (a translation with errors is a ``TranslationError`` instead).
    public var diagnostics: [Diagnostic]
    /// The intent's top-level `id`, which batch lines carry: read from intents given as text.
    package var messageID: String?
    private var store: PayloadStore

    init(template: String, payloads: [Platform: JSONValue], diagnostics: [Diagnostic]) {
        self.template = template
        self.store = PayloadStore(payloads: payloads)
        self.diagnostics = diagnostics
    }

    /// A translation from the payloads' compact text, as the translator wrote it.
    init(template: String, compact: [(platform: Platform, text: [UInt8])], diagnostics: [Diagnostic]) {
        self.template = template
        self.store = PayloadStore(compact: compact)
        self.diagnostics = diagnostics
    }

    /// The payload for `platform` as JSON text: keys sorted, so the same intent always gives the
    /// same bytes. Empty when the platform was not asked for.
    public func bytes(for platform: Platform, style: JSONWriter.Style = .pretty) -> [UInt8] {
        if style == .compact, let text = store.text(for: platform) { return text }
        guard let payload = payloads[platform] else { return [] }
        return JSONWriter(style: style).write(payload)
    }

    /// Equal when the template, the payloads and the diagnostics are; the kept text follows from
    /// the payloads.
    public static func == (lhs: Translation, rhs: Translation) -> Bool {
        lhs.template == rhs.template && lhs.payloads == rhs.payloads && lhs.diagnostics == rhs.diagnostics
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(template)
        hasher.combine(payloads)
        hasher.combine(diagnostics)
    }
}

/// A translation's payloads: the compact text the translator wrote, and the values, read from
/// that text on first use and published once (a thread that loses the race drops its copy).
/// No lock: a translation allocates this one object for its payloads.
private final class PayloadStore: Sendable {
    /// The values, boxed for the lazy reference.
    final class Values: Sendable {
        let payloads: [Platform: JSONValue]
        init(_ payloads: [Platform: JSONValue]) { self.payloads = payloads }
    }

    /// Each payload's compact text, in the order asked for (a list: a platform or two need no
    /// hashing); empty for payloads given as values.
    let compact: [(platform: Platform, text: [UInt8])]
    private let values = AtomicLazyReference<Values>()

    init(compact: [(platform: Platform, text: [UInt8])]) {
        self.compact = compact
    }

    init(payloads: [Platform: JSONValue]) {
        compact = []
        _ = values.storeIfNil(Values(payloads))
    }

    func text(for platform: Platform) -> [UInt8]? {
        for entry in compact where entry.platform == platform { return entry.text }
        return nil
    }

    var payloads: [Platform: JSONValue] {
        if let values = values.load() { return values.payloads }
        var parsed = [Platform: JSONValue](minimumCapacity: compact.count)
        for (platform, text) in compact {
            // The translator's own writing: it parses (and a failure would be a bug, kept
            // visible as a null payload rather than a crash).
            parsed[platform] = (try? JSONParser.parse(text)) ?? .null
        }
        return values.storeIfNil(Values(parsed)).payloads
    }
}

/// Why an intent was not translated.
public struct TranslationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed, compared by name.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// The kind's name, as messages show it.
        @_spi(Tools) public let name: String
        public var description: String { name }
        /// The input is not JSON, or not a valid intent.
        public static let invalidIntent = Kind(name: "invalid intent")
        /// A payload failed a platform or client check.
        public static let failedCheck = Kind(name: "failed check")
        /// The mapping script failed.
        public static let scriptFailed = Kind(name: "script failed")
        /// A campaign's recipient line is malformed, or lacks a variable a template needs.
        public static let invalidRecipient = Kind(name: "invalid recipient")
    }

    /// What failed.
    public var kind: Kind
    /// Every finding, errors and warnings.
    public var diagnostics: [Diagnostic]
    /// The script's failure, for ``Kind/scriptFailed``.
    public var scriptError: ScriptError?
    /// The intent's top-level `id`, as ``Translation``'s.
    package var messageID: String?
    /// For a failed check, the payloads the mapping wrote, with every finding: a preview draws
    /// what the phone does with them (the fallback where it falls back).
    package var unchecked: Translation?

    @_spi(Tools) public init(kind: Kind, diagnostics: [Diagnostic], scriptError: ScriptError? = nil) {
        self.kind = kind
        self.diagnostics = diagnostics
        self.scriptError = scriptError
    }

    /// 1 for an invalid intent or a failed check, 2 for a failed script.
    package var exitCode: Int32 { kind == .scriptFailed ? 2 : 1 }

    public var description: String {
        if let scriptError { return "\(kind): \(scriptError)" }
        let errors = diagnostics.filter { $0.severity == .error }
        return "\(kind): " + (errors.first.map(\.description) ?? "no details")
    }
}
