internal import Dispatch
internal import OpenAPIRuntime

/// What a streamed answer does with a body's lines (``LineStream``): `/v1/batch`'s translations,
/// `/v1/campaign`'s recipients. The translating is apart from the counting so that it can run on
/// worker threads while the stream reads and writes.
protocol LineAnswering: Sendable {
    /// Lines translated, not yet counted into the answer.
    associatedtype Translated: Sendable
    /// `lines` translated, in order; run off the request's task, so it changes nothing of the answer.
    func translate(_ lines: [LineSplitter.Line]) -> Translated
    /// The output of translated lines, in order, counted into the answer's tallies.
    mutating func output(_ translated: Translated) -> [UInt8]
    /// What the answer ends with once every line is answered.
    mutating func end() -> [UInt8]
    /// The line an answer that ran out of its time limit ends with, saying how far it got.
    mutating func timedOut() -> [UInt8]
    /// The line an answer ends with when its body could not be read on (a bad chunk), saying
    /// how far it got; the lines read before are answered first.
    mutating func unreadable(_ error: any Error) -> [UInt8]
}

/// A body's lines still to answer: those already split off, the splitter with any partial line,
/// and the chunks still to come.
struct BodyLines {
    var lines: [LineSplitter.Line]
    var splitter: LineSplitter
    var chunks: HTTPBody.AsyncIterator

    init(lines: [LineSplitter.Line], splitter: LineSplitter, chunks: HTTPBody.AsyncIterator) {
        self.lines = lines
        self.splitter = splitter
        self.chunks = chunks
    }
}

/// Body lines a route read before its answer started (a campaign's intent line, a batch's first
/// chunk), handed to the one iteration that answers them. Set once and taken once, never by two
/// tasks at a time: hence unchecked (the body's iterator is not Sendable).
final class BodyLinesAhead: @unchecked Sendable {
    private var lines: BodyLines?

    init(_ lines: BodyLines) { self.lines = lines }

    /// The lines, to the first taker.
    func take() -> BodyLines? {
        defer { lines = nil }
        return lines
    }
}

