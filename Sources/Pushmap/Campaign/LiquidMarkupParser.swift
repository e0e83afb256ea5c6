internal import PushmapJSON

/// Reads the markup of one tag: an output's expression and filters, or a condition.
struct LiquidMarkupParser {
    private let text: LiquidSourceText
    private let tokens: [LiquidMarkupLexer.Token]
    private var index = 0
    /// How many `[` are open, so `a[a[a[...]]]` cannot exhaust the stack.
    private var brackets = 0

    init(_ text: LiquidSourceText, markup: Range<Int>) throws(LiquidSyntaxError) {
        self.text = text
        tokens = try LiquidMarkupLexer(text, markup: markup).tokens()
    }

    private var current: LiquidMarkupLexer.Token { tokens[index] }
    var isAtEnd: Bool { current.kind == .end }

    private mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    /// Whether the last filter read had a colon after its name, for the message of a value
    /// that follows one without it.
    private var lastFilterHadColon = false

    private mutating func take(_ kind: LiquidMarkupLexer.Kind) -> Bool {
        guard current.kind == kind else { return false }
        advance()
        return true
    }

    /// `{{ expression | filter: argument, name: argument | ... }}`; an empty output shows nothing.
    mutating func output() throws(LiquidSyntaxError) -> LiquidOutput? {
        if isAtEnd { return nil }
        let expression = try self.expression()
        var filters: [LiquidFilter] = []
        while take(.pipe) {
            filters.append(try filter())
        }
        // A value right after a filter's name is an argument without its colon (`truncate 5`):
        // say so, rather than ask for another '|' (the thirty-fifth audit, F10).
        if let last = filters.last, !isAtEnd, current.kind != .equals, !lastFilterHadColon {
            throw text.error(at: current.offset, "Expected a '|' and a filter here, found \(describe(current)); a filter's arguments follow a colon: '\(last.name): ...'.")
        }
        try expectEnd("a '|' and a filter")
        return LiquidOutput(expression: expression, filters: filters)
    }

    /// `name` or `name: argument, keyword: argument, ...`.
    private mutating func filter() throws(LiquidSyntaxError) -> LiquidFilter {
        let start = current.offset
        guard case .word(let name) = current.kind else {
            throw text.error(at: start, "Expected a filter name after '|', found \(describe(current)).")
        }
        advance()
        var arguments: [LiquidExpression] = []
        var keywords: [(name: String, value: LiquidExpression)] = []
        lastFilterHadColon = take(.colon)
        if lastFilterHadColon {
            repeat {
                if case .word(let keyword) = current.kind, tokens[index + 1].kind == .colon {
                    advance()
                    advance()
                    keywords.append((keyword, try expression()))
                } else {
                    arguments.append(try expression())
                }
            } while take(.comma)
        }
        switch LiquidFilter.make(name, arguments: arguments, keywords: keywords) {
        case .success(let filter):
            return filter
        case .failure(.arguments(let message)):
            throw text.error(at: start, message)
        case .failure(.unknown):
            if let near = Suggestion.nearest(to: name, among: LiquidFilter.names) {
                throw text.error(at: start, "Unknown filter '\(name)'; did you mean '\(near)'?")
            }
            throw text.error(at: start, "Unknown filter '\(name)'; docs/campaign.md lists the filters there are.")
        }
    }

    /// Tests joined by `and` and `or`, to the end of the markup.
    mutating func condition(of tag: String) throws(LiquidSyntaxError) -> LiquidCondition {
        if isAtEnd { throw text.error(at: current.offset, "'\(tag)' needs a condition, such as '{% \(tag) name %}'.") }
        var tests: [LiquidComparison] = []
        var joins: [LiquidCondition.Join] = []
        while true {
            let left = try expression()
            var test: (LiquidComparison.Operator, LiquidExpression)?
            switch current.kind {
            case .comparison(let operation):
                advance()
                test = (operation, try expression())
            case .word("contains"):
                advance()
                test = (.contains, try expression())
            default:
                break
            }
            tests.append(LiquidComparison(left: left, test: test))
            if take(.word("and")) {
                joins.append(.and)
            } else if take(.word("or")) {
                joins.append(.or)
            } else {
                try expectEnd("'and', 'or' or a comparison")
                return LiquidCondition(tests: tests, joins: joins)
            }
        }
    }

