import Pushmap
import PushmapJSON

/// A hand-written Swift mapping of the basic template, the reference the Lua path is measured
/// against: same parser, same writer, no script. It covers the fields the benchmark intent uses.
enum ReferenceMapping {
    static func fcm(_ intent: JSONValue) -> JSONValue {
        var data = JSONObject()
        data[AdobeKey.templateType.name] = "basic"
        data[AdobeKey.version.name] = .string(intent["version"]?.stringValue ?? "1")
        copy(intent, "title", to: &data, AdobeKey.title.name)
        copy(intent, "body", to: &data, AdobeKey.body.name)
        copy(intent, "expandedBody", to: &data, AdobeKey.bodyEx.name)
        copy(intent, "image", to: &data, AdobeKey.image.name)
        copy(intent, "sound", to: &data, AdobeKey.sound.name)
        if let badge = intent["badge"]?.integerValue { data[AdobeKey.badgeCount.name] = .string(String(badge)) }
        if let uri = intent["link"]?["uri"]?.stringValue {
            data[AdobeKey.uri.name] = .string(uri)
            data[AdobeKey.linkType.name] = .string(intent["link"]?["type"]?.stringValue ?? (uri.hasPrefix("http") ? "WEBURL" : "DEEPLINK"))
        }
        if let colors = intent["colors"] {
            for (key, name) in [("title", AdobeKey.titleColour.name), ("body", AdobeKey.bodyColour.name), ("background", AdobeKey.backgroundColour.name), ("icon", AdobeKey.iconColour.name)] {
                if let value = colors[key]?.stringValue { data[name] = .string(value.uppercased()) }
            }
        }
        if let android = intent["android"] {
            for (key, name) in [("channel", AdobeKey.channel.name), ("smallIcon", AdobeKey.smallIcon.name), ("largeIcon", AdobeKey.largeIcon.name), ("tag", AdobeKey.tag.name), ("ticker", AdobeKey.ticker.name)] {
                if let value = android[key]?.stringValue { data[name] = .string(value) }
            }
            if let priority = android["priority"]?.stringValue { data[AdobeKey.displayPriority.name] = .string("PRIORITY_" + priority.uppercased()) }
            if let sticky = android["sticky"]?.boolValue { data[AdobeKey.sticky.name] = sticky ? "true" : "false" }
        }
        if let buttons = intent["buttons"]?.arrayValue {
            let actions: [JSONValue] = buttons.map { button in
                var action: JSONObject = ["label": button["label"] ?? "", "type": button["type"] ?? "OPENAPP"]
                if let uri = button["uri"] { action["uri"] = uri }
                return .object(action)
            }
            data[AdobeKey.actions.name] = .string(String(decoding: JSONWriter(style: .compact).write(.array(actions)), as: UTF8.self))
        }
        if let remind = intent["remindLater"] {
            copy(remind, "label", to: &data, AdobeKey.remindText.name)
            if let at = remind["at"]?.integerValue { data[AdobeKey.remindAt.name] = .string(String(at)) }
        }
        for (key, value) in intent["data"]?.objectValue ?? JSONObject() {
            data[key] = value.stringValue.map(JSONValue.string) ?? .string(String(decoding: JSONWriter(style: .compact).write(value), as: UTF8.self))
        }
        var message: JSONObject = ["data": .object(data)]
        if let token = intent["target"]?["token"] { message["token"] = token }
        if let key = intent["android"]?["collapseKey"] { message["android"] = ["collapse_key": key] }
        return ["message": .object(message)]
    }

    static func apns(_ intent: JSONValue) -> JSONValue {
        var alert = JSONObject()
        if let title = intent["title"] { alert["title"] = title }
        if let body = intent["body"] { alert["body"] = body }
        var aps: JSONObject = ["alert": .object(alert), "category": "AEPNotification", "mutable-content": 1]
        if let sound = intent["sound"] { aps["sound"] = sound }
        if let badge = intent["badge"] { aps["badge"] = badge }
        var payload: JSONObject = ["aps": .object(aps), AdobeKey.templateType.name: "basic", AdobeKey.version.name: .string(intent["version"]?.stringValue ?? "1")]
        copy(intent, "expandedBody", to: &payload, AdobeKey.bodyEx.name)
        copy(intent, "image", to: &payload, AdobeKey.media.name)
        if let uri = intent["link"]?["uri"] { payload[AdobeKey.uri.name] = uri }
        if let colors = intent["colors"] {
            for (key, name) in [("title", AdobeKey.titleColour.name), ("body", AdobeKey.bodyColour.name), ("background", AdobeKey.backgroundColour.name)] {
                if let value = colors[key]?.stringValue { payload[name] = .string(value.uppercased()) }
            }
        }
        for (key, value) in intent["data"]?.objectValue ?? JSONObject() { payload[key] = value }
        return .object(payload)
    }

    private static func copy(_ from: JSONValue, _ key: String, to object: inout JSONObject, _ name: String) {
        if let value = from[key] { object[name] = value }
    }
}
