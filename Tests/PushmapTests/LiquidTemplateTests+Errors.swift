@_spi(Tools) @testable import Pushmap
import PushmapJSON
import Testing

extension LiquidTemplateTests {
    /// Templates that do not compile, the column (characters from 1) and the message.
    static let syntaxErrors: [(template: String, column: Int, message: String)] = [
        ("Hello {{ name", 7, "This '{{' is never closed with '}}'."),
        // The thirty-fifth audit, F10: curly quotes, and an argument without its colon.
        ("{{ name | default: \u{201C}friend\u{201D} }}", 20, "Unexpected '\u{201C}' in a tag. Liquid strings use straight quotes, ' or \"."),
        ("{{ name | truncate 5 }}", 20, "Expected a '|' and a filter here, found the number 5; a filter's arguments follow a colon: 'truncate: ...'."),
        ("Hi {% if x", 4, "This '{%' is never closed with '%}'."),
        ("{% if x %}yes", 1, "This '{% if %}' is never closed with '{% endif %}'."),
        ("ok {% unless x %}{% if y %}{% endif %}", 4, "This '{% unless %}' is never closed with '{% endunless %}'."),
        ("ab{% endif %}", 3, "'endif' closes no open 'if' block."),
        ("{% else %}", 1, "'else' is outside any '{% if %}', '{% unless %}', '{% case %}' or '{% for %}' block."),
        ("x{% elsif y %}", 2, "'elsif' is outside any '{% if %}' or '{% unless %}' block."),
        ("{% unless x %}{% endif %}", 15, "'endif' cannot close the '{% unless %}' at column 1; close it with '{% endunless %}'."),
        ("{% if x %}{% else %}{% else %}{% endif %}", 21, "'else' cannot follow the 'else' of the '{% if %}' at column 1; close it with '{% endif %}' first."),
        ("{% if x %}{% else if y %}{% endif %}", 11, "'else' takes no condition; to test another, write '{% elsif ... %}'."),
        ("{% iff x %}{% endif %}", 4, "Unknown tag 'iff'; did you mean 'if'?"),
        ("{% frobnicate %}", 4, "Unknown tag 'frobnicate'; the tags are if, unless, case, for, cycle, assign, capture, increment, decrement, echo, liquid, raw and comment."),
        ("{% tablerow x in y %}{% endtablerow %}", 4, "The tag 'tablerow' is not supported in campaign templates; the tags are if, unless, case, for, cycle, assign, capture, increment, decrement, echo, liquid, raw and comment."),
        ("{% %}", 4, "Expected a tag name after '{%'."),
        // A name in brackets at the top (the twelfth audit): a quoted name only.
        ("{{ [x] }}", 5, "Expected a quoted name after '[', as in [\"first name\"]; found 'x'."),
        ("{{ ['a' }}", 9, "Expected ']' to close the '[' at column 4, found the end of the tag."),
        ("{% raw %}x", 1, "This '{% raw %}' is never closed with '{% endraw %}'."),
        ("a{% comment %}x{% comment %}{% endcomment %}", 2, "This '{% comment %}' is never closed with '{% endcomment %}'."),
        ("{% endraw %}", 1, "'endraw' closes no 'raw'."),
        ("{{ name | upcas }}", 11, "Unknown filter 'upcas'; did you mean 'upcase'?"),
        ("{{ x | defualt: 1 }}", 8, "Unknown filter 'defualt'; did you mean 'default'?"),
        ("🇫🇷 {{ x | bogus }}", 10, "Unknown filter 'bogus'; docs/campaign.md lists the filters there are."),
        ("{{ x | truncate: 1, 'a', 'b' }}", 8, "Filter 'truncate' takes at most 2 arguments (a length, 50 by default, and an ellipsis), not 3."),
        ("{{ x | default: 1, 2 }}", 8, "Filter 'default' takes at most 1 argument (the value to show instead), not 2."),
        ("{{ x | upcase: 1 }}", 8, "Filter 'upcase' takes no argument, not 1."),
        ("{{ x | date }}", 8, #"Filter 'date' takes 1 argument (a strftime format such as "%Y-%m-%d"), not 0."#),
        ("{{ x | default: 1, allow: true }}", 8, "Filter 'default' has no argument named 'allow'."),
        ("{{ x | default: 1, allow_false: 'yes' }}", 8, "Filter 'default' takes 'allow_false: true' or 'allow_false: false'."),
        ("{{ x | }}", 8, "Expected a filter name after '|', found the end of the tag."),
        ("{% if x = 1 %}{% endif %}", 9, "'=' is not an operator here; to compare, write '=='."),
        ("{% if !x %}{% endif %}", 7, "'!' is not an operator in Liquid; write '!=' to compare, or use 'unless'."),
        ("{% if %}{% endif %}", 7, "'if' needs a condition, such as '{% if name %}'."),
        ("{% if a and %}{% endif %}", 13, "Expected a variable or a value, found the end of the tag."),
        ("{% if a b %}{% endif %}", 9, "Expected 'and', 'or' or a comparison here, found 'b'."),
        ("{% if (a) %}{% endif %}", 9, "Expected '..' in the range, as in '(1..5)'; found ')'."),
        // shopify.github.io/liquid/tags/iteration, control-flow and variable, written wrong.
        ("{% for x %}{% endfor %}", 10, "Expected 'in' after 'x', as in '{% for item in items %}'; found the end of the tag."),
        ("{% for x in y limit 2 %}{% endfor %}", 21, "Expected ':' after 'limit', found the number 2."),
        ("{% for x in y limit: 2 reversed %}{% endfor %}", 24, "Expected 'limit: n' or 'offset: n' here ('reversed' comes first), found 'reversed'."),
        ("{% for i in a limit: 1, offset: 1 %}{% endfor %}", 23, "Expected 'limit: n' or 'offset: n' here ('reversed' comes first), found ','."),
        ("{% cycle %}", 10, "'cycle' needs values, such as '{% cycle \"odd\", \"even\" %}'."),
        ("{% cycle x: 'a', 'b' %}", 10, "A cycle's group is a quoted name, as in '{% cycle \"rows\": \"odd\", \"even\" %}'."),
        ("{% increment %}", 14, "'increment' needs a variable's name, as in '{% increment visits %}'; found the end of the tag."),
        ("{% for i in (1..2 %}{% endfor %}", 19, "Expected ')' to close the '(' at column 13, found the end of the tag."),
        ("a{% break %}", 2, "'break' is outside any '{% for %}' loop."),
        ("{% for x in y %}{% endfor %}{% continue %}", 29, "'continue' is outside any '{% for %}' loop."),
        // The twenty-eighth audit, F4: outside a loop, every recipient failed on it as lacking data.
        ("n {{ forloop.index }}", 3, "'forloop' is there only inside a '{% for %}' loop."),
        ("{% for i in y %}{% endfor %}{{ forloop }}", 29, "'forloop' is there only inside a '{% for %}' loop."),
        ("{% for i in y %}{% break now %}{% endfor %}", 26, "'break' takes nothing after it; found 'now'."),
        ("{% for x in y %}{% else %}{% else %}{% endfor %}", 27, "'else' cannot follow the 'else' of the '{% for %}' at column 1; close it with '{% endfor %}' first."),
        ("{% assign x 1 %}", 13, "Expected '=' after the name in 'assign', found the number 1."),
        ("{% assign x = %}", 15, "'assign' needs a value after '='."),
        ("{% assign true = 1 %}", 11, "'assign' needs a variable's name, as in '{% assign name = value %}'; found 'true'."),
        ("{% capture x %}", 1, "This '{% capture %}' is never closed with '{% endcapture %}'."),
        ("{% case x %}hi{% when 1 %}{% endcase %}", 1, "Only '{% when %}' or '{% else %}' may follow '{% case %}' at first."),
        ("{% when 1 %}", 1, "'when' is outside any '{% case %}' block."),
        ("{% case x %}{% when %}{% endcase %}", 21, "'when' needs a value, such as '{% when \"gold\" %}'."),
        ("{% case x %}{% when 1 %}{% else %}{% when 2 %}{% endcase %}", 35, "'when' cannot follow the 'else' of the '{% case %}' at column 1; close it with '{% endcase %}' first."),
        ("{% liquid\nraw %}", 11, "'raw' cannot be a line of '{% liquid %}'; use '#' for a comment."),
        ("{% liquid\n  assign x 1 %}", 22, "Expected '=' after the name in 'assign', found the number 1."),
        ("{% liquid\nif x\necho 1 %}", 11, "This '{% if %}' is never closed with '{% endif %}'."),
        ("{% if x %}{% when 1 %}{% endif %}", 11, "'when' does not belong in the '{% if %}' at column 1; close it with '{% endif %}' first."),
        ("{{ 'open }}", 4, "This string is never closed with '."),
        ("{{ a b }}", 6, "Expected a '|' and a filter here, found 'b'."),
        // scripts/fuzz liquid (fuzz/regressions/liquid): a message stays one line.
        ("{{ x 'a\nb' }}", 6, #"Expected a '|' and a filter here, found the string "a\nb"."#),
        ("{{ x \u{1B}[2J }}", 6, #"Unexpected '\u001B' in a tag."#),
        ("{{ x[ }}", 7, "Expected a variable or a value, found the end of the tag."),
        ("{{ x[1 }}", 8, "Expected ']' to close the '[' at column 5, found the end of the tag."),
        ("{{ x[true] }}", 6, "An index must be a whole number, a string or a variable."),
        ("{{ x.2 }}", 6, "Expected a name after '.', found the number 2."),
        ("{{ 1\(String(repeating: "0", count: 400)).5 }}", 4, "The number 1\(String(repeating: "0", count: 400)).5 is too large."),
        ("é\u{301}日本 {{ x | nope }}", 12, "Unknown filter 'nope'; docs/campaign.md lists the filters there are."),
    ]

    @Test("a template that does not compile says where, in characters, and why, in one sentence", arguments: syntaxErrors)
    func syntaxError(_ example: (template: String, column: Int, message: String)) {
        let error = Self.syntaxError(example.template)
        #expect(error == LiquidSyntaxError(column: example.column, message: example.message))
        #expect(error.map { "\($0)" } == "column \(example.column): \(example.message)")
    }

    @Test("hostile templates are refused or cut at their limits, never hang or explode")
    func limits() throws {
        // Nesting: 32 blocks deep compile, 33 do not.
        let deep = { (n: Int) in String(repeating: "{% if x %}", count: n) + "in" + String(repeating: "{% endif %}", count: n) }
        #expect(try LiquidTemplate(deep(32)).render(["x": true], lenient: false).text == "in")
        #expect(Self.syntaxError(deep(33)) == LiquidSyntaxError(column: 321, message: "Blocks nest deeper than 32 levels here."))
        #expect(Self.syntaxError(deep(3000))?.column == 321)
        // Length: 64 KiB of source at most.
        let long = "{{ x }}" + String(repeating: "a", count: LiquidTemplate.maxSourceBytes - 6)
        #expect(Self.syntaxError(long) == LiquidSyntaxError(column: 65_537, message: "The template is 65537 bytes long, over the limit of 65536."))
        #expect(Self.syntaxError(String(long.dropLast())) == nil)
        // Output: a big value many times is cut at 64 KiB, after a whole character, and reported.
        let value = String(repeating: "é", count: 20_000)
        let many = try LiquidTemplate(String(repeating: "{{ v }}", count: 1000))
        let rendering = many.render(["v": .string(value)], lenient: false)
        #expect(rendering.text.utf8.count == LiquidTemplate.maxOutputBytes)
        #expect(rendering.text.allSatisfy { $0 == "é" })
        #expect(rendering.problems == [.outputTooLong(limit: LiquidTemplate.maxOutputBytes)])
        // Brackets in brackets: 32 deep compile, 33 do not, 10,000 do not crash.
        let brackets = { (n: Int) in "{{ " + String(repeating: "a[", count: n) + "0" + String(repeating: "]", count: n) + " }}" }
        #expect(Self.syntaxError(brackets(32)) == nil)
        #expect(Self.syntaxError(brackets(33)) == LiquidSyntaxError(column: 69, message: "Brackets nest deeper than 32 levels here."))
        #expect(Self.syntaxError(brackets(10_000))?.column == 69)
        // The smallest length truncate can be given, and a long near-match looked for in a long
        // value, which a naive search would take the product of their lengths over.
        #expect(try LiquidTemplate("{{ 'abc' | truncate: -9223372036854775808 }}").render([:], lenient: false).text == "...")
        let haystack = String(repeating: "a", count: 1 << 20), needle = String(repeating: "a", count: 1 << 19) + "b"
        let clock = ContinuousClock(), started = clock.now
        let search = try LiquidTemplate("{% if h contains n %}found{% else %}absent{% endif %}")
        #expect(search.render(["h": .string(haystack), "n": .string(needle)], lenient: false).text == "absent")
        #expect(search.render(["h": .string(haystack + "b"), "n": .string(needle)], lenient: false).text == "found")
        #expect(clock.now - started < .seconds(5))
        // Thousands of unclosed openings and stray tags are one error, found quickly.
        #expect(Self.syntaxError(String(repeating: "{%- if", count: 10_000))?.column == 1)
        #expect(Self.syntaxError(String(repeating: "{% endif %}", count: 5000))?.column == 1)
        #expect(Self.syntaxError(String(repeating: "{{", count: 30_000)) != nil)
    }
}

extension LiquidTemplateTests {
    /// Source: the thirty-fifth audit, F9: a name the text assigned hid the recipient's, and
    /// the lookup that then failed was blamed on the recipient's data as a missing variable.
    @Test("a path through a name the text assigned that finds nothing is the text's fault, not a missing variable")
    func assignedNameLacksMember() throws {
        let template = try LiquidTemplate("{% assign order = order.items | first %}{{ order.name }} ({{ order.id }})")
        let rendering = template.render(["order": ["id": "A1", "items": [["name": "Lamp"]]]], lenient: false)
        #expect(rendering.problems == [.renderFailed(message: "order.id: order is assigned in this text, and what it holds has no .id; a name the text assigns is not read from the recipient's vars")])
        // A recipient's own variable that is missing is still one.
        let plain = try LiquidTemplate("{{ order.id }}").render(["order": [:]], lenient: false)
        #expect(plain.problems == [.missingVariable("order.id")])
    }

    /// Source: the thirty-fifth audit, F2: a range kept as a value was cut to 10,001 numbers,
    /// and its size, last number and sum came out wrong with no word.
    @Test("a range past the loops' limit fails as a value; a loop over it still runs")
    func longRangeValue() throws {
        let sized = try LiquidTemplate("{% assign r = (1..20000) %}{{ r.size }}").render([:], lenient: false)
        #expect(sized.problems == [.renderFailed(message: "The range (1..20000) holds more than 10001 numbers, more than a value may; loop over it with 'for' instead.")])
        let within = try LiquidTemplate("{{ (1..10001) | size }}|{{ (1..10001) | last }}").render([:], lenient: false)
        #expect(within.text == "10001|10001" && within.problems.isEmpty, "\(within)")
        let loop = try LiquidTemplate("{% for i in (1..20000) %}{% if i == 3 %}{% break %}{% endif %}{{ i }}{% endfor %}").render([:], lenient: false)
        #expect(loop.text == "12" && loop.problems.isEmpty)
    }

    // pushmap's limits: loops are the team's, lists the recipient's.
    @Test("loops stop after 10,000 passes in all, with one problem; a range is never built whole")
    func loopLimits() throws {
        let nested = try LiquidTemplate("{% for i in (1..1000000000) %}{% for j in list %}{{ j }}{% endfor %}{% endfor %}")
        let list = JSONValue.array(Array(repeating: .string(""), count: 1000))
        let rendering = nested.render(["list": list], lenient: false)
        #expect(rendering.problems == [.renderFailed(message: "The loops ran more than 10000 times; the rest is not rendered.")])
        // The widest range there is, counted without overflow; and 10,000 passes exactly are fine.
        let wide = try LiquidTemplate("{% for i in (-9223372036854775807..9223372036854775807) %}{% break %}{% endfor %}ok")
        #expect(wide.render([:], lenient: false).text == "ok")
        let exact = try LiquidTemplate("{% for i in (1..10000) %}{% endfor %}done").render([:], lenient: false)
        #expect(exact.text == "done")
        #expect(exact.problems == [])
        // A capture doubling itself in a loop stops at the limit, said once: its text is a value,
        // which fails the recipient as a filter's does.
        let doubling = try LiquidTemplate("{% assign a = 'x' %}{% for i in (1..100) %}{% capture a %}{{ a }}{{ a }}{% endcapture %}{% endfor %}{{ a | size }}")
        let doubled = doubling.render([:], lenient: false)
        #expect(doubled.problems == [.renderFailed(message: "the text captured in 'a' passed 65536 bytes")])
        // Source: the twelfth audit (case 1): a capture past the limit stopped the whole text, and
        // the recipient got "Hello " with a warning. What follows the capture renders (with the
        // cut text, where lenient lets the recipient through).
        let names = try LiquidTemplate("Hello {% capture names %}{% for i in items %}{{ i }}, {% endfor %}{% endcapture %}you have {{ items | size }}: {{ names | truncate: 12 }}")
        let many = JSONValue.array(Array(repeating: .string(String(repeating: "n", count: 40)), count: 2000))
        let cut = names.render(["items": many], lenient: true)
        #expect(cut.text == "Hello you have 2000: nnnnnnnnn...")
        #expect(cut.problems == [.renderFailed(message: "the text captured in 'names' passed 65536 bytes")])
    }

    @Test("assign and capture hold for the rest of the text; a loop's item and forloop only inside it")
    func scopes() throws {
        let template = try LiquidTemplate("{% for name in list %}{% assign seen = name %}{% endfor %}{{ seen }}|{{ name }}|{% capture c %}{{ name }}!{% endcapture %}{{ c }}")
        let rendering = template.render(["list": ["a", "b"], "name": "recipient"], lenient: false)
        #expect(rendering.text == "b|recipient|recipient!")
        #expect(rendering.problems == [])
        // A missing list is the recipient's missing variable, once; a variable the text assigns is not missing.
        let missing = try LiquidTemplate("{% for i in items %}{{ i }}{% endfor %}{% assign x = 1 %}{{ x }}").render([:], lenient: false)
        #expect(missing.problems == [.missingVariable("items")])
        #expect(missing.text == "1")
    }
}
