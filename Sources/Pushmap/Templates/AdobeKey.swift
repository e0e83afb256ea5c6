internal import PushmapJSON

/// Every key of Adobe's push templates, spelled here and nowhere else: the template
/// descriptions, the checks, import, blame and the preview name a key by its case, and a test
/// (VocabularyTests) fails when a key is spelled in a second source file.
///
/// FCM carries them as data keys (strings), APNS beside `aps`; a key means the same on both.
/// The cases are in the order import reads keys back into an intent (``BuiltinTemplates``
/// sorts the table it derives by it), which is the order of the fields in the intent it writes.
package enum AdobeKey: String, CaseIterable, Sendable {
    // Every template
    case version = "adb_version"
    case templateType = "adb_template_type"
    case uri = "adb_uri"
    case linkType = "adb_a_type"
    case actions = "adb_act"
    case media = "adb_media"
    case title = "adb_title"
    case body = "adb_body"
    case titleEx = "adb_title_ex"
    case bodyEx = "adb_body_ex"
    case sound = "adb_sound"
    case image = "adb_image"
    case badgeCount = "adb_n_count"
    // Colours
    case titleColour = "adb_clr_title"
    case bodyColour = "adb_clr_body"
    case backgroundColour = "adb_clr_bg"
    case iconColour = "adb_clr_icon"
    case timerColour = "adb_clr_tmr"
    // Android's notification settings
    case channel = "adb_channel_id"
    case icon = "adb_icon"
    case smallIcon = "adb_small_icon"
    case largeIcon = "adb_large_icon"
    case tag = "adb_tag"
    case sticky = "adb_sticky"
    case ticker = "adb_ticker"
    case displayPriority = "adb_n_priority"
    case visibility = "adb_n_visibility"
    // basic
    case remindText = "adb_rem_txt"
    case remindAt = "adb_rem_ts"
    case remindAfter = "adb_rem_sec"
    // carousel (and the list of cat and icon)
    case carouselMode = "adb_car_mode"
    case carouselLayout = "adb_car_layout"
    case items = "adb_items"
    // timer
    case timerDuration = "adb_tmr_dur"
    case timerEnd = "adb_tmr_end"
    case titleAlt = "adb_title_alt"
    case bodyAlt = "adb_body_alt"
    case bodyExAlt = "adb_body_ex_alt"
    case imageAlt = "adb_image_alt"
    case mediaAlt = "adb_media_alt"
    // input
    case inputReceiver = "adb_input_receiver"
    case inputText = "adb_input_txt"
    case feedbackText = "adb_feedback_txt"
    case feedbackImage = "adb_feedback_img"
    // zb
    case collapsedStyle = "adb_col_style"
    // cat
    case ctaText = "adb_cta_txt"
    case ctaURI = "adb_cta_uri"
    case ctaColour = "adb_cta_clr"
    case ctaTextColour = "adb_cta_txt_clr"
    case display = "adb_display"
    // rate
    case unselectedIcon = "adb_rate_unselected_icon"
    case selectedIcon = "adb_rate_selected_icon"
    case ratingActions = "adb_rate_act"
    // icon
    case cancelImage = "adb_cancel_image"

    /// The prefix every key has: the keys Adobe's SDKs read.
    package static let prefix = "adb_"

    /// The key as written in a payload.
    package var name: String { rawValue }

    /// Whether `bytes` are the key's.
    func equals(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var name = rawValue
        return name.withUTF8 { JSONItems.same(bytes, UnsafeRawBufferPointer($0)) }
    }
}
