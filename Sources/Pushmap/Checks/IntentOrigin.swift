internal import PushmapJSON

/// Which intent field each payload key comes from, so that a finding about a translated payload
/// points at what the user wrote (`$.title`) rather than at the generated key
/// (`$.message.data.adb_title`).
enum IntentOrigin {
    /// FCM data keys and APNS top-level keys. One table serves both: a key means the same on
    /// both platforms.
    static let customKeys: [String: String] = [
        "adb_version": "$.version",
        "adb_template_type": "$.template",
        "adb_title": "$.title",
        "adb_body": "$.body",
        "adb_title_ex": "$.expandedTitle",
        "adb_body_ex": "$.expandedBody",
        "adb_image": "$.image",
        "adb_media": "$.image",
        "adb_uri": "$.link.uri",
        "adb_a_type": "$.link.type",
        "adb_act": "$.buttons",
        "adb_sound": "$.sound",
        "adb_n_count": "$.badge",
        "adb_clr_title": "$.colors.title",
        "adb_clr_body": "$.colors.body",
        "adb_clr_bg": "$.colors.background",
        "adb_clr_icon": "$.colors.icon",
        "adb_clr_tmr": "$.colors.timer",
        "adb_rem_txt": "$.remindLater.label",
        "adb_rem_ts": "$.remindLater.at",
        "adb_rem_sec": "$.remindLater.after",
        "adb_car_mode": "$.carousel.mode",
        "adb_car_layout": "$.carousel.layout",
        "adb_items": "$.carousel.items",
        "adb_tmr_dur": "$.timer.duration",
        "adb_tmr_end": "$.timer.endsAt",
        "adb_title_alt": "$.expired.title",
        "adb_body_alt": "$.expired.body",
        "adb_body_ex_alt": "$.expired.expandedBody",
        "adb_image_alt": "$.expired.image",
        "adb_media_alt": "$.expired.image",
        "adb_channel_id": "$.android.channel",
        "adb_icon": "$.android.icon",
        "adb_small_icon": "$.android.smallIcon",
        "adb_large_icon": "$.android.largeIcon",
        "adb_n_priority": "$.android.priority",
        "adb_n_visibility": "$.android.visibility",
        "adb_tag": "$.android.tag",
        "adb_sticky": "$.android.sticky",
        "adb_ticker": "$.android.ticker",
    ]

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
    static let carouselItemFields: [String: String] = ["img": "image", "txt": "text", "uri": "uri"]

    /// Fields of an action (`adb_act[N]`) and their names in `$.buttons[N]`.
    static let buttonFields: [String: String] = ["label": "label", "uri": "uri", "type": "type", "aid": "id"]

    /// The intent path of an FCM data key or an APNS top-level key; a key with no field of its
    /// own comes from the intent's `data` map.
    static func customKey(_ key: String) -> String {
        customKeys[key] ?? JSONPath.member("$.data", key)
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
