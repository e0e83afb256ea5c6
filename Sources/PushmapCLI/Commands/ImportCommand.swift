internal import ArgumentParser
@_spi(Tools) internal import Pushmap
internal import PushmapJSON

/// `pushmap import`: an existing FCM or APNS payload to the intent that gives it back.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn an existing FCM or APNS payload into an intent.",
        discussion: """
        The intent goes to standard output; a warning on standard error names each payload key that \
        translating the intent does not give back as it was. Exit 0 with an intent (warnings allowed), \
        1 when the payload cannot be read, 2 when a mapping script fails on the intent.
        """
    )

    @Option(name: .long, help: "The payload's platform: fcm or apns.")
    var platform: SinglePlatform

    @OptionGroup var scriptOptions: ScriptOptions

    @OptionGroup var clock: ClockOption

    @Option(name: .long, help: "Diagnostics as human lines or as JSON.")
    var format: OutputFormat = .human

    @Argument(help: ArgumentHelp("The payload file; - or nothing for standard input.", valueName: "file"), completion: .file(extensions: ["json"]))
    var file: String?

    func run() throws {
        let input = InputFile(file)
        let report = DiagnosticReport(format: format, file: input.name)
        let (payload, read, text) = try report.readPayload(input, platform: platform.platform)
        let translator = try scriptOptions.translator(format: format, now: clock.now)
        let imported: (intent: JSONValue?, diagnostics: [Diagnostic])
        do {
            imported = try translator.importIntent(payload, platform: platform.platform, read: read, text: text)
        } catch {
            report.emit(error.diagnostics, scriptError: error.scriptError)
            throw ExitCode(error.exitCode)
        }
        report.emit(imported.diagnostics)
        guard let intent = imported.intent, !imported.diagnostics.hasErrors else { throw ExitStatus.invalid }
        var output = JSONWriter(style: .pretty).write(intent)
        output.append(0x0A)
        do { try StandardStream.output.write(output) } catch { throw ExitStatus.success }
    }
}
