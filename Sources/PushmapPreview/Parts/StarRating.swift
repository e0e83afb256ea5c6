extension NotificationView {
    /// Android's product rating: a row of stars, each drawn with the selected or the unselected icon.
    package struct StarRating: Sendable, Hashable {
        package var count: Int
        /// Stars up to and including this one (from 0) are selected; nil before a tap.
        package var selected: Int?
        package var selectedIcon: String
        package var unselectedIcon: String
        /// What confirming each star does, left to right: "opens URI", "dismisses".
        package var actions: [String]

        /// The icon star `index` is drawn with.
        package func icon(_ index: Int) -> String {
            if let selected, index <= selected { return selectedIcon }
            return unselectedIcon
        }
    }
}
