internal import HTTPTypes
internal import Hummingbird
internal import NIOCore
internal import Synchronization

/// The concurrency and time limits. Each request but the probes takes a slot, 503 when all are
/// taken, and holds it until its answer is written: a streamed answer (no length known up front,
/// as a batch's) holds it for as long as it streams. The route itself must answer within the
/// request time limit (408); a stream then runs under its own limit. Body sizes are refused
/// where a body is read (``RequestBody``), since a streamed body has a limit per line instead.
struct LimitsMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let slots: RequestSlots
    let timeLimitMilliseconds: Int

    /// Routes outside the slots: a load balancer's probes and the scraper must get through when
    /// the server is busy, and the OpenAPI document is bytes kept in memory, which its own answers
    /// never list as 503 (the thirty-third audit, F1).
    static let exempt: Set<String> = ["/healthz", "/readyz", "/metrics", "/openapi.yaml"]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let route = context.endpointPath else { return try await next(request, context) }
        guard !Self.exempt.contains(route) else { return try await timed(request, context, next) }
        guard slots.acquire() else { throw APIError.overloaded }
        let response: Response
        do {
            response = try await timed(request, context, next)
        } catch {
            slots.release()
            throw error
        }
        let slots = self.slots
        return response.whenDone { slots.release() }
    }

    /// The rest of the chain under the time limit, 408 when it runs out.
    private func timed(_ request: Request, _ context: Context, _ next: (Request, Context) async throws -> Response) async throws -> Response {
        try await withoutActuallyEscaping(next) { next in
            // The chain runs on a child task so that it can be cancelled, and only while this
            // call waits for it: the box says so to the compiler.
            let chain = Chain(next: next)
            do {
                return try await withTimeLimit(.milliseconds(timeLimitMilliseconds)) { try await chain.next(request, context) }
            } catch is RequestTimedOut {
                throw APIError.timeout(milliseconds: timeLimitMilliseconds)
            }
        }
    }

    private struct Chain: @unchecked Sendable {
        let next: (Request, Context) async throws -> Response
    }
}

/// Counts requests in flight against the configured limit.
final class RequestSlots: Sendable {
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

/// A request that ran out of time.
struct RequestTimedOut: Error {}

/// Runs `body` on a task of its own, cancelling it and throwing ``RequestTimedOut`` when `limit`
/// passes first. The deadline is a timer of the event loop the request runs on
/// (``EventLoopTaskExecutor``), removed when cancelled. A sleeping child task instead cost every
/// request a dispatch timer and a wake-up of dispatch's timer thread (a tenth of the server's
/// time under load), and a cancelled sleep stayed queued until its deadline: ten seconds of
/// requests' tasks held at once, 106 MiB resident at 9,000 requests/s, 41 MiB with a 1 s limit.
///
/// The task starts at once on this thread (`Task.immediate`) and moves to the event loops only
/// when it first waits: a translate request cost 5,500 instructions less (554,000 to 548,500,
/// callgrind over 1,000 requests), the hop to a new job and back. The timer is set first, so
/// that work done before that first wait counts against the limit.
func withTimeLimit<Result: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> Result) async throws -> Result {
    let deadline = Deadline()
    let timer = EventLoopTaskExecutor.shared.group.any().scheduleTask(in: .nanoseconds(limit.nanoseconds)) { deadline.expire() }
    // On the event loops as the request is (an unstructured task inherits no executor preference).
    let task = Task.immediate(executorPreference: EventLoopTaskExecutor.shared) { try await body() }
    deadline.watch { task.cancel() }
    let result = await withTaskCancellationHandler { await task.result } onCancel: { task.cancel() }
    timer.cancel()
    // Past the deadline the answer is the time-out, whatever the cancelled body made of it.
    if deadline.expired { throw RequestTimedOut() }
    return try result.get()
}

/// A request's time limit: whether it ran out (set on the timer's loop, read by the request),
/// and the cancelling of its task, which may start after the limit ran out.
private final class Deadline: Sendable {
    private struct State {
        var expired = false
        var cancel: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    /// The limit ran out: the task is cancelled, now or as soon as it is watched.
    func expire() {
        let cancel = state.withLock { state in
            state.expired = true
            return state.cancel
        }
        cancel?()
    }

    /// `cancel` stops the task; called at once when the limit already ran out.
    func watch(_ cancel: @escaping @Sendable () -> Void) {
        let expired = state.withLock { state in
            state.cancel = cancel
            return state.expired
        }
        if expired { cancel() }
    }

    var expired: Bool { state.withLock { $0.expired } }
}
