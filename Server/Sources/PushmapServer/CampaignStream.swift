internal import HTTPTypes
internal import Logging
internal import OpenAPIRuntime
@_spi(Tools) internal import Pushmap
internal import PushmapJSON
@_spi(Tools) internal import PushmapOutput

/// `/v1/campaign`'s streamed answer: one line per recipient line of the body, as
/// `pushmap campaign` writes it, produced as the body's chunks arrive (as ``BatchStream`` does, one
/// chunk and at most one line in memory). The intent line was read before the answer started
/// (``CampaignBody``); recipients are numbered from 1 after it, as the lines of a recipients file.
/// With `check`, only the failed recipients' lines, then the summary as one JSON line.
struct CampaignStream: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>

    let body: CampaignBody
    let settings: CampaignLine.Settings
    let translator: Translator
    let timeLimit: Duration
    let metrics: ServerMetrics
    let logger: Logger

    func makeAsyncIterator() -> Iterator { Iterator(stream: self, rest: body.take()) }

    struct Iterator: AsyncIteratorProtocol {
        let stream: CampaignStream
        /// Nil only for an iteration after the first, which answers nothing (the answer's body
        /// is iterated once).
        var rest: CampaignBody.Rest?
        /// Set when the answer starts to be written: the time limit is the stream's.
        var deadline: ContinuousClock.Instant?
        var summary = CampaignSummary()
        var finished = false

        init(stream: CampaignStream, rest: CampaignBody.Rest?) {
            self.stream = stream
            self.rest = rest
        }

        mutating func next() async throws -> ArraySlice<UInt8>? {
            // Taken out while in use, so that the splitter's buffer is not copied on write.
            guard !finished, var rest = self.rest.take() else { return nil }
            defer { self.rest = rest }
            let deadline = self.deadline ?? ContinuousClock.now + stream.timeLimit
            self.deadline = deadline
            // Recipients already split off with the intent come first.
            var lines = rest.lines
            rest.lines = []
            while true {
                var output = stream.translate(lines, summary: &summary)
                if ContinuousClock.now > deadline {
                    finished = true
                    output.append(contentsOf: timeoutLine())
                    stream.logger.warning("campaign stopped at its time limit", metadata: ["recipients": "\(summary.recipients)"])
                    return output[...]
                }
                if !output.isEmpty { return output[...] }
                guard let chunk = try await rest.chunks.next() else { break }
                lines = rest.splitter.append(chunk)
            }
            finished = true
            var output = rest.splitter.finish().map { stream.translate([$0], summary: &summary) } ?? []
            if stream.settings.errorsOnly {
                JSONWriter(style: .compact).write(summary.json, into: &output)
                output.append(0x0A)
            }
            stream.logger.info(
                "campaign", metadata: ["recipients": "\(summary.recipients)", "translated": "\(summary.translated)", "failed": "\(summary.failed)"])
            return output.isEmpty ? nil : output[...]
        }

        private func timeoutLine() -> [UInt8] {
            StreamTimeout.line("the campaign took longer than its limit; recipients after \(summary.recipients) were not read")
        }
    }

    /// The recipients' lines, in order, on one Lua state; each counted in the summary and the metrics.
    fileprivate func translate(_ lines: [LineSplitter.Line], summary: inout CampaignSummary) -> [UInt8] {
        guard !lines.isEmpty else { return [] }
        var output: [UInt8] = []
        let started = ContinuousClock.now
        translator.withSession { session in
            for line in lines {
                // Body line 1 is the intent: recipient N is body line N + 1.
                let result = CampaignLine.translate(
                    line.bytes, number: line.number - 1, overlongLength: line.overlongLength, settings: settings, session: session)
                summary.add(result)
                metrics.campaignRecipient(result)
                output.append(contentsOf: result.bytes)
            }
        }
        metrics.translated(lines.count, since: started)
        return output
    }
}

/// A campaign's body, split where the intent line ends: the intent is read (and compiled) before
/// the answer starts, so that an intent that does not compile is a 400 and not a line; what
/// follows it is handed to the one ``CampaignStream`` iteration that answers the recipients.
final class CampaignBody: @unchecked Sendable {
    /// The body after the intent line: recipient lines already split off, the splitter with
    /// any partial line, and the chunks still to come.
    struct Rest {
        var lines: [LineSplitter.Line]
        var splitter: LineSplitter
        var chunks: HTTPBody.AsyncIterator
    }

    let intent: [UInt8]
    /// Set once here and taken once by the stream's single iteration (the answer's writer), never
    /// shared between tasks at the same time: hence unchecked.
    private var rest: Rest?

    /// Reads `body` up to the end of its first line. 400 when there is no intent line, 413 when
    /// the line is over `maxLineBytes` (which is also each recipient line's limit).
    init(_ body: HTTPBody, maxLineBytes: Int) async throws {
        var splitter = LineSplitter(maxLineBytes: maxLineBytes)
        var chunks = body.makeAsyncIterator()
        var lines: [LineSplitter.Line] = []
        while lines.isEmpty, let chunk = try await chunks.next() { lines = splitter.append(chunk) }
        if lines.isEmpty, let last = splitter.finish() { lines = [last] }
        guard !lines.isEmpty else { throw APIError.badRequest("a campaign needs a body: the intent on the first line, then one recipient per line") }
        let first = lines.removeFirst()
        if let length = first.overlongLength {
            throw APIError(.contentTooLarge, kind: "too large", message: "the intent line of \(length) bytes exceeds the limit of \(maxLineBytes) bytes")
        }
        guard first.bytes.contains(where: { !Self.isSpace($0) }) else {
            throw APIError.badRequest("the first line of a campaign's body is its intent, and it is empty")
        }
        intent = first.bytes
        rest = Rest(lines: lines, splitter: splitter, chunks: chunks)
    }

    /// What follows the intent, to the first taker: the stream is iterated once (`.single`).
    fileprivate func take() -> Rest? {
        defer { rest = nil }
        return rest
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
}
