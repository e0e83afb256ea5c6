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

    /// "Android (FCM)" or "iOS (APNS)".
    package var heading: String {
        switch platform {
        case .fcm: "Android (FCM)"
        case .apns: "iOS (APNS)"
        default: platform.name
        }
    }
}
