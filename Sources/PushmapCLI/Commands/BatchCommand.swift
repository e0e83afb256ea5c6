internal import ArgumentParser
@_spi(Tools) internal import Pushmap
@_spi(Tools) internal import PushmapOutput

/// `pushmap batch`: NDJSON in, NDJSON out, one output line per input line, in order.
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Translate newline-delimited intents; one output line per input line, in input order.",
        discussion: """
        Each output line is {"line": N, "fcm": ..., "apns": ...} or {"line": N, "error": {...}}. \
        A bad line never stops the run. Exit 0 when every line translated, 1 when some did not.
        """
    )

    @Option(name: .long, help: "fcm, apns, or both.")
    var platform: PlatformChoice = .both

    @OptionGroup var scriptOptions: ScriptOptions

    @OptionGroup var requestOptions: RequestOptions

    @OptionGroup var clock: ClockOption

    @OptionGroup var jobs: JobsOption

    @Argument(help: ArgumentHelp("The NDJSON file; - or nothing for standard input.", valueName: "file"), completion: .file())
    var file: String?

    func run() throws {
        StandardStream.ignoreBrokenPipes()
        let translator = try scriptOptions.translator(format: .human, now: clock.now)
        let platforms = platform.platforms
        if let unused = requestOptions.unused(with: platforms) { StandardStream.note("pushmap: batch: \(unused)") }
        let forms = requestOptions.forms
        let maxIntentBytes = translator.options.maxIntentBytes
        var total = 0
        var failed = 0
        let lines = ParallelLines(translator: translator, workers: jobs.workers)
        let finished = try lines.run(InputFile(file), maxLineBytes: maxIntentBytes) { (outputs: [TranslationLine.Output]) in
            total += outputs.count
            for output in outputs where !output.ok { failed += 1 }
        } _: { line, session in
            TranslationLine.translate(
                line.bytes, number: line.number, overlongLength: line.overlongLength,
                maxIntentBytes: maxIntentBytes, session: session, platforms: platforms, forms: forms)
        }
        // The reader went away: end quietly, but not as a success when a line read so far failed.
        guard finished else {
            if failed > 0 { throw ExitStatus.invalid }
            return
        }
        StandardStream.note("pushmap: batch: \(total) line\(total == 1 ? "" : "s"), \(total - failed) translated, \(failed) failed")
        if failed > 0 { throw ExitStatus.invalid }
    }
}
