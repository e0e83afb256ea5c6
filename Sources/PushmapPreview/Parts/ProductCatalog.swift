extension NotificationView {
    /// Android's product catalog: one item large, the three as thumbnails, and a call-to-action button.
    package struct ProductCatalog: Sendable, Hashable {
        /// One product.
        package struct Item: Sendable, Hashable {
            package var title: PreviewText?
            package var body: PreviewText?
            package var price: String
            package var image: String
            /// Opened when the large image is tapped.
            package var uri: String
        }
        package var items: [Item]
        /// The item shown large, from 0.
        package var current: Int
        /// "vertical" or "horizontal"; the horizontal layout has no room for an item's body and price.
        package var display: String
        package var buttonLabel: String
        package var buttonColor: PreviewColor?
        package var buttonTextColor: PreviewColor?
    }
}
