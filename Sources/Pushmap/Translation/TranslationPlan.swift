/// What one translation produces, worked out once from the platforms and request forms asked for:
/// which mappings run, which output is checked after the run as part of a request, and whether
/// the send-ready stage runs at all. The stages of ``Translator`` read it instead of each
/// working it out from flags again.
struct TranslationPlan: Sendable {
    /// The platforms asked for, in the caller's order: the payloads the translation returns.
    let platforms: [Platform]
    /// The platforms whose mappings run: those asked for, and apns when a request form needs it.
    let runs: [Platform]
    /// Whether the APNS output is written as a request (headers and payload).
    let apnsRequest: Bool
    /// Whether the FCM message carries the APNS request as `message.apns`.
    let fcmAPNS: Bool
    /// Where, in ``runs``, the APNS payload is that is checked after the run, as part of its
    /// request, and not on its own; nil when every payload is checked as it is written.
    let checkedLater: Int?

    init(platforms: [Platform], forms: Set<RequestForm>) {
        self.platforms = platforms
        apnsRequest = forms.contains(.apnsRequest) && platforms.contains(.apns)
        fcmAPNS = forms.contains(.fcmAPNS) && platforms.contains(.fcm)
        let request = apnsRequest || fcmAPNS
        runs = request && !platforms.contains(.apns) ? platforms + [.apns] : platforms
        checkedLater = request && (apnsRequest || !platforms.contains(.apns)) ? runs.firstIndex(of: .apns) : nil
    }

    /// Whether a request form is written, so the scripts' APNS headers are needed.
    var request: Bool { apnsRequest || fcmAPNS }
}
