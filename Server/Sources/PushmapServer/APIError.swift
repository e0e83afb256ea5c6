internal import HTTPTypes
internal import Hummingbird
internal import NIOCore
@_spi(Tools) internal import Pushmap
internal import PushmapJSON
@_spi(Tools) internal import PushmapOutput

/// An answer that is not a success, thrown by a middleware or a handler; it knows its status,
/// its headers and its body, `{"error": {...}, "requestId": "..."}`.
struct APIError: HTTPResponseError {
    let status: HTTPResponse.Status
    /// The `error` object of the body.
    let error: JSONValue
    var headers: HTTPFields = [:]

    /// An error with a kind and, when given, a message for people.
    init(_ status: HTTPResponse.Status, kind: String, message: String? = nil, headers: HTTPFields = [:]) {
        var error: JSONObject = ["kind": .string(kind)]
        if let message { error["message"] = .string(message) }
        self.status = status
        self.error = .object(error)
        self.headers = headers
    }

    /// A failed translation: its kind, diagnostics and script error.
    init(_ status: HTTPResponse.Status, translationError: TranslationError, kind: String? = nil) {
        self.status = status
        error = DiagnosticJSON.json(
            kind: kind ?? translationError.kind.name, diagnostics: translationError.diagnostics, scriptError: translationError.scriptError)
    }

    /// The answer, its body naming the request's id.
    func response(requestID: String) -> Response {
        let bytes = Answer.json(.object(["error": error, "requestId": .string(requestID)]))
        var response = Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        response.headers.append(contentsOf: headers)
        return response
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        response(requestID: (context as? ServerContext)?.requestID ?? RequestScope.current.requestID)
    }
}

extension APIError {
    static let notFound = APIError(.notFound, kind: "not found", message: "no such route")
    static func unauthorized(_ message: String, challenge: String = "Bearer") -> APIError {
        APIError(.unauthorized, kind: "unauthorized", message: message, headers: [.wwwAuthenticate: challenge])
    }
    static let overloaded = APIError(
        .serviceUnavailable, kind: "overloaded", message: "too many requests in flight; try again", headers: [.retryAfter: "1"])
    /// A body that went over the limit as it arrived (no length given beforehand).
    static let bodyTooLarge = APIError(.contentTooLarge, kind: "too large", message: "the body exceeds the server's limit")
    static let internalError = APIError(.internalServerError, kind: "internal error")

    static func methodNotAllowed(_ path: String, allowed: HTTPRequest.Method) -> APIError {
        // A GET route answers HEAD too (the router's own doing), and Allow says every method.
        let methods = allowed == .get ? "GET, HEAD" : allowed.rawValue
        return APIError(.methodNotAllowed, kind: "method not allowed", message: "\(path) takes \(methods)", headers: [.allow: methods])
    }

    /// A body whose announced length is over the limit, refused before it is read.
    static func bodyOverLimit(_ limit: Int) -> APIError {
        APIError(.contentTooLarge, kind: "too large", message: "the body exceeds the limit of \(limit) bytes")
    }

    static func timeout(milliseconds: Int) -> APIError {
        APIError(.requestTimeout, kind: "timeout", message: "the request took longer than \(milliseconds) ms", headers: [.connection: "close"])
    }

    static func badRequest(_ message: String?) -> APIError { APIError(.badRequest, kind: "bad request", message: message) }
}
