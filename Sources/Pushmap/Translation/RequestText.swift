@_spi(Engine) internal import PushmapJSON

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
        .object(["headers": Self.parse(headers) ?? .object([:]), "payload": Self.parse(payload) ?? .null])
    }

    /// Text the host wrote, read back with the tape parser (several times quicker than the one
    /// that explains errors, which this text has none of); nil if it somehow is not JSON.
    static func parse(_ text: [UInt8]) -> JSONValue? {
        let tape = text.withUnsafeBufferPointer { JSONTape.parse($0, limits: JSONParser.Limits()) }
        guard var reader = tape?.reader else { return try? JSONParser.parse(text) }
        return reader.value()
    }

    /// The FCM message `fcm` (compact text) with this request as `message.apns`, and whether it
    /// replaced an apns block the fcm mapping wrote.
    func inserted(into fcm: [UInt8]) -> (text: [UInt8], replaced: Bool) {
        guard case .object(var root)? = Self.parse(fcm), case .object(var message)? = root["message"] else { return (fcm, false) }
        let replaced = message["apns"] != nil
        message["apns"] = value
        root["message"] = .object(message)
        return (JSONWriter(style: .compact).write(.object(root)), replaced)
    }
}
