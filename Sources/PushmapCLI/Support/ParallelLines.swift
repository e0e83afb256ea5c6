@_spi(Tools) internal import Pushmap
@_spi(Tools) internal import PushmapOutput
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// What a line of `batch` or `campaign` output is: its bytes and whether it translated.
protocol LineOutput: Sendable {
    var bytes: [UInt8] { get }
    var ok: Bool { get }
}

extension TranslationLine.Output: LineOutput {}
extension CampaignLine.Output: LineOutput {}

/// NDJSON in, NDJSON out, for `batch` and `campaign`: lines read in windows, each window
/// translated on worker threads, and written in input order while the next is translated.
struct ParallelLines {
    /// Lines translated between two writes; bounds memory and keeps order cheap.
    static let window = 4096
    /// And the bytes of a window's lines: 4,096 lines of up to 1 MiB each held 4 GiB, memory
    /// growing with the input (the thirty-seventh audit, F5). 16 MiB is 16 lines at the line
    /// limit, still a line for each worker, and 60,000 of the basic seed.
    static let windowBytes = 16 << 20

    /// The worker threads each window is translated on (shared with the server's batch route).
    let workers: LineWorkers

    init(translator: Translator, workers: Int) {
        self.workers = LineWorkers(translator: translator, workers: workers)
    }

    /// Runs `each` over every line of `input`, handing each window's outputs to `tally` before
    /// they are written; the progress on a terminal counts the lines as `counting`. False when standard output closed (the reader went away).
    /// - Throws: ``ExitStatus/invalid`` when the input cannot be opened or read (said on
    ///   standard error).
    func run<Output: LineOutput>(
        _ input: InputFile, maxLineBytes: Int, counting: StaticString = "lines", tally: ([Output]) -> Void,
        _ each: @Sendable (LineReader.Line, borrowing Translator.Session) -> Output
    ) throws -> Bool {
        let descriptor = try Self.open(input)
        defer { if descriptor > 0 { close(descriptor) } }
        var reader = LineReader(descriptor: descriptor, maxLineBytes: maxLineBytes)
        // Not on the terminal the output lines go to: they would run on from the count.
        let progress = LineProgress(enabled: StandardStream.error.isTerminal && !StandardStream.output.isTerminal, counting: counting)
        var total = 0
        var failed = 0
        let writer = BlockWriter()
        while true {
            var lines: [LineReader.Line] = []
            lines.reserveCapacity(Self.window)
            do {
                var bytes = 0
                // A window is what has come: past its first line, it ends where a read would wait.
                while lines.count < Self.window, bytes < Self.windowBytes, lines.isEmpty || reader.hasLineReady(), let line = try reader.next() {
                    bytes += line.bytes.count
                    lines.append(line)
                }
            } catch {
                writer.finish() // the lines before the failure are still written
                StandardStream.note("pushmap: \(FileError(path: input.name, reason: error.reason))")
                throw ExitStatus.invalid
            }
            if lines.isEmpty { break }
            let outputs = workers.map(lines, each)
            for output in outputs where !output.ok { failed += 1 }
            total += lines.count
            tally(outputs)
            // Written while the next window is read and translated.
            writer.write(outputs)
            if writer.closed { return false }
            progress.update(lines: total, failed: failed)
        }
        writer.finish()
        if writer.closed { return false }
        progress.finish()
        return true
    }

    /// The input's file descriptor: 0 for standard input.
    static func open(_ input: InputFile) throws -> Int32 {
        guard let path = input.path else { return 0 }
        if FileSystem.isDirectory(path) {
            StandardStream.note("pushmap: \(FileError(path: path, reason: "is a directory, not a file"))")
            throw ExitStatus.invalid
        }
        let descriptor = openForReading(path)
        if descriptor < 0 {
            StandardStream.note("pushmap: \(FileError(path: path, reason: FileSystem.reason(errno)))")
            throw ExitStatus.invalid
        }
        return descriptor
    }
}

private func openForReading(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_CLOEXEC)
}
