internal import PushmapJSON

/// How a value shows in a rendering: strings as they are (never read as a template again),
/// numbers as JSON writes them, `true`/`false`, nil as nothing, an array as its elements one
/// after the other (as Liquid joins them), an object as compact JSON.
enum LiquidText {
    static func append(_ value: JSONValue, to output: inout String) {
        switch value {
        case .null: break
        case .string(let string): output += string
        case .bool(let bool): output += bool ? "true" : "false"
        case .integer(let integer): output += String(integer)
        case .double, .object: output += JSONWriter(style: .compact, sortKeys: false).string(value)
        case .array(let array): for element in array { append(element, to: &output) }
        }
    }

    static func text(of value: JSONValue) -> String {
        if case .string(let string) = value { return string }
        var output = ""
        append(value, to: &output)
        return output
    }
}
