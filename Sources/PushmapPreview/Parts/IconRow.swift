extension NotificationView {
    /// Android's multi-icon template: a row of tappable icons and a close button.
    package struct IconRow: Sendable, Hashable {
        /// One icon: its image (URL or drawable name) and what a tap does.
        package struct Icon: Sendable, Hashable {
            package var image: String
            package var action: String
        }
        package var icons: [Icon]
        /// The close button's image; nil when it is hidden.
        package var close: String?
    }
}
