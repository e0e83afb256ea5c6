internal import Pushmap

/// notificationbuilder's `input` template: a reply field under the expanded view; after a reply
/// the notification is built again with the feedback text and image and no field.
struct InputBoxLayout: AndroidTemplateLayout {
    let guideline = TextGuideline.android

    func refusals(_ data: AndroidData) -> [String] {
        data.has(AdobeKey.inputReceiver.name) ? [] : ["adb_input_receiver is missing"]
    }

    /// The reply action's label and the field's hint: "Reply" when absent or empty.
    private func hint(_ data: AndroidData) -> String {
        guard let label = data.text(AdobeKey.inputText.name), !label.isEmpty else { return "Reply" }
        return label
    }

    func draw(_ data: AndroidData, collapsed: NotificationView, expanded: NotificationView, into preview: inout PlatformPreview) {
        var collapsed = collapsed, expanded = expanded
        collapsed.label = "Collapsed, before a reply"
        expanded.label = "Expanded, before a reply"
        expanded.image = data.text(AdobeKey.image.name)
        expanded.reply = .init(hint: hint(data), receiver: data.text(AdobeKey.inputReceiver.name) ?? "")
        // The rebuilt notification: the feedback (or a blank body) in both views, no field.
        var sentCollapsed = collapsed
        sentCollapsed.id = "sent-collapsed"
        sentCollapsed.label = "Collapsed, after a reply"
        sentCollapsed.body = guideline.body(data.text(AdobeKey.feedbackText.name) ?? "")
        var sentExpanded = sentCollapsed
        sentExpanded.id = "sent-expanded"
        sentExpanded.label = "Expanded, after a reply"
        sentExpanded.image = data.text(AdobeKey.feedbackImage.name)
        sentExpanded.colors = expanded.colors
        preview.views = [collapsed, expanded, sentCollapsed, sentExpanded]
        preview.notes.append(
            "Needs Android 7 (API 24); below it nothing shows. A reply opens the app with the text under \"\(data.text(AdobeKey.inputReceiver.name) ?? "")\", and the notification is shown again with the feedback.")
        if !data.has(AdobeKey.feedbackText.name) { preview.notes.append("No adb_feedback_txt: the body is blank after a reply.") }
    }

    func verdict(_ key: String, _ text: String?, data: AndroidData) -> (KeyReading.Verdict, String)? {
        switch key {
        case AdobeKey.inputReceiver.name: return (.uses, "the name the typed reply is handed to the app under")
        case AdobeKey.inputText.name:
            return text?.isEmpty == false ? (.shows, "the reply button's label and the field's hint") : (.ignores, "empty: \"Reply\" shows instead")
        case AdobeKey.feedbackText.name: return (.shows, "body after a reply, collapsed and expanded")
        case AdobeKey.feedbackImage.name: return (.shows, "image after a reply (a URL or a drawable name)")
        case "adb_feedback_image": return (.ignores, "not a key the input template reads: it reads adb_feedback_img")
        case AdobeKey.body.name: return (.shows, data.has(AdobeKey.bodyEx.name) ? "body when collapsed, before a reply" : "body, collapsed and expanded, before a reply")
        case AdobeKey.bodyEx.name: return (.shows, "body when expanded, before a reply")
        case AdobeKey.image.name: return (.shows, "image when expanded, before a reply (a URL or a drawable name)")
        case AdobeKey.actions.name: return (.ignores, "the input template has one action, the reply")
        default: return nil
        }
    }
}
