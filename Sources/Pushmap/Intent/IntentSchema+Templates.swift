/// What the template descriptions (Sources/Pushmap/Templates) share, and Campaign Classic's ids,
/// which every template may carry. Named for what they mean, not after the keys they become.
extension IntentSchema {
    /// A star's or an icon's action: what tapping it opens.
    static let tapFields = [
        IntentField("uri", uri, "What it opens: a web URL or a deep link."),
        IntentField("type", .choice(actionTypes), "Action type; inferred from the uri when absent (OPENAPP without a uri)."),
    ]

    static let campaignClassic = IntentField("campaignClassic", .object(IntentObject([
        IntentField("messageId", text, required: true, "Campaign Classic's message id (_mId)."),
        IntentField("deliveryId", text, required: true, "Campaign Classic's delivery id (_dId)."),
    ])), "Adobe Campaign Classic's tracking ids, which its Android extension (the released caller of the templates) needs.")
}
