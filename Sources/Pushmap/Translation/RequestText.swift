internal import PushmapJSON

/// An APNS request as a translation writes it: the apns mapping's payload and the headers its
/// script wrote, each as compact text.
struct RequestText {
    let payload: [UInt8]
    let headers: [UInt8]

    /// `{"headers":{...},"payload":{...}}`: the keys in sorted order, as every payload is written.
    var bytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(payload.count + headers.count + 24)
        bytes.append(contentsOf: #"{"headers":"#.utf8)
        bytes.append(contentsOf: headers)
        bytes.append(contentsOf: #","payload":"#.utf8)
        bytes.append(contentsOf: payload)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// The request as a value.
    var value: JSONValue {
        let headers = (try? JSONParser.parse(headers)) ?? .object([:])
        let payload = (try? JSONParser.parse(payload)) ?? .null
        return .object(["headers": headers, "payload": payload])
    }

    /// The FCM message `fcm` (compact text) with this request as `message.apns`, and whether it
    /// replaced an apns block the fcm mapping wrote.
    func inserted(into fcm: [UInt8]) -> (text: [UInt8], replaced: Bool) {
        guard case .object(var root)? = try? JSONParser.parse(fcm), case .object(var message)? = root["message"] else { return (fcm, false) }
        let replaced = message["apns"] != nil
        message["apns"] = value
        root["message"] = .object(message)
        return (JSONWriter(style: .compact).write(.object(root)), replaced)
    }
}
