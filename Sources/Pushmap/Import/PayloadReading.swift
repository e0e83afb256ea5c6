internal import PushmapJSON

/// How the adb_ keys read back into intent fields: the inverse of the built-in scripts' mapping.
/// One table for both platforms (a key means the same on each), with the platform's own keys
/// where they differ.
enum PayloadReading {
    /// How a key's string value becomes the field's value.
    enum Conversion {
        case text
        /// One of fixed values: payload value -> intent value.
        case choice([String: String])
        /// A whole number of at least `minimum`.
        case integer(minimum: Int64)
        /// "true" or "false".
        case boolean
        /// A colour, which Android writes AARRGGBB for 8 digits.
        case colour
    }

    struct Key {
        let key: String
        let field: String
        let conversion: Conversion
        /// The template that owns the field's top-level object, if any: the field is read only
        /// for a payload of that template.
        let owner: String?

        init(_ key: String, _ field: String, _ conversion: Conversion = .text, owner: String? = nil) {
            self.key = key
            self.field = field
            self.conversion = conversion
            self.owner = owner
        }
    }

    static func same(_ values: [String]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: values.map { ($0, $0) })
    }

    static let linkTypes = same(["WEBURL", "DEEPLINK", "OPENAPP", "DISMISS"])

    /// Keys read the same way on both platforms.
    static let common: [Key] = [
        Key(AdobeKey.version.name, "version"),
        Key(AdobeKey.uri.name, "link.uri"),
        Key(AdobeKey.linkType.name, "link.type", .choice(linkTypes)),
        Key(AdobeKey.bodyEx.name, "expandedBody"),
        Key(AdobeKey.titleColour.name, "colors.title", .colour),
        Key(AdobeKey.bodyColour.name, "colors.body", .colour),
        Key(AdobeKey.backgroundColour.name, "colors.background", .colour),
        Key(AdobeKey.iconColour.name, "colors.icon", .colour),
        Key(AdobeKey.timerColour.name, "colors.timer", .colour),
        Key(AdobeKey.carouselMode.name, "carousel.mode", .choice(same(["auto", "manual"])), owner: "carousel"),
        Key(AdobeKey.timerDuration.name, "timer.duration", .integer(minimum: 1), owner: "timer"),
        Key(AdobeKey.timerEnd.name, "timer.endsAt", .integer(minimum: 0), owner: "timer"),
        Key(AdobeKey.titleAlt.name, "expired.title", owner: "timer"),
        Key(AdobeKey.bodyAlt.name, "expired.body", owner: "timer"),
    ]

    /// FCM data keys (strings).
    static let fcm: [Key] = common + [
        Key(AdobeKey.title.name, "title"),
        Key(AdobeKey.body.name, "body"),
        Key(AdobeKey.sound.name, "sound"),
        Key(AdobeKey.image.name, "image"),
        Key(AdobeKey.badgeCount.name, "badge", .integer(minimum: 0)),
        Key(AdobeKey.channel.name, "android.channel"),
        Key(AdobeKey.icon.name, "android.icon"),
        Key(AdobeKey.smallIcon.name, "android.smallIcon"),
        Key(AdobeKey.largeIcon.name, "android.largeIcon"),
        Key(AdobeKey.tag.name, "android.tag"),
        Key(AdobeKey.sticky.name, "android.sticky", .boolean),
        Key(AdobeKey.ticker.name, "android.ticker"),
        Key(AdobeKey.displayPriority.name, "android.priority", .choice([
            "PRIORITY_MIN": "min", "PRIORITY_LOW": "low", "PRIORITY_DEFAULT": "default", "PRIORITY_HIGH": "high", "PRIORITY_MAX": "max",
        ])),
        Key(AdobeKey.visibility.name, "android.visibility", .choice(["PRIVATE": "private", "PUBLIC": "public", "SECRET": "secret"])),
        Key(AdobeKey.remindText.name, "remindLater.label", owner: "basic"),
        Key(AdobeKey.remindAt.name, "remindLater.at", .integer(minimum: 0), owner: "basic"),
        Key(AdobeKey.remindAfter.name, "remindLater.after", .integer(minimum: 1), owner: "basic"),
        Key(AdobeKey.carouselLayout.name, "carousel.layout", .choice(same(["default", "filmstrip"])), owner: "carousel"),
        Key(AdobeKey.bodyExAlt.name, "expired.expandedBody", owner: "timer"),
        Key(AdobeKey.imageAlt.name, "expired.image", owner: "timer"),
        Key(AdobeKey.inputReceiver.name, "reply.key", owner: "input"),
        Key(AdobeKey.inputText.name, "reply.label", owner: "input"),
        Key(AdobeKey.feedbackText.name, "reply.sentBody", owner: "input"),
        Key(AdobeKey.feedbackImage.name, "reply.sentImage", owner: "input"),
        Key(AdobeKey.collapsedStyle.name, "zeroBezel.collapsed", .choice(["img": "image", "txt": "text"]), owner: "zb"),
        Key(AdobeKey.ctaText.name, "catalog.button.label", owner: "cat"),
        Key(AdobeKey.ctaURI.name, "catalog.button.uri", owner: "cat"),
        Key(AdobeKey.ctaColour.name, "catalog.button.color", .colour, owner: "cat"),
        Key(AdobeKey.ctaTextColour.name, "catalog.button.textColor", .colour, owner: "cat"),
        Key(AdobeKey.display.name, "catalog.layout", .choice(same(["horizontal", "vertical"])), owner: "cat"),
        Key(AdobeKey.unselectedIcon.name, "rating.unselectedIcon", owner: "rate"),
        Key(AdobeKey.selectedIcon.name, "rating.selectedIcon", owner: "rate"),
        Key(AdobeKey.cancelImage.name, "icons.closeImage", owner: "icon"),
    ]

    /// APNS keys beside `aps`.
    static let apns: [Key] = common + [
        Key(AdobeKey.media.name, "image"),
        Key(AdobeKey.titleEx.name, "expandedTitle"),
        Key(AdobeKey.mediaAlt.name, "expired.image", owner: "timer"),
    ]

    /// The templates by `adb_template_type`.
    static let templates = ["basic": "basic", "car": "carousel", "timer": "timer", "input": "input", "zb": "zb", "cat": "cat", "rate": "rate", "icon": "icon"]

    /// `value` as the field's value, or nil when the intent cannot hold it.
    static func convert(_ value: String, _ conversion: Conversion, android: Bool) -> JSONValue? {
        switch conversion {
        case .text:
            return .string(value)
        case .choice(let values):
            return values[value].map(JSONValue.string)
        case .integer(let minimum):
            guard let number = Int64(value), number >= minimum, String(number) == value else { return nil }
            return .integer(number)
        case .boolean:
            return value == "true" ? .bool(true) : value == "false" ? .bool(false) : nil
        case .colour:
            // Android's AARRGGBB is the intent's RRGGBBAA with the alpha moved to the front.
            if android, value.utf8.count == 8, value.utf8.allSatisfy(ValueFormat.isHexDigit) {
                return .string(String(value.dropFirst(2) + value.prefix(2)))
            }
            return .string(value)
        }
    }

    /// The JSON-encoded value of an FCM key, or the array of an APNS one.
    static func list(_ value: JSONValue?) -> [JSONObject]? {
        guard let value else { return nil }
        let decoded: JSONValue? = if let text = value.stringValue { try? JSONParser.parse(Array(text.utf8)) } else { value }
        return decoded?.arrayValue?.compactMap(\.objectValue)
    }

    /// The strings of `object` named in `names` (payload name -> intent name), as an intent object.
    static func strings(_ object: JSONObject, _ names: [(String, String)]) -> JSONObject {
        var result = JSONObject()
        for (from, to) in names {
            if let text = object[from]?.stringValue { result[to] = .string(text) }
        }
        return result
    }

    /// A button, star or icon's `type`, when the intent can say it.
    static func tapType(_ object: JSONObject) -> JSONValue? {
        object["type"]?.stringValue.flatMap { linkTypes[$0] }.map(JSONValue.string)
    }
}
