internal import Hummingbird
internal import OpenAPIHummingbird
internal import OpenAPIRuntime

/// The router: the routes openapi.yaml names, registered by the generated code, behind one
/// middleware per concern. Outermost first: the request id (so every answer carries it), the
/// access log and the request counter (which see every answer), the answers to errors, then the
/// token and the limits, which only a request that reached a route goes through, and last the
/// answer put in one buffer.
enum ServerRouter {
    /// `slots` are the concurrency limit's (a test passes its own to fill them).
    static func make(
        api: PushmapAPI, configuration: ServerConfiguration, metrics: ServerMetrics,
        slots: RequestSlots? = nil
    ) throws -> Router<ServerContext> {
        let routes = try RouteTable { try api.registerHandlers(on: $0) }
        // HEAD on every GET route, answered as GET without the body (HTTP asks it of every server).
        let router = Router(context: ServerContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: RequestIDMiddleware())
        router.add(middleware: AccessLogMiddleware())
        router.add(middleware: RequestMetricsMiddleware(metrics: metrics, routes: routes))
        router.add(middleware: ErrorAnswerMiddleware(routes: routes))
        if let token = configuration.token { router.add(middleware: TokenMiddleware(token: token)) }
        router.add(middleware: LimitsMiddleware(
            slots: slots ?? RequestSlots(limit: configuration.maxConcurrentRequests), timeLimitMilliseconds: configuration.requestTimeoutMilliseconds))
        router.add(middleware: BufferedBodyMiddleware())
        // Middleware applies to the routes registered after it.
        try api.registerHandlers(on: router, middlewares: [MediaTypeMiddleware()])
        return router
    }
}