    /// `name = expression | filter ...` of an `assign`.
    mutating func assignment() throws(LiquidSyntaxError) -> (name: String, value: LiquidOutput) {
        let name = try variableName(for: "assign", example: "{% assign name = value %}")
        guard take(.equals) else {
            throw text.error(at: current.offset, "Expected '=' after the name in 'assign', found \(describe(current)).")
        }
        guard let value = try output() else {
            throw text.error(at: current.offset, "'assign' needs a value after '='.")
        }
        return (name, value)
    }

    /// The one name a `capture` takes.
    mutating func captureName() throws(LiquidSyntaxError) -> String {
        // As Liquid, the name may be quoted.
        if case .string(let quoted) = current.kind {
            advance()
            try expectEnd("the end of 'capture'")
            return quoted
        }
        let name = try variableName(for: "capture", example: "{% capture name %}")
        try expectEnd("the end of 'capture'")
        return name
    }

    private mutating func variableName(for tag: String, example: String) throws(LiquidSyntaxError) -> String {
        guard case .word(let name) = current.kind, !["true", "false", "nil", "null", "blank", "empty"].contains(name) else {
            throw text.error(at: current.offset, "'\(tag)' needs a variable's name, as in '\(example)'; found \(describe(current)).")
        }
        advance()
        return name
    }

    /// `item in collection`, or `item in (first..last)`, then `reversed`, `limit: n` and `offset: n`.
    mutating func loop() throws(LiquidSyntaxError) -> LiquidLoop.Header {
        let variable = try variableName(for: "for", example: "{% for item in items %}")
        guard current.kind == .word("in") else {
            throw text.error(at: current.offset, "Expected 'in' after '\(variable)', as in '{% for item in items %}'; found \(describe(current)).")
        }
        advance()
        let collectionStart = current.offset
        let collection = try expression()
        // The loop's name, for `offset: continue`: its variable and collection as written.
        let name = variable + "-" + text.text(collectionStart..<current.offset).trimmingBlanks()
        let source: LiquidLoop.Source
        if case .range(let first, let last) = collection {
            source = .range(first, last)
        } else {
            source = .collection(collection)
        }
        var header = LiquidLoop.Header(variable: variable, name: name, source: source)
        if current.kind == .word("reversed") {
            advance()
            header.reversed = true
        }
        while !isAtEnd {
            guard case .word(let attribute) = current.kind, attribute == "limit" || attribute == "offset" else {
                throw text.error(at: current.offset, "Expected 'limit: n' or 'offset: n' here ('reversed' comes first), found \(describe(current)).")
            }
            advance()
            guard take(.colon) else { throw text.error(at: current.offset, "Expected ':' after '\(attribute)', found \(describe(current)).") }
            // Given twice, the last one counts, as in Liquid's attributes (the forty-third audit,
            // F1: a later `offset: 0` after `offset: continue` was ignored).
            if attribute == "offset", current.kind == .word("continue") {
                // Where the last loop of this name stopped.
                advance()
                header.continues = true
                header.offset = nil
                continue
            }
            let value = try expression()
            if attribute == "limit" {
                header.limit = value
            } else {
                header.offset = value
                header.continues = false
            }
        }
        return header
    }

