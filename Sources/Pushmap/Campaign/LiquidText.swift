internal import PushmapJSON

/// How a value shows in a rendering: strings as they are (never read as a template again),
/// numbers as JSON writes them (a whole number beyond 64 bits as its digits), `true`/`false`,
/// nil as nothing, an array as its elements one after the other (as Liquid joins them), an
/// object as compact JSON (a number beyond 64 bits in it with its digits too).
enum LiquidText {
    static func append(_ value: JSONValue, to output: inout String) {
        switch value {
        case .null: break
        case .string(let string): output += string
        case .bool(let bool): output += bool ? "true" : "false"
        case .integer(let integer): output += String(integer)
        case .double: output += plain(value)
        case .object:
            if LiquidWholeNumber.isInside(value) {
                appendJSON(value, to: &output)
            } else {
                output += plain(value)
            }
        case .array(let array):
            if let number = LiquidWholeNumber(value) {
                output += number.digits
                return
            }
            for element in array { append(element, to: &output) }
        }
    }

    static func text(of value: JSONValue) -> String {
        if case .string(let string) = value { return string }
        var output = ""
        append(value, to: &output)
        return output
    }

    /// Compact JSON as JSONWriter writes it, but a whole number beyond 64 bits as its digits
    /// (JSONWriter has only the Double, which would print another number).
    private static func appendJSON(_ value: JSONValue, to output: inout String) {
        if let number = LiquidWholeNumber(value) {
            output += number.digits
            return
        }
        switch value {
        case .array(let items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                appendJSON(item, to: &output)
            }
            output += "]"
        case .object(let object):
            output += "{"
            for (index, member) in object.enumerated() {
                if index > 0 { output += "," }
                output += plain(.string(member.key)) + ":"
                appendJSON(member.value, to: &output)
            }
            output += "}"
        default:
            output += plain(value)
        }
    }

    /// A value as compact JSON, for a number or an object (and in messages).
    static func plain(_ value: JSONValue) -> String {
        JSONWriter(style: .compact, sortKeys: false).string(value)
    }
}
