@_spi(Tools) @testable import Pushmap
import PushmapJSON
import Testing

/// Campaign templates: Liquid's documented examples, strict missing variables, values that stay
/// text, truncation at character boundaries, dates, and syntax errors with their columns.
@Suite("LiquidTemplate")
struct LiquidTemplateTests {
    /// 2026-11-26T10:00:00Z, the `now` every rendering here gets.
    static let now: Int64 = 1_795_687_200

    /// One template, its recipient's `vars` (JSON text) and the text it must render, with no problem.
    struct Case: CustomTestStringConvertible, Sendable {
        let template: String
        let vars: String
        let expected: String
        var testDescription: String { template }
        init(_ template: String, _ vars: String = "{}", _ expected: String) {
            self.template = template
            self.vars = vars
            self.expected = expected
        }
    }

    /// Compiles and renders, at ``now``.
    static func render(_ template: String, _ vars: String = "{}") throws -> LiquidRendering {
        try LiquidTemplate(template).render(try json(vars), lenient: false, now: now)
    }

    /// The syntax error `template` gives.
    static func syntaxError(_ template: String) -> LiquidSyntaxError? {
        do throws(LiquidSyntaxError) {
            _ = try LiquidTemplate(template)
            return nil
        } catch {
            return error
        }
    }

