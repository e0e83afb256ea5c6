import PushmapJSON

/// A hand-written Swift mapping of the basic template, the reference the Lua path is measured
/// against: same parser, same writer, no script. It covers the fields the benchmark intent uses.
enum ReferenceMapping {
    static func fcm(_ intent: JSONValue) -> JSONValue {
        var data = JSONObject()
        data["adb_template_type"] = "basic"
        data["adb_version"] = .string(intent["version"]?.stringValue ?? "1")
        copy(intent, "title", to: &data, "adb_title")
        copy(intent, "body", to: &data, "adb_body")
        copy(intent, "expandedBody", to: &data, "adb_body_ex")
        copy(intent, "image", to: &data, "adb_image")
        copy(intent, "sound", to: &data, "adb_sound")
        if let badge = intent["badge"]?.integerValue { data["adb_n_count"] = .string(String(badge)) }
        if let uri = intent["link"]?["uri"]?.stringValue {
            data["adb_uri"] = .string(uri)
            data["adb_a_type"] = .string(intent["link"]?["type"]?.stringValue ?? (uri.hasPrefix("http") ? "WEBURL" : "DEEPLINK"))
        }
        if let colors = intent["colors"] {
            for (key, name) in [("title", "adb_clr_title"), ("body", "adb_clr_body"), ("background", "adb_clr_bg"), ("icon", "adb_clr_icon")] {
                if let value = colors[key]?.stringValue { data[name] = .string(value.uppercased()) }
            }
        }
        if let android = intent["android"] {
            for (key, name) in [("channel", "adb_channel_id"), ("smallIcon", "adb_small_icon"), ("largeIcon", "adb_large_icon"), ("tag", "adb_tag"), ("ticker", "adb_ticker")] {
                if let value = android[key]?.stringValue { data[name] = .string(value) }
            }
            if let priority = android["priority"]?.stringValue { data["adb_n_priority"] = .string("PRIORITY_" + priority.uppercased()) }
            if let sticky = android["sticky"]?.boolValue { data["adb_sticky"] = sticky ? "true" : "false" }
        }
        if let buttons = intent["buttons"]?.arrayValue {
            let actions: [JSONValue] = buttons.map { button in
                var action: JSONObject = ["label": button["label"] ?? "", "type": button["type"] ?? "OPENAPP"]
                if let uri = button["uri"] { action["uri"] = uri }
                return .object(action)
            }
            data["adb_act"] = .string(String(decoding: JSONWriter(style: .compact).write(.array(actions)), as: UTF8.self))
        }
        if let remind = intent["remindLater"] {
            copy(remind, "label", to: &data, "adb_rem_txt")
            if let at = remind["at"]?.integerValue { data["adb_rem_ts"] = .string(String(at)) }
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
        var payload: JSONObject = ["aps": .object(aps), "adb_template_type": "basic", "adb_version": .string(intent["version"]?.stringValue ?? "1")]
        copy(intent, "expandedBody", to: &payload, "adb_body_ex")
        copy(intent, "image", to: &payload, "adb_media")
        if let uri = intent["link"]?["uri"] { payload["adb_uri"] = uri }
        if let colors = intent["colors"] {
            for (key, name) in [("title", "adb_clr_title"), ("body", "adb_clr_body"), ("background", "adb_clr_bg")] {
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
