internal import HTTPTypes
internal import OpenAPIRuntime

/// Sends each answer under the media type openapi.yaml names, where the generated code, given
/// the answer as bytes, spells it otherwise: a JSON answer is `application/json-bytes` to the
/// generator (see scripts/openapi-generate), and the generator sorts a media type's parameters.
/// A middleware of the generated code's own chain, between the router and each operation.
///
/// The request's `Accept` and `Content-Type` are kept from the generated code. It compares
/// `Accept` with those stand-in types, so `Accept: application/json` was answered 500; an
/// answer's type is fixed by its route, so the header is disregarded, as HTTP allows. And every
/// route takes any body, so `Content-Type` only cost two media type parses a request to choose
/// the view's `*/*`: a translate request went from 603,500 to 569,200 instructions (callgrind).
struct MediaTypeMiddleware: ServerMiddleware {
    /// The generator's spelling, and the document's.
    static let spellings: [String: String] = [
        "application/json-bytes": "application/json",
        "text/plain; charset=utf-8; version=0.0.4": "text/plain; version=0.0.4; charset=utf-8",
    ]

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if request.headerFields.contains(where: Self.isNegotiation) { request.headerFields.removeAll(where: Self.isNegotiation) }
        var (response, answer) = try await next(request, body, metadata)
        if let type = response.headerFields.first(.contentType), let spelled = Self.spellings[type] { response.headerFields.setFirst(.contentType, to: spelled) }
        return (response, answer)
    }

    private static func isNegotiation(_ field: HTTPField) -> Bool {
        field.name == .accept || field.name == .contentType
    }
}
