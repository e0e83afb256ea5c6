/// Builds the tree of a template from its tokens: text, outputs, and `if`/`unless` blocks with
/// their branches, checking that every block is closed by its own end tag.
struct LiquidParser {
    private let text: LiquidSourceText
    private let tokens: [LiquidLexer.Token]
    private var index = 0

    /// The tags there are, for `did you mean`.
    static let tags = ["if", "elsif", "else", "endif", "unless", "endunless", "raw", "endraw", "comment", "endcomment"]
    /// Liquid's other tags, which campaigns do not support: named as such rather than unknown.
    static let unsupported = ["assign", "capture", "case", "cycle", "decrement", "echo", "for", "include", "increment", "liquid", "render", "tablerow"]

    init(text: LiquidSourceText, tokens: [LiquidLexer.Token]) {
        self.text = text
        self.tokens = tokens
    }

    /// An open block, for the messages about its end.
    private struct Opening {
        let name: String
        let start: Int
        var end: String { "end" + name }
    }

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
            case .text(let range):
                nodes.append(.text(text.text(range)))
            case .output(let markup, _):
                var parser = try LiquidMarkupParser(text, markup: markup)
                if let output = try parser.output() { nodes.append(.output(output)) }
            case .tag(let name, let nameStart, let markup, let start):
                switch name {
                case "if", "unless":
                    if depth >= LiquidTemplate.maxDepth {
                        throw text.error(at: start, "Blocks nest deeper than \(LiquidTemplate.maxDepth) levels here.")
                    }
                    nodes.append(try conditional(Opening(name: name, start: start), markup: markup, depth: depth + 1))
                case "elsif", "else", "endif", "endunless":
                    if let block, name == block.end || (name != "endif" && name != "endunless") {
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
        if let block {
            return text.error(at: start, "'\(name)' cannot close the '{% \(block.name) %}' at column \(text.column(ofByte: block.start)); close it with '{% \(block.end) %}'.")
        }
        if name == "else" || name == "elsif" {
            return text.error(at: start, "'\(name)' is outside any '{% if %}' or '{% unless %}' block.")
        }
        return text.error(at: start, "'\(name)' closes no open '\(name.dropFirst(3))' block.")
    }

    private func unknownTag(_ name: String, at offset: Int) -> LiquidSyntaxError {
        if Self.unsupported.contains(name) {
            return text.error(at: offset, "The tag '\(name)' is not supported in campaign templates; the tags are if, unless, raw and comment.")
        }
        if let near = Suggestion.nearest(to: name, among: Self.tags + Self.unsupported), !Self.unsupported.contains(near) {
            return text.error(at: offset, "Unknown tag '\(name)'; did you mean '\(near)'?")
        }
        return text.error(at: offset, "Unknown tag '\(name)'; the tags are if, unless, raw and comment.")
    }
}
