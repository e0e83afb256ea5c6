/// The intent's contract: every field pushmap knows, in one place. Validation, the JSON Schema
/// for editors (`schema/intent.schema.json`) and the documentation all come from this table.
package enum IntentSchema {
    /// Link and button action types that Adobe's clients read.
    package static let actionTypes = ["WEBURL", "DEEPLINK", "OPENAPP", "DISMISS"]

    static let text = IntentShape.string
    static let colour = IntentShape.text(.colour)
    static let uri = IntentShape.text(.uri)

    /// The top-level object. Templates may add fields of their own (see the script contract); the
    /// built-in ones' are in their descriptions (Sources/Pushmap/Templates).
    package static let root = IntentObject([
        IntentField("$schema", .string, "The JSON Schema this file follows, for editors; ignored by pushmap."),
        IntentField("template", .template, builtinNames + ", or a custom script's name."),
        IntentField("version", .string, "Payload version for templates (adb_version); default \"1\"."),
        IntentField("title", text, "Notification title."),
        IntentField("body", text, "Notification body, when collapsed."),
        IntentField("subtitle", text, "Subtitle (iOS)."),
        IntentField("expandedTitle", text, "Title when expanded (iOS templates)."),
        IntentField("expandedBody", text, "Body when expanded."),
        IntentField("image", text, "Image URL (https for iOS)."),
        IntentField("link", .object(IntentObject([
            IntentField("uri", uri, "What a tap opens: a web URL or a deep link."),
            IntentField("type", .choice(actionTypes), "WEBURL, DEEPLINK, OPENAPP or DISMISS; inferred from the uri's scheme when absent."),
        ])), "What tapping the notification does."),
        IntentField("buttons", .array(.object(IntentObject([
            IntentField("label", text, required: true, "Button text."),
            IntentField("uri", uri, "What the button opens."),
            IntentField("type", .choice(actionTypes), "Action type; inferred from the uri when absent (OPENAPP without a uri)."),
            IntentField("id", text, "Action id (aid) for iOS plain notifications."),
        ])), maxItems: 3), "Up to 3 action buttons (2 with remindLater)."),
        IntentField("sound", text, "Sound name, without extension on Android."),
        IntentField("badge", .integer(minimum: 0), "Badge count."),
        IntentField("colors", .object(IntentObject([
            IntentField("title", colour, "Title colour, RRGGBB or RRGGBBAA (a leading # is allowed)."),
            IntentField("body", colour, "Body colour."),
            IntentField("background", colour, "Background colour."),
            IntentField("icon", colour, "Small icon colour (Android)."),
            IntentField("timer", colour, "Timer text colour (timer template)."),
        ])), "Template colours."),
    ] + templateFields(onIOS: true) + [
        IntentField("android", .object(IntentObject([
            IntentField("channel", text, "Notification channel id."),
            IntentField("icon", text, "Small icon drawable name."),
            IntentField("smallIcon", text, "Small icon drawable name (wins over icon)."),
            IntentField("largeIcon", text, "Large icon URL or drawable name."),
            IntentField("priority", .choice(["min", "low", "default", "high", "max"]), "Display priority."),
            IntentField("visibility", .choice(["private", "public", "secret"]), "Lock-screen visibility."),
            IntentField("tag", text, "Replaces a shown notification with the same tag."),
            IntentField("sticky", .boolean, "Keep the notification after a tap."),
            IntentField("ticker", text, "Text for accessibility services."),
            IntentField("collapseKey", text, "FCM collapse key."),
            IntentField("delivery", .choice(["normal", "high"]), "FCM delivery priority."),
            IntentField("ttl", .integer(minimum: 0, maximum: 2_419_200), "Seconds FCM keeps the message, at most 28 days."),
        ])), "Android-only settings."),
        IntentField("ios", .object(IntentObject([
            IntentField("threadId", text, "Groups related notifications."),
            IntentField("category", text, "Notification category (plain only; templates use AEPNotification)."),
            IntentField("contentAvailable", .boolean, "Wake the app in the background."),
            IntentField("mutableContent", .boolean, "Let the service extension modify the notification."),
            IntentField("interruptionLevel", .choice(["passive", "active", "time-sensitive", "critical"]), "Interruption level."),
            // Not bounded here: a Live Activity takes any number, and out of 0 to 1 an alert's
            // score is only ignored (the payload check's warning, apns-relevance-score).
            IntentField("relevanceScore", .number(), "Relevance in the notification summary, 0 to 1; in a Live Activity any number, which orders the activities."),
            IntentField("targetContentId", text, "The window or content to bring forward."),
            // What an APNS request needs beyond the payload (see send-ready fields below).
            IntentField("topic", text, "The app's bundle id: apns-topic, with the suffix the push type needs added."),
            IntentField("pushType", .choice(apnsPushTypes), "apns-push-type when it cannot be derived (background for a silent push, else alert)."),
            // What a Live Activity push (pushType liveactivity) carries in aps; the alert is the intent's title and body.
            IntentField("liveActivity", .object(IntentObject([
                IntentField("event", .choice(["start", "update", "end"]), required: true, "aps.event: start, update or end the Live Activity."),
                IntentField("contentState", .map(nil), "aps.content-state: the activity's ContentState, as its Codable form (start and update)."),
                IntentField("timestamp", .integer(minimum: 0), "aps.timestamp in epoch seconds; default the translation time."),
                IntentField("staleDate", .integer(minimum: 0), "aps.stale-date in epoch seconds: when the content is out of date."),
                IntentField("dismissalDate", .integer(minimum: 0), "aps.dismissal-date in epoch seconds: when an ended activity leaves the Lock Screen."),
                IntentField("attributesType", text, "aps.attributes-type: the ActivityAttributes type's name (start)."),
                IntentField("attributes", .map(nil), "aps.attributes: the ActivityAttributes, as their Codable form (start)."),
            ])), "A Live Activity push: ios.pushType liveactivity."),
            IntentField("criticalSound", .object(IntentObject([
                IntentField("name", text, "Sound file; default the intent's sound, else \"default\"."),
                IntentField("volume", .number(minimum: 0, maximum: 1), "Volume, 0 to 1."),
            ])), "Play the sound as a critical alert (the app needs Apple's entitlement)."),
            IntentField("localized", .object(IntentObject([
                IntentField("titleKey", text, "title-loc-key: the title's key in the app's Localizable.strings."),
                IntentField("titleArgs", .array(.string), "title-loc-args: values for the title's placeholders."),
                IntentField("subtitleKey", text, "subtitle-loc-key."),
                IntentField("subtitleArgs", .array(.string), "subtitle-loc-args."),
                IntentField("bodyKey", text, "loc-key: the body's key."),
                IntentField("bodyArgs", .array(.string), "loc-args."),
            ])), "Alert text the app localises from its own strings."),
        ])), "iOS-only settings."),
        IntentField("target", .object(IntentObject([
            IntentField("token", text, "A device's registration token."),
            IntentField("topic", text, "A topic name."),
            IntentField("condition", text, "A condition over topics."),
            IntentField("fid", text, "A Firebase installation id."),
        ], exclusive: [["token", "topic", "condition", "fid"]], oneRequired: [["token", "topic", "condition", "fid"]])), "Where FCM sends the message; not part of an APNS payload."),
        IntentField("data", .map(nil), "Custom keys: FCM data values as strings (others JSON-encoded); APNS keys beside aps, types kept."),
    ] + sendFields + [campaignClassic] + templateFields(onIOS: false) + campaignFields)

    /// The objects the built-in templates own, from their descriptions: the templates both phones
    /// draw after the common message fields, Android's own at the end (the schema's order).
    static func templateFields(onIOS: Bool) -> [IntentField] {
        BuiltinTemplates.all.filter { $0.onIOS == onIOS }.flatMap(\.fields)
    }

    /// The built-in templates' names, as the `template` field's summary lists them.
    static let builtinNames = BuiltinTemplates.all.map { $0.name == "plain" ? "plain (default)" : $0.name }.joined(separator: ", ")

    /// What a campaign reads (docs/campaign.md); translate and batch send the base text.
    static let campaignFields = [
        IntentField("id", text, "The message's id, written back as \"id\" on its batch line; not part of a payload.", isMessageID: true),
        IntentField("locales", .map(.map(nil)),
            "Partial intents by language tag (fr, fr-CA), laid over the base for a campaign's recipients in that language; translate and batch ignore them.",
            campaignOnly: "only pushmap campaign reads locales: this sends the base text"),
    ]

    /// apns-push-type's values.
    package static let apnsPushTypes = APNSModel.pushTypeNames.map(ValueFormat.text)

    /// What a sender needs beyond the payloads, for both platforms; `android`'s own collapseKey,
    /// delivery and ttl win on FCM.
    static let sendFields = [
        IntentField("ttl", .integer(minimum: 0, maximum: 2_419_200),
            "Seconds the services keep the message for an offline device, at most 28 days: FCM android.ttl, APNS apns-expiration (now + ttl; 0: now or never)."),
        IntentField("collapseKey", text, "A newer message with the same key replaces an undelivered one: FCM android.collapse_key, APNS apns-collapse-id (at most 64 bytes)."),
        IntentField("delivery", .choice(["normal", "high"]), "Delivery priority: FCM android.priority, APNS apns-priority (high 10, normal 5; a silent push is always 5)."),
        IntentField("analyticsLabel", text, "FCM's fcm_options.analytics_label, for the message's delivery statistics."),
    ]

    /// The root with a template's own fields added; one named like a common field (a common
    /// field the template requires) takes its place.
    static func root(adding extra: [IntentField]) -> IntentObject {
        guard !extra.isEmpty else { return root }
        var object = root
        for field in extra {
            if let index = object.fieldIndex(named: field.name) { object.fields[index] = field } else { object.fields.append(field) }
        }
        return object
    }
}