    static let outputs: [Case] = [
        Case("Hello {{ name }}!", #"{"name": "Ada"}"#, "Hello Ada!"),
        Case("{{ order.items[0].name }}", #"{"order": {"items": [{"name": "Tea"}, {"name": "Cake"}]}}"#, "Tea"),
        Case("{{ order.items[-1].name }}", #"{"order": {"items": [{"name": "Tea"}, {"name": "Cake"}]}}"#, "Cake"),
        Case(#"{{ a["first name"] }}"#, #"{"a": {"first name": "Grace"}}"#, "Grace"),
        Case("{{ a['key'] }}", #"{"a": {"key": "single quotes"}}"#, "single quotes"),
        Case("{{ items[i] }}", #"{"items": ["x", "y"], "i": 1}"#, "y"),
        Case("{{ user[field] }}", #"{"user": {"city": "Lyon"}, "field": "city"}"#, "Lyon"),
        Case("{{ tags.size }} {{ tags.first }} {{ tags.last }}", #"{"tags": ["a", "b", "c"]}"#, "3 a c"),
        // A string's size counts characters, as truncate does: one flag is one.
        Case("{{ word.size }}", #"{"word": "🇫🇷é"}"#, "2"),
        Case("{{ map.size }}", #"{"map": {"a": 1, "b": 2}}"#, "2"),
        Case("{{ map.size }}", #"{"map": {"size": "own member"}}"#, "own member"),
        Case(#"{{ "literal" }} {{ 'single' }} {{ 42 }} {{ -7 }} {{ 2.5 }}"#, "{}", "literal single 42 -7 2.5"),
        Case("{{ true }}{{ false }}{{ nil }}", "{}", "truefalse"),
        Case("{{ n }} {{ d }} {{ big }} {{ t }} {{ z }}.", #"{"n": 3, "d": 3.0, "big": 1e21, "t": true, "z": null}"#, "3 3.0 1.0e+21 true ."),
        // Liquid joins an array's elements; an object shows as compact JSON in its own order.
        Case("{{ list }}|{{ obj }}", #"{"list": ["a", 1, ["b"]], "obj": {"z": 1, "a": [true]}}"#, #"a1b|{"z":1,"a":[true]}"#),
        Case("{{}}{{ }}x", "{}", "x"),
        // Shopify Liquid docs, basics/whitespace-control.
        Case("{%- if username and username.size > 10 -%}\n  Wow, {{ username -}} , you have a long name!\n{%- else -%}\n  Hello there!\n{%- endif %}",
             #"{"username": "John G. Chalmers-Smith"}"#, "Wow, John G. Chalmers-Smith, you have a long name!"),
        Case("{%- if username and username.size > 10 -%}\n  Wow, {{ username -}} , you have a long name!\n{%- else -%}\n  Hello there!\n{%- endif %}",
             #"{"username": "Ada"}"#, "Hello there!"),
        Case("a \n {{- x -}} \n b", #"{"x": "X"}"#, "aXb"),
        Case("a \n {{ x }} \n b", #"{"x": "X"}"#, "a \n X \n b"),
        Case("[ {%- if true %} x {% endif -%} ]", "{}", "[ x ]"),
        // Shopify Liquid docs, tags/template (raw).
        Case("{% raw %}In Handlebars, {{ this }} will be HTML-escaped, but {{{ that }}} will not.{% endraw %}", "{}",
             "In Handlebars, {{ this }} will be HTML-escaped, but {{{ that }}} will not."),
        Case("{%raw%}{% if %}{%endraw%}", "{}", "{% if %}"),
        // A zone named after an ISO time, as Ruby's Time#to_s writes UTC (the thirty-fifth audit, F3).
        Case("{{ a | date: '%H:%M' }}|{{ b | date: '%H:%M' }}|{{ c | date: '%H:%M' }}",
             #"{"a": "2026-11-26 10:00:00 UTC", "b": "2026-11-26T10:05:00 GMT", "c": "2026-11-26 10:10:00 utc"}"#, "10:00|10:05|10:10"),
        // A range written out as it is (Shopify/liquid expression_test.rb, test_range).
        Case("{{ ( 3 .. 4 ) }}|{{ (1..n) }}|{{ (1..3) | join: ',' }}", #"{"n": 2}"#, "3..4|1..2|1,2,3"),
        // The dashes trim the text outside, never the body (Shopify/liquid raw_tag_test.rb,
        // test_output_in_raw, from 5.5; the thirty-fifth audit).
        Case("a {%- raw -%} {{ x }} {%- endraw -%} b", "{}", "a {{ x }} b"),
        Case("> {%- raw -%}{{ test }}{%- endraw -%} <", "{}", ">{{ test }}<"),
        Case("> {%- raw -%} inner {%- endraw %} <", "{}", "> inner  <"),
        Case("> {%- raw -%} inner {%- endraw -%} <", "{}", "> inner <"),
        Case("{% raw %}{{% endraw %}Hello{% raw %}}{% endraw %}", "{}", "{Hello}"),
        Case("a {% raw %} {{ x }} {% endraw %} b", "{}", "a  {{ x }}  b"),
        // Shopify Liquid docs, tags/comment.
        Case("Anything you put between {% comment %} and {% endcomment %} tags\nis turned into a comment.", "{}",
             "Anything you put between  tags\nis turned into a comment."),
        Case("a{% comment %} {% comment %} nested {% endcomment %} {{ x }} {% endcomment %}b", "{}", "ab"),
        Case("a{% # an inline comment %}b", "{}", "ab"),
        Case("a {%- comment -%} gone {%- endcomment -%} b", "{}", "ab"),
    ]

    @Test("outputs paths, indexes, literals and values, with whitespace control, raw and comments", arguments: outputs)
    func output(_ example: Case) throws {
        let rendering = try Self.render(example.template, example.vars)
        #expect(rendering.text == example.expected)
        #expect(rendering.problems == [])
    }

    static let conditions: [Case] = [
        // Shopify Liquid docs, tags/control-flow.
        Case(#"{% if product.title == "Awesome Shoes" %}These shoes are awesome!{% endif %}"#, #"{"product": {"title": "Awesome Shoes"}}"#, "These shoes are awesome!"),
        Case(#"{% unless product.title == "Awesome Shoes" %}These shoes are not awesome.{% endunless %}"#, #"{"product": {"title": "Awesome Shoes"}}"#, ""),
        Case(#"{% unless product.title == "Awesome Shoes" %}These shoes are not awesome.{% endunless %}"#, #"{"product": {"title": "Boots"}}"#, "These shoes are not awesome."),
        Case(#"{% if customer.name == "kevin" %}Hey Kevin!{% elsif customer.name == "anonymous" %}Hey Anonymous!{% else %}Hi Stranger!{% endif %}"#,
             #"{"customer": {"name": "anonymous"}}"#, "Hey Anonymous!"),
        Case(#"{% if customer.name == "kevin" %}Hey Kevin!{% elsif customer.name == "anonymous" %}Hey Anonymous!{% else %}Hi Stranger!{% endif %}"#,
             #"{"customer": {"name": "Ada"}}"#, "Hi Stranger!"),
        Case("{% unless a %}no a{% elsif b %}b{% else %}neither{% endunless %}", #"{"a": true, "b": false}"#, "neither"),
        // Shopify Liquid docs, basics/operators: and/or apply from right to left.
        Case("{% if true or false and false %}true{% endif %}", "{}", "true"),
        Case("{% if true and false and false or true %}true{% else %}false{% endif %}", "{}", "false"),
        Case("{% if false and false or true %}t{% else %}f{% endif %}", "{}", "f"),
        Case(#"{% if product.title contains "Pack" %}This product's title contains the word Pack.{% endif %}"#,
             #"{"product": {"title": "Six Pack"}}"#, "This product's title contains the word Pack."),
        Case(#"{% if product.tags contains "Hello" %}This product has been tagged with "Hello".{% endif %}"#,
             #"{"product": {"tags": ["Hi", "Hello"]}}"#, #"This product has been tagged with "Hello"."#),
        Case("{% if list contains 2 %}y{% endif %}{% if word contains 2 %}z{% endif %}", #"{"list": [1, 2.0], "word": "a2"}"#, "yz"),
        Case("{% if map contains 'k' %}y{% endif %}{% if missing contains 'k' %}n{% endif %}", #"{"map": {"k": 0}}"#, "y"),
        // Shopify Liquid docs, basics/truthy-and-falsy: only nil and false are falsy.
        Case("{% if settings.fp_heading %}<h1>{{ settings.fp_heading }}</h1>{% endif %}", #"{"settings": {"fp_heading": ""}}"#, "<h1></h1>"),
        Case("{% if zero %}0{% endif %}{% if list %}[]{% endif %}{% if f %}f{% endif %}{% if n %}n{% endif %}", #"{"zero": 0, "list": [], "f": false, "n": null}"#, "0[]"),
        Case("{% if a != b %}1{% endif %}{% if a <> b %}2{% endif %}{% if a == 1.0 %}3{% endif %}", #"{"a": 1, "b": 2}"#, "123"),
        Case("{% if a < b %}1{% endif %}{% if a > b %}2{% endif %}{% if a <= 1 %}3{% endif %}{% if b >= 2.5 %}4{% endif %}", #"{"a": 1, "b": 2}"#, "13"),
        Case(#"{% if "apple" < "banana" %}1{% endif %}{% if "b" >= "b" %}2{% endif %}"#, "{}", "12"),
        // A number and a string are unequal (ordering them is an error: see comparisonErrors); nil orders nothing.
        Case(#"{% if n == "1" %}a{% endif %}{% if n != "1" %}b{% endif %}{% if nil < 1 %}d{% endif %}{% if list < 1 %}e{% endif %}x"#, #"{"n": 1, "list": [1]}"#, "bx"),
        Case("{% if s == empty %}1{% endif %}{% if l == empty %}2{% endif %}{% if w == blank %}3{% endif %}{% if missing == blank %}4{% endif %}{% if f == blank %}5{% endif %}{% if t == blank %}6{% endif %}",
             #"{"s": "", "l": [], "w": " \n", "f": false, "t": "x"}"#, "12345"),
        Case("{% if missing == nil %}nil{% endif %}{% unless missing %}absent{% endunless %}", "{}", "nilabsent"),
        Case("{% if a %}{% if b %}ab{% else %}a{% endif %}{% endif %}", #"{"a": 1}"#, "a"),
    ]

    @Test("if, elsif, else, unless and the operators decide as Liquid does", arguments: conditions)
    func condition(_ example: Case) throws {
        let rendering = try Self.render(example.template, example.vars)
        #expect(rendering.text == example.expected)
        #expect(rendering.problems == [])
    }

    /// Shopify/liquid test/unit/condition_unit_test.rb test_comparation_of_int_and_str: ordering a
    /// number against a string raises "comparison of String with 0 failed"; pushmap must fail where
    /// Liquid fails. The block renders nothing and the rest goes on.
    @Test("ordering a number against a string is a renderFailed problem, as Liquid raises", arguments: [
        "{% if s > 0 %}y{% else %}n{% endif %}", "{% if n < s %}y{% endif %}", "{% if 1.5 >= s %}y{% endif %}", "{% if '1' <= 2 %}y{% endif %}",
        "{% if x %}{% elsif s > 0 %}y{% endif %}",
    ])
    func comparisonErrors(_ template: String) throws {
        let rendering = try Self.render("[" + template + "]", #"{"s": "1", "n": 1}"#)
        #expect(rendering.text == "[]")
        guard case .renderFailed(let message)? = rendering.problems.first, rendering.problems.count == 1 else {
            Issue.record("\(template): \(rendering.problems)")
            return
        }
        #expect(message.contains("refuses to compare a string with a number"), "\(message)")
    }

    @Test("a plain text is marked so callers skip rendering, and renders as itself")
    func plainText() throws {
        for text in ["", "Hello", "{ not a tag }", "50% off {x}", "}} %} alone", "🇫🇷 {"] {
            let template = try LiquidTemplate(text)
            #expect(template.isPlainText)
            #expect(template.render(["x": 1], lenient: false).text == text)
        }
        for text in ["{{ x }}", "{% if x %}{% endif %}", "a {{", "{%"] {
            #expect((try? LiquidTemplate(text))?.isPlainText != true, "\(text)")
        }
        #expect(try !LiquidTemplate("{% raw %}x{% endraw %}").isPlainText)
    }

    // MARK: - Strict variables

    @Test("an output whose variable the recipient lacks renders empty and names the path as written")
    func missingVariables() throws {
        let vars = #"{"order": {"items": [{"name": "Tea"}]}, "tags": [], "n": null}"#
        let cases: [(String, String, [String])] = [
            ("Hi {{ name }}!", "Hi !", ["name"]),
            ("{{ order.items[0].price }}", "", ["order.items[0].price"]),
            ("{{ order.items[3].name }}", "", ["order.items[3].name"]),
            ("{{ order.total }}{{ orders[0] }}", "", ["order.total", "orders[0]"]),
            ("{{ order.items[0].name.first }}", "", ["order.items[0].name.first"]),
            ("{{ tags.first }}{{ tags[-1] }}", "", ["tags.first", "tags[-1]"]),
            ("{{ name | upcase }}", "", ["name"]),
            // The sixth audit: a variable given to a filter is needed too; the tag renders nothing
            // and that is its one finding (not also a failed truncate).
            ("[{{ order.items[0].name | date: fmt }}]", "[]", ["fmt"]),
            ("[{{ missing | default: fallback }}]", "[]", ["fallback"]),
            ("[{{ order.items[0].name | truncate: k }}]", "[]", ["k"]),
            // A variable present with the value null is not missing.
            ("[{{ n }}]", "[]", []),
            ("{% if name %}{{ name }}{% endif %}.", ".", []),
            // The forty-fifth audit, campaign L1: a loop's header names every variable it lacks.
            ("{% for i in x limit: k %}{{ i }}{% endfor %}", "", ["k", "x"]),
            ("{% for i in (a..b) %}{{ i }}{% endfor %}", "", ["a", "b"]),
        ]
        for (template, text, paths) in cases {
            let rendering = try Self.render(template, vars)
            #expect(rendering.text == text, "\(template)")
            #expect(rendering.problems == paths.map { .missingVariable($0) }, "\(template)")
        }
    }

    @Test("default stands in for a missing, nil, false or empty value, and makes a missing variable no problem")
    func defaults() throws {
        // Shopify Liquid docs, filters/default.
        #expect(try Self.render("{{ product_price | default: 2.99 }}").text == "2.99")
        #expect(try Self.render("{{ product_price | default: 2.99 }}", #"{"product_price": 4.99}"#).text == "4.99")
        #expect(try Self.render("{{ product_price | default: 2.99 }}", #"{"product_price": ""}"#).text == "2.99")
        #expect(try Self.render("{{ display_price | default: true, allow_false: true }}", #"{"display_price": false}"#).text == "false")
        let vars = #"{"f": false, "n": null, "e": "", "l": [], "o": {}, "zero": 0, "name": "Ada", "other": "Bo"}"#
        let cases: [(String, String)] = [
            (#"{{ missing | default: "friend" }}"#, "friend"),
            (#"{{ f | default: "x" }}{{ n | default: "y" }}{{ e | default: "z" }}{{ l | default: "w" }}{{ o | default: "v" }}"#, "xyzwv"),
            (#"{{ zero | default: "x" }}"#, "0"),
            ("{{ missing | default: other }}", "Bo"),
            (#"{{ missing | upcase | default: "later" }}"#, "later"),
            (#"{{ name | default: "friend" | upcase }}"#, "ADA"),
        ]
        for (template, text) in cases {
            let rendering = try Self.render(template, vars)
            #expect(rendering.text == text, "\(template)")
            #expect(rendering.problems == [], "\(template)")
        }
        // The default's own variable, missing, is: the text would lose its fallback (Shopify's
        // Liquid, strict, refuses it too; the sixth audit found it passed).
        #expect(try Self.render("{{ missing | default: absent }}") == LiquidRendering(text: "", problems: [.missingVariable("absent")]))
    }

    @Test("values are text: never read as a template again, nor changed")
    func valuesAreText() throws {
        let hostile = "{{ secret }} {% if true %}x{% endif %} \"q\" 'q' \\ \n\u{2028}\u{2029} <b>&amp;</b> \u{0}"
        let vars: JSONValue = ["name": .string(hostile), "secret": "leaked"]
        let template = try LiquidTemplate("[{{ name }}]")
        let rendering = template.render(vars, lenient: false, now: Self.now)
        #expect(rendering.text == "[" + hostile + "]")
        #expect(rendering.problems == [])
        #expect(template.render(vars, lenient: false, now: Self.now).text.utf8.elementsEqual(("[" + hostile + "]").utf8))
        // Nor through a filter or a condition.
        #expect(try LiquidTemplate("{{ name | upcase }}").render(["name": "{{ x }}"], lenient: false).text == "{{ X }}")
        #expect(try LiquidTemplate("{% if name contains '{{' %}y{% endif %}").render(["name": "{{ x }}"], lenient: false).text == "y")
    }

    /// Source: Shopify/liquid for_tag_test.rb test_for_else (a loop over nil renders its else);
    /// the thirty-fifth audit, F7: --lenient dropped the fallback with the loop.
    @Test("a loop over a list the recipient lacks renders its else, and the list is still a missing variable")
    func loopOverMissingList() throws {
        let template = try LiquidTemplate("[{% for i in items %}{{ i }}{% else %}none{% endfor %}]")
        let rendering = template.render([:], lenient: true)
        #expect(rendering.text == "[none]")
        #expect(rendering.problems == [.missingVariable("items")])
    }

    @Test("compiled once, a template renders each recipient alike and on its own")
    func renderMany() throws {
        let template = try LiquidTemplate("Hi {{ name | default: 'there' }}{% if vip %}, VIP{% endif %}")
        for n in 0..<200 {
            let vars: JSONValue = n % 3 == 0 ? [:] : ["name": .string("user\(n)"), "vip": .bool(n % 2 == 0)]
            let expected = n % 3 == 0 ? "Hi there" : "Hi user\(n)" + (n % 2 == 0 ? ", VIP" : "")
            #expect(template.render(vars, lenient: true).text == expected)
        }
    }
}
