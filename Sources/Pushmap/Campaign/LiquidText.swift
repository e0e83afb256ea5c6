internal import PushmapJSON

/// How a value shows in a rendering: strings as they are (never read as a template again),
/// numbers as JSON writes them (a whole number beyond 64 bits as its digits), `true`/`false`,
/// nil as nothing, an array as its elements one after the other (as Liquid joins them), an
/// object as compact JSON (refused when it holds a number beyond 64 bits, which JSON would round).
enum LiquidText {
    static func append(_ value: JSONValue, to output: inout String) throws(LiquidFailure) {
        switch value {
        case .null: break
        case .string(let string): output += string
        case .bool(let bool): output += bool ? "true" : "false"
        case .integer(let integer): output += String(integer)
        case .double: output += plain(value)
        case .object:
            if let number = LiquidWholeNumber.firstInside(value) { throw LiquidFailure(message: number.refusal("printing an object")) }
            output += plain(value)
        case .array(let array):
            if let number = LiquidWholeNumber(value) {
                output += number.digits
                return
            }
            for element in array { try append(element, to: &output) }
        }
    }

    static func text(of value: JSONValue) throws(LiquidFailure) -> String {
        if case .string(let string) = value { return string }
        var output = ""
        try append(value, to: &output)
        return output
    }

    /// A value as compact JSON, for a number or an object (and in messages).
    static func plain(_ value: JSONValue) -> String {
        JSONWriter(style: .compact, sortKeys: false).string(value)
    }
}
