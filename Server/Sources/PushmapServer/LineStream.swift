internal import OpenAPIRuntime

/// What a streamed answer does with a body's lines (``LineStream``): `/v1/batch`'s translations,
/// `/v1/campaign`'s recipients.
protocol LineAnswering: Sendable {
    /// The output of `lines`, in order.
    mutating func answer(_ lines: [LineSplitter.Line]) -> [UInt8]
    /// What the answer ends with once every line is answered.
    mutating func end() -> [UInt8]
    /// The line an answer that ran out of its time limit ends with, saying how far it got.
    mutating func timedOut() -> [UInt8]
}

/// A body's lines still to answer: those already split off, the splitter with any partial line,
/// and the chunks still to come.
struct BodyLines {
    var lines: [LineSplitter.Line]
    var splitter: LineSplitter
    var chunks: HTTPBody.AsyncIterator

    /// The lines of `body`, none read yet.
    init(_ body: HTTPBody, maxLineBytes: Int) {
        self.init(lines: [], splitter: LineSplitter(maxLineBytes: maxLineBytes), chunks: body.makeAsyncIterator())
    }

    init(lines: [LineSplitter.Line], splitter: LineSplitter, chunks: HTTPBody.AsyncIterator) {
        self.lines = lines
        self.splitter = splitter
        self.chunks = chunks
    }
}

/// A streamed answer of NDJSON lines: the body's lines answered as its chunks arrive, each
/// chunk's output handed on before the next chunk is read, so memory holds one chunk and at most
/// one line in the making (a line over the limit is counted, not kept), whatever the body's size.
/// The answer's writer pulls from it, so a slow reader slows the reading of the body. The time
/// limit runs from the first pull; past it, the answer ends with ``LineAnswering/timedOut()``.
struct LineStream<Answering: LineAnswering>: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>

    /// The lines, to the one iteration that answers them (the body is iterated once, `.single`).
    let lines: @Sendable () -> BodyLines?
    let answering: Answering
    let timeLimit: Duration

    func makeAsyncIterator() -> Iterator { Iterator(lines: lines(), answering: answering, timeLimit: timeLimit) }

    struct Iterator: AsyncIteratorProtocol {
        /// Nil once the answer is over, or for an iteration after the first, which answers nothing.
        var lines: BodyLines?
        var answering: Answering
        let timeLimit: Duration
        var deadline: ContinuousClock.Instant?

        mutating func next() async throws -> ArraySlice<UInt8>? {
            // Taken out while in use, so that the splitter's buffer is not copied on write.
            guard var body = lines.take() else { return nil }
            let deadline = self.deadline ?? ContinuousClock.now + timeLimit
            self.deadline = deadline
            var ready = body.lines
            body.lines = []
            while true {
                var output = ready.isEmpty ? [] : answering.answer(ready)
                if ContinuousClock.now > deadline {
                    output.append(contentsOf: answering.timedOut())
                    return output[...]
                }
                if !output.isEmpty {
                    lines = body
                    return output[...]
                }
                guard let chunk = try await body.chunks.next() else { break }
                ready = body.splitter.append(chunk)
            }
            var output = body.splitter.finish().map { answering.answer([$0]) } ?? []
            output.append(contentsOf: answering.end())
            return output.isEmpty ? nil : output[...]
        }
    }
}
