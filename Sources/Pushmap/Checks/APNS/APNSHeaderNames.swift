internal import PushmapJSON

/// HTTP header names ignore case (RFC 9110, 5.1) and HTTP/2 sends them in lower case (RFC 9113,
/// 8.2.1): `Apns-Topic`, as Go's `http.Header.Set` writes it (sideshow/apns2), is apns-topic.
/// The rules and the import read headers by their lower-case names, so a request's names are
/// lowered before they run. A name that would then be another's stays as written, for the header
/// walk to report as the same header given twice.
enum APNSHeaderNames {
    /// `payload` with its APNs request headers lowered: an APNS request's `headers`, or an FCM
    /// message's `message.apns.headers`. The same value when every name is lower case already.
    static func lowered(_ payload: JSONValue, platform: Platform) -> JSONValue {
        guard case .object(var root) = payload else { return payload }
        switch platform {
        case .apns:
            guard let headers = root["headers"], let lowered = lowered(headers) else { return payload }
            root["headers"] = lowered
        case .fcm:
            guard case .object(var message)? = root["message"], case .object(var apns)? = message["apns"],
                let headers = apns["headers"], let lowered = lowered(headers)
            else { return payload }
            apns["headers"] = lowered
            message["apns"] = .object(apns)
            root["message"] = .object(message)
        default:
            return payload
        }
        return .object(root)
    }

    /// The headers object with each name lowered, or nil when none has an upper-case letter (or
    /// `headers` is not an object).
    static func lowered(_ headers: JSONValue) -> JSONValue? {
        guard case .object(let object) = headers, object.contains(where: { hasUpperCase($0.key) }) else { return nil }
        let names = Set(object.map(\.key))
        var members: [(String, JSONValue)] = []
        members.reserveCapacity(object.count)
        for (name, value) in object {
            let lower = lowercased(name)
            // Two members that are one header: both kept as written (the walk reports it).
            members.append((lower != name && names.contains(lower) ? name : lower, value))
        }
        return .object(JSONObject(members))
    }

    /// `name` with A to Z lowered (header names are ASCII; other bytes stay).
    static func lowercased(_ name: String) -> String {
        String(decoding: name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    private static func hasUpperCase(_ name: String) -> Bool {
        name.utf8.contains { $0 >= 0x41 && $0 <= 0x5A }
    }
}
