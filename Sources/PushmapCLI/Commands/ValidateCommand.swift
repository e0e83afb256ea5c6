internal import ArgumentParser
@_spi(Tools) internal import Pushmap
internal import PushmapJSON

/// `pushmap validate`: checks an existing payload with the same rules as translate.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check an existing FCM or APNS payload against the platform's and the phones' rules.",
        discussion: "Findings go to standard output. Exit 0 when there is no error, 1 otherwise."
    )

    @Option(name: .long, help: "The payload's platform: fcm or apns.")
    var platform: SinglePlatform

    @Option(name: .long, help: "Findings as human lines or as JSON.")
    var format: OutputFormat = .human

    @OptionGroup var clock: ClockOption

    @Argument(help: ArgumentHelp("The payload file; - or nothing for standard input.", valueName: "file"), completion: .file(extensions: ["json"]))
    var file: String?

    func run() throws {
        let input = InputFile(file)
        let findings: [Diagnostic]
        do {
            let text = try input.read(limit: 1 << 20)
            findings = try PayloadChecker(now: clock.now ?? Translator.systemClock(), intentPaths: false).check(text: text, platform: platform.platform)
        } catch let error as JSONParseError {
            // As JSON, the report a reader parses says it; as lines, one line on standard error.
            guard format == .json else {
                StandardStream.note("\(input.name): error: \(error.path): \(error.line):\(error.column): \(error.reason) [json-syntax]")
                throw ExitStatus.invalid
            }
            findings = [.jsonSyntax(error)]
        } catch {
            StandardStream.note("pushmap: \(error)")
            throw ExitStatus.invalid
        }
        let report = DiagnosticReport(format: format, file: input.name)
        var text: String
        switch format {
        case .human:
            // One line each, whatever a key holds: its control characters written escaped, as on
            // standard error (the fortieth audit, F9: a key with a line feed took two lines).
            text = report.lines(findings).map { ShownText.escaped($0) + "\n" }.joined()
            let errors = findings.filter { $0.severity == .error }.count
            text += "\(input.name): \(errors == 0 ? "valid" : "invalid") \(platform) payload: \(errors) error\(errors == 1 ? "" : "s"), \(findings.count - errors) warning\(findings.count - errors == 1 ? "" : "s")\n"
        case .json:
            var object = report.json(findings).objectValue ?? JSONObject()
            object["valid"] = .bool(!findings.hasErrors)
            object["platform"] = .string(platform.rawValue)
            text = String(decoding: JSONWriter(style: .compact).write(.object(object)), as: UTF8.self) + "\n"
        }
        try? StandardStream.output.write(text)
        if findings.hasErrors { throw ExitStatus.invalid }
    }
}

/// `--platform fcm|apns` for commands that take exactly one.
enum SinglePlatform: String, ExpressibleByArgument, CaseIterable {
    case fcm
    case apns

    var platform: Platform { self == .fcm ? .fcm : .apns }
}
