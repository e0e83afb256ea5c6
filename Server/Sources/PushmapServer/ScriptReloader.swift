internal import Logging
internal import ServiceLifecycle
internal import Synchronization
internal import UnixSignals

/// Reloads the scripts on SIGHUP and, when watching, when a script file changes; marks the
/// server not ready once a graceful stop begins. Runs beside the HTTP server in its service group.
struct ScriptReloader: Service {
    let store: ScriptStore
    let watch: Bool
    let watchInterval: Duration
    let readiness: Readiness
    let logger: Logger

    func run() async throws {
        await withGracefulShutdownHandler {
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
        } onGracefulShutdown: {
            readiness.stopping()
            logger.info("stopping: no new connections; finishing the requests in flight")
        }
    }
}

/// Whether the server takes traffic: `/readyz` answers 503 once a graceful stop has begun.
final class Readiness: Sendable {
    private let stopped = Atomic<Bool>(false)
    var ready: Bool { !stopped.load(ordering: .relaxed) }
    func stopping() { stopped.store(true, ordering: .relaxed) }
}
