internal import PushmapJSON

/// What an APNs request header's value needs beyond its shape (APNSModel.Key.valueCheck), and
/// what APNs refuses in the HTTP/2 pseudo-headers a request file may carry: the fault said after
/// the header's name, and how severe it is.
enum APNSHeaderValue {
    /// apns-expiration: a negative time, which Apple's pages give no answer for (the thirtieth
    /// audit, F3: no peer refuses it, APNSwift's test server takes it): a warning, not APNs's
    /// refusal.
    @Sendable static func expiration(_ text: UnsafeRawBufferPointer) -> (severity: Diagnostic.Severity, fault: String)? {
        guard text.count > 1, text.count <= 20, text.first == UInt8(ascii: "-"), text.dropFirst().allSatisfy(ValueFormat.isDigit) else { return nil }
        return (.warning, "\(ValueFormat.quoted(text)) is a time before 1970: Apple documents epoch seconds, and does not say what APNs does with a negative one; write 0 to deliver once and never store")
    }

    /// apns-collapse-id: an empty id, which Apple's pages give no answer for (the thirtieth audit,
    /// F7; BadCollapseId is for one too long): a warning.
    @Sendable static func collapseID(_ text: UnsafeRawBufferPointer) -> (severity: Diagnostic.Severity, fault: String)? {
        guard text.isEmpty else { return nil }
        return (.warning, "is \"\", which collapses nothing: Apple names no answer for an empty id (BadCollapseId is for one over 64 bytes); leave the header out")
    }

    /// What is wrong with an authorization header, which Apple gives as `bearer <provider token>`,
    /// the token a JSON Web Token (three base64url parts joined by dots). No bearer, no token or a
    /// token with spaces is never one: APNs answers 403 InvalidProviderToken (Pushy's validating
    /// test server, the twenty-ninth audit, F5). Another shape may be a placeholder a sender
    /// fills later (node-apn's tests send "bearer fake-token"): a warning.
    @Sendable static func authorization(_ text: UnsafeRawBufferPointer) -> (severity: Diagnostic.Severity, fault: String)? {
        let scheme = Array("bearer ".utf8)
        let lowered = text.prefix(scheme.count).map { $0 | (($0 >= 0x41 && $0 <= 0x5A) ? 0x20 : 0) }
        let token = text.dropFirst(scheme.count)
        guard lowered.elementsEqual(scheme), !token.isEmpty, !token.contains(where: { $0 == 0x20 || $0 == 0x09 }) else {
            return (.error, "\(ValueFormat.quoted(text)) is not \"bearer \" followed by a provider token: APNs answers 403 (InvalidProviderToken)")
        }
        let parts = token.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        let isBase64URL = { (byte: UInt8) in ValueFormat.isDigit(byte) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x2D || byte == 0x5F }
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isBase64URL) }) else {
            return (.warning, "token is not a JSON Web Token (three base64url parts joined by dots): APNs answers 403 (InvalidProviderToken) unless the sender puts a real one in its place")
        }
        return nil
    }

    /// What APNs refuses in the HTTP/2 pseudo-headers a request file may carry (node-apn's client
    /// tests do): a method other than POST (405 MethodNotAllowed), a device path with no token
    /// (MissingDeviceToken) or one that is not hexadecimal (BadDeviceToken), in Apple's error
    /// table and APNSwift's test server (the thirtieth audit, F5). The token's length is not
    /// held: Apple says it may change. Nil for anything else.
    static func pseudoHeader(_ name: String, _ value: UnsafeRawBufferPointer) -> String? {
        switch name {
        case ":method":
            return ValueFormat.equals(value, "POST") ? nil : "\(ValueFormat.quoted(value)) is not POST: APNs answers 405 (MethodNotAllowed)"
        case ":path":
            let device = Array("/3/device/".utf8)
            guard value.starts(with: device) else { return nil }
            let token = value.dropFirst(device.count)
            if token.isEmpty { return "names no device token: APNs answers 400 (MissingDeviceToken)" }
            if !token.allSatisfy(ValueFormat.isHexDigit) {
                return "\(ValueFormat.quoted(value)) has a device token that is not hexadecimal: APNs answers 400 (BadDeviceToken)"
            }
            return nil
        default:
            return nil
        }
    }
}
