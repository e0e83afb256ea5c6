internal import HTTPTypes
internal import OpenAPIRuntime

/// Sends each answer under the media type openapi.yaml names, where the generated code, given
/// the answer as bytes, spells it otherwise: a JSON answer is `application/json-bytes` to the
/// generator (see scripts/openapi-generate), and the generator sorts a media type's parameters.
/// A middleware of the generated code's own chain, between the router and each operation.
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
        var (response, answer) = try await next(request, body, metadata)
        if let type = response.headerFields.first(.contentType), let spelled = Self.spellings[type] { response.headerFields.setFirst(.contentType, to: spelled) }
        return (response, answer)
    }
}
