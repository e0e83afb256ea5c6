internal import PushmapJSON

/// The liquid fuzz target's reading of its input: bytes as choices of template pieces and vars
/// values; past the end every choice is 0.
struct LiquidRecipe {
    private let bytes: [UInt8]
    private var position = 0

    init(_ input: UnsafeBufferPointer<UInt8>) { bytes = Array(input) }

    private mutating func next() -> Int {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return Int(bytes[position])
    }

    private mutating func pick<T>(_ choices: [T]) -> T { choices[next() % choices.count] }

    static let names = ["name", "order", "items", "x", "when", "tags", "missing", "n", "size", "first", "last"]
    static let texts = ["Hi ", " ", "\n", "é", "e\u{301}", "👨‍👩‍👧‍👦", "🇫🇷", "日本", "{", "}", "%", "-", "\"", "'", "\\", "\u{2028}", "<b>", "\u{0}", "{{ x }}"]
    static let strays = ["{{", "{%", "}}", "%}", "{{-", "-}}", "{% endif %}", "{% else %}", "{% elsif x %}", "{% endunless %}", "{% endraw %}", "{% for x in y %}", "{% for i in items reversed limit: n %}", "{% for i in (1..n) %}", "{% for p in order %}",
                         "{% endfor %}", "{% break %}", "{% continue %}", "{% assign a = x | size %}", "{% assign name = items %}",
                         "{% capture c %}", "{% endcapture %}", "{% case x %}", "{% when 1, 'a' %}", "{% endcase %}", "{% echo name %}", "{% iff x %}", "|", "[", "]", "{{ x | }}", "{{ 'open }}"]
    static let filters = ["default", "upcase", "downcase", "capitalize", "truncate", "date", "upcas", "strip",
                          "append", "replace", "replace_last", "remove_first", "split", "join", "slice", "size", "first",
                          "url_encode", "url_decode", "base64_decode", "base64_url_safe_decode", "escape_once", "strip_html",
                          "newline_to_br", "truncatewords", "plus", "times", "divided_by", "modulo", "round", "ceil",
                          "abs", "at_least", "sort", "sort_natural", "uniq", "map", "compact", "reverse"]
    static let formats = ["%Y-%m-%d", "%a %b %e %H:%M:%S %Z %z", "%-d %^B %j %p %I %l %s %%", "%c%F%T%Q", ""]
    static let operators = ["==", "!=", "<>", "<", ">", "<=", ">=", "contains", "="]

    /// The recipient's variables.
    mutating func vars() -> JSONValue {
        var object = JSONObject()
        for name in Self.names where next() % 4 != 0 {
            object[name] = value(depth: 0)
        }
        return .object(object)
    }

    private mutating func value(depth: Int) -> JSONValue {
        switch next() % 12 {
        case 0: return .null
        case 1: return .bool(next() % 2 == 0)
        case 2: return .integer(Int64(next() - 128) * Int64(next() + 1) * 1_000_003)
        case 3: return .double([0.5, -0.0, 1e21, 3.0, 1e300, 123.456][next() % 6])
        case 4: return .string(pick(["2026-11-26", "2026-11-26T10:00:00+02:00", "now", "banana", "1795687200", "2026-02-30", ""]))
        case 5 where depth < 3: return .array((0..<(next() % 4)).map { _ in value(depth: depth + 1) })
        case 6 where depth < 3:
            var object = JSONObject()
            for _ in 0..<(next() % 4) { object[pick(Self.names)] = value(depth: depth + 1) }
            return .object(object)
        case 7: return .string(String(repeating: pick(Self.texts), count: next() * next() + 1))
        default:
            var text = ""
            for _ in 0..<(next() % 6) { text += pick(Self.texts) }
            return .string(text)
        }
    }

    /// The template.
    mutating func template() -> String {
        var source = ""
        var open: [String] = []
        let pieces = next() + 1
        for _ in 0..<pieces where position < bytes.count {
            switch next() % 12 {
            case 0, 1: source += pick(Self.texts)
            case 2, 3: source += "{{\(pick(["", "-"])) \(expression())\(filters()) \(pick(["", "-"]))}}"
            case 4:
                let tag = pick(["if", "unless"])
                open.append(tag)
                source += "{%\(pick(["", "-"])) \(tag) \(condition()) %}"
            case 5: source += pick(["{% else %}", "{%- elsif \(condition()) -%}"])
            case 6: if let tag = open.popLast() { source += "{% end\(tag) %}" }
            case 7: source += "{% raw %}\(pick(Self.texts)){{ x }}{% endraw\(pick(["", " -"])) %}"
            case 8: source += "{% comment %}\(pick(Self.texts)){% endcomment %}{% # note %}"
            case 9: source += pick(Self.strays)
            case 10:
                // Raw input bytes, whatever they spell.
                let count = min(next() % 16, bytes.count - position)
                source += String(decoding: bytes[position..<(position + count)], as: UTF8.self)
                position += count
            default: source += String(repeating: pick(["{% if x %}", "{% endif %}", "{{ x }}"]), count: next() % 40)
            }
        }
        while next() % 3 != 0, let tag = open.popLast() { source += "{% end\(tag) %}" }
        return source
    }

    private mutating func expression() -> String {
        switch next() % 8 {
        case 0: return pick(["'text'", "\"{{ x }}\"", "42", "-1", "2.5", "true", "false", "nil", "blank", "empty"])
        default:
            var path = pick(Self.names)
            for _ in 0..<(next() % 4) {
                path += pick([".\(pick(Self.names))", "[\(next() % 5 - 2)]", "[\"\(pick(Self.names))\"]", "[\(pick(Self.names))]", ".size", ".first"])
            }
            return path
        }
    }

    private mutating func filters() -> String {
        var text = ""
        for _ in 0..<(next() % 4) {
            let name = pick(Self.filters)
            text += " | \(name)"
            switch name {
            case "default": text += ": \(expression())\(pick(["", ", allow_false: true"]))"
            case "truncate": text += ": \(pick(["0", "3", "-2", "'5'", "n", "x"]))\(pick(["", ", ''", ", '…'", ", x"]))"
            case "date": text += ": \"\(pick(Self.formats))\""
            default:
                // No argument, one or two (a filter given the wrong number does not compile).
                switch next() % 4 {
                case 0: break
                case 1: text += ": \(pick(["1", "-1", "0", "0.0", "2.5", "'-3.50'", "''", "' '", "'a'", "x", "n", "9223372036854775807"]))"
                case 2: text += ": \(expression())"
                default: text += ": \(expression()), \(pick(["1", "''", "'é'", "x", "-9223372036854775808"]))"
                }
            }
        }
        return text
    }

    private mutating func condition() -> String {
        var text = expression()
        for _ in 0..<(next() % 3) {
            text += " \(pick(Self.operators)) \(expression()) \(pick(["and", "or"])) \(expression())"
        }
        return text
    }
}
