@_spi(Engine) public import PushmapJSON

/// One recipient of a campaign, as a line of the recipients file gives it:
/// `{"id": "u-1", "target": {"token": "..."}, "platform": "apns", "locale": "fr-CA", "vars": {...}}`,
/// every key optional.
public struct CampaignRecipient: Sendable {
    /// Written back on the recipient's output line.
    public var id: String?
    /// Replaces the intent's `target`.
    public var target: JSONValue?
    /// The platforms to write for; nil: the run's.
    public var platforms: [Platform]?
    /// The recipient's language: the intent's `locales` layers it reads; nil: the base.
    public var locale: LocaleTag?
    /// The object the templates' names resolve in.
    public var variables: JSONValue
    /// The whole numbers of `vars` beyond 64 bits, with their digits as the line wrote them.
    var wholeNumbers: [LiquidWholeNumber.Written] = []

    /// A recipient; with no variables, only templates that need none (or give a `default`) render.
    public init(id: String? = nil, target: JSONValue? = nil, platforms: [Platform]? = nil, locale: LocaleTag? = nil, variables: JSONValue = .object([:])) {
        self.id = id
        self.target = target
        self.platforms = platforms
        self.locale = locale
        self.variables = variables
    }

    /// The keys a recipient line may have.
    static let keys = ["id", "target", "platform", "locale", "vars"]

    /// Reads a recipient line. What is wrong comes back as errors, each at its path in the line;
    /// the recipient then holds what could be read (its id, for the error line).
    public static func read(_ line: [UInt8], limits: JSONParser.Limits) -> (recipient: CampaignRecipient, errors: [Diagnostic]) {
        var recipient = CampaignRecipient()
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
            return (recipient, [.error("$", "empty-line", "empty line: expected a JSON recipient")])
        }
        var value: JSONValue = .null
        // The tape parser is the quicker, on the stack (no tape kept: ~1,000 instructions a
        // recipient); what it leaves, JSONParser reads and says where it is wrong.
        let parsed = line.withUnsafeBufferPointer { bytes in
            JSONTape.withParsed(bytes, limits: limits) { reader in
                var reader = reader
                value = reader.value()
            }
        }
        if !parsed {
            do {
                value = try JSONParser.parse(line, limits: limits)
            } catch {
                // The id still names the recipient when the JSON goes wrong after it.
                recipient.id = error.topLevelString("id", in: line)
                return (recipient, [.jsonSyntax(error)])
            }
        }
        guard case .object(let object) = value else {
            return (recipient, [.error("$", "wrong-type", "a recipient is a JSON object, got \(value.typeName)")])
        }
        var errors: [Diagnostic] = []
        for (key, value) in object {
            // Written out only for a finding: three paths built for every recipient cost 1,100
            // instructions a line.
            var path: String { JSONPath.member("$", key) }
            switch key {
            case "id":
                if case .string(let id) = value { recipient.id = id } else { errors.append(wrongType(path, "a string", value)) }
            case "target":
                if case .object = value { recipient.target = value } else { errors.append(wrongType(path, "an object", value)) }
            case "vars":
                if case .object = value {
                    recipient.variables = value
                    recipient.wholeNumbers = LiquidWholeNumber.written(in: line, parsed: .object(object))
                } else {
                    errors.append(wrongType(path, "an object", value))
                }
            case "platform":
                switch value.stringValue {
                case "fcm": recipient.platforms = [.fcm]
                case "apns": recipient.platforms = [.apns]
                case "both": recipient.platforms = Platform.all
                case let other?: errors.append(.error(path, "bad-value", "'\(other)' is not one of fcm, apns, both"))
                case nil: errors.append(wrongType(path, "a string", value))
                }
            case "locale":
                guard case .string(let text) = value else {
                    errors.append(wrongType(path, "a string", value))
                    continue
                }
                if let tag = LocaleTag(text) { recipient.locale = tag } else {
                    errors.append(.error(path, "locale-tag", LocaleTag.notATag(text)))
                }
            default:
                let hint = Suggestion.nearest(to: key, among: keys).map { "; did you mean '\($0)'?" } ?? ""
                errors.append(.error(path, "unknown-field", "unknown field '\(ShownText.clipped(key))' (a recipient has \(keys.joined(separator: ", ")))" + hint))
            }
        }
        return (recipient, errors)
    }

    private static func wrongType(_ path: String, _ expected: String, _ value: JSONValue) -> Diagnostic {
        .error(path, "wrong-type", "expected \(expected), got \(value.typeName)")
    }
}
