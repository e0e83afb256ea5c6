extension TemplateDescription {
    /// notificationbuilder's input template (Android): a reply field, and what shows once sent.
    static let input = TemplateDescription(
        name: "input", type: "input", onIOS: false, scope: .inputBox,
        fields: [
            IntentField("reply", .object(IntentObject([
                IntentField("key", IntentSchema.text, required: true, "The name the app receives the typed text under (adb_input_receiver)."),
                IntentField("label", IntentSchema.text, "The reply button's label and the field's hint; Android's default is \"Reply\"."),
                IntentField("sentBody", IntentSchema.text, "The body once the reply is sent; without it the body is blank then."),
                IntentField("sentImage", IntentSchema.text, "The image once the reply is sent (URL or drawable name)."),
            ])), "Reply field (input template, Android)."),
        ],
        keys: [
            Key(.inputReceiver, "reply.key", .fcm),
            Key(.inputText, "reply.label", .fcm),
            Key(.feedbackText, "reply.sentBody", .fcm),
            Key(.feedbackImage, "reply.sentImage", .fcm),
        ],
        androidRequires: [.inputReceiver])
}
