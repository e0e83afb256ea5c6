/// The fields of the templates only Android draws (input, zb, cat, rate, icon), each object owned
/// by its template (the scripts' `owns`), and Campaign Classic's ids, which every template may carry.
/// Named for what they mean, not after the keys they become.
extension IntentSchema {
    /// A star's or an icon's action: what tapping it opens.
    static let tapFields = [
        IntentField("uri", uri, "What it opens: a web URL or a deep link."),
        IntentField("type", .choice(actionTypes), "Action type; inferred from the uri when absent (OPENAPP without a uri)."),
    ]

    static let androidTemplateFields = [
        IntentField("campaignClassic", .object(IntentObject([
            IntentField("messageId", text, required: true, "Campaign Classic's message id (_mId)."),
            IntentField("deliveryId", text, required: true, "Campaign Classic's delivery id (_dId)."),
        ])), "Adobe Campaign Classic's tracking ids, which its Android extension (the released caller of the templates) needs."),
        IntentField("reply", .object(IntentObject([
            IntentField("key", text, required: true, "The name the app receives the typed text under (adb_input_receiver)."),
            IntentField("label", text, "The reply button's label and the field's hint; Android's default is \"Reply\"."),
            IntentField("sentBody", text, "The body once the reply is sent; without it the body is blank then."),
            IntentField("sentImage", text, "The image once the reply is sent (URL or drawable name)."),
        ])), "Reply field (input template, Android)."),
        IntentField("zeroBezel", .object(IntentObject([
            IntentField("collapsed", .choice(["image", "text"]), "What the collapsed notification shows: the image or the text (default)."),
        ])), "Zero bezel layout (zb template, Android); the image is the intent's image, an http(s) URL."),
        IntentField("catalog", .object(IntentObject([
            IntentField("layout", .choice(["horizontal", "vertical"]), "horizontal (default) shows title and image only; vertical also body and price."),
            IntentField("button", .object(IntentObject([
                IntentField("label", text, required: true, "The button's text."),
                IntentField("uri", uri, required: true, "What the button opens."),
                IntentField("color", colour, required: true, "The button's colour, RRGGBB or RRGGBBAA."),
                IntentField("textColor", colour, required: true, "The button text's colour."),
            ])), "The call-to-action button; all four required."),
            IntentField("items", .array(.object(IntentObject([
                IntentField("title", text, required: true, "Product name."),
                IntentField("body", text, required: true, "Product description (vertical layout)."),
                IntentField("image", text, required: true, "Product image, an http(s) URL."),
                IntentField("price", text, required: true, "Price, as shown."),
                IntentField("uri", uri, required: true, "What tapping the large image opens."),
            ])), maxItems: 3), "Exactly three products."),
        ])), "Product catalog (cat template, Android)."),
        IntentField("rating", .object(IntentObject([
            IntentField("unselectedIcon", text, required: true, "Icon of a star not chosen: URL or drawable name."),
            IntentField("selectedIcon", text, required: true, "Icon of a chosen star: URL or drawable name."),
            IntentField("stars", .array(.object(IntentObject(tapFields)), maxItems: 5), "Three to five stars, left to right, each with the action run once confirmed."),
        ])), "Product rating (rate template, Android)."),
        IntentField("icons", .object(IntentObject([
            IntentField("items", .array(.object(IntentObject([
                IntentField("image", text, required: true, "The icon: URL or drawable name."),
            ] + tapFields)), maxItems: 5), "Three to five icons."),
            IntentField("closeImage", text, "The close button's image: URL or drawable name; Android's cross when absent."),
        ])), "Row of icons (icon template, Android); the title and body are not shown."),
    ]
}
