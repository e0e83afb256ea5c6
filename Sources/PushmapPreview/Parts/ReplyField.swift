extension NotificationView {
    /// Android's input template: the reply action and the field it opens.
    package struct ReplyField: Sendable, Hashable {
        /// The action's label, which is also the field's hint.
        package var hint: String
        /// The name the typed text is handed to the app under.
        package var receiver: String
    }
}
