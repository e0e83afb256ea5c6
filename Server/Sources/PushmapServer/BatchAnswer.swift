internal import Logging
@_spi(Tools) internal import Pushmap
@_spi(Tools) internal import PushmapOutput

/// `/v1/batch`'s lines (through ``LineStream``): each an intent translated as `pushmap batch`
/// writes its line, a chunk's lines spread over the cores as the command line spreads a window.
struct BatchAnswer: LineAnswering {
    let workers: LineWorkers
    let platforms: [Platform]
    let maxLineBytes: Int
    let metrics: ServerMetrics
    let logger: Logger
    var total = 0
    var failed = 0

    mutating func answer(_ lines: [LineSplitter.Line]) -> [UInt8] {
        let started = ContinuousClock.now
        let (platforms, maxLineBytes) = (self.platforms, self.maxLineBytes)
        let results = workers.map(lines) { line, session in
            TranslationLine.translate(
                line.bytes, number: line.number, overlongLength: line.overlongLength, maxIntentBytes: maxLineBytes,
                session: session, platforms: platforms)
        }
        metrics.translated(lines.count, since: started)
        var output: [UInt8] = []
        output.reserveCapacity(results.reduce(0) { $0 + $1.bytes.count })
        for result in results {
            if !result.ok { failed += 1 }
            if result.scriptFailed { metrics.scriptFailed() }
            output.append(contentsOf: result.bytes)
        }
        total += lines.count
        return output
    }

    mutating func end() -> [UInt8] {
        logger.info("batch", metadata: ["lines": "\(total)", "failed": "\(failed)"])
        return []
    }

    mutating func timedOut() -> [UInt8] {
        logger.warning("batch stopped at its time limit", metadata: ["lines": "\(total)"])
        return StreamTimeout.line("the batch took longer than its limit; lines after \(total) were not read")
    }
}
