extension TemplateDescription {
    /// notificationbuilder's product catalog template (Android): three products and a button.
    static let catalog = TemplateDescription(
        name: "cat", type: "cat", onIOS: false, scope: .catalog,
        fields: [
            IntentField("catalog", .object(IntentObject([
                IntentField("layout", .choice(["horizontal", "vertical"]), "horizontal (default) shows title and image only; vertical also body and price."),
                IntentField("button", .object(IntentObject([
                    IntentField("label", IntentSchema.text, required: true, "The button's text."),
                    IntentField("uri", IntentSchema.uri, required: true, "What the button opens."),
                    IntentField("color", IntentSchema.colour, required: true, "The button's colour, RRGGBB or RRGGBBAA."),
                    IntentField("textColor", IntentSchema.colour, required: true, "The button text's colour."),
                ])), required: true, "The call-to-action button; all four required."),
                IntentField("items", .array(.object(IntentObject([
                    IntentField("title", IntentSchema.text, required: true, "Product name."),
                    IntentField("body", IntentSchema.text, required: true, "Product description (vertical layout)."),
                    IntentField("image", IntentSchema.text, required: true, "Product image, an http(s) URL."),
                    IntentField("price", IntentSchema.text, required: true, "Price, as shown."),
                    IntentField("uri", IntentSchema.uri, required: true, "What tapping the large image opens."),
                ])), maxItems: 3), "Exactly three products."),
            ])), "Product catalog (cat template, Android)."),
        ],
        keys: [
            Key(.ctaText, "catalog.button.label", .fcm),
            Key(.ctaURI, "catalog.button.uri", .fcm),
            Key(.ctaColour, "catalog.button.color", .fcm, .colour),
            Key(.ctaTextColour, "catalog.button.textColor", .fcm, .colour),
            Key(.display, "catalog.layout", .fcm, .same(["horizontal", "vertical"])),
            // Read back from an APNS payload too, though the script writes it for FCM only.
            Key(.items, "catalog.items", .both, .list),
        ],
        androidRequires: [.ctaText, .ctaColour, .ctaTextColour, .ctaURI, .display, .items],
        lists: [ListReading(
            key: .items, field: "catalog.items", maxItems: 3, required: nil,
            members: [
                .text(payload: "title", intent: "title"), .text(payload: "body", intent: "body"), .text(payload: "img", intent: "image"),
                .text(payload: "price", intent: "price"), .text(payload: "uri", intent: "uri"),
            ])])
}
