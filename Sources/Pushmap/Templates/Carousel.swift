extension TemplateDescription {
    /// Adobe's carousel template: three or more images with captions and links. Adobe's pages say
    /// two to five; its code sets no maximum on either phone (its iOS demo sends fifteen), so
    /// neither does the intent (the thirty-fourth audit, F2).
    static let carousel = TemplateDescription(
        name: "carousel", type: "car", onIOS: true, scope: .carousel,
        fields: [
            IntentField("carousel", .object(IntentObject([
                IntentField("mode", .choice(["auto", "manual"]), "auto advances by itself; manual lets the user swipe."),
                IntentField("layout", .choice(["default", "filmstrip"]), "Android layout; default \"default\"."),
                IntentField("items", .array(.object(IntentObject([
                    IntentField("image", IntentSchema.text, required: true, "Item image URL."),
                    IntentField("text", IntentSchema.text, "Caption."),
                    IntentField("uri", IntentSchema.uri, "What tapping the item opens."),
                ])), maxItems: nil), "Three or more items: Android shows a carousel from three downloaded images."),
            ])), "Carousel content (carousel template)."),
        ],
        keys: [
            Key(.carouselMode, "carousel.mode", .both, .choice(["auto": "auto", "manual": "manual"], androidOtherwise: "manual")),
            Key(.carouselLayout, "carousel.layout", .fcm, .same(["default", "filmstrip"])),
            Key(.items, "carousel.items", .both, .list),
        ],
        lists: [ListReading(
            key: .items, field: "carousel.items", maxItems: .max, required: "img",
            members: [.text(payload: "img", intent: "image"), .text(payload: "txt", intent: "text"), .text(payload: "uri", intent: "uri")])])
}
