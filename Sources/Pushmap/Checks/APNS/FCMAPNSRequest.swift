internal import PushmapJSON

/// FCM's `message.apns`: the request FCM hands to APNs for iOS devices, `{headers, payload}`,
/// held to the APNS checks (Apple's and Adobe's iOS rules) at its paths in the message
/// (`$.message.apns.payload.aps.alert`). Its payload may be absent: FCM then builds one from the
/// message's notification, and only the headers are checked. A null member is one left out, as
/// protobuf's JSON reads it.
struct FCMAPNSRequest: CheckRule {
    static var name: StaticString { "fcm-apns" }

    static func check(_ payload: FCMPayloadChecks.Payload, _ report: inout CheckReport) {
        // A non-object apns is the FCM message model's to report.
        guard let apns = payload.message?["apns"]?.objectValue else { return }
        report.within("$.message.apns") { report in
            APNSRequestChecks.run(
                payload: FCMPayloadChecks.given(apns["payload"]), headers: FCMPayloadChecks.given(apns["headers"]), compactSize: nil, payloadRequired: false, now: report.now, into: &report)
        }
    }
}
