internal import PushmapJSON

/// A list key of a template (adb_act, adb_items, adb_rate_act): the intent array it comes from,
/// and how each entry's members are named there. Import reads a payload's list back by it, and
/// blame names an entry's member by it (an item's `img` is the intent's `image`).
struct ListReading: Sendable {
    /// A member of an entry.
    enum Member: Sendable {
        /// A string member, named `intent` in the intent.
        case text(payload: String, intent: String)
        /// `type`, kept when it is a link type the intent can say.
        case tapType
    }

    let key: AdobeKey
    /// The intent array (`carousel.items`).
    let field: String
    /// At most this many entries are read.
    let maxItems: Int
    /// The string member an entry needs, or it is left out.
    let required: String?
    let members: [Member]

    /// The entry member names, payload -> intent.
    var intentNames: [String: String] {
        var names: [String: String] = [:]
        for member in members {
            switch member {
            case .text(let payload, let intent): names[payload] = intent
            case .tapType: names["type"] = "type"
            }
        }
        return names
    }

    /// The entries Android reads, in order (client-rules.md, adobe-templates.md): a button without
    /// a label or a type is skipped; a carousel item without an image ends the list, it and the
    /// rest lost; an icon without an image, without a type or with one Android does not know
    /// (lower case too), or a link type without its uri, is skipped (the thirty-sixth audit,
    /// F4). The other lists' entries are all read here.
    func androidReads(_ entries: [JSONObject]) -> [JSONObject] {
        switch field {
        case "buttons": entries.filter { !($0["label"]?.stringValue ?? "").isEmpty && $0["type"] != nil }
        case "carousel.items": Array(entries.prefix { !($0["img"]?.stringValue ?? "").isEmpty })
        case "icons.items": entries.filter(Self.androidShowsIcon)
        default: entries
        }
    }

    private static func androidShowsIcon(_ item: JSONObject) -> Bool {
        guard !(item["img"]?.stringValue ?? "").isEmpty, let type = item["type"]?.stringValue else { return false }
        if type.isEmpty { return true } // read as NONE
        guard type == "NONE" || IntentSchema.actionTypes.contains(type) else { return false }
        return !(type == "WEBURL" || type == "DEEPLINK") || !(item["uri"]?.stringValue ?? "").isEmpty
    }

    /// The buttons of plain and basic.
    static let buttons = ListReading(
        key: .actions, field: "buttons", maxItems: 3, required: "label",
        members: [.text(payload: "label", intent: "label"), .text(payload: "uri", intent: "uri"), .tapType, .text(payload: "aid", intent: "id")])
}
