internal import ArgumentParser
@_spi(Tools) internal import Pushmap

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
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let first = arguments.first, !first.hasPrefix("-") {
            let names = configuration.subcommands.map { $0._commandName } + ["help"]
            if !names.contains(first), let near = Suggestion.nearest(to: first, among: names) {
                exit(withError: ValidationError("unknown command '\(first)'; did you mean '\(near)'?"))
            }
        }
        main(arguments)
    }
}
