internal import PushmapJSON

/// An FCM payload's data keys as notificationbuilder reads them: every value a string (anything
/// else is shown as JSON).
struct AndroidData {
    let members: [(key: String, value: JSONValue)]

    func text(_ key: String) -> String? {
        for member in members where member.key == key { return member.value.stringValue }
        return nil
    }

    func has(_ key: String) -> Bool { members.contains { $0.key == key } }

    /// Whether `java.net.URL` takes the text (what notificationbuilder downloads; anything else is
    /// a drawable name or nothing).
    static func isURL(_ text: String?) -> Bool {
        guard let text, let colon = text.firstIndex(of: ":") else { return false }
        return ["http", "https", "ftp", "file", "jar"].contains(text[..<colon].lowercased())
    }

    /// The action types notificationbuilder parses with `ActionType.valueOf`.
    static let actionTypes: Set<String> = ["DEEPLINK", "WEBURL", "DISMISS", "OPENAPP", "NONE"]

    /// What a tap on an item with this type and uri does.
    static func action(type: String, uri: String?) -> String {
        switch type {
        case "DISMISS": "dismisses"
        case "WEBURL", "DEEPLINK": "opens \(uri ?? "")"
        default: "opens the app"
        }
    }
}
