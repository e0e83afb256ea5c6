internal import HTTPTypes
internal import Hummingbird
internal import Logging

/// The context every request carries through the middleware: Hummingbird's own, and the id
/// RequestIDMiddleware gives the request (answer header, error bodies, log lines).
struct ServerContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    var requestID: String = "-"

    init(source: Source) {
        coreContext = .init(source: source)
    }
}

/// What a route's handler knows of its request beyond the generated Input: its id, its logger
/// and its head. The generated handlers take no Hummingbird context, so RequestIDMiddleware
/// binds this for the time the request runs.
struct RequestScope: Sendable {
    /// Outside a request (never, for a handler): no id, a logger that says so.
    @TaskLocal static var current = RequestScope(
        requestID: "-", logger: Logger(label: "pushmap-server"), head: HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/"))

    let requestID: String
    let logger: Logger
    let head: HTTPRequest

    /// `body` run with this request bound. A task-local does not follow work handed to Dispatch
    /// or to LineWorkers' threads: each such body binds the request again, for its log lines
    /// (a script's print names the request) and its error answers' ids.
    func bound<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        let outcome: Result<T, Failure> = RequestScope.$current.withValue(self) { Result { () throws(Failure) in try body() } }
        return try outcome.get()
    }
}
