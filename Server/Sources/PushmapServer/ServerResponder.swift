internal import HTTPTypes
internal import Hummingbird
internal import Logging
internal import NIOCore
internal import Synchronization
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// What every request goes through before and after its route: a request id (answer header, error
/// bodies, log lines), the token, the concurrency and time limits, errors turned into JSON
/// answers that show no internals, the request counter and one access log line.
struct ServerResponder<RouteResponder: HTTPResponder>: HTTPResponder where RouteResponder.Context == BasicRequestContext {
    typealias Context = BasicRequestContext

    let routes: RouteResponder
    let configuration: ServerConfiguration
    let limiter: RequestLimiter
    let metrics: ServerMetrics

    /// Routes that answer without a token and outside the concurrency limit: a load balancer's
    /// probes and the scraper must get through when the server is busy.
    static var probes: Set<String> { ["/healthz", "/readyz", "/metrics"] }

    func respond(to request: Request, context: Context) async throws -> Response {
        let started = ContinuousClock.now
        let requestID = Self.requestID(from: request)
        var context = context
        context.logger[metadataKey: "request_id"] = .string(requestID)
        let path = request.uri.path
        let route = Self.knownRoutes.contains(path) ? path : "unmatched"

        var response = await answer(request, context: context, requestID: requestID, path: path)
        response.headers[.requestID] = requestID
        let status = response.status.code
        metrics.requestAnswered(route: route, status: status)
        let elapsed = ContinuousClock.now - started
        context.logger.info("request", metadata: [
            "method": .string(request.method.rawValue), "path": .string(path), "status": .stringConvertible(status),
            "ms": .string(String(format: elapsed)),
        ])
        return response
    }

    private func answer(_ request: Request, context: Context, requestID: String, path: String) async -> Response {
        if let method = Self.routeMethods[path], request.method != method {
            var response = ErrorAnswer.response(
                .methodNotAllowed, kind: "method not allowed", message: "\(path) takes \(method.rawValue)", requestID: requestID)
            response.headers[.allow] = method.rawValue
            return response
        }
        guard Self.routeMethods[path] != nil else {
            return ErrorAnswer.response(.notFound, kind: "not found", message: "no such route", requestID: requestID)
        }
        let probe = Self.probes.contains(path) && path != "/metrics"
        if let token = configuration.token, !probe, !Self.authorized(request, token: token) {
            var response = ErrorAnswer.response(.unauthorized, kind: "unauthorized", message: "a bearer token is needed", requestID: requestID)
            response.headers[.wwwAuthenticate] = "Bearer"
            return response
        }
        // A batch takes its slot in its route, held for as long as its answer streams.
        let limited = !Self.probes.contains(path) && path != "/v1/batch"
        if !Self.probes.contains(path) {
            if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > configuration.maxBodyBytes, path != "/v1/batch" {
                return ErrorAnswer.response(
                    .contentTooLarge, kind: "too large", message: "the body exceeds the limit of \(configuration.maxBodyBytes) bytes",
                    requestID: requestID)
            }
            guard !limited || limiter.acquire() else {
                var response = ErrorAnswer.response(
                    .serviceUnavailable, kind: "overloaded", message: "too many requests in flight; try again", requestID: requestID)
                response.headers[.retryAfter] = "1"
                return response
            }
        }
        defer { if limited { limiter.release() } }
        do {
            return try await withTimeLimit(.milliseconds(configuration.requestTimeoutMilliseconds)) {
                try await routes.respond(to: request, context: context)
            }
        } catch is RequestTimedOut {
            var response = ErrorAnswer.response(
                .requestTimeout, kind: "timeout", message: "the request took longer than \(configuration.requestTimeoutMilliseconds) ms",
                requestID: requestID)
            response.headers[.connection] = "close"
            return response
        } catch {
            return Self.errorResponse(error, requestID: requestID, logger: context.logger)
        }
    }

