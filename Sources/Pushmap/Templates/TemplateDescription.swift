/// One built-in template, declared once: its name and type, the intent fields it owns, the payload
/// keys it writes (with the intent field each comes from and how its value reads back) and the keys
/// Android's code for it requires. The intent schema, blame, import, the checks' key tables and
/// the preview read these (through ``BuiltinTemplates``); its mapping is the Lua script of the same
/// name in templates/.
package struct TemplateDescription: Sendable {
    /// The script's name and the intent's `template`.
    package let name: String
    /// `adb_template_type`'s value, at most 16 bytes; nil for plain, which has none.
    package let type: String?
    /// Whether iOS draws it as a template (Adobe's content extension); Android draws them all.
    package let onIOS: Bool
    /// The scope the client rules of a payload of this type run under.
    let scope: RuleScope
    /// The top-level intent objects the template owns (the script's `owns`): another template
    /// ignores them.
    let fields: [IntentField]
    /// Fields of the common objects that only this template reads (`colors.timer`), also in the
    /// script's `owns`: another template ignores them with a warning.
    let ownedInside: [String]
    /// The payload keys it adds to the template it is built on.
    let keys: [Key]
    /// The keys Android's code for the template needs: without one it shows nothing.
    let androidRequires: [AdobeKey]
    /// The lists import reads back for a payload of this template.
    let lists: [ListReading]

    init(
        name: String, type: String?, onIOS: Bool, scope: RuleScope, fields: [IntentField] = [], ownedInside: [String] = [], keys: [Key],
        androidRequires: [AdobeKey] = [], lists: [ListReading] = []
    ) {
        self.name = name
        self.type = type
        self.onIOS = onIOS
        self.scope = scope
        self.fields = fields
        self.ownedInside = ownedInside
        self.keys = keys
        self.androidRequires = androidRequires
        self.lists = lists
    }

    /// One payload key of a template.
    struct Key: Sendable {
        let key: AdobeKey
        /// The intent field it comes from, as a path below the root (`carousel.mode`).
        let field: String
        /// The payloads import reads it from.
        let platforms: Platforms
        /// How import reads its value back; nil when import reads it by hand (the type).
        let format: Format?

        init(_ key: AdobeKey, _ field: String, _ platforms: Platforms, _ format: Format? = .text) {
            self.key = key
            self.field = field
            self.platforms = platforms
            self.format = format
        }

        /// The intent path of the field (`$.carousel.mode`).
        var intentPath: String { "$." + field }
    }

    /// Which payloads carry a key: both, or one platform's only.
    enum Platforms: Sendable {
        case both, fcm, apns
    }

    /// How a key's string value becomes the field's value.
    enum Format: Sendable, Equatable {
        case text
        /// One of fixed values: payload value -> intent value; on Android any other value reads
        /// as `androidOtherwise` when there is one (adb_car_mode: anything but auto is manual).
        case choice([String: String], androidOtherwise: String? = nil)
        /// A whole number of at least `minimum`.
        case integer(minimum: Int64)
        /// Epoch seconds: a whole number, and on iOS, which reads it with TimeInterval(String),
        /// a fraction too (adobe-templates.md 5, "1712417524.5"), read as the second it falls in.
        case epochSeconds
        /// "true" or "false"; Android reads "true" in any case as true, anything else as false.
        case boolean
        /// A colour, which Android writes AARRGGBB for 8 digits.
        case colour
        /// A list of objects: JSON-encoded in a string on FCM, an array on APNS; import reads
        /// each list by hand.
        case list

        /// A choice whose payload and intent values are the same.
        static func same(_ values: [String]) -> Format {
            .choice(Dictionary(uniqueKeysWithValues: values.map { ($0, $0) }))
        }
    }

    /// The key's entry, or nil when the template does not write it.
    func key(_ key: AdobeKey) -> Key? {
        keys.first { $0.key == key }
    }

    /// Whether `field` (`carousel.mode`) is in an object the template owns.
    func owns(_ field: String) -> Bool {
        let top = field.prefix { $0 != "." }
        return fields.contains { $0.name == top }
    }
}
