internal import PushmapJSON

/// A data key that only some templates read, with the intent field pushmap writes it from (the
/// template's description says which). The client rules' ``CustomKeys/Known`` keys are matched
/// once per payload; these are looked up by a scan, and only for the templates that read them.
struct TemplateKey {
    let name: String
    /// The intent path of the field the key comes from.
    let intent: String?

    /// An Adobe key of `template`, from the field its description gives.
    init(_ key: AdobeKey, of template: TemplateDescription) {
        self.init(word: key.name, intent: template.key(key)?.intentPath)
    }

    /// A key that is not Adobe's (Campaign Classic's ids, the keys an app adds on a tap).
    init(word: String, intent: String?) {
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
        return CheckLocation(payload: JSONPath.member(ValueFormat.text(base), name), intent: intent)
    }

    // The Adobe keys the Android template rules read by name.
    static let inputReceiver = TemplateKey(.inputReceiver, of: .input)
    static let collapsedStyle = TemplateKey(.collapsedStyle, of: .zeroBezel)
    static let ctaText = TemplateKey(.ctaText, of: .catalog)
    static let ctaColour = TemplateKey(.ctaColour, of: .catalog)
    static let ctaTextColour = TemplateKey(.ctaTextColour, of: .catalog)
    static let ctaURI = TemplateKey(.ctaURI, of: .catalog)
    static let display = TemplateKey(.display, of: .catalog)
    static let catalogItems = TemplateKey(.items, of: .catalog)
    static let unselectedIcon = TemplateKey(.unselectedIcon, of: .rating)
    static let selectedIcon = TemplateKey(.selectedIcon, of: .rating)
    static let ratingActions = TemplateKey(.ratingActions, of: .rating)
    static let iconItems = TemplateKey(.items, of: .icons)
    // The keys Android's SDK adds to the push data on a tap.
    static let catalogItemIndex = TemplateKey(word: "catalogItemIndex", intent: "$.data.catalogItemIndex")
    static let ratingSelected = TemplateKey(word: "ratingSelected", intent: "$.data.ratingSelected")
    // Campaign Classic
    static let messageID = TemplateKey(word: "_mId", intent: "$.campaignClassic.messageId")
    static let deliveryID = TemplateKey(word: "_dId", intent: "$.campaignClassic.deliveryId")
    static let message = TemplateKey(word: "_msg", intent: "$.data._msg")
}
