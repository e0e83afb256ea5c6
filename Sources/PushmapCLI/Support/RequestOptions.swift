internal import ArgumentParser
@_spi(Tools) internal import Pushmap

/// `--request` and `--fcm-apns`: send-ready output, for `translate` and `batch`.
struct RequestOptions: ParsableArguments {
    @Flag(name: .long, help: "Write APNS as a request, {\"headers\": {...}, \"payload\": {...}}, with the headers the script derives.")
    var request = false

    @Flag(name: .customLong("fcm-apns"), help: "Put the APNS request in the FCM message as message.apns, so it reaches iOS devices too.")
    var fcmAPNS = false

    /// A note for a flag that does nothing with `platforms` (`--request --platform fcm`): said,
    /// not passed over in silence (the twenty-fifth audit, F11), and not refused, as a sender
    /// may give the same flags for every platform.
    func unused(with platforms: [Platform]) -> String? {
        if fcmAPNS, !platforms.contains(.fcm) {
            return "--fcm-apns does nothing without the FCM message (--platform fcm or both)"
        }
        if request, !fcmAPNS, !platforms.contains(.apns) {
            return "--request does nothing without the APNS payload (--platform apns or both; --fcm-apns for the FCM message's)"
        }
        return nil
    }

    var forms: Set<RequestForm> {
        var forms: Set<RequestForm> = []
        if request { forms.insert(.apnsRequest) }
        if fcmAPNS { forms.insert(.fcmAPNS) }
        return forms
    }
}
