internal import HTTPTypes
internal import Hummingbird
internal import NIOCore
@_spi(Tools) internal import Pushmap
internal import PushmapJSON
@_spi(Tools) internal import PushmapOutput

/// The JSON bodies of every answer that is not a success: `{"error": {...}, "requestId": "..."}`.
enum ErrorAnswer {
    /// An error body with a kind and, when given, a message for people.
    static func response(_ status: HTTPResponse.Status, kind: String, message: String? = nil, requestID: String) -> Response {
        var error: JSONObject = ["kind": .string(kind)]
        if let message { error["message"] = .string(message) }
        return json(status, ["error": .object(error), "requestId": .string(requestID)])
    }

    /// A failed translation: its kind, diagnostics and script error.
    static func response(_ status: HTTPResponse.Status, translationError: TranslationError, kind: String? = nil, requestID: String) -> Response {
        let error = DiagnosticJSON.json(
            kind: kind ?? translationError.kind.name, diagnostics: translationError.diagnostics, scriptError: translationError.scriptError)
        return json(status, ["error": error, "requestId": .string(requestID)])
    }

    /// A compact JSON body ending in a newline.
    static func json(_ status: HTTPResponse.Status, _ object: JSONObject) -> Response {
        var bytes = JSONWriter(style: .compact).write(.object(object))
        bytes.append(0x0A)
        return ServerResponse.json(status, bytes)
    }
}

/// Answers with their content types.
enum ServerResponse {
    static func json(_ status: HTTPResponse.Status, _ bytes: [UInt8]) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func text(_ status: HTTPResponse.Status, _ bytes: [UInt8], contentType: String) -> Response {
        Response(status: status, headers: [.contentType: contentType], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

extension HTTPField.Name {
    /// `X-Request-Id`; the fallback is never taken (the name is a valid token).
    static let requestID = HTTPField.Name("X-Request-Id") ?? .via
}