    /// `cycle "a", "b"` or `cycle "group": "a", "b"`: the group's key and the values. With no
    /// name, the key is the values as read, as Liquid keys a cycle by its values' `to_s`: cycles of
    /// the same values share their turn however they are written (`'a','b'` and `"a", "b"`), and
    /// a cycle with a variable among its values is a group of its own, as each tag's variable
    /// lookup is a new object there (the twenty-second audit, N10: the key was the text). Marked
    /// apart from a name given, which shares no turn with them in Liquid.
    mutating func cycle() throws(LiquidSyntaxError) -> (group: String, values: [LiquidExpression]) {
        if isAtEnd { throw text.error(at: current.offset, "'cycle' needs values, such as '{% cycle \"odd\", \"even\" %}'.") }
        let start = current.offset
        var group: String?
        var values = [try expression()]
        if take(.colon) {
            guard case .literal(let name) = values[0] else {
                throw text.error(at: start, "A cycle's group is a quoted name, as in '{% cycle \"rows\": \"odd\", \"even\" %}'.")
            }
            group = LiquidText.text(of: name)
            values = [try expression()]
        }
        // A comma may end the list, as Liquid reads it (cycle_tag_test, optional trailing comma).
        while take(.comma), !isAtEnd { values.append(try expression()) }
        try expectEnd("',' and another value")
        // Liquid drops a nil among the values (`cycle nil, "a"` is `cycle "a"`), as it reads them.
        values.removeAll { if case .literal(.null) = $0 { true } else { false } }
        if let group { return ("named " + group, values) }
        var literals: [JSONValue] = []
        for value in values {
            switch value {
            case .literal(let literal): literals.append(literal)
            // A range of literals is its ends (Ruby's 1..2), marked apart from a literal's value.
            case .range(.literal(let from), .literal(let to)): literals.append(.array([.string(".."), from, to]))
            default: return ("tag at \(start)", values)
            }
        }
        return ("values " + String(decoding: JSONWriter(style: .compact).write(.array(literals)), as: UTF8.self), values)
    }

    /// The counter's name of an `increment` or `decrement`.
    mutating func counterName(for tag: String) throws(LiquidSyntaxError) -> String {
        let name = try variableName(for: tag, example: "{% \(tag) visits %}")
        try expectEnd("the end of '\(tag)'")
        return name
    }

    /// The values of a `when`: `when 1, 2` or `when 1 or 2`.
    mutating func choices() throws(LiquidSyntaxError) -> [LiquidExpression] {
        if isAtEnd { throw text.error(at: current.offset, "'when' needs a value, such as '{% when \"gold\" %}'.") }
        var values = [try expression()]
        while take(.comma) || current.kind == .word("or") {
            if current.kind == .word("or") { advance() }
            values.append(try expression())
        }
        try expectEnd("',' or 'or' and another value")
        return values
    }

    /// The value a `case` compares.
    mutating func subject() throws(LiquidSyntaxError) -> LiquidExpression {
        if isAtEnd { throw text.error(at: current.offset, "'case' needs a value to compare, such as '{% case tier %}'.") }
        let subject = try expression()
        try expectEnd("the end of 'case'")
        return subject
    }

    /// Whether the markup is empty, as `break`, `continue`, `else` and end tags must be.
    func expectNothing(after tag: String) throws(LiquidSyntaxError) {
        guard isAtEnd else { throw text.error(at: current.offset, "'\(tag)' takes nothing after it; found \(describe(current)).") }
    }

    /// A literal (string, number, `true`, `false`, `nil`, `blank`, `empty`) or a variable's path.
    mutating func expression() throws(LiquidSyntaxError) -> LiquidExpression {
        let token = current
        switch token.kind {
        case .string(let string):
            advance()
            return .literal(.string(string))
        case .integer(let integer):
            advance()
            return .literal(.integer(integer))
        case .double(let double):
            advance()
            return .literal(.double(double))
        case .wholeNumber(let digits):
            advance()
            return .literal(LiquidWholeNumber(digits: digits, path: digits).mark)
        case .openParenthesis:
            advance()
            let first = try expression()
            guard take(.dot), take(.dot) else {
                throw text.error(at: current.offset, "Expected '..' in the range, as in '(1..5)'; found \(describe(current)).")
            }
            let last = try expression()
            guard take(.closeParenthesis) else {
                throw text.error(at: current.offset, "Expected ')' to close the '(' at column \(text.column(ofByte: token.offset)), found \(describe(current)).")
            }
            return .range(first, last)
        case .openBracket:
            // As Liquid: `["first name"]` names a variable the dotted form cannot (a space, a dot).
            advance()
            guard case .string(let name) = current.kind else {
                throw text.error(at: current.offset, "Expected a quoted name after '[', as in [\"first name\"]; found \(describe(current)).")
            }
            advance()
            guard current.kind == .closeBracket else {
                throw text.error(at: current.offset, "Expected ']' to close the '[' at column \(text.column(ofByte: token.offset)), found \(describe(current)).")
            }
            let end = current.offset + 1
            advance()
            return .variable(try path(root: name, start: token.offset, end: end))
        case .word(let word):
            advance()
            // As Liquid, a literal's name followed by a lookup is a variable of that name (`blank.x`).
            if current.kind == .dot || current.kind == .openBracket {
                return .variable(try path(root: word, start: token.offset))
            }
            switch word {
            case "true": return .literal(true)
            case "false": return .literal(false)
            case "nil", "null": return .literal(.null)
            case "blank": return .blank
            case "empty": return .empty
            default: return .variable(try path(root: word, start: token.offset))
            }
        default:
            throw text.error(at: token.offset, "Expected a variable or a value, found \(describe(token)).")
        }
    }

