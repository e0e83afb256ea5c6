/// The Lua Language Server annotations `pushmap scripts export` writes beside the scripts: the
/// API's, kept by hand beside the prelude (`Sources/Pushmap/Lua/annotations.lua`, held to the
/// `pushmap` table by a test), then the intent's fields as classes made from ``IntentSchema``,
/// so they follow every change to the intent.
package enum LuaAnnotations {
    /// Where in an exported folder the file goes: a subfolder, since every `NAME.lua` at the top
    /// is a template.
    package static let path = "types/pushmap.lua"

    /// The file's text: the API, then `pushmap.Intent` with `extra` fields (those scripts declare).
    package static func file(adding extra: [IntentField] = []) -> String {
        var text = BuiltinFiles.annotations
        text += "\n-- The intent, made from pushmap's intent schema (docs/intent.md): what a mapping's `intent` holds.\n\n"
        write(IntentSchema.root(adding: extra), name: "pushmap.Intent", summary: "One validated intent; absent fields are nil.", into: &text)
        return text
    }

    private static func write(_ object: IntentObject, name: String, summary: String, into text: inout String) {
        var nested: [(object: IntentObject, name: String, summary: String)] = []
        text += "---\(summary)\n---@class \(name)\n"
        for field in object.fields where field.name.first?.isLetter == true {
            let type = luaType(field.shape, name: "\(name).\(field.name)", summary: field.summary, nested: &nested)
            text += "---@field \(field.name)\(field.required ? "" : "?") \(type) \(field.summary)\n"
        }
        text += "\n"
        for inner in nested { write(inner.object, name: inner.name, summary: inner.summary, into: &text) }
    }

    private static func luaType(
        _ shape: IntentShape, name: String, summary: String, nested: inout [(object: IntentObject, name: String, summary: String)]
    ) -> String {
        switch shape {
        case .string, .text, .template: "string"
        case .integer: "integer"
        case .number: "number"
        case .boolean: "boolean"
        case .anything: "any"
        case .choice(let choices): choices.map { "\"\($0)\"" }.joined(separator: "|")
        case .object(let object):
            { nested.append((object, name, summary)); return name }()
        case .array(let item, _):
            switch item {
            case .object, .choice: "(\(luaType(item, name: name, summary: summary, nested: &nested)))[]"
            default: "\(luaType(item, name: name, summary: summary, nested: &nested))[]"
            }
        case .map(let item):
            "table<string, \(item.map { luaType($0, name: name, summary: summary, nested: &nested) } ?? "any")>"
        }
    }
}
