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
        Key("adb_version", "version"),
        Key("adb_uri", "link.uri"),
        Key("adb_a_type", "link.type", .choice(linkTypes)),
        Key("adb_body_ex", "expandedBody"),
        Key("adb_clr_title", "colors.title", .colour),
        Key("adb_clr_body", "colors.body", .colour),
        Key("adb_clr_bg", "colors.background", .colour),
        Key("adb_clr_icon", "colors.icon", .colour),
        Key("adb_clr_tmr", "colors.timer", .colour),
        Key("adb_car_mode", "carousel.mode", .choice(same(["auto", "manual"])), owner: "carousel"),
        Key("adb_tmr_dur", "timer.duration", .integer(minimum: 1), owner: "timer"),
        Key("adb_tmr_end", "timer.endsAt", .integer(minimum: 0), owner: "timer"),
        Key("adb_title_alt", "expired.title", owner: "timer"),
        Key("adb_body_alt", "expired.body", owner: "timer"),
    ]

    /// FCM data keys (strings).
    static let fcm: [Key] = common + [
        Key("adb_title", "title"),
        Key("adb_body", "body"),
        Key("adb_sound", "sound"),
        Key("adb_image", "image"),
        Key("adb_n_count", "badge", .integer(minimum: 0)),
        Key("adb_channel_id", "android.channel"),
        Key("adb_icon", "android.icon"),
        Key("adb_small_icon", "android.smallIcon"),
        Key("adb_large_icon", "android.largeIcon"),
        Key("adb_tag", "android.tag"),
        Key("adb_sticky", "android.sticky", .boolean),
        Key("adb_ticker", "android.ticker"),
        Key("adb_n_priority", "android.priority", .choice([
            "PRIORITY_MIN": "min", "PRIORITY_LOW": "low", "PRIORITY_DEFAULT": "default", "PRIORITY_HIGH": "high", "PRIORITY_MAX": "max",
        ])),
        Key("adb_n_visibility", "android.visibility", .choice(["PRIVATE": "private", "PUBLIC": "public", "SECRET": "secret"])),
        Key("adb_rem_txt", "remindLater.label", owner: "basic"),
        Key("adb_rem_ts", "remindLater.at", .integer(minimum: 0), owner: "basic"),
        Key("adb_rem_sec", "remindLater.after", .integer(minimum: 1), owner: "basic"),
        Key("adb_car_layout", "carousel.layout", .choice(same(["default", "filmstrip"])), owner: "carousel"),
        Key("adb_body_ex_alt", "expired.expandedBody", owner: "timer"),
        Key("adb_image_alt", "expired.image", owner: "timer"),
        Key("adb_input_receiver", "reply.key", owner: "input"),
        Key("adb_input_txt", "reply.label", owner: "input"),
        Key("adb_feedback_txt", "reply.sentBody", owner: "input"),
        Key("adb_feedback_img", "reply.sentImage", owner: "input"),
        Key("adb_col_style", "zeroBezel.collapsed", .choice(["img": "image", "txt": "text"]), owner: "zb"),
        Key("adb_cta_txt", "catalog.button.label", owner: "cat"),
        Key("adb_cta_uri", "catalog.button.uri", owner: "cat"),
        Key("adb_cta_clr", "catalog.button.color", .colour, owner: "cat"),
        Key("adb_cta_txt_clr", "catalog.button.textColor", .colour, owner: "cat"),
        Key("adb_display", "catalog.layout", .choice(same(["horizontal", "vertical"])), owner: "cat"),
        Key("adb_rate_unselected_icon", "rating.unselectedIcon", owner: "rate"),
        Key("adb_rate_selected_icon", "rating.selectedIcon", owner: "rate"),
        Key("adb_cancel_image", "icons.closeImage", owner: "icon"),
    ]

    /// APNS keys beside `aps`.
    static let apns: [Key] = common + [
        Key("adb_media", "image"),
        Key("adb_title_ex", "expandedTitle"),
        Key("adb_media_alt", "expired.image", owner: "timer"),
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
