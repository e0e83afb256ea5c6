internal import Hummingbird
internal import Logging

/// One log line per answered request: method, path, status and milliseconds, with the request id
/// (from the logger's metadata) as every line about the request has it.
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let response = try await next(request, context)
        context.logger.info("request", metadata: [
            "method": .string(request.method.rawValue), "path": .string(request.uri.path),
            "status": .stringConvertible(response.status.code), "ms": .string(String(format: ContinuousClock.now - started)),
        ])
        return response
    }
}

extension String {
    /// Milliseconds with three decimals, for the access log.
    init(format duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        let fraction = String(microseconds % 1000)
        self = "\(microseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
