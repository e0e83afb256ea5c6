#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif
internal import HTTPTypes
internal import Hummingbird
internal import Logging
internal import NIOCore
internal import NIOHTTP1
internal import OpenAPIRuntime

/// Answers every error thrown beneath it, so that the middleware around it (request id, log,
/// metrics) sees an answer: an ``APIError`` as it says; the router's "no route" as 404, or 405
/// with `Allow` when the path is known under another method; a body over the limit as 413; a
/// body NIO's parser cannot read (a bad chunk) as 400, as ``UnreadableRequestAnswer`` answers a
/// head; and anything else as a 500 that says nothing of what went wrong (the log line does, with the id).
struct ErrorAnswerMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return answer(for: error, path: request.uri.path, logger: context.logger).response(requestID: context.requestID)
        }
    }

    func answer(for error: any Error, path: String, logger: Logger) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as ServerError:
            // Thrown through the generated code, which wraps what a handler threw.
            return answer(for: error.underlyingError, path: path, logger: logger)
        case is NIOTooManyBytesError:
            return .bodyTooLarge
        case let error as HTTPParserError:
            return .badRequest(StreamStop.reason(error))
        case let error as HTTPError where error.status == .notFound:
            if let route = routes.route(path), let method = routes.methods[route] { return .methodNotAllowed(route, allowed: method) }
            return .notFound
        case let error as HTTPError where error.status == .contentTooLarge:
            return .bodyTooLarge
        case let error as HTTPError where error.status.code < 500:
            return APIError(error.status, kind: "bad request", message: error.body)
        case let error as IOError where error.errnoCode == ECONNRESET || error.errnoCode == EPIPE:
            // The client reset the connection while its body came (the thirty-third audit, F7:
            // counted as a 500 and logged as an internal error). No answer reaches it, and the
            // fault is not the server's: counted as a body cut short by a plain close is, a 400.
            return .badRequest("the client reset the connection before its body was read")
        default:
            logger.error("internal error", metadata: ["error": "\(error)"])
            return .internalError
        }
    }
}
