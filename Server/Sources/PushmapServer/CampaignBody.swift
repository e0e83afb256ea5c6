internal import HTTPTypes
internal import OpenAPIRuntime

/// A campaign's body, split where the intent line ends: the intent is read (and compiled) before
/// the answer starts, so that an intent that does not compile is a 400 and not a line; the lines
/// that follow it go to the one ``LineStream`` iteration that answers the recipients.
final class CampaignBody: Sendable {
    let intent: [UInt8]
    /// The recipients' lines, for the stream's single iteration (the answer's writer).
    let rest: BodyLinesAhead

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
        rest = BodyLinesAhead(BodyLines(lines: lines, splitter: splitter, chunks: chunks))
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
}
