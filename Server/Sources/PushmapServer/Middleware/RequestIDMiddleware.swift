internal import HTTPTypes
internal import Hummingbird
internal import Logging

/// Gives every request an id, outermost of the middleware so that every answer carries it in
/// `X-Request-Id`, errors, 404s and refusals included: the caller's id when it is a short token of
/// safe characters (a proxy's id then follows the request through the logs), a new random one
/// otherwise.
struct RequestIDMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let requestID = Self.requestID(from: request.headers.first(.requestID))
        var context = context
        context.requestID = requestID
        context.logger[metadataKey: "request_id"] = .string(requestID)
        let scope = RequestScope(requestID: requestID, logger: context.logger, head: request.head)
        var response = try await RequestScope.$current.withValue(scope) { try await next(request, context) }
        response.headers.setFirst(.requestID, to: requestID)
        return response
    }

    static func requestID(from given: String?) -> String {
        if let given, (1...128).contains(given.utf8.count), given.utf8.allSatisfy(isIDByte) { return given }
        var random = SystemRandomNumberGenerator()
        return hex(random.next()) + hex(random.next())
    }

    private static func isIDByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            true
        default:
            false
        }
    }

    private static func hex(_ value: UInt64) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}

extension HTTPField.Name {
    /// `X-Request-Id`; the fallback is never taken (the name is a valid token).
    static let requestID = HTTPField.Name("X-Request-Id") ?? .via
}
