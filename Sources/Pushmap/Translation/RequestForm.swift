/// What a translation writes beyond the bare payloads, for a sender that sends what it gets.
///
/// Give a set of these to a ``Translator``'s `translate(_:platforms:forms:)`; the
/// template's script writes the APNS request headers (the built-in ones derive them from the
/// payload and the intent: push type, priority, expiration, collapse id, topic).
public enum RequestForm: Hashable, Sendable {
    /// The APNS payload as a request, `{"headers": {...}, "payload": {...}}`, header values strings.
    case apnsRequest
    /// The FCM message carries the same APNS request as `message.apns`, so that one FCM message
    /// reaches Android and iOS devices.
    case fcmAPNS
}
