internal import PushmapJSON

/// HTTP header names ignore case (RFC 9110, 5.1) and HTTP/2 sends them in lower case (RFC 9113,
/// 8.2.1): `Apns-Topic`, as Go's `http.Header.Set` writes it (sideshow/apns2), is apns-topic.
/// The rules and the import read headers by their lower-case names, so a request's names are
/// lowered before they run, and the findings are put back at the names as written. A name that
/// would be another's once lowered stays as written, for the header walk to report as the same
/// header given twice.
struct APNSHeaderNames {
    /// The payload with its request headers' names lowered.
    let value: JSONValue
    /// Where the headers are, from the root: `.headers`, or `.message.apns.headers` in FCM.
    private let headersPath: String
    /// Each lowered name, and the name as written.
    private let written: [String: String]

    /// `payload`'s APNs request headers lowered: an APNS request's `headers`, or an FCM
    /// message's `message.apns.headers`.
    init(_ payload: JSONValue, platform: Platform) {
        (value, headersPath, written) = Self.lowering(payload, platform: platform)
    }

    /// `diagnostics` with each path at a lowered header name put back at the name as written;
    /// `root` is where the payload lies in the output (`$`, or `$.message.apns`).
    func restored(_ diagnostics: [Diagnostic], root: String = "$") -> [Diagnostic] {
        guard !written.isEmpty else { return diagnostics }
        let base = root + headersPath
        return diagnostics.map { diagnostic in
            var diagnostic = diagnostic
            diagnostic.path = restored(diagnostic.path, base: base)
            diagnostic.payloadPath = diagnostic.payloadPath.map { restored($0, base: base) }
            return diagnostic
        }
    }

    private func restored(_ path: String, base: String) -> String {
        for (lower, name) in written {
            let from = JSONPath.member(base, lower)
            if path == from || path.hasPrefix(from + ".") || path.hasPrefix(from + "[") {
                return JSONPath.member(base, name) + path.dropFirst(from.count)
            }
        }
        return path
    }

    private static func lowering(_ payload: JSONValue, platform: Platform) -> (JSONValue, String, [String: String]) {
        guard case .object(var root) = payload else { return (payload, "", [:]) }
        switch platform {
        case .apns:
            // A bare payload's `headers` is the app's own key, not a request's.
            guard root["aps"] == nil, case .object(let headers)? = root["headers"], let (lowered, written) = lowered(headers) else { break }
            root["headers"] = .object(lowered)
            return (.object(root), ".headers", written)
        case .fcm:
            guard case .object(var message)? = root["message"], case .object(var apns)? = message["apns"],
                case .object(let headers)? = apns["headers"], let (lowered, written) = lowered(headers)
            else { break }
            apns["headers"] = .object(lowered)
            message["apns"] = .object(apns)
            root["message"] = .object(message)
            return (.object(root), ".message.apns.headers", written)
        default:
            break
        }
        return (payload, "", [:])
    }

    /// The headers with each name lowered, and the names changed; nil when none has an
    /// upper-case letter.
    private static func lowered(_ headers: JSONObject) -> (JSONObject, [String: String])? {
        guard headers.contains(where: { hasUpperCase($0.key) }) else { return nil }
        // The names taken: lowered, a second member of the same header stays as written (the
        // walk reports it).
        var taken = Set(headers.map(\.key).filter { !hasUpperCase($0) })
        var members: [(String, JSONValue)] = []
        var written: [String: String] = [:]
        members.reserveCapacity(headers.count)
        for (name, value) in headers {
            let lower = lowercased(name)
            if lower == name || taken.contains(lower) {
                members.append((name, value))
            } else {
                taken.insert(lower)
                members.append((lower, value))
                written[lower] = name
            }
        }
        return (JSONObject(members), written)
    }

    /// `name` with A to Z lowered (header names are ASCII; other bytes stay).
    static func lowercased(_ name: String) -> String {
        String(decoding: name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    private static func hasUpperCase(_ name: String) -> Bool {
        name.utf8.contains { $0 >= 0x41 && $0 <= 0x5A }
    }
}
