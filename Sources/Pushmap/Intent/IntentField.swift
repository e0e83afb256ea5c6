internal import PushmapJSON

/// One field of the intent: its name, its shape, and a line for editors and error messages.
@_spi(Tools) public struct IntentField: Sendable, Hashable {
    package var name: String
    package var shape: IntentShape
    package var required: Bool
    package var summary: String
    /// What translate and batch say of the field when given: read by campaigns only.
    package var campaignOnly: String?
    /// Whether the field is the message's id, which the check's walk hands over as it passes.
    package var isMessageID: Bool

    package init(
        _ name: String, _ shape: IntentShape, required: Bool = false, _ summary: String, campaignOnly: String? = nil, isMessageID: Bool = false
    ) {
        self.name = name
        self.shape = shape
        self.required = required
        self.summary = summary
        self.campaignOnly = campaignOnly
        self.isMessageID = isMessageID
    }
}

/// What values a field accepts.
package indirect enum IntentShape: Sendable, Hashable {
    case string
    case integer(minimum: Int64? = nil, maximum: Int64? = nil)
    case number(minimum: Double? = nil, maximum: Double? = nil)
    case boolean
    /// One of fixed strings.
    case choice([String])
    /// A template's name: a built-in one or a script's.
    case template
    case object(IntentObject)
    case array(IntentShape, maxItems: Int? = nil)
    /// An object with keys of the sender's choice and values of `IntentShape` (nil: any JSON).
    case map(IntentShape?)
    case anything
    /// A string in a form an editor can check before pushmap runs (the JSON Schema's `pattern`
    /// or `format`). pushmap takes any string here, as the platforms do, and the payload checks
    /// say what the phone does with one it cannot read.
    case text(TextForm)
}

/// The forms of ``IntentShape/text(_:)``.
package enum TextForm: Sendable, Hashable {
    /// RRGGBB or RRGGBBAA hex digits, after an optional `#`.
    case colour
    /// A URI: a web URL or a deep link (`myapp://game/552`).
    case uri
}

/// The fields of an object, and which of them exclude each other.
package struct IntentObject: Sendable, Hashable {
    package var fields: [IntentField]
    /// Groups of fields of which at most one may be given.
    package var exclusive: [[String]]
    /// Groups of fields of which exactly one must be given.
    package var oneRequired: [[String]]

    package init(_ fields: [IntentField], exclusive: [[String]] = [], oneRequired: [[String]] = []) {
        self.fields = fields
        self.exclusive = exclusive
        self.oneRequired = oneRequired
    }

    /// The field whose name has the same UTF-8 bytes as `name`. Not `==`: Swift's canonical
    /// equivalence would take "collapse\u{212A}ey" (a Kelvin sign) for "collapseKey", which the
    /// scripts, reading keys byte for byte, would then never see.
    package func field(named name: String) -> IntentField? {
        fieldIndex(named: name).map { fields[$0] }
    }

    /// Where ``field(named:)`` finds its field, so a caller can read one property of it without
    /// copying the whole field (two strings and a shape).
    func fieldIndex(named name: String) -> Int? {
        // UTF8Bytes.equal compares the byte counts first: most names fail there.
        for index in fields.indices where UTF8Bytes.equal(fields[index].name, name) {
            return index
        }
        return nil
    }
}
