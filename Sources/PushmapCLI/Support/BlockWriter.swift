internal import Dispatch
internal import Synchronization

/// Writes windows of output lines to standard output on a thread of its own, in the order
/// given, so that no core waits on the write; at most two windows wait, which bounds memory.
final class BlockWriter: @unchecked Sendable {
    // @unchecked: the queue serializes the writes; `stopped` is atomic.
    private let queue = DispatchQueue(label: "pushmap.lines.output")
    private let room = DispatchSemaphore(value: 2)
    private let stopped = Atomic<Bool>(false)

    /// Whether a write found standard output closed (EPIPE): nothing more is written.
    var closed: Bool { stopped.load(ordering: .acquiring) }

    func write(_ outputs: [some LineOutput]) {
        room.wait()
        queue.async {
            defer { self.room.signal() }
            guard !self.closed else { return }
            var block: [UInt8] = []
            block.reserveCapacity(outputs.reduce(0) { $0 + $1.bytes.count })
            for output in outputs { block.append(contentsOf: output.bytes) }
            guard !block.isEmpty else { return }
            do {
                try StandardStream.output.write(block)
            } catch {
                self.stopped.store(true, ordering: .releasing)
            }
        }
    }

    /// Waits for every window queued.
    func finish() {
        queue.sync {}
    }
}