/// A streamed answer of NDJSON lines that reads, translates and writes at once, as `pushmap
/// batch` does: while runs of lines translate on worker threads, the next chunks of the body
/// are read and the last run's output is written. Translated a chunk at a time between a read
/// and a write, the workers sat idle while the request's thread read and wrote, and the route
/// ran at 67% of the command line's rate (scripts/bench.d/server.sh).
///
/// Memory stays bounded whatever the body's size: ``runsAtOnce`` runs translating, the lines of at most
/// ``chunksAhead`` chunks (reading stops at ``linesAhead`` lines) waiting for it, one output
/// being written, and at most one line in the making (a line over the limit is counted, not
/// kept). The answer's writer pulls from the stream and the body is read ahead only that far,
/// so a slow reader still slows the reading of the body. An output is handed on as soon as it
/// is translated, never held back for the next chunk: a client that sends a line and waits for
/// its answer gets it. The time limit runs from the first pull; past it, the answer ends with
/// ``LineAnswering/timedOut()``.
struct LineStream<Answering: LineAnswering>: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>

    /// Lines that may wait while a run translates: the next run. Between one run and the next
    /// the workers wait about a quarter of a millisecond (12 ms over the 50 runs of a
    /// 50,000-line batch), a fifth of the time with runs of one chunk (60 to 80 seed intents)
    /// and a few percent with runs of 500 or so. Longer runs hold more memory for little more
    /// speed: after 50,000-line batches the server held 43 MiB with runs of 512, 47 MiB with
    /// 1,024 and 59 MiB with 2,048 (33 MiB a chunk at a time). It also keeps a body of short
    /// lines (recipients, or lines each answered with an error) from making runs of tens of
    /// thousands.
    static var linesAhead: Int { 512 }
    /// Chunks that may wait, whatever their lines: 512 lines at the limit would be half a
    /// gigabyte, 8 chunks of NIO's reads half a megabyte at most.
    static var chunksAhead: Int { 8 }
    /// Runs translating at once, their outputs written in the order they started. With one, the
    /// cores idled at the end of each run (one worker done before the other) and until the next
    /// began, which waits for the writer to pull: 12% of the cores over a 50,000-line batch, and
    /// the route ran at 76% of the command line's rate. Two overlap each run's end with the next
    /// one's start: 84% (the best of six 50,000-line runs each, 0.70 s against 0.63 s). Three
    /// were no faster, and each run holds its lines and a Lua state for each of its workers.
    static var runsAtOnce: Int { 2 }

    /// The lines, to the one iteration that answers them (the body is iterated once, `.single`).
    let lines: @Sendable () -> BodyLines?
    let answering: Answering
    let timeLimit: Duration
    /// The request, as the handler made the stream: the body is written after the handler has
    /// returned, outside the request's binding, and its translations' log lines name it.
    let scope = RequestScope.current

    func makeAsyncIterator() -> Iterator { Iterator(lines: lines(), answering: answering, timeLimit: timeLimit, scope: scope) }

    /// What the iteration waits for: a chunk read (nil at the body's end), or a run translated.
    enum Event: Sendable {
        case chunk(ArraySlice<UInt8>?)
        case readFailed(any Error)
        /// A run translated: its number in the order runs started, and its lines.
        case translated(Int, Answering.Translated)
        /// The time limit has come: a client that sends nothing more must not hold the answer open.
        case deadline
    }

    struct Iterator: AsyncIteratorProtocol {
        var answering: Answering
        let timeLimit: Duration
        var deadline: ContinuousClock.Instant?
        /// Nil for an iteration after the first, which answers nothing.
        let chunks: BodyChunks?
        var splitter: LineSplitter
        /// Lines read, waiting for a run to end.
        var waiting: [LineSplitter.Line]
        /// Chunks that brought lines to `waiting`.
        var waitingChunks = 0
        /// The chunk being read, in a task of its own, so that a finished run is handed on without
        /// waiting for a client that has not sent more.
        var reading: Task<Void, Never>?
        /// Wakes the iteration at the deadline, whether or not anything else happens by then.
        var timer: Task<Void, Never>?
        /// Runs started and not yet back.
        var translating = 0
        /// The number the next run started gets, and the number of the run whose output is next.
        var runsStarted = 0
        var runsWritten = 0
        /// Runs back before a run started earlier: held until it is back too.
        var early: [Int: Answering.Translated] = [:]
        var bodyEnded = false
        var over = false
        /// Why the body could not be read on, once it could not.
        var readFailure: (any Error)?
        /// Where the reads, the runs and the timer say they are done, one event each.
        var events: AsyncStream<Event>.Iterator
        let done: AsyncStream<Event>.Continuation

        let scope: RequestScope

        init(lines: BodyLines?, answering: Answering, timeLimit: Duration, scope: RequestScope) {
            self.scope = scope
            self.answering = answering
            self.timeLimit = timeLimit
            chunks = lines.map { BodyChunks($0.chunks) }
            splitter = lines?.splitter ?? LineSplitter(maxLineBytes: 0)
            waiting = lines?.lines ?? []
            let (stream, continuation) = AsyncStream<Event>.makeStream()
            events = stream.makeAsyncIterator()
            done = continuation
        }

        mutating func next() async throws -> ArraySlice<UInt8>? {
            guard !over, let chunks else { return nil }
            let deadline = self.deadline ?? ContinuousClock.now + timeLimit
            self.deadline = deadline
            if timer == nil {
                let done = self.done
                timer = Task {
                    guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
                    done.yield(.deadline)
                }
            }
            while true {
                start(chunks)
                if translating == 0 && reading == nil {
                    over = true
                    timer?.cancel()
                    let end = readFailure.map { answering.unreadable($0) } ?? answering.end()
                    return end.isEmpty ? nil : end[...]
                }
                // Nil only when the answer's task is cancelled (the continuation is held here).
                guard let event = await events.next() else { return nil }
                var output: [UInt8] = []
                switch event {
                case .chunk(let chunk?):
                    reading = nil
                    waiting.append(contentsOf: splitter.append(chunk))
                    if !waiting.isEmpty { waitingChunks += 1 }
                case .chunk(nil):
                    reading = nil
                    bodyEnded = true
                    if let last = splitter.finish() { waiting.append(last) }
                case .readFailed(let error):
                    // The lines read so far are answered, the partial one dropped, and the
                    // answer ends with a line saying why: a 200 already went, so the status
                    // cannot (a bad chunk gave a cut stream, lines read before it lost).
                    reading = nil
                    bodyEnded = true
                    readFailure = error
                case .translated(let run, let translated):
                    translating -= 1
                    output = written(run, translated)
                case .deadline:
                    break
                }
                if ContinuousClock.now >= deadline {
                    output.append(contentsOf: await stop())
                    return output[...]
                }
                if !output.isEmpty {
                    // The next run translates while the writer writes this one.
                    start(chunks)
                    return output[...]
                }
            }
        }

        /// Starts a run of the waiting lines when fewer than ``runsAtOnce`` translate, and a read
        /// when none is under way and few enough chunks wait.
        private mutating func start(_ chunks: BodyChunks) {
            if translating < LineStream.runsAtOnce && !waiting.isEmpty {
                translating += 1
                let (lines, answering, done, run) = (waiting, self.answering, self.done, runsStarted)
                runsStarted += 1
                waiting = []
                waitingChunks = 0
                // On Dispatch's threads: LineWorkers blocks the thread it is called on until the
                // run is done, which on the request's event loop would stop its reads and writes.
                // The request bound there too, for the log lines of its translations.
                let scope = self.scope
                DispatchQueue.global().async {
                    done.yield(.translated(run, scope.bound { answering.translate(lines) }))
                }
            }
            if reading == nil && !bodyEnded && waitingChunks < LineStream.chunksAhead && waiting.count < LineStream.linesAhead {
                let done = self.done
                // On the event loops as the request is (an unstructured task inherits no executor preference).
                reading = Task(executorPreference: EventLoopTaskExecutor.shared) {
                    do {
                        done.yield(.chunk(try await chunks.next()))
                    } catch {
                        done.yield(.readFailed(error))
                    }
                }
            }
        }

        /// The output of every run back whose turn has come, in the order the runs started.
        private mutating func written(_ run: Int, _ translated: Answering.Translated) -> [UInt8] {
            guard run == runsWritten else {
                early[run] = translated
                return []
            }
            var output = answering.output(translated)
            runsWritten += 1
            while let next = early.removeValue(forKey: runsWritten) {
                output.append(contentsOf: answering.output(next))
                runsWritten += 1
            }
            return output
        }

        /// The end of an answer past its time limit: the runs translating are waited for and
        /// written, the read under way cancelled and waited for (so that nothing reads the body
        /// once the answer is over), then the time-out line.
        private mutating func stop() async -> [UInt8] {
            over = true
            timer?.cancel()
            if let reading {
                reading.cancel()
                await reading.value
            }
            var output: [UInt8] = []
            while translating > 0, let event = await events.next() {
                if case .translated(let run, let translated) = event {
                    translating -= 1
                    output.append(contentsOf: written(run, translated))
                }
            }
            output.append(contentsOf: answering.timedOut())
            return output
        }
    }
}
