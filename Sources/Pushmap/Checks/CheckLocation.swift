internal import PushmapJSON

/// Where a finding lies: always in the payload, and in the intent when the payload key's origin
/// is known (see ``IntentOrigin``).
struct CheckLocation: Sendable, Equatable {
    /// The payload path, such as `$.message.data.adb_title`.
    var payload: String
    /// The intent path the key comes from, such as `$.title`; nil when unknown.
    var intent: String?

    init(payload: String, intent: String? = nil) {
        self.payload = payload
        self.intent = intent
    }

    /// The payload root, which has no intent origin of its own.
    static let root = CheckLocation(payload: "$", intent: "$")

    /// A member of this location; `intentKey` names it in the intent when that differs
    /// (an item's `img` is the intent's `image`).
    func member(_ key: String, intentKey: String? = nil) -> CheckLocation {
        CheckLocation(payload: JSONPath.member(payload, key), intent: intent.map { JSONPath.member($0, intentKey ?? key) })
    }

    /// An element of this location, in the payload and in the intent alike.
    func index(_ index: Int) -> CheckLocation {
        CheckLocation(payload: JSONPath.element(payload, index), intent: intent.map { JSONPath.element($0, index) })
    }
}
