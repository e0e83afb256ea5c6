internal import ArgumentParser
@_spi(Tools) internal import Pushmap

/// `--request` and `--fcm-apns`: send-ready output, for `translate` and `batch`.
struct RequestOptions: ParsableArguments {
    @Flag(name: .long, help: "Write APNS as a request, {\"headers\": {...}, \"payload\": {...}}, with the headers the script derives.")
    var request = false

    @Flag(name: .customLong("fcm-apns"), help: "Put the APNS request in the FCM message as message.apns, so it reaches iOS devices too.")
    var fcmAPNS = false

    var forms: Set<RequestForm> {
        var forms: Set<RequestForm> = []
        if request { forms.insert(.apnsRequest) }
        if fcmAPNS { forms.insert(.fcmAPNS) }
        return forms
    }
}
