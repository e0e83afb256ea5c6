/// A push service a payload is written for. An open set, compared by name.
public struct Platform: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The name used on the command line, in scripts and in output: `fcm`, `apns`.
    public let name: String

    /// A platform by name; ``fcm`` and ``apns`` are the ones pushmap writes.
    public init(_ name: String) { self.name = name }

    /// Firebase Cloud Messaging, HTTP v1: an Android data message.
    public static let fcm = Platform("fcm")
    /// Apple Push Notification service: the JSON payload.
    public static let apns = Platform("apns")

    /// Every platform pushmap writes, in output order.
    package static let all: [Platform] = [.fcm, .apns]

    public var description: String { name }
    public static func < (lhs: Platform, rhs: Platform) -> Bool { lhs.name < rhs.name }
}
