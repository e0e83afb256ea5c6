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

    /// Whether Android builds `entry`: a button needs a label that is not empty and a type, or
    /// it is skipped (client-rules.md, basic); the other lists' entries are all read here.
    func androidBuilds(_ entry: JSONObject) -> Bool {
        guard key == .actions else { return true }
        return !(entry["label"]?.stringValue ?? "").isEmpty && entry["type"] != nil
    }

    /// The buttons of plain and basic.
    static let buttons = ListReading(
        key: .actions, field: "buttons", maxItems: 3, required: "label",
        members: [.text(payload: "label", intent: "label"), .text(payload: "uri", intent: "uri"), .tapType, .text(payload: "aid", intent: "id")])
}
