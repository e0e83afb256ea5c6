internal import ArgumentParser
internal import Dispatch
internal import Pushmap
internal import PushmapJSON
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

    @Option(name: .long, help: "Worker threads; the number of cores by default.")
    var jobs: Int?

    @Argument(help: ArgumentHelp("The NDJSON file; - or nothing for standard input.", valueName: "file"))
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
        let translator = try scriptOptions.translator(format: .human)
        let platforms = platform.platforms
        let workers = jobs ?? Translator.cores
        var reader = LineReader(descriptor: descriptor, maxLineBytes: translator.options.maxIntentBytes)
        let progress = Progress(enabled: StandardStream.error.isTerminal)
        var total = 0
        var failed = 0

        while true {
            var lines: [LineReader.Line] = []
            lines.reserveCapacity(Self.window)
            do {
                while lines.count < Self.window, let line = try reader.next() { lines.append(line) }
            } catch {
                StandardStream.note("pushmap: \(input.name): \(error.reason)")
                throw ExitStatus.invalid
            }
            if lines.isEmpty { break }
            let outputs = Self.translate(lines, translator: translator, platforms: platforms, workers: workers)
            var block: [UInt8] = []
            block.reserveCapacity(outputs.reduce(0) { $0 + $1.bytes.count })
            for output in outputs {
                block.append(contentsOf: output.bytes)
                if !output.ok { failed += 1 }
            }
            total += lines.count
            do {
                try StandardStream.output.write(block)
            } catch {
                return  // the reader went away: end quietly
            }
            progress.update(lines: total, failed: failed)
        }
        progress.finish()
        StandardStream.note("pushmap: batch: \(total) line\(total == 1 ? "" : "s"), \(total - failed) translated, \(failed) failed")
        if failed > 0 { throw ExitStatus.invalid }
    }

    /// One output line.
    struct Output: Sendable {
        var bytes: [UInt8] = []
        var ok = true
    }

    /// Translates a window of lines on `workers` threads; the outputs keep the lines' order.
    static func translate(_ lines: [LineReader.Line], translator: Translator, platforms: [Platform], workers: Int) -> [Output] {
        let results = OutputSlots(count: lines.count)
        let next = Atomic<Int>(0)
        let chunk = 16
        DispatchQueue.concurrentPerform(iterations: min(workers, max(1, (lines.count + chunk - 1) / chunk))) { _ in
            while true {
                let first = next.add(chunk, ordering: .relaxed).oldValue
                if first >= lines.count { return }
                for index in first..<min(first + chunk, lines.count) {
                    results.set(index, translateLine(lines[index], translator: translator, platforms: platforms))
                }
            }
        }
        return results.values
    }

    static func translateLine(_ line: LineReader.Line, translator: Translator, platforms: [Platform]) -> Output {
        var bytes = Array("{\"line\":\(line.number),".utf8)
        func failure(_ error: JSONValue) -> Output {
            JSONWriter(style: .compact).write(error, into: &bytes)
            bytes.append(contentsOf: Array("}\n".utf8))
            return Output(bytes: bytes, ok: false)
        }
        func errorObject(_ kind: String, _ diagnostics: [Diagnostic], _ scriptError: ScriptError? = nil) -> JSONValue {
            var object: JSONObject = ["kind": .string(kind), "diagnostics": .array(diagnostics.map(DiagnosticReport.json))]
            if let scriptError { object["scriptError"] = DiagnosticReport.json(scriptError) }
            return .object(object)
        }
        bytes.append(contentsOf: Array("\"error\":".utf8))
        if let length = line.overlongLength {
            let message = "a line of \(length) bytes exceeds the limit of \(translator.options.maxIntentBytes) bytes"
            return failure(errorObject("invalid intent", [.error("$", "too-large", message)]))
        }
        if line.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
            return failure(errorObject("invalid intent", [.error("$", "empty-line", "empty line: expected a JSON intent")]))
        }
        do {
            let translation = try translator.translate(line.bytes, platforms: platforms)
            bytes.removeLast("\"error\":".utf8.count)
            for (position, platform) in platforms.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes.append(contentsOf: Array("\"\(platform.name)\":".utf8))
                bytes.append(contentsOf: translation.bytes(for: platform, style: .compact))
            }
            if !translation.diagnostics.isEmpty {
                bytes.append(contentsOf: Array(",\"warnings\":".utf8))
                DiagnosticReport.write(translation.diagnostics, into: &bytes)
            }
            bytes.append(contentsOf: Array("}\n".utf8))
            return Output(bytes: bytes, ok: true)
        } catch {
            return failure(errorObject(error.kind.name, error.diagnostics, error.scriptError))
        }
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
