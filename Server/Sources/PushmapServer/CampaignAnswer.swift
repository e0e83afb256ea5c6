internal import Logging
@_spi(Tools) internal import Pushmap
internal import PushmapJSON
@_spi(Tools) internal import PushmapOutput

/// `/v1/campaign`'s lines (through ``LineStream``): each recipient's line as `pushmap campaign`
/// writes it, a run's recipients spread over the cores as the command line spreads a window;
/// with `check`, only the failed recipients' lines, then the summary as one JSON line.
/// Recipients are numbered from 1 after the intent line, as the lines of a recipients file.
struct CampaignAnswer: LineAnswering {
    let settings: CampaignLine.Settings
    let workers: LineWorkers
    let metrics: ServerMetrics
    let logger: Logger
    var summary = CampaignSummary()

    func translate(_ lines: [LineSplitter.Line]) -> [CampaignLine.Output] {
        let started = ContinuousClock.now
        let settings = self.settings
        // The request, bound again on each worker thread, so that a script's print names it.
        let scope = RequestScope.current
        let results = workers.map(lines) { line, session in
            scope.bound {
                // Body line 1 is the intent: recipient N is body line N + 1.
                CampaignLine.translate(
                    line.bytes, number: line.number - 1, overlongLength: line.overlongLength, settings: settings, session: session)
            }
        }
        metrics.translated(lines.count, since: started)
        return results
    }

    mutating func output(_ translated: [CampaignLine.Output]) -> [UInt8] {
        var output: [UInt8] = []
        for result in translated {
            summary.add(result)
            metrics.campaignRecipient(result)
            output.append(contentsOf: result.bytes)
        }
        return output
    }

    mutating func end() -> [UInt8] {
        logger.info(
            "campaign", metadata: ["recipients": "\(summary.recipients)", "translated": "\(summary.translated)", "failed": "\(summary.failed)"])
        guard settings.errorsOnly else { return [] }
        var output = JSONWriter(style: .compact).write(summary.json)
        output.append(0x0A)
        return output
    }

    mutating func unreadable(_ error: any Error) -> [UInt8] {
        logger.warning("campaign body unreadable", metadata: ["recipients": "\(summary.recipients)", "error": "\(error)"])
        return StreamStop.line("\(StreamStop.reason(error)); recipients after \(summary.recipients) were not read", kind: "bad request")
    }

    mutating func timedOut() -> [UInt8] {
        logger.warning("campaign stopped at its time limit", metadata: ["recipients": "\(summary.recipients)"])
        return StreamStop.line("the campaign took longer than its limit; recipients after \(summary.recipients) were not read")
    }
}