    /// An error thrown by a route, as JSON: Hummingbird's HTTP errors keep their status, a body
    /// over the limit is 413, anything else is a 500 that says nothing of what went wrong (the
    /// log line does, with the request id).
    static func errorResponse(_ error: any Error, requestID: String, logger: Logger) -> Response {
        if error is BodyTooLarge || error is NIOTooManyBytesError {
            return ErrorAnswer.response(.contentTooLarge, kind: "too large", message: "the body exceeds the server's limit", requestID: requestID)
        }
        if let error = error as? HTTPError {
            switch error.status {
            case .notFound:
                return ErrorAnswer.response(.notFound, kind: "not found", message: "no such route", requestID: requestID)
            case .contentTooLarge:
                return ErrorAnswer.response(.contentTooLarge, kind: "too large", message: "the body exceeds the server's limit", requestID: requestID)
            case .badRequest:
                return ErrorAnswer.response(.badRequest, kind: "bad request", message: error.body, requestID: requestID)
            default:
                if error.status.code < 500 {
                    return ErrorAnswer.response(error.status, kind: "bad request", message: error.body, requestID: requestID)
                }
            }
        }
        logger.error("internal error", metadata: ["error": "\(error)"])
        return ErrorAnswer.response(.internalServerError, kind: "internal error", requestID: requestID)
    }

    /// The paths the routes answer and the method of each (another method is 405, not 404):
    /// the router's own list.
    static var routeMethods: [String: HTTPRequest.Method] { Routes.methods }

    /// The paths the routes answer, for the metrics' route label (other paths would make a label each).
    static var knownRoutes: Set<String> { Set(routeMethods.keys) }

    /// The caller's id when it is a short token of safe characters (so a proxy's id follows the
    /// request through the logs), a new random one otherwise.
    static func requestID(from request: Request) -> String {
        if let given = request.headers[.requestID], (1...128).contains(given.utf8.count),
            given.utf8.allSatisfy({ isIDByte($0) })
        {
            return given
        }
        var random = SystemRandomNumberGenerator()
        let high = random.next() as UInt64
        let low = random.next() as UInt64
        return hex(high) + hex(low)
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

    /// Whether the request carries `Authorization: Bearer TOKEN`, compared in constant time: every
    /// byte of the longer of the two is looked at, whatever matches, so the time says nothing.
    static func authorized(_ request: Request, token: [UInt8]) -> Bool {
        guard let header = request.headers[.authorization] else { return false }
        let prefix = "Bearer "
        guard header.utf8.count > prefix.utf8.count, header.utf8.starts(with: prefix.utf8) else { return false }
        let given = Array(header.utf8.dropFirst(prefix.utf8.count))
        return constantTimeEqual(given, token)
    }

    static func constantTimeEqual(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        var difference = UInt8(left.count == right.count ? 0 : 1)
        let length = max(left.count, right.count)
        for index in 0..<length {
            let leftByte = index < left.count ? left[index] : 0
            let rightByte = index < right.count ? right[index] : 0
            difference |= leftByte ^ rightByte
        }
        return difference == 0
    }
}

/// Counts requests in flight against the configured limit.
final class RequestLimiter: Sendable {
    private let inFlight = Atomic<Int>(0)
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Takes a slot, or returns false when all are taken.
    func acquire() -> Bool {
        if inFlight.add(1, ordering: .relaxed).newValue > limit {
            inFlight.subtract(1, ordering: .relaxed)
            return false
        }
        return true
    }

    func release() { inFlight.subtract(1, ordering: .relaxed) }
}

/// A body over the limit.
struct BodyTooLarge: Error {}

/// A request that ran out of time.
struct RequestTimedOut: Error {}

/// Runs `body`, cancelling it and throwing ``RequestTimedOut`` when `limit` passes first.
func withTimeLimit<Result: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> Result) async throws -> Result {
    try await withThrowingTaskGroup(of: Result?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        // The first to finish decides; the sleep's nil means time ran out.
        guard let first = try await group.next(), let result = first else { throw RequestTimedOut() }
        return result
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
