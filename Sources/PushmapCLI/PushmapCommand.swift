internal import ArgumentParser

/// `pushmap`: one notification intent in, FCM and APNS payloads out.
@main
struct PushmapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pushmap",
        abstract: "Translate notification intents into FCM and APNS payloads through Lua template scripts.",
        discussion: """
        Exit status: 0 success (warnings allowed), 1 invalid input or a failed check, \
        2 a mapping script failed, 3 no headless browser for `preview --output FILE.png`, 64 a usage error.
        """,
        version: "0.1.0",
        subcommands: [
            TranslateCommand.self, ValidateCommand.self, ImportCommand.self, BatchCommand.self,
            TemplatesCommand.self, ScriptsCommand.self, SchemaCommand.self, PreviewCommand.self,
        ]
    )
}
