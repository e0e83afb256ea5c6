public import PushmapJSON

// No Liquid library is among the Swift packages this project can use (Stencil speaks Django's
// syntax and has no strict mode; swift-mustache has neither strict variables nor Liquid's
// filters), so the subset campaigns need is written here, after Shopify Liquid's documented
// behaviour: LiquidLexer and LiquidParser compile, LiquidRenderer renders.

/// A string of an intent compiled as a Liquid template, rendered once per recipient.
///
/// What compiles: output `{{ path | filter: arg, ... }}` with dotted paths, `[0]`, `[-1]`,
/// `["key"]`, `.size`, `.first` and `.last`; the tags `if`/`elsif`/`else`/`endif`,
/// `unless`/`endunless`, `case`/`when`, `for` (with `else`, `break`, `continue`, `limit`,
/// `offset`, `reversed`, ranges and `forloop`), `cycle`, `assign`, `capture`, `increment`,
/// `decrement`, `echo`, `liquid`, `raw`, `comment`
/// and `{% # ... %}`; whitespace control (`{{-`, `-%}`); Liquid's standard filters (docs/campaign.md
/// lists them). Anything else (an unknown tag or filter, a wrong argument count, a block left
/// open) is a ``LiquidSyntaxError`` at compile time, naming its column.
///
/// Strictness: an output whose path the recipient's `vars` lack, with no `default` filter after
/// it, renders empty and adds ``LiquidProblem/missingVariable(_:)``; the caller decides whether
/// that stops the send or is a warning. In a condition a missing variable is nil, so false, and
/// no problem: testing a variable is how a template handles optional data. A variable that is
/// present with the value `null` is not missing; it renders empty.
///
/// Values are text: a variable's value is inserted as it is and never read as a template again.
/// Strings as they are, numbers as JSON writes them (in a campaign, a whole number of a
/// recipient's `vars` beyond 64 bits as its digits), `true`/`false`, `null` as nothing, an
/// array as its elements one after the other, an object as compact JSON. What Liquid refuses
/// (ordering a number against a string) is ``LiquidProblem/renderFailed(message:)``.
///
/// Compile once, render many: the compiled form is a small tree, and rendering it walks the tree
/// appending to one string. Limits keep hostile templates small and quick: a source of at most
/// 64 KiB, blocks and brackets nested at most 32 deep (else a syntax error), a rendering of
/// at most 64 KiB (cut after a whole character, with ``LiquidProblem/outputTooLong(limit:)``),
/// no filter's text past that, and 10,000 passes through loop bodies.
public struct LiquidTemplate: Sendable {
    /// The text as written.
    public let source: String
    /// The compiled tree; one text node for a plain text.
    let nodes: [LiquidNode]
    private let plain: Bool

    /// The longest source compiled, in UTF-8 bytes.
    package static let maxSourceBytes = 64 * 1024
    /// The longest rendering, in UTF-8 bytes; longer ones are cut and reported.
    package static let maxOutputBytes = 64 * 1024
    /// How deep blocks may nest.
    package static let maxDepth = 32
    /// How many times a rendering's loops may run their bodies, all loops together: a
    /// notification's text needs far fewer, and nested loops over long lists would run for minutes.
    package static let maxLoopPasses = 10_000

    /// Compiles `source`.
    /// - Throws: ``LiquidSyntaxError`` naming the column (in characters, from 1) where it goes wrong.
    public init(_ source: String) throws(LiquidSyntaxError) {
        self.source = source
        plain = !LiquidLexer.hasMarkup(source)
        if plain {
            nodes = source.isEmpty ? [] : [.text(source)]
            return
        }
        let text = LiquidSourceText(source)
        if text.bytes.count > Self.maxSourceBytes {
            throw text.error(
                at: Self.maxSourceBytes,
                "The template is \(text.bytes.count) bytes long, over the limit of \(Self.maxSourceBytes)."
            )
        }
        let tokens = try LiquidLexer(text).tokens()
        var parser = LiquidParser(text: text, tokens: tokens)
        nodes = try parser.parseTemplate()
    }

    /// Whether the text has no tag at all (no `{{` and no `{%`), so rendering it gives the text back.
    public var isPlainText: Bool { plain }

    /// The names this text's `assign` and `capture` tags give a value, nested ones included.
    var assignedNames: [String] {
        var names: [String] = []
        func walk(_ nodes: [LiquidNode]) {
            for node in nodes {
                switch node {
                case .assign(let name, _): names.append(name)
                case .capture(let name, let body):
                    names.append(name)
                    walk(body)
                default: node.bodies?.forEach(walk)
                }
            }
        }
        walk(nodes)
        return names
    }

    /// Renders the template with `variables` (a JSON object: the recipient's `vars`).
    /// - Parameters:
    ///   - variables: the values the template's names read, a JSON object.
    ///   - lenient: kept for callers' symmetry; every problem is reported the same way, and the
    ///     caller decides whether a missing variable is an error (strict) or a warning (lenient).
    ///   - now: the time, in epoch seconds, that `"now"` and `"today"` mean to the `date` filter;
    ///     the system clock's by default. A campaign passes its own, so every recipient sees one time.
    public func render(_ variables: JSONValue, lenient: Bool, now: Int64 = Translator.systemClock()) -> LiquidRendering {
        if plain { return LiquidRendering(text: source, problems: []) }
        var renderer = LiquidRenderer(context: LiquidContext(variables: variables, now: now), capacity: source.utf8.count)
        renderer.render(nodes)
        return LiquidRendering(text: renderer.output, problems: renderer.problems)
    }
}
