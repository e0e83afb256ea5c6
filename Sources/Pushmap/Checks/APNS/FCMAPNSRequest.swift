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
        // A payload or headers that is no object is the model's error (fcm-field-type), which
        // the APNS rules would say again (the forty-sixth audit, F8): read as left out.
        let request = objectOrNil(apns["payload"]), headers = objectOrNil(apns["headers"])
        report.within("$.message.apns") { report in
            APNSRequestChecks.run(
                payload: request, headers: headers, compactSize: nil, payloadRequired: false,
                notification: FCMPayloadChecks.given(payload.message?["notification"])?.objectValue != nil, now: report.now, into: &report)
        }
        dataOnlyPriority(payload, apns, &report)
    }

    private static func objectOrNil(_ member: JSONNode?) -> JSONNode? {
        guard let member = FCMPayloadChecks.given(member), member.objectValue != nil else { return nil }
        return member
    }

    /// FCM's reference (Message.data): a message of data only goes to iOS devices at normal
    /// priority, "apns-priority": "5"; Firebase's docs say FCM refuses high priority for it with
    /// INVALID_ARGUMENT. Data only: no notification, and nothing shown, played or updated in the
    /// apns payload (a Live Activity's aps.event is an update). With a push type, the APNS rules
    /// say what the priority must be (apns-background, apns-push-type).
    private static func dataOnlyPriority(_ payload: FCMPayloadChecks.Payload, _ apns: JSONObjectNode, _ report: inout CheckReport) {
        guard let headers = FCMPayloadChecks.given(apns["headers"])?.objectValue, headers["apns-push-type"] == nil,
            let priority = headers["apns-priority"]?.utf8, ValueFormat.equals(priority, "10"),
            FCMPayloadChecks.given(payload.members.notification) == nil
        else { return }
        if let aps = FCMPayloadChecks.given(apns["payload"])?.objectValue?["aps"]?.objectValue,
            APNSRequestChecks.showsSomething(aps) || aps["event"] != nil
        { return }
        report.error(
            CheckLocation(payload: #"$.message.apns.headers["apns-priority"]"#, intent: "$.delivery"),
            "a message of data only goes to iOS devices at apns-priority 5: FCM refuses 10 for it (INVALID_ARGUMENT); use 5, or give the message something to show",
            rule: "fcm-apns-data-priority")
    }
}
