@_spi(Tools) package import Pushmap

/// What one phone makes of one payload: the pictures, what it does with each key, and notes
/// about who draws it.
package struct PlatformPreview: Sendable, Hashable {
    package var platform: Platform
    /// Who draws it: "Adobe notificationbuilder, basic template".
    package var drawnBy: String
    /// The template the phone draws (after any fallback): `basic`, `car`, `timer`, `plain`, `ios-default`.
    package var layout: String
    package var views: [NotificationView]
    package var keys: [KeyReading]
    /// Things to know beside the pictures: a fallback, a timer dropped on arrival.
    package var notes: [String]

    package init(platform: Platform, drawnBy: String, layout: String, views: [NotificationView] = [], keys: [KeyReading] = [], notes: [String] = []) {
        self.platform = platform
        self.drawnBy = drawnBy
        self.layout = layout
        self.views = views
        self.keys = keys
        self.notes = notes
    }

    /// Nothing reaches the screen, for `reason`: no view, and no key said to show (the
    /// fortieth audit: a refused payload was drawn, or its keys said to show).
    package mutating func notShown(_ reason: String) {
        views = []
        layout = "none"
        notes.append(reason)
        markUndrawn("not drawn: the notification is not shown")
    }

    /// Each key said to show, said not to, for `reason`.
    package mutating func markUndrawn(_ reason: String, only keys: Set<String>? = nil) {
        for index in self.keys.indices where self.keys[index].verdict == .shows && keys.map({ $0.contains(self.keys[index].key) }) ?? true {
            self.keys[index].verdict = .ignores
            self.keys[index].reason = reason
        }
    }

    /// "Android (FCM)" or "iOS (APNS)".
    package var heading: String {
        switch platform {
        case .fcm: "Android (FCM)"
        case .apns: "iOS (APNS)"
        default: platform.name
        }
    }
}