    /// The steps after a variable's name, which ends at `end` (by default, the name just read).
    private mutating func path(root: String, start: Int, end nameEnd: Int? = nil) throws(LiquidSyntaxError) -> LiquidPath {
        var steps: [LiquidPath.Step] = []
        var end = nameEnd ?? tokens[index - 1].offset + root.utf8.count
        while true {
            if current.kind == .dot, tokens[index + 1].kind != .dot, take(.dot) {
                guard case .word(let key) = current.kind else {
                    throw text.error(at: current.offset, "Expected a name after '.', found \(describe(current)).")
                }
                end = current.offset + key.utf8.count
                advance()
                steps.append(.key(key))
            } else if current.kind == .openBracket {
                let open = current.offset
                if brackets >= LiquidTemplate.maxDepth {
                    throw text.error(at: open, "Brackets nest deeper than \(LiquidTemplate.maxDepth) levels here.")
                }
                advance()
                brackets += 1
                let inner = try expression()
                brackets -= 1
                guard current.kind == .closeBracket else {
                    throw text.error(at: current.offset, "Expected ']' to close the '[' at column \(text.column(ofByte: open)), found \(describe(current)).")
                }
                end = current.offset + 1
                advance()
                switch inner {
                case .literal(.integer(let number)): steps.append(.index(Int(truncatingIfNeeded: number)))
                case .literal(.string(let key)): steps.append(.bracketed(key))
                case .variable: steps.append(.lookup(inner))
                default: throw text.error(at: open + 1, "An index must be a whole number, a string or a variable.")
                }
            } else {
                return LiquidPath(root: root, steps: steps, written: text.text(start..<end))
            }
        }
    }

    private func expectEnd(_ expected: String) throws(LiquidSyntaxError) {
        if current.kind == .equals {
            throw text.error(at: current.offset, "'=' is not an operator here; to compare, write '=='.")
        }
        guard isAtEnd else {
            throw text.error(at: current.offset, "Expected \(expected) here, found \(describe(current)).")
        }
    }

    /// A token as a message names it.
    private func describe(_ token: LiquidMarkupLexer.Token) -> String {
        switch token.kind {
        case .word(let word): "'\(word)'"
        // A line break or control character in the string is shown escaped: a message is one line.
        case .string(let string): "the string \"\(ShownText.escaped(string.count > 20 ? String(string.prefix(20)) + "..." : string))\""
        case .integer(let integer): "the number \(integer)"
        case .double(let double): "the number \(double)"
        case .wholeNumber(let digits): "the number \(digits)"
        case .comparison(let operation): "'\(operation.rawValue)'"
        case .dot: "'.'"
        case .openBracket: "'['"
        case .closeBracket: "']'"
        case .openParenthesis: "'('"
        case .closeParenthesis: "')'"
        case .equals: "'='"
        case .pipe: "'|'"
        case .colon: "':'"
        case .comma: "','"
        case .end: "the end of the tag"
        }
    }
}
