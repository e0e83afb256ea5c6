internal import Foundation
internal import OpenAPIRuntime
@testable internal import PushmapServer
internal import Testing

/// ``LineStream`` on its own, with lines whose translation takes as long as they say: the order
/// of its output when runs translate at once and end out of order. Serialized: each test's runs
/// take a Dispatch thread each.
@Suite("Line stream", .serialized)
struct LineStreamTests {
    /// Each line is a number of milliseconds: translating it sleeps that long and answers the line.
    struct Sleeping: LineAnswering {
        func translate(_ lines: [LineSplitter.Line]) -> [UInt8] {
            var output: [UInt8] = []
            for line in lines {
                let milliseconds = Int(String(decoding: line.bytes, as: UTF8.self)) ?? 0
                usleep(UInt32(milliseconds * 1_000))
                output += line.bytes + [0x0A]
            }
            return output
        }
        mutating func output(_ translated: [UInt8]) -> [UInt8] { translated }
        mutating func end() -> [UInt8] { Array("end\n".utf8) }
        mutating func timedOut() -> [UInt8] { Array("timed out\n".utf8) }
        mutating func unreadable(_ error: any Error) -> [UInt8] { Array("unreadable\n".utf8) }
    }

    /// The stream's answer to a body of `chunks`, all sent at once; the stream reads each only
    /// once it has started a run of the lines before. Read on the event loops, as the server reads
    /// it: the runs' sleeps hold Dispatch's threads, which Swift's own pool would wait for.
    static func answer(chunks: [String], ends: Bool, timeLimit: Duration) async throws -> String {
        let (stream, sender) = AsyncStream<HTTPBody.ByteChunk>.makeStream()
        for chunk in chunks { sender.yield(ArraySlice(chunk.utf8)) }
        if ends { sender.finish() }
        defer { sender.finish() }
        let body = HTTPBody(stream, length: .unknown, iterationBehavior: .single)
        let ahead = BodyLinesAhead(BodyLines(lines: [], splitter: LineSplitter(maxLineBytes: 1_000), chunks: body.makeAsyncIterator()))
        let lines = LineStream(lines: { ahead.take() }, answering: Sleeping(), timeLimit: timeLimit)
        let answer = try await Task(executorPreference: EventLoopTaskExecutor.shared) {
            var answer: [UInt8] = []
            for try await piece in lines { answer += piece }
            return answer
        }.value
        return String(decoding: answer, as: UTF8.self)
    }

    @Test("a run that ends before the one started ahead of it is written after it: the lines' order, whatever the runs' speed")
    func outputKeepsTheLinesOrder() async throws {
        // A run starts on the first chunk's line, which translates for 400 ms; the stream reads
        // the second chunk only then, so its lines are a run of their own, done long before.
        let answer = try await Self.answer(chunks: ["400\n", "1\n2\n"], ends: true, timeLimit: .seconds(30))
        #expect(answer == "400\n1\n2\nend\n")
    }

    @Test("past the time limit, every run translating is waited for and written in order, then the time-out line")
    func timeLimitWritesEveryRun() async throws {
        // Two runs translate when the limit comes (the first for 400 ms, the second for 300 ms),
        // and the body has not ended.
        let answer = try await Self.answer(chunks: ["400\n", "300\n"], ends: false, timeLimit: .milliseconds(200))
        #expect(answer == "400\n300\ntimed out\n")
    }
}

/// ``LineSplitter`` on its own, as the batch and campaign routes split a body.
@Suite("Line splitter")
struct LineSplitterTests {
    /// Source: the thirty-third audit, F8: a CR LF line of exactly the limit was refused, the CR
    /// counted, where `pushmap batch` and the rest of the server read a line without its CR.
    @Test("a line of exactly the limit is kept whether it ends in LF or CR LF, in one chunk or byte by byte; one byte more is not")
    func lineOfTheLimit() {
        let exact = String(repeating: "x", count: 8), over = String(repeating: "y", count: 9)
        let body = Array((exact + "\n" + exact + "\r\n" + over + "\r\n" + exact + "\r").utf8)
        for chunking in [body.count, 1] {
            var splitter = LineSplitter(maxLineBytes: 8)
            var lines: [LineSplitter.Line] = []
            for start in stride(from: 0, to: body.count, by: chunking) {
                lines += splitter.append(body[start..<min(start + chunking, body.count)])
            }
            if let last = splitter.finish() { lines.append(last) }
            #expect(lines.map { String(decoding: $0.bytes, as: UTF8.self) } == [exact, exact, "", exact], "chunks of \(chunking)")
            #expect(lines.map(\.overlongLength) == [nil, nil, 9, nil], "chunks of \(chunking)")
        }
    }
}
