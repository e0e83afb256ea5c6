internal import ArgumentParser
@_spi(Tools) internal import Pushmap
internal import PushmapJSON

/// `pushmap`: one notification intent in, FCM and APNS payloads out.
@main
struct PushmapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pushmap",
        abstract: "Translate notification intents into FCM and APNS payloads through Lua template scripts.",
        discussion: """
        Exit status: 0 success (warnings allowed), 1 invalid input, a failed check or output that \
        could not be written, \
        2 a mapping script failed, 3 no headless browser for `preview --output FILE.png`, 64 a usage error.
        """,
        version: Translator.version,
        subcommands: [
            TranslateCommand.self, ValidateCommand.self, ImportCommand.self, BatchCommand.self,
            CampaignCommand.self, TemplatesCommand.self, ScriptsCommand.self, SchemaCommand.self, PreviewCommand.self,
        ]
    )

    /// Parses and runs as ArgumentParser does, except that a first word that is no subcommand
    /// but close to one gets a did-you-mean instead of "Unexpected argument".
    static func main() {
        if let (number, shown) = argumentNotUTF8() {
            exit(withError: ValidationError(
                "argument \(number), '\(shown)', is not UTF-8, which pushmap reads file names and options as: rename the file"))
        }
        let arguments = Array(CommandLine.arguments.dropFirst())
        let names = configuration.subcommands.map { $0._commandName }
        if let first = arguments.first, !first.hasPrefix("-"), !names.contains(first), first != "help",
           let near = Suggestion.nearest(to: first, among: names + ["help"]) {
            exit(withError: ValidationError("unknown command '\(first)'; did you mean '\(near)'?"))
        }
        // The same one level down: `scripts chek` (the forty-fourth audit, scripts F10).
        if let first = arguments.first, let command = configuration.subcommands.first(where: { $0._commandName == first }),
           case let children = command.configuration.subcommands.map({ $0._commandName }), !children.isEmpty,
           arguments.count > 1, case let word = arguments[1], !word.hasPrefix("-"), !children.contains(word), word != "help",
           let near = Suggestion.nearest(to: word, among: children) {
            // Said here, as ArgumentParser says a usage error, with the usage of `pushmap scripts`:
            // its own exit would name the subcommand alone ("Usage: scripts <subcommand>").
            StandardStream.note("Error: unknown command '\(first) \(word)'; did you mean '\(first) \(near)'?")
            StandardStream.note("Usage: pushmap \(first) <subcommand>")
            StandardStream.note("  See 'pushmap \(first) --help' for more information.")
            exit(withError: ExitCode.validationFailure)
        }
        // `help NAME` for a NAME that is no command is the same usage error, not the top help and
        // exit 0 (the thirty-ninth audit, F11).
        if arguments.first == "help", arguments.count > 1, let name = arguments.dropFirst().first, !name.hasPrefix("-"), !names.contains(name) {
            let near = Suggestion.nearest(to: name, among: names).map { "; did you mean '\($0)'?" } ?? ""
            exit(withError: ValidationError("unknown command '\(name)'\(near)"))
        }
        main(arguments)
    }

    /// The first argument that is not UTF-8, numbered from 1, with its bytes shown. Swift repairs
    /// such bytes in `CommandLine.arguments`, so a file name in another encoding would be opened,
    /// or written, under another name: "no such file", or a folder of its own.
    static func argumentNotUTF8() -> (Int, String)? {
        for index in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index], String(validatingCString: argument) == nil else { continue }
            return (index, UTF8Text.escaped(cString: argument))
        }
        return nil
    }
}
