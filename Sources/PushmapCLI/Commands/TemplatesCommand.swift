internal import ArgumentParser
@_spi(Tools) internal import Pushmap
internal import PushmapJSON
@_spi(Tools) internal import PushmapOutput

/// `pushmap templates`: each template, its platforms and the file it comes from.
struct TemplatesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "templates",
        abstract: "List the templates in force, their platforms and where each comes from."
    )

    @OptionGroup var scriptOptions: ScriptOptions

    @Option(name: .long, help: "A table for people, or JSON.")
    var format: OutputFormat = .human

    func run() throws {
        let translator = try scriptOptions.translator(format: format)
        let templates = translator.templates.values.sorted { $0.name < $1.name }
        switch format {
        case .human:
            let width = max(8, templates.map(\.name.count).max() ?? 0)
            var text = "template".padding(width) + "  platforms  source\n"
            for template in templates {
                let platforms = template.platforms.map(\.name).joined(separator: ",")
                var source = template.layer == TemplateScript.builtinLayer ? "built-in (\(template.path))" : template.path
                if let replaced = template.replaces {
                    source += template.replacesBuiltIn ? ", overrides the built-in" : ", overrides \(replaced)"
                }
                let added = template.fields.filter { IntentSchema.root.field(named: $0.name) == nil }.map(\.name)
                let required = template.fields.filter(\.required).map(\.name)
                if !added.isEmpty { source += "; adds fields " + added.joined(separator: ", ") }
                if !required.isEmpty { source += "; requires " + required.joined(separator: ", ") }
                text += template.name.padding(width) + "  " + platforms.padding(9) + "  " + source + "\n"
            }
            try? StandardStream.output.write(text)
        case .json:
            var output = JSONWriter(style: .pretty).write(TemplateListJSON.json(translator.templates))
            output.append(0x0A)
            try? StandardStream.output.write(output)
        }
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
