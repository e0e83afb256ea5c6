internal import Logging
@_spi(Tools) internal import Pushmap
@_spi(Tools) internal import PushmapOutput

/// `/v1/batch`'s lines (through ``LineStream``): each an intent translated as `pushmap batch`
/// writes its line, a run's lines spread over the cores as the command line spreads a window.
struct BatchAnswer: LineAnswering {
    let workers: LineWorkers
    let platforms: [Platform]
    /// What each line writes beyond its payloads (`?request=`, `?fcmApns=`).
    let forms: Set<RequestForm>
    let maxLineBytes: Int
    let metrics: ServerMetrics
    let logger: Logger
    var total = 0
    var failed = 0

    /// A run's lines, joined on the worker's thread rather than the request's.
    struct Translated: Sendable {
        var bytes: [UInt8]
        var lines: Int
        var failed: Int
    }

    func translate(_ lines: [LineSplitter.Line]) -> Translated {
        let started = ContinuousClock.now
        let (platforms, forms, maxLineBytes) = (self.platforms, self.forms, self.maxLineBytes)
        // The request, bound again on each worker thread, so that a script's print names it.
        let scope = RequestScope.current
        let results = workers.map(lines) { line, session in
            scope.bound {
                TranslationLine.translate(
                    line.bytes, number: line.number, overlongLength: line.overlongLength, maxIntentBytes: maxLineBytes,
                    session: session, platforms: platforms, forms: forms)
            }
        }
        metrics.translated(lines.count, since: started)
        var translated = Translated(bytes: [], lines: lines.count, failed: 0)
        translated.bytes.reserveCapacity(results.reduce(0) { $0 + $1.bytes.count })
        for result in results {
            if !result.ok { translated.failed += 1 }
            if result.scriptFailed { metrics.scriptFailed() }
            translated.bytes.append(contentsOf: result.bytes)
        }
        return translated
    }

    mutating func output(_ translated: Translated) -> [UInt8] {
        total += translated.lines
        failed += translated.failed
        return translated.bytes
    }

    mutating func end() -> [UInt8] {
        logger.info("batch", metadata: ["lines": "\(total)", "failed": "\(failed)"])
        return []
    }

    mutating func unreadable(_ error: any Error) -> [UInt8] {
        logger.warning("batch body unreadable", metadata: ["lines": "\(total)", "error": "\(error)"])
        return StreamStop.line("\(StreamStop.reason(error)); lines after \(total) were not read", kind: "bad request")
    }

    mutating func timedOut() -> [UInt8] {
        logger.warning("batch stopped at its time limit", metadata: ["lines": "\(total)"])
        return StreamStop.line("the batch took longer than its limit; lines after \(total) were not read")
    }
}
