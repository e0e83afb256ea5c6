internal import Logging
@_spi(Tools) internal import Pushmap
@_spi(Tools) internal import PushmapOutput

/// `/v1/batch`'s lines (through ``LineStream``): each an intent translated as `pushmap batch`
/// writes its line, on one Lua state per chunk.
struct BatchAnswer: LineAnswering {
    let translator: Translator
    let platforms: [Platform]
    let maxLineBytes: Int
    let metrics: ServerMetrics
    let logger: Logger
    var total = 0
    var failed = 0

    mutating func answer(_ lines: [LineSplitter.Line]) -> [UInt8] {
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
        total += lines.count
        failed += failures
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
