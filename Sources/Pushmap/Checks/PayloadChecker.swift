internal import PushmapJSON

/// Checks a payload against the push service's limits and against what Adobe's mobile SDKs do
/// with each key, so that a payload that would be refused, dropped or shown as a fallback is
/// caught before it is sent.
///
/// Findings are errors where the service refuses the payload or the phone drops the notification
/// or shows its fallback, warnings where the notification still shows but degrades.
package struct PayloadChecker: Sendable {
    /// Epoch seconds that "already past" is measured against (timer ends, remind-later times).
    package let now: Int64
    /// Whether findings are placed at the intent path a key comes from (translating) rather than
    /// at the payload path (validating an existing payload).
    package let intentPaths: Bool
    /// The intent a translation's payloads come from: its push type (`ios.pushType`) is the one
    /// a bare APNS payload goes with, although it carries no header to say so.
    let intent: TranslatedIntent?

    /// - Parameters:
    ///   - now: epoch seconds for "already past".
    ///   - intentPaths: report at the intent path a key comes from (`$.title`) when known, else at
    ///     the payload path (`$.message.data.adb_title`).
    ///   - intent: the translated intent, when checking a translation's payloads.
    init(now: Int64, intentPaths: Bool, intent: TranslatedIntent?) {
        self.now = now
        self.intentPaths = intentPaths
        self.intent = intent
    }

    package init(now: Int64, intentPaths: Bool) {
        self.init(now: now, intentPaths: intentPaths, intent: nil)
    }

    /// The findings about `payload` written for `platform`, in payload order within each group of
    /// rules: for a translated payload, its keys' byte order, as the Lua host reads them, so the
    /// same intent gives the same findings in the same order from every state. A platform with no
    /// rules here gives none.
    package func check(_ payload: JSONValue, platform: Platform) -> [Diagnostic] {
        check(payload, platform: platform, compactSize: nil)
    }

    /// Reads the JSON `text` (throwing where it is not JSON) and checks it, as `validate` does. A
    /// key an object repeats is an error for FCM, whose protobuf JSON reader refuses it (the
    /// parse throws). APNs says nothing of one in a payload: a warning, and the last value is
    /// checked, as most JSON readers keep it. A header repeated in a request is an error, as
    /// APNs refuses it (DuplicateHeaders), and a request's own member (`payload`) given twice
    /// leaves no one request to check.
    package func check(text: [UInt8], platform: Platform) throws(JSONParseError) -> [Diagnostic] {
        guard platform == .apns else { return check(try JSONParser.parse(text), platform: platform, text: text) }
        var repeated: [JSONParseError] = []
        let payload = try JSONParser.parse(text, repeatedKeys: &repeated)
        let request = payload.objectValue.map { $0["aps"] == nil && ($0["payload"] != nil || $0["headers"] != nil) } ?? false
        let findings = try Self.repeatedAPNSKeys(repeated, request: request).map { key, isHeader in
            isHeader
                ? .error(key.path.description, "apns-header-key", """
                    \(key.line):\(key.column): \(key.reason): APNs refuses a repeated header (DuplicateHeaders); keep one
                    """, platform: .apns)
                : Diagnostic.repeatedAPNSKey(key)
        }
        return findings + check(payload, platform: platform, text: text)
    }

    /// The keys an APNS text repeats, each once however often given, in order, and whether each
    /// is a request's header; a request's own member given twice leaves no one request, and is
    /// thrown. Validate and import say them each their way.
    package static func repeatedAPNSKeys(_ repeated: [JSONParseError], request: Bool) throws(JSONParseError) -> [(key: JSONParseError, isHeader: Bool)] {
        var keys: [(key: JSONParseError, isHeader: Bool)] = []
        var said: Set<JSONPath> = []
        for key in repeated where said.insert(key.path).inserted {
            let steps = key.path.components
            if request, steps.count == 1 { throw key }
            keys.append((key, request && steps.count == 2 && steps.first == .key("headers")))
        }
        return keys
    }

    /// As ``check(_:platform:)``, for a payload given as JSON `text`: a bare APNS payload's size
    /// is its text's, without the whitespace between tokens, escapes counted as written (the
    /// thirtieth audit, F2: `\u0026` is six bytes on the wire, one once read).
    package func check(_ payload: JSONValue, platform: Platform, text: [UInt8]) -> [Diagnostic] {
        let names = APNSHeaderNames(payload, platform: platform)
        return names.restored(JSONItemStorage(names.value).withRoot { check($0, platform: platform, compactSize: nil, text: text) })
    }

    /// As ``check(_:platform:)``, for a caller that has written the payload compactly (with
    /// ``JSONWriter`` and `.compact`, as it will be sent) and knows its length: the size rules then
    /// need no walk of their own.
    package func check(_ payload: JSONValue, platform: Platform, compactSize: Int?) -> [Diagnostic] {
        // Header names as HTTP reads them, whatever their case, found where written (APNSHeaderNames).
        let names = APNSHeaderNames(payload, platform: platform)
        return names.restored(JSONItemStorage(names.value).withRoot { check($0, platform: platform, compactSize: compactSize) })
    }

    /// As ``check(_:platform:compactSize:)``, on a payload read in place (a translated one, as
    /// the Lua host hands it over): no ``JSONValue`` is built.
    /// - Parameter text: the payload's JSON text as given, when it was (validate): an APNS
    ///   payload's size is then measured on it, a request's on its `payload` member's.
    package func check(_ payload: JSONNode, platform: Platform, compactSize: Int?, text: [UInt8]? = nil) -> [Diagnostic] {
        var report = CheckReport(platform: platform, intentPaths: intentPaths)
        report.now = now
        switch platform {
        case .fcm:
            let fcm = FCMPayloadChecks.Payload(payload, compactSize: compactSize)
            report.run(FCMPayloadChecks.rules, on: fcm)
            if fcm.message != nil {
                AndroidClientChecks.run(fcm.keys, now: now, into: &report)
            }
        case .apns:
            if APNSRequestChecks.isRequest(payload), let request = payload.objectValue {
                APNSRequestChecks.run(
                    payload: request["payload"], headers: request["headers"],
                    compactSize: text.flatMap { JSONWriter.compactByteCount(asWritten: $0, member: "payload") }, payloadRequired: true, now: now,
                    into: &report)
            } else {
                let size = text.map { JSONWriter.compactByteCount(asWritten: $0[...]) } ?? compactSize
                APNSPayloadChecks.run(
                    APNSPayloadChecks.Payload(payload, compactSize: size, intent: intent), now: now, into: &report)
            }
        default:
            break
        }
        return report.diagnostics
    }

    /// The findings about an APNS request a script wrote, at the paths of the request
    /// `{"headers", "payload"}` under `base` (`$`, or `$.message.apns` inside an FCM message).
    /// `platform` is the one the findings are reported for; without `checkPayload`, only the
    /// headers and what they say of the payload (its own rules ran on the bare payload).
    func checkAPNSRequest(_ request: RequestText, base: String, platform: Platform, checkPayload: Bool) -> [Diagnostic] {
        var report = CheckReport(platform: platform, intentPaths: intentPaths)
        report.now = now
        let names = APNSHeaderNames(request.value, platform: .apns)
        JSONItemStorage(names.value).withRoot { root in
            report.within(base) { report in
                APNSRequestChecks.run(
                    payload: root["payload"], headers: root["headers"], compactSize: request.payload.count, payloadRequired: true,
                    checkPayload: checkPayload, now: now, into: &report)
            }
        }
        return names.restored(report.diagnostics, root: base)
    }
}
