extension TemplateDescription {
    /// Adobe's basic template: expanded text, colours, Android's icons and, on Android, a
    /// remind-later button. Carousel and timer are built on it.
    static let basic = TemplateDescription(
        name: "basic", type: "basic", onIOS: true, scope: .basic,
        fields: [
            IntentField("remindLater", .object(IntentObject([
                IntentField("label", IntentSchema.text, required: true, "The remind-later button's label."),
                IntentField("at", .integer(minimum: 0), "Deliver again at this epoch time, in seconds."),
                IntentField("after", .integer(minimum: 1), "Deliver again after this many seconds."),
            ], exclusive: [["at", "after"]], oneRequired: [["at", "after"]])), "Remind-later button (basic, Android)."),
        ],
        keys: [
            // Every template's, from basic on; plain has neither.
            Key(.version, "version", .both),
            Key(.templateType, "template", .both, nil),
            Key(.titleEx, "expandedTitle", .apns),
            Key(.bodyEx, "expandedBody", .both),
            // adb_clr_icon is Android's alone; a payload that carries it on iOS still reads back.
            Key(.titleColour, "colors.title", .both, .colour),
            Key(.bodyColour, "colors.body", .both, .colour),
            Key(.backgroundColour, "colors.background", .both, .colour),
            Key(.iconColour, "colors.icon", .both, .colour),
            Key(.smallIcon, "android.smallIcon", .fcm),
            Key(.largeIcon, "android.largeIcon", .fcm),
            Key(.tag, "android.tag", .fcm),
            Key(.sticky, "android.sticky", .fcm, .boolean),
            Key(.ticker, "android.ticker", .fcm),
            Key(.remindText, "remindLater.label", .fcm),
            Key(.remindAt, "remindLater.at", .fcm, .integer(minimum: 0)),
            Key(.remindAfter, "remindLater.after", .fcm, .integer(minimum: 1)),
        ],
        lists: [.buttons])
}
