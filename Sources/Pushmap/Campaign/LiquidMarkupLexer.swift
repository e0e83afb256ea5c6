internal import PushmapJSON

/// Splits the markup inside `{{ }}` or `{% %}` into words, literals and punctuation.
struct LiquidMarkupLexer {
    enum Kind: Equatable {
        /// A name (`order`, `upcase`, `and`, `contains`, `true`): letters, digits, `_` and `-`,
        /// with an optional `?` at the end, as Liquid's names.
        case word(String)
        case string(String)
        case integer(Int64)
        case double(Double)
        /// A whole number beyond Int64, as written (Liquid's integers have no limit).
        case wholeNumber(String)
        case comparison(LiquidComparison.Operator)
        case dot, openBracket, closeBracket, openParenthesis, closeParenthesis, pipe, colon, comma
        /// A single `=`, as `assign` takes it; anywhere else an error names it.
        case equals
        case end
    }

    struct Token {
        let kind: Kind
        /// Its first byte in the source.
        let offset: Int
    }

    private let text: LiquidSourceText
    private let end: Int
    private var position: Int

    init(_ text: LiquidSourceText, markup: Range<Int>) {
        self.text = text
        position = markup.lowerBound
        end = markup.upperBound
    }

    static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || isDigit(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// Every token of the markup, ending with `.end` at its end.
    consuming func tokens() throws(LiquidSyntaxError) -> [Token] {
        var tokens: [Token] = []
        while true {
            let token = try next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private mutating func next() throws(LiquidSyntaxError) -> Token {
        let bytes = text.bytes
        while position < end, LiquidSourceText.isSpace(bytes[position]) { position += 1 }
        let start = position
        guard position < end else { return Token(kind: .end, offset: start) }
        let byte = bytes[position]
        position += 1
        func token(_ kind: Kind) -> Token { Token(kind: kind, offset: start) }
        func followedBy(_ next: UInt8) -> Bool {
            guard position < end, bytes[position] == next else { return false }
            position += 1
            return true
        }
        switch byte {
        case UInt8(ascii: "."): return token(.dot)
        case UInt8(ascii: "["): return token(.openBracket)
        case UInt8(ascii: "]"): return token(.closeBracket)
        case UInt8(ascii: "("): return token(.openParenthesis)
        case UInt8(ascii: ")"): return token(.closeParenthesis)
        case UInt8(ascii: "|"): return token(.pipe)
        case UInt8(ascii: ":"): return token(.colon)
        case UInt8(ascii: ","): return token(.comma)
        case UInt8(ascii: "="):
            return token(followedBy(UInt8(ascii: "=")) ? .comparison(.equal) : .equals)
        case UInt8(ascii: "!"):
            if followedBy(UInt8(ascii: "=")) { return token(.comparison(.notEqual)) }
            throw text.error(at: start, "'!' is not an operator in Liquid; write '!=' to compare, or use 'unless'.")
        case UInt8(ascii: "<"):
            if followedBy(UInt8(ascii: ">")) { return token(.comparison(.notEqual)) }
            return token(.comparison(followedBy(UInt8(ascii: "=")) ? .lessOrEqual : .less))
        case UInt8(ascii: ">"):
            return token(.comparison(followedBy(UInt8(ascii: "=")) ? .greaterOrEqual : .greater))
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            // Liquid strings have no escapes: they end at the next quote of the same kind.
            while position < end, bytes[position] != byte { position += 1 }
            guard position < end else { throw text.error(at: start, "This string is never closed with \(byte == UInt8(ascii: "'") ? "'" : "\"").") }
            position += 1
            return token(.string(text.text((start + 1)..<(position - 1))))
        case UInt8(ascii: "-") where position < end && Self.isDigit(bytes[position]):
            return try number(from: start)
        case _ where Self.isDigit(byte):
            return try number(from: start)
        case _ where byte == UInt8(ascii: "_") || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")):
            while position < end, Self.isWordByte(bytes[position]) { position += 1 }
            if position < end, bytes[position] == UInt8(ascii: "?") { position += 1 }
            return token(.word(text.text(start..<position)))
        default:
            let shown = text.text(start..<min(end, start + Self.scalarLength(byte)))
            // Curly quotes come from a word processor: say which ones Liquid reads (the
            // thirty-fifth audit, F10).
            let quotes = ["\u{2018}", "\u{2019}", "\u{201C}", "\u{201D}"].contains(shown) ? " Liquid strings use straight quotes, ' or \"." : ""
            throw text.error(at: start, "Unexpected '\(ShownText.escaped(shown))' in a tag.\(quotes)")
        }
    }

    /// An integer (`-12`) or a decimal number (`2.99`).
    private mutating func number(from start: Int) throws(LiquidSyntaxError) -> Token {
        let bytes = text.bytes
        while position < end, Self.isDigit(bytes[position]) { position += 1 }
        var isDecimal = false
        if position + 1 < end, bytes[position] == UInt8(ascii: "."), Self.isDigit(bytes[position + 1]) {
            isDecimal = true
            position += 1
            while position < end, Self.isDigit(bytes[position]) { position += 1 }
        }
        let written = text.text(start..<position)
        if isDecimal, let double = Double(written), double.isFinite { return Token(kind: .double(double), offset: start) }
        if !isDecimal {
            if let integer = Int64(written) { return Token(kind: .integer(integer), offset: start) }
            // Without leading zeros, so its digits compare and print as the number's.
            let sign = written.hasPrefix("-") ? "-" : ""
            return Token(kind: .wholeNumber(sign + written.drop { $0 == "-" || $0 == "0" }), offset: start)
        }
        throw text.error(at: start, "The number \(written) is too large.")
    }

    /// The length of the UTF-8 sequence a lead byte starts, so a message quotes whole characters.
    private static func scalarLength(_ lead: UInt8) -> Int {
        lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
    }
}
