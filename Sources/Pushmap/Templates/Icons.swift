extension TemplateDescription {
    /// notificationbuilder's multi-icon template (Android): a row of three to five icons.
    static let icons = TemplateDescription(
        name: "icon", type: "icon", onIOS: false, scope: .multiIcon,
        fields: [
            IntentField("icons", .object(IntentObject([
                IntentField("items", .array(.object(IntentObject([
                    IntentField("image", IntentSchema.text, required: true, "The icon: URL or drawable name."),
                ] + IntentSchema.tapFields)), maxItems: 5), "Three to five icons."),
                IntentField("closeImage", IntentSchema.text, "The close button's image: URL or drawable name; Android's cross when absent."),
            ])), "Row of icons (icon template, Android); the title and body are not shown."),
        ],
        keys: [
            Key(.cancelImage, "icons.closeImage", .fcm),
            // Read back from an APNS payload too, though the script writes it for FCM only.
            Key(.items, "icons.items", .both, .list),
        ],
        androidRequires: [.items],
        lists: [ListReading(
            key: .items, field: "icons.items", maxItems: 5, required: "img",
            members: [.text(payload: "img", intent: "image"), .text(payload: "uri", intent: "uri"), .tapType])])
}
