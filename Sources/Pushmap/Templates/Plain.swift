extension TemplateDescription {
    /// The generic notification Android's messaging SDK and iOS draw without a template, and the
    /// base every template is built on: its keys are every template's.
    static let plain = TemplateDescription(
        name: "plain", type: nil, onIOS: false, scope: .plain,
        keys: [
            Key(.title, "title", .fcm),
            Key(.body, "body", .fcm),
            Key(.sound, "sound", .fcm),
            Key(.badgeCount, "badge", .fcm, .integer(minimum: 0)),
            // Android reads adb_image, iOS adb_media.
            Key(.image, "image", .fcm),
            Key(.media, "image", .apns),
            Key(.uri, "link.uri", .both),
            Key(.linkType, "link.type", .both, .same(IntentSchema.actionTypes)),
            Key(.actions, "buttons", .both, .list),
            Key(.channel, "android.channel", .fcm),
            Key(.icon, "android.icon", .fcm),
            Key(.displayPriority, "android.priority", .fcm, .choice([
                "PRIORITY_MIN": "min", "PRIORITY_LOW": "low", "PRIORITY_DEFAULT": "default", "PRIORITY_HIGH": "high", "PRIORITY_MAX": "max",
            ])),
            Key(.visibility, "android.visibility", .fcm, .choice(["PRIVATE": "private", "PUBLIC": "public", "SECRET": "secret"])),
        ],
        lists: [.buttons])
}
