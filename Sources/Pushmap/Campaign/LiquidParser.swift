/// Builds the tree of a template from its tokens: text, outputs, and `if`/`unless` blocks with
/// their branches, checking that every block is closed by its own end tag.
struct LiquidParser {
    private let text: LiquidSourceText
    private let tokens: [LiquidLexer.Token]
    private var index = 0

    /// The tags that begin something, in the order messages list them, each with the tags that
    /// only appear inside it (its branches and its end): the one table of tags.
    static let openingTags: [(name: String, inner: [String])] = [
        ("if", ["elsif", "else", "endif"]), ("unless", ["elsif", "else", "endunless"]), ("case", ["when", "else", "endcase"]),
        ("for", ["else", "break", "continue", "endfor"]), ("cycle", []), ("assign", []), ("capture", ["endcapture"]),
        ("increment", []), ("decrement", []), ("echo", []), ("liquid", []), ("raw", ["endraw"]), ("comment", ["endcomment"]),
    ]
    /// Every tag there is, for `did you mean`.
    static let tags: [String] = openingTags.reduce(into: []) { tags, tag in
        for name in [tag.name] + tag.inner where !tags.contains(name) { tags.append(name) }
    }
    /// Liquid's other tags, which campaigns do not support: named as such rather than unknown.
    static let unsupported = ["include", "render", "tablerow"]
    /// The tags a message lists: "if, unless, ... and comment".
    static let tagList = openingTags.dropLast().map(\.name).joined(separator: ", ") + " and " + (openingTags.last?.name ?? "")
    /// How many loops are open around the tag being read, for `break` and `continue`.
    private var loops = 0

    init(text: LiquidSourceText, tokens: [LiquidLexer.Token]) {
        self.text = text
        self.tokens = tokens
    }

    /// An open block, for the messages about its end.
    private struct Opening {
        let name: String
        let start: Int
        var end: String { "end" + name }

        /// Whether the tag divides or ends this block.
        func accepts(_ tag: String) -> Bool {
            switch name {
            case "if", "unless": ["elsif", "else", end].contains(tag)
            case "case": ["when", "else", end].contains(tag)
            case "for": ["else", end].contains(tag)
            default: tag == end
            }
        }
    }

    /// The tags that divide or end a block.
    private static let dividers: Set = ["elsif", "else", "when", "endif", "endunless", "endcase", "endfor", "endcapture"]

    mutating func parseTemplate() throws(LiquidSyntaxError) -> [LiquidNode] {
        let (nodes, _) = try body(inside: nil, depth: 0)
        return nodes
    }

