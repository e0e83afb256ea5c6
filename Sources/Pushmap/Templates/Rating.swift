extension TemplateDescription {
    /// notificationbuilder's product rating template (Android): three to five stars.
    static let rating = TemplateDescription(
        name: "rate", type: "rate", onIOS: false, scope: .rating,
        fields: [
            IntentField("rating", .object(IntentObject([
                IntentField("unselectedIcon", IntentSchema.text, required: true, "Icon of a star not chosen: URL or drawable name."),
                IntentField("selectedIcon", IntentSchema.text, required: true, "Icon of a chosen star: URL or drawable name."),
                IntentField("stars", .array(.object(IntentObject(IntentSchema.tapFields)), maxItems: 5),
                    "Three to five stars, left to right, each with the action run once confirmed."),
            ])), "Product rating (rate template, Android)."),
        ],
        keys: [
            Key(.unselectedIcon, "rating.unselectedIcon", .fcm),
            Key(.selectedIcon, "rating.selectedIcon", .fcm),
            Key(.ratingActions, "rating.stars", .fcm, .list),
        ],
        androidRequires: [.unselectedIcon, .selectedIcon, .ratingActions],
        lists: [ListReading(key: .ratingActions, field: "rating.stars", maxItems: 5, required: nil, members: [.text(payload: "uri", intent: "uri"), .tapType])])
}
