@_spi(Engine) internal import PushmapJSON

/// Adobe Campaign Classic's Android extension, the released caller of the template library: a
/// payload carrying its tracking ids (`_mId`, `_dId`) is meant for it, and it adds rules of its
/// own before the library sees the map (`CampaignClassicPushPayload`).
struct CampaignClassicRule: CheckRule {
    static var name: StaticString { "android-campaign-classic" }

    static func check(_ payload: AndroidClientChecks.Payload, _ report: inout CheckReport) {
        let keys = payload.keys
        guard hasTrackingKey(keys) else { return }
        for key in [TemplateKey.messageID, .deliveryID] where key.text(in: keys)?.isEmpty ?? true {
            report.error(
                key.location(in: keys),
                "Campaign Classic needs both _mId and _dId, non-empty strings: without \(key.name) its extension shows nothing")
        }
        // A payload without adb_template_type is drawn as a basic one, which needs what basic
        // does (android-required-key speaks for typed payloads only).
        if payload.template == nil {
            for key in AndroidClientChecks.requiredKeys where !keys.contains(key) {
                report.error(
                    keys.location(key),
                    "\(key.name) is required: Campaign Classic's extension draws a payload without adb_template_type as a basic one, and without it the notification is not shown (a push template, such as basic, writes it)")
            }
        }
        // It reads an empty adb_body as absent and uses _msg instead; the library then needs a body
        // for every template but icon.
        if let template = payload.template, ValueFormat.equals(template, "icon") { return }
        guard let body = keys.text(.body), body.isEmpty, TemplateKey.message.text(in: keys)?.isEmpty ?? true else { return }
        report.error(
            keys.location(.body),
            "adb_body is empty: Campaign Classic reads an empty body as absent (it uses _msg instead, which is not set), so the notification is not shown")
    }

    /// `_mId` or `_dId` among the keys, found by their prints: the scan runs for every payload.
    static func hasTrackingKey(_ keys: CustomKeys) -> Bool {
        keys.prints.contains { $0 == messageIDPrint || $0 == deliveryIDPrint }
    }

    // Written out, so that reading them costs no lazy initialisation; a test holds them to the words.
    static let messageIDPrint = KeyPrint(length: 4, head: 0x6449_6d5f, tail: 0x6449_6d5f)  // "_mId"
    static let deliveryIDPrint = KeyPrint(length: 4, head: 0x6449_645f, tail: 0x6449_645f)  // "_dId"
}
