internal import ArgumentParser
@_spi(Tools) internal import Pushmap
internal import PushmapJSON
@_spi(Tools) internal import PushmapTooling

/// `pushmap schema`: the intent's JSON Schema, as in schema/intent.schema.json.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the intent's JSON Schema (the file schema/intent.schema.json).",
        discussion: "With --scripts (or PUSHMAP_SCRIPTS), each template's declared and required fields are in it too, under an if on template."
    )

    @OptionGroup var scriptOptions: ScriptOptions

    func run() throws {
        let translator = try scriptOptions.translator(format: .human)
        var output = JSONWriter(style: .pretty).write(IntentJSONSchema.make(fields: translator.templates.mapValues(\.fields)))
        output.append(0x0A)
        try? StandardStream.output.write(output)
    }
}