    /// Nodes up to the tag that ends or divides the open block (returned with them), or to the
    /// end of the template when no block is open.
    private mutating func body(inside block: Opening?, depth: Int) throws(LiquidSyntaxError) -> ([LiquidNode], (name: String, markup: Range<Int>, start: Int)?) {
        var nodes: [LiquidNode] = []
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            switch token {
            case .text(let range, let raw):
                // A raw body is written as a value is, so that no blank-body rule drops it.
                nodes.append(raw ? .output(LiquidOutput(expression: .literal(.string(text.text(range))), filters: [])) : .text(text.text(range)))
            case .output(let markup, let start):
                var parser = try LiquidMarkupParser(text, markup: markup)
                guard let output = try parser.output() else { break }
                // Outside a loop `forloop` is whatever the recipient's vars call so, or missing:
                // every recipient failed on it as lacking data (the twenty-eighth audit, F4).
                if loops == 0, case .variable(let path) = output.expression, path.root == "forloop" {
                    throw text.error(at: start, "'forloop' is there only inside a '{% for %}' loop.")
                }
                nodes.append(.output(output))
            case .comment:
                nodes.append(.comment)
            case .tag(let name, let nameStart, let markup, let start):
                switch name {
                case "if", "unless", "case", "for", "capture":
                    if depth >= LiquidTemplate.maxDepth {
                        throw text.error(at: start, "Blocks nest deeper than \(LiquidTemplate.maxDepth) levels here.")
                    }
                    let opening = Opening(name: name, start: start)
                    switch name {
                    case "case": nodes.append(Self.withoutBlankText(try choice(opening, markup: markup, depth: depth + 1)))
                    case "for": nodes.append(Self.withoutBlankText(try loop(opening, markup: markup, depth: depth + 1)))
                    case "capture":
                        var parser = try LiquidMarkupParser(text, markup: markup)
                        let variable = try parser.captureName()
                        nodes.append(.capture(variable, try bodyToEnd(opening, depth: depth + 1)))
                    default: nodes.append(Self.withoutBlankText(try conditional(opening, markup: markup, depth: depth + 1)))
                    }
                case "assign":
                    var parser = try LiquidMarkupParser(text, markup: markup)
                    let (variable, value) = try parser.assignment()
                    nodes.append(.assign(variable, value))
                case "cycle":
                    var parser = try LiquidMarkupParser(text, markup: markup)
                    let (group, values) = try parser.cycle()
                    nodes.append(.cycle(group: group, values))
                case "increment", "decrement":
                    var parser = try LiquidMarkupParser(text, markup: markup)
                    nodes.append(.counter(try parser.counterName(for: name), step: name == "increment" ? 1 : -1))
                case "echo":
                    var parser = try LiquidMarkupParser(text, markup: markup)
                    if let output = try parser.output() { nodes.append(.output(output)) }
                case "break", "continue":
                    if loops == 0 { throw text.error(at: start, "'\(name)' is outside any '{% for %}' loop.") }
                    try LiquidMarkupParser(text, markup: markup).expectNothing(after: name)
                    nodes.append(.interrupt(name == "break" ? .break : .continue))
                case _ where Self.dividers.contains(name):
                    if let block, block.accepts(name) {
                        return (nodes, (name, markup, start))
                    }
                    throw misplaced(name, at: start, inside: block)
                case "endraw", "endcomment":
                    throw text.error(at: start, "'\(name)' closes no '\(name.dropFirst(3))'.")
                case "":
                    throw text.error(at: nameStart, "Expected a tag name after '{%'.")
                default:
                    throw unknownTag(name, at: nameStart)
                }
            }
        }
        if let block {
            throw text.error(at: block.start, "This '{% \(block.name) %}' is never closed with '{% \(block.end) %}'.")
        }
        return (nodes, nil)
    }

    /// An `if` or `unless` block: its branches up to its end tag.
    private mutating func conditional(_ block: Opening, markup: Range<Int>, depth: Int) throws(LiquidSyntaxError) -> LiquidNode {
        var branches: [LiquidBranch] = []
        var condition = try self.condition(markup, of: block.name)
        var negated = block.name == "unless"
        while true {
            let (nodes, divider) = try body(inside: block, depth: depth)
            branches.append(LiquidBranch(condition: condition, negated: negated, body: nodes))
            // body() returns only at a divider while a block is open.
            guard let divider else { return .conditional(branches, otherwise: []) }
            switch divider.name {
            case "elsif":
                condition = try self.condition(divider.markup, of: "elsif")
                negated = false
            case "else":
                if !(try LiquidMarkupParser(text, markup: divider.markup)).isAtEnd {
                    throw text.error(at: divider.start, "'else' takes no condition; to test another, write '{% elsif ... %}'.")
                }
                return .conditional(branches, otherwise: try bodyAfterElse(block, depth: depth))
            default:
                return .conditional(branches, otherwise: [])
            }
        }
    }

    /// A `case` block: text before the first `when` must be blank (Liquid drops it), then each
    /// `when` with its body, an optional `else`, and `endcase`.
    private mutating func choice(_ block: Opening, markup: Range<Int>, depth: Int) throws(LiquidSyntaxError) -> LiquidNode {
        var parser = try LiquidMarkupParser(text, markup: markup)
        let subject = try parser.subject()
        let (before, first) = try body(inside: block, depth: depth)
        if before.contains(where: { node in
            switch node {
            case .text(let text): !text.utf8.allSatisfy(LiquidSourceText.isSpace)
            case .comment: false
            default: true
            }
        }) {
            throw text.error(at: block.start, "Only '{% when %}' or '{% else %}' may follow '{% case %}' at first.")
        }
        var whens: [LiquidWhen] = []
        var divider = first
        while let current = divider, current.name == "when" {
            var values = try LiquidMarkupParser(text, markup: current.markup)
            let choices = try values.choices()
            let (nodes, next) = try body(inside: block, depth: depth)
            whens.append(LiquidWhen(values: choices, body: nodes))
            divider = next
        }
        // body() returns only at a divider while a block is open.
        guard let divider, divider.name == "else" else { return .choice(subject: subject, whens, otherwise: []) }
        try LiquidMarkupParser(text, markup: divider.markup).expectNothing(after: "else")
        return .choice(subject: subject, whens, otherwise: try bodyAfterElse(block, depth: depth))
    }

    /// A `for` loop: its body, an optional `else`, and `endfor`.
    private mutating func loop(_ block: Opening, markup: Range<Int>, depth: Int) throws(LiquidSyntaxError) -> LiquidNode {
        var parser = try LiquidMarkupParser(text, markup: markup)
        let header = try parser.loop()
        loops += 1
        let (nodes, divider) = try body(inside: block, depth: depth)
        loops -= 1
        guard let divider, divider.name == "else" else { return .loop(LiquidLoop(header: header, body: nodes, otherwise: [])) }
        try LiquidMarkupParser(text, markup: divider.markup).expectNothing(after: "else")
        return .loop(LiquidLoop(header: header, body: nodes, otherwise: try bodyAfterElse(block, depth: depth)))
    }

    /// A block whose bodies write nothing but blanks (only assignments, captures, comments and
    /// such blocks, between line breaks) without those blanks, as Liquid renders it: an `if`
    /// around an `assign` on lines of its own adds no empty lines to the text.
    private static func withoutBlankText(_ node: LiquidNode) -> LiquidNode {
        guard isBlank(node), node.bodies != nil else { return node }
        let strip = { (body: [LiquidNode]) in body.filter { if case .text = $0 { false } else { true } } }
        switch node {
        case .conditional(let branches, let otherwise):
            return .conditional(branches.map { LiquidBranch(condition: $0.condition, negated: $0.negated, body: strip($0.body)) }, otherwise: strip(otherwise))
        case .choice(let subject, let whens, let otherwise):
            return .choice(subject: subject, whens.map { LiquidWhen(values: $0.values, body: strip($0.body)) }, otherwise: strip(otherwise))
        case .loop(let loop):
            return .loop(LiquidLoop(header: loop.header, body: strip(loop.body), otherwise: strip(loop.otherwise)))
        default:
            return node
        }
    }

    /// Whether a node writes nothing but blanks, as Liquid's `blank?` says.
    private static func isBlank(_ node: LiquidNode) -> Bool {
        switch node {
        case .text(let text): text.utf8.allSatisfy(LiquidSourceText.isSpace)
        case .assign, .capture, .comment: true
        case .output, .interrupt, .cycle, .counter: false
        case .conditional, .choice, .loop: node.bodies?.allSatisfy { $0.allSatisfy(isBlank) } ?? false
        }
    }

    /// A block's body up to its end tag, with no divider.
    private mutating func bodyToEnd(_ block: Opening, depth: Int) throws(LiquidSyntaxError) -> [LiquidNode] {
        let (nodes, _) = try body(inside: block, depth: depth)
        return nodes
    }

    /// The body after `else`: only the block's end tag may follow.
    private mutating func bodyAfterElse(_ block: Opening, depth: Int) throws(LiquidSyntaxError) -> [LiquidNode] {
        let (nodes, divider) = try body(inside: block, depth: depth)
        if let divider, divider.name != block.end {
            throw text.error(at: divider.start, "'\(divider.name)' cannot follow the 'else' of the '{% \(block.name) %}' at column \(text.column(ofByte: block.start)); close it with '{% \(block.end) %}' first.")
        }
        return nodes
    }

    private func condition(_ markup: Range<Int>, of tag: String) throws(LiquidSyntaxError) -> LiquidCondition {
        var parser = try LiquidMarkupParser(text, markup: markup)
        return try parser.condition(of: tag)
    }

    /// An `else`, `elsif` or end tag where no block it belongs to is open.
    private func misplaced(_ name: String, at start: Int, inside block: Opening?) -> LiquidSyntaxError {
        if let block, !name.hasPrefix("end") {
            return text.error(at: start, "'\(name)' does not belong in the '{% \(block.name) %}' at column \(text.column(ofByte: block.start)); close it with '{% \(block.end) %}' first.")
        }
        if let block {
            return text.error(at: start, "'\(name)' cannot close the '{% \(block.name) %}' at column \(text.column(ofByte: block.start)); close it with '{% \(block.end) %}'.")
        }
        if name == "else" || name == "elsif" || name == "when" {
            let blocks = name == "elsif" ? "'{% if %}' or '{% unless %}'" : name == "when" ? "'{% case %}'" : "'{% if %}', '{% unless %}', '{% case %}' or '{% for %}'"
            return text.error(at: start, "'\(name)' is outside any \(blocks) block.")
        }
        return text.error(at: start, "'\(name)' closes no open '\(name.dropFirst(3))' block.")
    }

    private func unknownTag(_ name: String, at offset: Int) -> LiquidSyntaxError {
        if Self.unsupported.contains(name) {
            return text.error(at: offset, "The tag '\(name)' is not supported in campaign templates; the tags are \(Self.tagList).")
        }
        if let near = Suggestion.nearest(to: name, among: Self.tags + Self.unsupported), !Self.unsupported.contains(near) {
            return text.error(at: offset, "Unknown tag '\(name)'; did you mean '\(near)'?")
        }
        return text.error(at: offset, "Unknown tag '\(name)'; the tags are \(Self.tagList).")
    }
}
