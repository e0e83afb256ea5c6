internal import ArgumentParser
internal import Dispatch
@_spi(Tools) internal import Pushmap
internal import PushmapJSON
@_spi(Tools) internal import PushmapOutput
internal import Synchronization
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// `pushmap batch`: NDJSON in, NDJSON out, one output line per input line, in order.
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Translate newline-delimited intents; one output line per input line, in input order.",
        discussion: """
        Each output line is {"line": N, "fcm": ..., "apns": ...} or {"line": N, "error": {...}}. \
        A bad line never stops the run. Exit 0 when every line translated, 1 when some did not.
        """
    )

    @Option(name: .long, help: "fcm, apns, or both.")
    var platform: PlatformChoice = .both

    @OptionGroup var scriptOptions: ScriptOptions

    @OptionGroup var requestOptions: RequestOptions

    @OptionGroup var clock: ClockOption

    @Option(name: .long, help: "Worker threads; the number of cores by default.")
    var jobs: Int?

    @Argument(help: ArgumentHelp("The NDJSON file; - or nothing for standard input.", valueName: "file"), completion: .file())
    var file: String?

    /// Lines translated between two writes; bounds memory and keeps order cheap.
    static let window = 4096

    func validate() throws {
        if let jobs, jobs < 1 || jobs > 256 { throw ValidationError("--jobs must be between 1 and 256") }
    }

    func run() throws {
        StandardStream.ignoreBrokenPipes()
        let input = InputFile(file)
        var descriptor: Int32 = 0
        if let path = input.path {
            if FileSystem.isDirectory(path) {
                StandardStream.note("pushmap: \(path): is a directory, not a file")
                throw ExitStatus.invalid
            }
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            if descriptor < 0 {
                StandardStream.note("pushmap: \(path): \(String(cString: strerror(errno)))")
                throw ExitStatus.invalid
            }
        }
        defer { if descriptor > 0 { close(descriptor) } }
        let translator = try scriptOptions.translator(format: .human, now: clock.now)
        let platforms = platform.platforms
        let workers = jobs ?? Translator.cores
        var reader = LineReader(descriptor: descriptor, maxLineBytes: translator.options.maxIntentBytes)
        let progress = Progress(enabled: StandardStream.error.isTerminal)
        var total = 0
        var failed = 0
        let writer = BlockWriter()

        while true {
            var lines: [LineReader.Line] = []
            lines.reserveCapacity(Self.window)
            do {
                while lines.count < Self.window, let line = try reader.next() { lines.append(line) }
            } catch {
                writer.finish() // the lines before the failure are still written
                StandardStream.note("pushmap: \(input.name): \(error.reason)")
                throw ExitStatus.invalid
            }
            if lines.isEmpty { break }
            let outputs = Self.translate(lines, translator: translator, platforms: platforms, forms: requestOptions.forms, workers: workers)
            for output in outputs where !output.ok { failed += 1 }
            total += lines.count
            // Written while the next window is read and translated.
            writer.write(outputs)
            if writer.closed { return } // the reader went away: end quietly
            progress.update(lines: total, failed: failed)
        }
        writer.finish()
        if writer.closed { return }
        progress.finish()
        StandardStream.note("pushmap: batch: \(total) line\(total == 1 ? "" : "s"), \(total - failed) translated, \(failed) failed")
        if failed > 0 { throw ExitStatus.invalid }
    }

    /// One output line.
    typealias Output = TranslationLine.Output

    /// Translates a window of lines on `workers` threads; the outputs keep the lines' order.
    static func translate(
        _ lines: [LineReader.Line], translator: Translator, platforms: [Platform], forms: Set<RequestForm> = [], workers: Int
    ) -> [Output] {
        let results = OutputSlots(count: lines.count)
        let next = Atomic<Int>(0)
        let chunk = 16
        DispatchQueue.concurrentPerform(iterations: min(workers, max(1, (lines.count + chunk - 1) / chunk))) { _ in
            while true {
                let first = next.add(chunk, ordering: .relaxed).oldValue
                if first >= lines.count { return }
                // One state for the chunk: no lock or shared count is touched per line.
                translator.withSession { session in
                    for index in first..<min(first + chunk, lines.count) {
                        let line = lines[index]
                        results.set(index, TranslationLine.translate(
                            line.bytes, number: line.number, overlongLength: line.overlongLength,
                            maxIntentBytes: translator.options.maxIntentBytes, session: session, platforms: platforms, forms: forms))
                    }
                }
            }
        }
        return results.values
    }
}

/// Output slots filled by worker threads, each slot by one thread.
private final class OutputSlots: @unchecked Sendable {
    // @unchecked: each index is written by exactly one worker, and read after all have joined;
    // raw storage, because concurrent access to an array property trips exclusivity checks.
    private let storage: UnsafeMutableBufferPointer<BatchCommand.Output>

    init(count: Int) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: BatchCommand.Output())
    }

    deinit {
        storage.deinitialize()
        storage.deallocate()
    }

    func set(_ index: Int, _ output: BatchCommand.Output) { storage[index] = output }

    var values: [BatchCommand.Output] { Array(storage) }
}

/// Writes windows of output lines to standard output on a thread of its own, in the order
/// given, so that no core waits on the write; at most two windows wait, which bounds memory.
private final class BlockWriter: @unchecked Sendable {
    // @unchecked: the queue serializes the writes; `stopped` is atomic.
    private let queue = DispatchQueue(label: "pushmap.batch.output")
    private let room = DispatchSemaphore(value: 2)
    private let stopped = Atomic<Bool>(false)

    /// Whether a write found standard output closed (EPIPE): nothing more is written.
    var closed: Bool { stopped.load(ordering: .acquiring) }

    func write(_ outputs: [BatchCommand.Output]) {
        room.wait()
        queue.async {
            defer { self.room.signal() }
            guard !self.closed else { return }
            var block: [UInt8] = []
            block.reserveCapacity(outputs.reduce(0) { $0 + $1.bytes.count })
            for output in outputs { block.append(contentsOf: output.bytes) }
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

/// A counter on standard error while it is a terminal.
private final class Progress {
    let enabled: Bool
    private var last: Int64 = 0

    init(enabled: Bool) { self.enabled = enabled }

    func update(lines: Int, failed: Int) {
        guard enabled else { return }
        let now = Int64(time(nil))
        guard now != last else { return }
        last = now
        try? StandardStream.error.write("\rpushmap: \(lines) lines, \(failed) failed")
    }

    func finish() {
        if enabled, last != 0 { try? StandardStream.error.write("\n") }
    }
}
