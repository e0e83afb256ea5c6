internal import Logging
internal import OpenAPIRuntime
@_spi(Tools) internal import Pushmap
internal import PushmapJSON
@_spi(Tools) internal import PushmapOutput

/// A streamed answer, `/v1/batch`'s: the output lines of an NDJSON body, produced as the body's
/// chunks arrive and handed on before the next chunk is read, so memory holds one chunk and at
/// most one line in the making (a line over the limit is counted, not kept), whatever the body's
/// size. The answer's writer pulls from it, so a slow reader slows the reading of the body.
struct BatchStream: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>

    let body: HTTPBody
    let translator: Translator
    let platforms: [Platform]
    let maxLineBytes: Int
    let timeLimit: Duration
    let metrics: ServerMetrics
    let logger: Logger

    func makeAsyncIterator() -> Iterator { Iterator(stream: self, chunks: body.makeAsyncIterator()) }

    struct Iterator: AsyncIteratorProtocol {
        let stream: BatchStream
        var chunks: HTTPBody.AsyncIterator
        /// Set when the answer starts to be written: the time limit is the stream's.
        var deadline: ContinuousClock.Instant?
        var splitter: LineSplitter
        var total = 0
        var failed = 0
        var finished = false

        init(stream: BatchStream, chunks: HTTPBody.AsyncIterator) {
            self.stream = stream
            self.chunks = chunks
            splitter = LineSplitter(maxLineBytes: stream.maxLineBytes)
        }

        mutating func next() async throws -> ArraySlice<UInt8>? {
            guard !finished else { return nil }
            let deadline = self.deadline ?? ContinuousClock.now + stream.timeLimit
            self.deadline = deadline
            while let chunk = try await chunks.next() {
                let lines = splitter.append(chunk)
                var output: [UInt8] = []
                if !lines.isEmpty {
                    output = stream.translate(lines, failed: &failed)
                    total += lines.count
                }
                if ContinuousClock.now > deadline {
                    finished = true
                    output.append(contentsOf: timeoutLine())
                    stream.logger.warning("batch stopped at its time limit", metadata: ["lines": "\(total)"])
                    return output[...]
                }
                if !output.isEmpty { return output[...] }
            }
            finished = true
            var output: [UInt8] = []
            if let last = splitter.finish() {
                total += 1
                output = stream.translate([last], failed: &failed)
            }
            stream.logger.info("batch", metadata: ["lines": "\(total)", "failed": "\(failed)"])
            return output.isEmpty ? nil : output[...]
        }

        private func timeoutLine() -> [UInt8] {
            StreamTimeout.line("the batch took longer than its limit; lines after \(total) were not read")
        }
    }

    /// The lines' output, in order, on one Lua state.
    fileprivate func translate(_ lines: [LineSplitter.Line], failed: inout Int) -> [UInt8] {
        var output: [UInt8] = []
        var failures = 0
        var scriptFailures = 0
        let started = ContinuousClock.now
        translator.withSession { session in
            for line in lines {
                let result = TranslationLine.translate(
                    line.bytes, number: line.number, overlongLength: line.overlongLength, maxIntentBytes: maxLineBytes,
                    session: session, platforms: platforms)
                if !result.ok { failures += 1 }
                if result.scriptFailed { scriptFailures += 1 }
                output.append(contentsOf: result.bytes)
            }
        }
        metrics.translated(lines.count, since: started)
        for _ in 0..<scriptFailures { metrics.scriptFailed() }
        failed += failures
        return output
    }
}

/// Splits a stream of chunks into lines as `pushmap batch` reads a file: without the newline or
/// a trailing CR, numbered from 1, a line over the limit dropped as it streams past but counted.
struct LineSplitter {
    struct Line {
        var number: Int
        var bytes: [UInt8]
        var overlongLength: Int?
    }

    let maxLineBytes: Int
    private var pending: [UInt8] = []
    /// Bytes of the current line already dropped; over 0 means the line is too long.
    private var dropped = 0
    private var number = 0

    init(maxLineBytes: Int) { self.maxLineBytes = maxLineBytes }

    /// The lines the chunk completes.
    mutating func append(_ chunk: ArraySlice<UInt8>) -> [Line] {
        var lines: [Line] = []
        chunk.withUnsafeBytes { raw in
            var start = 0
            while start < raw.count {
                guard let newline = raw[start...].firstIndex(of: 0x0A) else {
                    keep(raw[start...])
                    return
                }
                keep(raw[start..<newline])
                lines.append(endLine())
                start = newline + 1
            }
        }
        return lines
    }

    /// The last line when the body does not end with a newline.
    mutating func finish() -> Line? {
        guard !pending.isEmpty || dropped > 0 else { return nil }
        return endLine()
    }

    private mutating func keep(_ bytes: Slice<UnsafeRawBufferPointer>) {
        if dropped > 0 || pending.count + bytes.count > maxLineBytes {
            dropped += pending.count + bytes.count
            pending.removeAll(keepingCapacity: false)
        } else {
            pending.append(contentsOf: bytes)
        }
    }

    private mutating func endLine() -> Line {
        number += 1
        defer {
            pending.removeAll(keepingCapacity: true)
            dropped = 0
        }
        if dropped > 0 { return Line(number: number, bytes: [], overlongLength: dropped) }
        var bytes = pending
        if bytes.last == 0x0D { bytes.removeLast() }
        return Line(number: number, bytes: bytes, overlongLength: nil)
    }
}
