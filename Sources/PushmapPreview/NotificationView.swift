/// One picture of a notification: what one phone draws in one state (collapsed, expanded, one
/// carousel item, after a timer's expiry, or the fallback it shows instead).
package struct NotificationView: Sendable, Hashable {
    /// A carousel as the expanded view shows it, with one item in front.
    package struct Carousel: Sendable, Hashable {
        /// One item: its image and caption.
        package struct Item: Sendable, Hashable {
            /// Nil when the phone loads none (an http image on iOS).
            package var image: String?
            package var caption: PreviewText?
        }
        package var items: [Item]
        /// The item in front, from 0.
        package var current: Int
        /// "auto" or "manual".
        package var mode: String
        /// Android's "default" or "filmstrip"; iOS has one layout, "ios".
        package var layout: String
    }

    /// A stable id for tests and anchors: `collapsed`, `expanded`, `expanded-item-2`,
    /// `expired-collapsed`, `expired-expanded`.
    package var id: String
    /// What the picture shows, for people: "Expanded, item 2 of 3".
    package var label: String
    package var title: PreviewText?
    package var subtitle: PreviewText?
    package var body: PreviewText?
    /// The big image's URL.
    package var image: String?
    /// A small image beside the text (Android's large icon, iOS's attachment thumbnail).
    package var thumbnail: String?
    package var carousel: Carousel?
    /// The input template's reply field (before a reply).
    package var reply: ReplyField?
    package var catalog: ProductCatalog?
    package var rating: StarRating?
    package var iconRow: IconRow?
    /// "zero-bezel" when the image fills the card edge to edge, the text over it.
    package var imageStyle: String?
    /// The countdown as the phone shows it, "00:10:00"; "00:00" after expiry.
    package var timer: String?
    /// Action button labels, in order.
    package var buttons: [String] = []
    package var colors = PreviewColor.Set()
    /// The layout the phone falls back to ("basic", "ios-default"), when this view is a fallback.
    package var fallback: String?
    /// Why the phone falls back.
    package var fallbackReason: String?

    package init(id: String, label: String) {
        self.id = id
        self.label = label
    }
}
