internal import OpenAPIRuntime

/// A request's whole body, for the routes that take one document (all but the streamed ones):
/// refused with 413 when its announced length is over the limit, before a byte is read, or when
/// it grows over the limit as it arrives.
enum RequestBody {
    static func bytes(_ body: HTTPBody, limit: Int) async throws -> [UInt8] {
        if case .known(let length) = body.length, length > limit { throw APIError.bodyOverLimit(limit) }
        var bytes: [UInt8] = []
        for try await chunk in body {
            guard bytes.count + chunk.count <= limit else { throw APIError.bodyTooLarge }
            bytes.append(contentsOf: chunk)
        }
        return bytes
    }
}
