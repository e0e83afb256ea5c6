internal import ArgumentParser
@_spi(Tools) internal import Pushmap
internal import PushmapJSON

/// `pushmap translate`: one intent to the payloads of one or both platforms.
struct TranslateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "translate",
        abstract: "Translate one intent into its FCM and/or APNS payload.",
        discussion: "The payload goes to standard output; warnings and errors to standard error."
    )

    @Option(name: .long, help: "fcm, apns, or both (an object with fcm and apns).")
    var platform: PlatformChoice = .both

    @OptionGroup var scriptOptions: ScriptOptions

    @OptionGroup var requestOptions: RequestOptions

    @OptionGroup var clock: ClockOption

    @Flag(name: .long, help: "Write compact JSON instead of pretty.")
    var compact = false

    @Option(name: .long, help: "Diagnostics as human lines or as JSON.")
    var format: OutputFormat = .human

    @Argument(help: ArgumentHelp("The intent file; - or nothing for standard input.", valueName: "file"), completion: .file(extensions: ["json"]))
    var file: String?

    func run() throws {
        let input = InputFile(file)
        let report = DiagnosticReport(format: format, file: input.name)
        let bytes: [UInt8]
        do {
            bytes = try input.read(limit: 1 << 20)
        } catch {
            StandardStream.note("pushmap: \(error)")
            throw ExitStatus.invalid
        }
        let translator = try scriptOptions.translator(format: format, now: clock.now, blameWarnings: true)
        let platforms = platform.platforms
        // As a line for people only: with --format json, standard error is one JSON object.
        if format == .human, let unused = requestOptions.unused(with: platforms) { StandardStream.note("pushmap: translate: \(unused)") }
        let translation: Translation
        do {
            translation = try translator.translate(bytes, platforms: platforms, forms: requestOptions.forms)
        } catch {
            report.emit(error.diagnostics, scriptError: error.scriptError)
            throw ExitCode(error.exitCode)
        }
        report.emit(translation.diagnostics)
        let value: JSONValue
        if platforms.count == 1, let only = platforms.first, let payload = translation.payloads[only] {
            value = payload
        } else {
            var object = JSONObject()
            for platform in platforms { object[platform.name] = translation.payloads[platform] }
            value = .object(object)
        }
        var output = JSONWriter(style: compact ? .compact : .pretty).write(value)
        output.append(0x0A)
        do { try StandardStream.output.write(output) } catch { throw ExitStatus.success }
    }
}

extension PlatformChoice {
    var platforms: [Platform] {
        switch self {
        case .fcm: [.fcm]
        case .apns: [.apns]
        case .both: [.fcm, .apns]
        }
    }
}
