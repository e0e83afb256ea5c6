internal import ArgumentParser
@_spi(Tools) internal import Pushmap
internal import PushmapJSON
@_spi(Tools) internal import PushmapOutput

/// `pushmap campaign`: one intent with templates and locales, rendered and translated for each
/// recipient of an NDJSON file, one output line per recipient, in order.
struct CampaignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "campaign",
        abstract: "Render an intent's templates for each recipient of an NDJSON file, then translate it.",
        discussion: """
        A recipient line is {"id": ..., "target": {...}, "platform": "fcm|apns|both", "locale": "fr-CA", "vars": {...}}, \
        every key optional. Each output line is {"line": N, "id": ..., "fcm": ..., "apns": ..., "warnings": [...]} or \
        {"line": N, "id": ..., "error": {...}}; a bad recipient never stops the run. A summary goes to standard error. \
        Exit 0 when every recipient translated, 1 when some did not or the intent does not compile. See docs/campaign.md.
        """
    )

    @Option(name: .long, help: "fcm, apns, or both: for recipients that name no platform.")
    var platform: PlatformChoice = .both

    @OptionGroup var scriptOptions: ScriptOptions

    @OptionGroup var requestOptions: RequestOptions

    @OptionGroup var clock: ClockOption

    @OptionGroup var jobs: JobsOption

    @Flag(name: .long, help: "A variable a recipient lacks renders empty, with a warning, instead of failing the recipient.")
    var lenient = false

    @Flag(name: .customLong("no-truncate"), help: "A payload over its limit fails instead of having its texts shortened.")
    var noTruncate = false

    @Flag(name: .long, help: "Write no payloads: only the failed recipients' lines and the summary.")
    var check = false

    @Option(name: .long, help: "The summary for people, or as one JSON object (on standard output with --check).")
    var format: OutputFormat = .human

    @Argument(help: ArgumentHelp("The intent, with templates and locales.", valueName: "intent"), completion: .file(extensions: ["json"]))
    var intent: String

    @Argument(help: ArgumentHelp("The recipients, one JSON object a line; - or nothing for standard input.", valueName: "recipients"), completion: .file())
    var recipients: String?

    func validate() throws {
        if intent == "-", recipients == nil || recipients == "-" {
            throw ValidationError("the intent and the recipients cannot both be standard input")
        }
    }

    func run() throws {
        StandardStream.ignoreBrokenPipes()
        let translator = try scriptOptions.translator(format: .human, now: clock.now)
        let campaign = try compile(translator)
        let settings = CampaignLine.Settings(
            campaign: campaign, platforms: platform.platforms, forms: requestOptions.forms, lenient: lenient, truncate: !noTruncate,
            errorsOnly: check, maxLineBytes: translator.options.maxIntentBytes, now: translator.options.clock())
        var summary = CampaignSummary()
        let lines = ParallelLines(translator: translator, workers: jobs.workers)
        let finished = try lines.run(InputFile(recipients), maxLineBytes: translator.options.maxIntentBytes, counting: "recipients") { (outputs: [CampaignLine.Output]) in
            for output in outputs { summary.add(output) }
        } _: { line, session in
            CampaignLine.translate(line.bytes, number: line.number, overlongLength: line.overlongLength, settings: settings, session: session)
        }
        // The reader went away: end quietly, but not as a success when a line read so far failed.
        guard finished else {
            if summary.failed > 0 { throw ExitStatus.invalid }
            return
        }
        switch format {
        case .human:
            for line in summary.lines { StandardStream.note(line) }
        case .json:
            var bytes = JSONWriter(style: .compact).write(summary.json)
            bytes.append(0x0A)
            if check {
                do { try StandardStream.output.write(bytes) } catch { return }
            } else {
                try? StandardStream.error.write(bytes)
            }
        }
        if summary.failed > 0 { throw ExitStatus.invalid }
    }

    /// The intent, compiled and checked; what is wrong is said on standard error, each problem
    /// at its path, before any recipient is read.
    private func compile(_ translator: Translator) throws -> Campaign {
        let input = InputFile(intent)
        let report = DiagnosticReport(format: format, file: input.name)
        // An intent's limits, as translate holds it to: nesting past them is said once, here.
        let limits = JSONParser.Limits(maxDepth: translator.options.maxIntentDepth, maxBytes: translator.options.maxIntentBytes)
        let value = try report.readJSON(input, limits: limits)
        do {
            return try Campaign(intent: value, translator: translator)
        } catch {
            report.emit(error.diagnostics)
            throw ExitStatus.invalid
        }
    }
}
