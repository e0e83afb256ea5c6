internal import NIOCore
internal import NIOPosix

/// Runs the server's tasks on NIO's event loops, each job on the loop of the thread that
/// enqueues it: a request's task, woken by its connection's loop, runs on that loop's thread.
/// On Swift's own pool instead, every request crossed from the loop to the pool and back, and
/// on two cores those switches (and the two sets of threads fighting for the cores) were much
/// of the time a request waited. The server's tasks prefer it (``PushmapServer``); child tasks
/// inherit the preference.
final class EventLoopTaskExecutor: TaskExecutor {
    static let shared = EventLoopTaskExecutor(group: .singleton)

    let group: MultiThreadedEventLoopGroup

    init(group: MultiThreadedEventLoopGroup) { self.group = group }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        // The current loop when called on one of the group's threads, else the next loop.
        group.any().execute { job.runSynchronously(on: executor) }
    }
}
