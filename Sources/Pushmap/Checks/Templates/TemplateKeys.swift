internal import PushmapJSON

/// A data key that only some templates read, with the intent field pushmap writes it from. The
/// client rules' ``CustomKeys/Known`` keys are matched once per payload; these are looked up by
/// a scan, and only for the templates that read them.
struct TemplateKey {
    let name: String
    /// The intent path of the field the key comes from.
    let intent: StaticString

    init(_ key: AdobeKey, intent: StaticString) {
        self.init(word: key.name, intent: intent)
    }

    /// A key that is not Adobe's (Campaign Classic's ids, the keys an app adds on a tap).
    init(word: String, intent: StaticString) {
        name = word
        self.intent = intent
    }

    /// The key's value in `keys`, or nil when absent.
    func value(in keys: CustomKeys) -> JSONNode? {
        index(in: keys).map { keys.entries[$0].value }
    }

    /// The value's bytes when it is a string.
    func text(in keys: CustomKeys) -> UnsafeRawBufferPointer? {
        value(in: keys)?.utf8
    }

    func index(in keys: CustomKeys) -> Int? {
        var name = name
        return name.withUTF8 { word in keys.entries.indices.first { JSONItems.same(keys.entries[$0].key, UnsafeRawBufferPointer(word)) } }
    }

    /// Where the key is, or would go when absent.
    func location(in keys: CustomKeys) -> CheckLocation {
        let base = index(in: keys).map { keys.entries[$0].base } ?? keys.base
        return CheckLocation(payload: JSONPath.member(ValueFormat.text(base), name), intent: ValueFormat.text(intent))
    }

    // input
    static let inputReceiver = TemplateKey(.inputReceiver, intent: "$.reply.key")
    // zb
    static let collapsedStyle = TemplateKey(.collapsedStyle, intent: "$.zeroBezel.collapsed")
    // cat
    static let ctaText = TemplateKey(.ctaText, intent: "$.catalog.button.label")
    static let ctaColour = TemplateKey(.ctaColour, intent: "$.catalog.button.color")
    static let ctaTextColour = TemplateKey(.ctaTextColour, intent: "$.catalog.button.textColor")
    static let ctaURI = TemplateKey(.ctaURI, intent: "$.catalog.button.uri")
    static let display = TemplateKey(.display, intent: "$.catalog.layout")
    static let catalogItems = TemplateKey(.items, intent: "$.catalog.items")
    static let catalogItemIndex = TemplateKey(word: "catalogItemIndex", intent: "$.data.catalogItemIndex")
    // rate
    static let unselectedIcon = TemplateKey(.unselectedIcon, intent: "$.rating.unselectedIcon")
    static let selectedIcon = TemplateKey(.selectedIcon, intent: "$.rating.selectedIcon")
    static let ratingActions = TemplateKey(.ratingActions, intent: "$.rating.stars")
    static let ratingSelected = TemplateKey(word: "ratingSelected", intent: "$.data.ratingSelected")
    // icon
    static let iconItems = TemplateKey(.items, intent: "$.icons.items")
    // Campaign Classic
    static let messageID = TemplateKey(word: "_mId", intent: "$.campaignClassic.messageId")
    static let deliveryID = TemplateKey(word: "_dId", intent: "$.campaignClassic.deliveryId")
    static let message = TemplateKey(word: "_msg", intent: "$.data._msg")
}
