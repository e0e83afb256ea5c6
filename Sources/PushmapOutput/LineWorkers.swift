internal import Dispatch
@_spi(Tools) public import Pushmap
internal import Synchronization

/// Lines translated on worker threads, the outputs in the lines' order: `pushmap batch` and
/// `campaign` a window at a time, the server's `/v1/batch` and `/v1/campaign` the lines of a few
/// chunks of the body at a time. Each worker takes runs of lines and one Lua state for each run,
/// so no lock or shared count is touched per line.
@_spi(Tools) public struct LineWorkers: Sendable {
    /// Lines a worker takes at once: enough to spread the state's lookup, few enough that the
    /// workers finish a window together.
    static let run = 16

    public let translator: Translator
    /// Threads translating at once, the caller's among them.
    public let workers: Int

    public init(translator: Translator, workers: Int) {
        self.translator = translator
        self.workers = workers
    }

    /// `each` over `lines` on up to ``workers`` threads; the outputs keep the lines' order.
    /// Inlinable, so that the per-line part is specialized where it is called.
    @inlinable
    public func map<Line: Sendable, Output: Sendable>(
        _ lines: [Line], _ each: @Sendable (Line, borrowing Translator.Session) -> Output
    ) -> [Output] {
        let slots = OutputSlots<Output>(count: lines.count)
        runs(count: lines.count) { range, session in
            for index in range { slots.set(index, each(lines[index], session)) }
        }
        return slots.values
    }

    /// Hands out `0..<count` in runs to the workers, each run with a session on one state.
    @usableFromInline
    func runs(count: Int, _ body: @Sendable (Range<Int>, borrowing Translator.Session) -> Void) {
        let next = Atomic<Int>(0)
        let run = Self.run
        DispatchQueue.concurrentPerform(iterations: max(1, min(workers, (count + run - 1) / run))) { _ in
            while true {
                let first = next.add(run, ordering: .relaxed).oldValue
                if first >= count { return }
                translator.withSession { session in body(first..<min(first + run, count), session) }
            }
        }
    }
}

/// Output slots filled by worker threads, each slot by one thread.
@usableFromInline
final class OutputSlots<Output: Sendable>: @unchecked Sendable {
    // @unchecked: each index is written by exactly one worker, and read after all have joined;
    // raw storage, because concurrent access to an array property trips exclusivity checks.
    @usableFromInline let storage: UnsafeMutableBufferPointer<Output?>

    @inlinable
    init(count: Int) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: nil)
    }

    @inlinable
    deinit {
        storage.deinitialize()
        storage.deallocate()
    }

    @inlinable
    func set(_ index: Int, _ output: Output) { storage[index] = output }

    /// Every slot's output, once all are set.
    @inlinable
    var values: [Output] { storage.compactMap { $0 } }
}
