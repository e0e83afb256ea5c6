internal import PushmapJSON

/// Liquid's standard filters that take a value and plain arguments: the text, list and number
/// filters of Shopify's Liquid (5.4, as Debian ships it, and `sum` from later versions), by name. `default`, `truncate`, `date`
/// and the three case filters have arguments of their own and live in LiquidFilter.
///
/// Text is matched and replaced by its UTF-8 bytes, as Ruby does; a position or a count
/// (`slice`, `size`, `first`) counts characters as a reader sees them, as `truncate` does.
enum LiquidStandardFilter: String, CaseIterable, Sendable {
    // Text.
    case append, prepend
    case replace, replaceFirst = "replace_first", replaceLast = "replace_last"
    case remove, removeFirst = "remove_first", removeLast = "remove_last"
    case strip, lstrip, rstrip
    case stripNewlines = "strip_newlines", newlineToBr = "newline_to_br", stripHTML = "strip_html"
    case escape, escapeOnce = "escape_once"
    case urlEncode = "url_encode", urlDecode = "url_decode"
    case base64Encode = "base64_encode", base64Decode = "base64_decode"
    case base64URLSafeEncode = "base64_url_safe_encode", base64URLSafeDecode = "base64_url_safe_decode"
    case truncatewords, split
    // Lists (and text, where Liquid reads one).
    case size, first, last, slice, join, reverse, compact, uniq, map, sort, `where`, concat, sum
    case sortNatural = "sort_natural"
    // Numbers.
    case plus, minus, times
    case dividedBy = "divided_by", modulo
    case abs, ceil, floor, round
    case atLeast = "at_least", atMost = "at_most"

    /// How many arguments the filter takes, and what they are, for the message when they do not fit.
    var arity: (allowed: ClosedRange<Int>, shape: String) {
        switch self {
        case .append, .prepend: (1...1, "1 argument (the text to add)")
        case .replace, .replaceFirst: (1...2, "1 or 2 arguments (the text to find, and what to put instead)")
        case .replaceLast: (2...2, "2 arguments (the text to find, and what to put instead)")
        case .remove, .removeFirst, .removeLast: (1...1, "1 argument (the text to take out)")
        case .truncatewords: (0...2, "at most 2 arguments (a number of words, 15 by default, and an ellipsis)")
        case .split: (1...1, "1 argument (the separator)")
        case .slice: (1...2, "1 or 2 arguments (where to start, and how many)")
        case .join: (0...1, "at most 1 argument (what goes between the items, a space by default)")
        case .map: (1...1, "1 argument (the member to take from each item)")
        case .where: (1...2, "1 or 2 arguments (the member to test, and the value it must have; without one, any but false and nil)")
        case .concat: (1...1, "1 argument (the list to add)")
        case .sort, .sortNatural, .uniq, .compact, .sum: (0...1, "at most 1 argument (the member to go by)")
        case .plus, .minus, .times, .dividedBy, .modulo: (1...1, "1 argument (a number)")
        case .atLeast, .atMost: (1...1, "1 argument (the bound)")
        case .round: (0...1, "at most 1 argument (the number of decimal places)")
        default: (0...0, "no argument")
        }
    }

    /// The filtered value, or why the filter cannot use its value or an argument.
    func apply(to value: JSONValue, _ arguments: [JSONValue], name: String) throws(LiquidFailure) -> JSONValue {
        func argument(_ index: Int) -> JSONValue? { arguments.given(index) }
        func text(_ index: Int) -> String { argument(index).map(LiquidText.text(of:)) ?? "" }
        let input = LiquidText.text(of: value)
        switch self {
        case .append: return .string(input + text(0))
        case .prepend: return .string(text(0) + input)
        case .replace: return .string(try LiquidTextEdit.replacing(text(0), with: text(1), in: input, .all))
        case .replaceFirst: return .string(try LiquidTextEdit.replacing(text(0), with: text(1), in: input, .first))
        case .replaceLast: return .string(try LiquidTextEdit.replacing(text(0), with: text(1), in: input, .last))
        case .remove: return .string(try LiquidTextEdit.replacing(text(0), with: "", in: input, .all))
        case .removeFirst: return .string(try LiquidTextEdit.replacing(text(0), with: "", in: input, .first))
        case .removeLast: return .string(try LiquidTextEdit.replacing(text(0), with: "", in: input, .last))
        case .strip: return .string(LiquidTextEdit.stripped(input, leading: true, trailing: true))
        case .lstrip: return .string(LiquidTextEdit.stripped(input, leading: true, trailing: false))
        case .rstrip: return .string(LiquidTextEdit.stripped(input, leading: false, trailing: true))
        case .stripNewlines: return .string(try LiquidTextEdit.newlines(in: input, replacedBy: ""))
        case .newlineToBr: return .string(try LiquidTextEdit.newlines(in: input, replacedBy: "<br />\n"))
        case .stripHTML: return .string(LiquidTextEdit.withoutHTML(input))
        case .escape: return value == .null ? .null : .string(LiquidTextEdit.escapedHTML(input, once: false))
        case .escapeOnce: return .string(LiquidTextEdit.escapedHTML(input, once: true))
        case .urlEncode: return value == .null ? .null : .string(LiquidTextEdit.urlEncoded(input))
        case .urlDecode:
            if value == .null { return .null }
            guard let decoded = LiquidTextEdit.urlDecoded(input) else {
                throw LiquidFailure(message: "The decoded text is not UTF-8.")
            }
            return .string(decoded)
        case .base64Encode: return .string(Base64.encode(Array(input.utf8), urlSafe: false))
        case .base64URLSafeEncode: return .string(Base64.encode(Array(input.utf8), urlSafe: true))
        case .base64Decode, .base64URLSafeDecode:
            guard let bytes = Base64.decode(input, urlSafe: self == .base64URLSafeDecode) else {
                throw LiquidFailure(message: "The value is not valid base64.")
            }
            guard let decoded = String(validating: bytes, as: UTF8.self) else {
                throw LiquidFailure(message: "The decoded bytes are not UTF-8 text.")
            }
            return .string(decoded)
        case .truncatewords:
            if value == .null { return .null }
            guard let count = LiquidFilter.integer(argument(0) ?? .integer(15)) else {
                throw LiquidFailure(message: "The number of words of 'truncatewords' must be a whole number.")
            }
            return .string(LiquidTextEdit.truncatingWords(input, to: count, ellipsis: argument(1).map(LiquidText.text(of:)) ?? "..."))
        case .split:
            return .array(LiquidTextEdit.split(input, by: text(0)).map(JSONValue.string))
        case .size, .first, .last, .slice, .join, .reverse, .compact, .uniq, .map, .sort, .sortNatural, .where, .concat, .sum:
            return try LiquidListFilter.apply(self, to: value, arguments, name: name)
        case .plus, .minus, .times, .dividedBy, .modulo, .abs, .ceil, .floor, .round, .atLeast, .atMost:
            return try LiquidNumber.apply(self, to: value, arguments, name: name)
        }
    }
}

extension [JSONValue] {
    /// A filter's argument at `index`, or nil when fewer were given. Not a ternary: with
    /// JSONValue's nil literal, `: nil` would be `.null`, an argument given.
    func given(_ index: Int) -> JSONValue? {
        indices.contains(index) ? .some(self[index]) : .none
    }
}
