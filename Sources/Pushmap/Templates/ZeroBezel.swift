extension TemplateDescription {
    /// notificationbuilder's zero-bezel template (Android): the image edge to edge, the text over it.
    static let zeroBezel = TemplateDescription(
        name: "zb", type: "zb", onIOS: false, scope: .zeroBezel,
        fields: [
            IntentField("zeroBezel", .object(IntentObject([
                IntentField("collapsed", .choice(["image", "text"]), "What the collapsed notification shows: the image or the text (default)."),
            ])), "Zero bezel layout (zb template, Android); the image is the intent's image, an http(s) URL."),
        ],
        keys: [
            Key(.collapsedStyle, "zeroBezel.collapsed", .fcm, .choice(["img": "image", "txt": "text"])),
        ])
}
