internal import Hummingbird

/// Counts each answered request by route and status (`pushmap_http_requests_total`). The route
/// label is the path when a route answers it and `unmatched` otherwise, so that stray paths make
/// no labels of their own.
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let metrics: ServerMetrics
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response = try await next(request, context)
        metrics.requestAnswered(route: routes.route(request.uri.path) ?? "unmatched", status: response.status.code)
        return response
    }
}
