internal import Logging
internal import ServiceLifecycle
internal import Synchronization
internal import UnixSignals

/// Reloads the scripts on SIGHUP and, when watching, when a script file changes. Runs beside the
/// HTTP server in its service group.
struct ScriptReloader: Service {
    let store: ScriptStore
    let watch: Bool
    let watchInterval: Duration

    func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask {
                let hangups = await UnixSignalsSequence(trapping: .sighup)
                for await _ in hangups.cancelOnGracefulShutdown() {
                    store.reload(reason: "SIGHUP")
                }
            }
            if watch {
                group.addTask {
                    // Polling: simple and portable; a folder of a few scripts is read in microseconds.
                    while !Task.isCancelled && !Task.isShuttingDownGracefully {
                        do {
                            try await cancelWhenGracefulShutdown { try await Task.sleep(for: watchInterval) }
                        } catch {
                            return
                        }
                        store.reload(reason: "a script file changed", onlyIfChanged: true)
                    }
                }
            }
        }
    }
}

/// Marks the server not ready the moment a graceful stop begins (SIGTERM, SIGINT), says so, and
/// holds the stop for the drain delay: the server goes on answering, `/readyz` with 503, so that
/// a load balancer takes it out of rotation before the listener closes.
struct StopAnnouncer: Service {
    let readiness: Readiness
    let drainDelay: Duration
    let logger: Logger

    func run() async throws {
        // Returns when a graceful stop begins, or throws when the group is cancelled.
        try await gracefulShutdown()
        readiness.stopping()
        logger.info("stopping: /readyz answers 503; the listener closes after the drain delay, then the requests in flight finish")
        // The delay is the stop's: uncancellable by the stop itself, ended by the group's cancellation.
        try? await Task.sleep(for: drainDelay)
    }
}

/// Whether the server takes traffic: `/readyz` answers 503 once a graceful stop has begun.
final class Readiness: Sendable {
    private let stopped = Atomic<Bool>(false)
    var ready: Bool { !stopped.load(ordering: .relaxed) }
    func stopping() { stopped.store(true, ordering: .relaxed) }
}
