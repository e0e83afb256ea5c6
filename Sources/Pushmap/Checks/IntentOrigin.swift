internal import PushmapJSON

/// Which intent field each payload key comes from, so that a finding about a translated payload
/// points at what the user wrote (`$.title`) rather than at the generated key
/// (`$.message.data.adb_title`). Adobe's keys take theirs from the template descriptions
/// (``BuiltinTemplates/intentPaths``); the platforms' own members are listed here.
enum IntentOrigin {
    /// Members of FCM's `message`.
    static let messageKeys: [String: String] = [
        "token": "$.target.token",
        "topic": "$.target.topic",
        "condition": "$.target.condition",
    ]

    /// Members of FCM's `message.android`.
    static let androidKeys: [String: String] = [
        "collapse_key": "$.android.collapseKey",
        "priority": "$.android.delivery",
        "ttl": "$.android.ttl",
    ]

    /// The general field each of ``androidKeys``' fields stands in for (`$.android.ttl` for
    /// `$.ttl`): the FCM mapping takes the general one when the Android one is absent, so a value
    /// there may come from either.
    static let androidFallbacks: [String: String] = Dictionary(uniqueKeysWithValues: androidKeys.values.map {
        ($0, "$." + $0.dropFirst("$.android.".count))
    })

    /// Members of APNS's `aps`.
    static let apsKeys: [String: String] = [
        "sound": "$.sound",
        "badge": "$.badge",
        "thread-id": "$.ios.threadId",
        "category": "$.ios.category",
        "content-available": "$.ios.contentAvailable",
        "mutable-content": "$.ios.mutableContent",
        "interruption-level": "$.ios.interruptionLevel",
        "relevance-score": "$.ios.relevanceScore",
        "target-content-id": "$.ios.targetContentId",
        // A Live Activity push's keys.
        "event": "$.ios.liveActivity.event",
        "timestamp": "$.ios.liveActivity.timestamp",
        "content-state": "$.ios.liveActivity.contentState",
        "stale-date": "$.ios.liveActivity.staleDate",
        "dismissal-date": "$.ios.liveActivity.dismissalDate",
        "attributes-type": "$.ios.liveActivity.attributesType",
        "attributes": "$.ios.liveActivity.attributes",
    ]

    /// Members of APNS's `aps.alert`.
    static let alertKeys: [String: String] = [
        "title": "$.title",
        "subtitle": "$.subtitle",
        "body": "$.body",
        "title-loc-key": "$.ios.localized.titleKey",
        "title-loc-args": "$.ios.localized.titleArgs",
        "subtitle-loc-key": "$.ios.localized.subtitleKey",
        "subtitle-loc-args": "$.ios.localized.subtitleArgs",
        "loc-key": "$.ios.localized.bodyKey",
        "loc-args": "$.ios.localized.bodyArgs",
    ]

    /// Members of APNS's critical-alert `aps.sound` dictionary.
    static let soundKeys: [String: String] = [
        "critical": "$.ios.criticalSound",
        "name": "$.ios.criticalSound.name",
        "volume": "$.ios.criticalSound.volume",
    ]

    /// APNS request headers.
    static let headerKeys: [String: String] = [
        "apns-push-type": "$.ios.pushType",
        "apns-priority": "$.delivery",
        "apns-expiration": "$.ttl",
        "apns-collapse-id": "$.collapseKey",
        "apns-topic": "$.ios.topic",
    ]

    /// Fields of a carousel item (`adb_items[N]`) and their names in `$.carousel.items[N]`.
    static let carouselItemFields = TemplateDescription.carousel.lists.first { $0.key == .items }?.intentNames ?? [:]

    /// Fields of an action (`adb_act[N]`) and their names in `$.buttons[N]`.
    static let buttonFields = ListReading.buttons.intentNames

    /// The intent path of an FCM data key or an APNS top-level key; a key with no field of its
    /// own comes from the intent's `data` map.
    static func customKey(_ key: String) -> String {
        BuiltinTemplates.intentPaths[key] ?? JSONPath.member("$.data", key)
    }

    /// The location of an FCM data key or APNS top-level key, under the payload path `base`.
    static func customKeyLocation(base: String, key: String) -> CheckLocation {
        CheckLocation(payload: JSONPath.member(base, key), intent: customKey(key))
    }

    /// The location of a member of a payload object whose origins `table` lists; unknown members
    /// have no intent origin and are reported at their payload path.
    static func location(base: String, key: String, table: [String: String]) -> CheckLocation {
        CheckLocation(payload: JSONPath.member(base, key), intent: table[key])
    }
}
