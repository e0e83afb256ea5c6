internal import PushmapJSON

/// A data key that only some templates read, with the intent field pushmap writes it from. The
/// client rules' ``CustomKeys/Known`` keys are matched once per payload; these are looked up by
/// a scan, and only for the templates that read them.
struct TemplateKey {
    let word: StaticString
    /// The intent path of the field the key comes from.
    let intent: StaticString

    var name: String { ValueFormat.text(word) }

    /// The key's value in `keys`, or nil when absent.
    func value(in keys: CustomKeys) -> JSONNode? {
        index(in: keys).map { keys.entries[$0].value }
    }

    /// The value's bytes when it is a string.
    func text(in keys: CustomKeys) -> UnsafeRawBufferPointer? {
        value(in: keys)?.utf8
    }

    func index(in keys: CustomKeys) -> Int? {
        keys.entries.indices.first { ValueFormat.equals(keys.entries[$0].key, word) }
    }

    /// Where the key is, or would go when absent.
    func location(in keys: CustomKeys) -> CheckLocation {
        let base = index(in: keys).map { keys.entries[$0].base } ?? keys.base
        return CheckLocation(payload: JSONPath.member(ValueFormat.text(base), name), intent: ValueFormat.text(intent))
    }

    // input
    static let inputReceiver = TemplateKey(word: "adb_input_receiver", intent: "$.reply.key")
    // zb
    static let collapsedStyle = TemplateKey(word: "adb_col_style", intent: "$.zeroBezel.collapsed")
    // cat
    static let ctaText = TemplateKey(word: "adb_cta_txt", intent: "$.catalog.button.label")
    static let ctaColour = TemplateKey(word: "adb_cta_clr", intent: "$.catalog.button.color")
    static let ctaTextColour = TemplateKey(word: "adb_cta_txt_clr", intent: "$.catalog.button.textColor")
    static let ctaURI = TemplateKey(word: "adb_cta_uri", intent: "$.catalog.button.uri")
    static let display = TemplateKey(word: "adb_display", intent: "$.catalog.layout")
    static let catalogItems = TemplateKey(word: "adb_items", intent: "$.catalog.items")
    static let catalogItemIndex = TemplateKey(word: "catalogItemIndex", intent: "$.data.catalogItemIndex")
    // rate
    static let unselectedIcon = TemplateKey(word: "adb_rate_unselected_icon", intent: "$.rating.unselectedIcon")
    static let selectedIcon = TemplateKey(word: "adb_rate_selected_icon", intent: "$.rating.selectedIcon")
    static let ratingActions = TemplateKey(word: "adb_rate_act", intent: "$.rating.stars")
    static let ratingSelected = TemplateKey(word: "ratingSelected", intent: "$.data.ratingSelected")
    // icon
    static let iconItems = TemplateKey(word: "adb_items", intent: "$.icons.items")
    // Campaign Classic
    static let messageID = TemplateKey(word: "_mId", intent: "$.campaignClassic.messageId")
    static let deliveryID = TemplateKey(word: "_dId", intent: "$.campaignClassic.deliveryId")
    static let message = TemplateKey(word: "_msg", intent: "$.data._msg")
}
