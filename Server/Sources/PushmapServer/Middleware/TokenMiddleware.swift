internal import HTTPTypes
internal import Hummingbird

/// With `--token-file`, lets through only requests that carry `Authorization: Bearer TOKEN`. A
/// load balancer's probes need none, and a path no route answers is left to the router's 404.
struct TokenMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let token: [UInt8]

    /// Routes that answer without a token.
    static let exempt: Set<String> = ["/healthz", "/readyz"]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // The router names the route before the middleware runs, and only when one matches.
        guard let route = context.endpointPath, !Self.exempt.contains(route) else { return try await next(request, context) }
        if let refusal = Self.refusal(request.headers.first(.authorization), token: token) { throw refusal }
        return try await next(request, context)
    }

    /// Nil when the header is `Bearer TOKEN`, the scheme in any case (RFC 9110 11.1: schemes are
    /// case-insensitive), the token compared in constant time: every byte of the longer of the
    /// two is looked at, whatever matches, so the time says nothing. Else the 401 that says which
    /// of the three it is: no header, another scheme, or a token that is not the server's.
    static func refusal(_ header: String?, token: [UInt8]) -> APIError? {
        guard let header else { return .unauthorized("a bearer token is needed: send Authorization: Bearer TOKEN") }
        let scheme = Array("bearer ".utf8), bytes = Array(header.utf8)
        guard bytes.count > scheme.count, zip(bytes, scheme).allSatisfy({ byte, expected in expected == 0x20 ? byte == 0x20 : byte | 0x20 == expected }) else {
            return .unauthorized("the Authorization header is not Bearer TOKEN")
        }
        guard constantTimeEqual(Array(bytes.dropFirst(scheme.count)), token) else {
            // RFC 6750 3.1: a token that was sent but is not valid is invalid_token.
            return .unauthorized("the bearer token is not the server's (see --token-file)", challenge: #"Bearer error="invalid_token""#)
        }
        return nil
    }

    static func constantTimeEqual(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        var difference = UInt8(left.count == right.count ? 0 : 1)
        for index in 0..<max(left.count, right.count) {
            let leftByte = index < left.count ? left[index] : 0
            let rightByte = index < right.count ? right[index] : 0
            difference |= leftByte ^ rightByte
        }
        return difference == 0
    }
}
