@_spi(Tools) public import Pushmap
public import PushmapJSON

/// The templates in force as JSON, the same for `pushmap templates --format json` and the
/// server's `GET /v1/templates`.
public enum TemplateListJSON {
    /// One object per template, by name: its platforms, where it comes from, whether it overrides
    /// a built-in, and the intent fields it adds.
    public static func json(_ templates: [String: TemplateInfo]) -> JSONValue {
        .array(templates.values.sorted { $0.name < $1.name }.map { template in
            .object([
                "name": .string(template.name),
                "platforms": .array(template.platforms.map { .string($0.name) }),
                "source": .string(template.layer == TemplateScript.builtinLayer ? "built-in" : template.layer),
                "path": .string(template.path),
                "overrides": .bool(template.overrides),
                "fields": .array(template.fields.map { .string($0.name) }),
            ])
        })
    }
}
