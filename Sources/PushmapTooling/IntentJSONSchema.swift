@_spi(Tools) public import Pushmap
public import PushmapJSON

/// Writes ``IntentSchema`` as a JSON Schema (draft 2020-12) that editors use for completion and
/// checking. The file in the repository, `schema/intent.schema.json`, is this output.
@_spi(Tools) public enum IntentJSONSchema {
    /// The schema, naming `templates` as the known template names.
    package static func make(templates: [String]) -> JSONValue {
        var root = object(IntentSchema.root, templates: templates)
        root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        // A name, not an address: pushmap has no public repository to host the file at (the
        // forty-fifth audit, embedding F8: it named one that does not exist).
        root["$id"] = "urn:pushmap:intent-schema"
        root["title"] = "pushmap intent"
        root["description"] = "One platform-neutral notification, translated by pushmap into FCM and APNS payloads."
        return .object(root)
    }

    /// The schema with what each template's script declares: its fields, and those it
    /// requires, under an `if` on `template`. The root then refuses what none of its schemas
    /// evaluates (`unevaluatedProperties`), since `additionalProperties` cannot see into `allOf`:
    /// a field of one template is refused on an intent of another. With no declared field it is
    /// ``make(templates:)``'s schema, byte for byte.
    @_spi(Tools) public static func make(fields: [String: [IntentField]]) -> JSONValue {
        let names = Array(fields.keys)
        let made = make(templates: names)
        let declaring = fields.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }
        guard !declaring.isEmpty, var root = made.objectValue else { return made }
        root["additionalProperties"] = nil
        root["unevaluatedProperties"] = false
        var all = root["allOf"]?.arrayValue ?? []
        for (name, declared) in declaring {
            var properties = JSONObject()
            for field in declared {
                var property = schema(for: field.shape, templates: names)
                property["description"] = .string(field.summary)
                properties[field.name] = .object(property)
            }
            var then: JSONObject = ["properties": .object(properties)]
            let required = declared.filter(\.required).map { JSONValue.string($0.name) }
            if !required.isEmpty { then["required"] = .array(required) }
            // An intent without `template` is plain's.
            var condition: JSONObject = ["properties": ["template": ["const": .string(name)]]]
            if name != "plain" { condition["required"] = ["template"] }
            all.append(["if": .object(condition), "then": .object(then)])
        }
        root["allOf"] = .array(all)
        return .object(root)
    }

    /// A colour as the templates take it: 6 or 8 hex digits, after an optional `#`.
    package static let colourPattern = "^#?([0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$"

    private static func object(_ shape: IntentObject, templates: [String]) -> JSONObject {
        var properties = JSONObject()
        for field in shape.fields {
            var property = schema(for: field.shape, templates: templates)
            property["description"] = .string(field.summary)
            properties[field.name] = .object(property)
        }
        var result: JSONObject = ["type": "object", "additionalProperties": false]
        result["properties"] = .object(properties)
        let required = shape.fields.filter(\.required).map { JSONValue.string($0.name) }
        if !required.isEmpty { result["required"] = .array(required) }
        var all: [JSONValue] = []
        for group in shape.exclusive {
            all.append(["not": ["required": .array(group.map { .string($0) })]])
        }
        for group in shape.oneRequired {
            all.append(["anyOf": .array(group.map { ["required": [.string($0)]] })])
        }
        if !all.isEmpty { result["allOf"] = .array(all) }
        return result
    }

    private static func schema(for shape: IntentShape, templates: [String]) -> JSONObject {
        switch shape {
        case .string:
            return ["type": "string"]
        case .text(.colour):
            return ["type": "string", "pattern": .string(colourPattern)]
        case .text(.uri):
            return ["type": "string", "format": "uri"]
        case .boolean:
            return ["type": "boolean"]
        case .anything:
            return [:]
        case .integer(let minimum, let maximum):
            var result: JSONObject = ["type": "integer"]
            if let minimum { result["minimum"] = .integer(minimum) }
            if let maximum { result["maximum"] = .integer(maximum) }
            return result
        case .number(let minimum, let maximum):
            var result: JSONObject = ["type": "number"]
            if let minimum { result["minimum"] = .double(minimum) }
            if let maximum { result["maximum"] = .double(maximum) }
            return result
        case .choice(let choices):
            return ["type": "string", "enum": .array(choices.map { .string($0) })]
        case .template:
            // Known names for completion; any string, since a script may add a template.
            return ["type": "string", "anyOf": [["enum": .array(templates.sorted().map { .string($0) })], ["type": "string"]]]
        case .object(let object):
            return Self.object(object, templates: templates)
        case .array(let item, let maxItems):
            var result: JSONObject = ["type": "array", "items": .object(schema(for: item, templates: templates))]
            if let maxItems { result["maxItems"] = .integer(Int64(maxItems)) }
            return result
        case .map(let item):
            var result: JSONObject = ["type": "object"]
            if let item { result["additionalProperties"] = .object(schema(for: item, templates: templates)) }
            return result
        }
    }
}
