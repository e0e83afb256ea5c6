import Foundation
import PushmapTestSupport
import Testing

/// Whole numbers of a recipient's `vars` beyond 64 bits (a 20-digit order number) through
/// `pushmap campaign`. Source: Shopify/liquid, docs (gh-pages) `_basics/types.md`, "Number":
/// Ruby keeps such an integer exactly, so Liquid prints `12345678901234567890`, not a rounded
/// Double; the answers below are Debian's ruby-liquid 5.4's for the same template and vars.
@Suite("pushmap campaign: whole numbers beyond 64 bits")
struct CampaignWholeNumberTests {
    static let vars = #"{"n": 12345678901234567890, "same": 12345678901234567890, "m": -92233720368547758090, "list": [1, 12345678901234567890], "f": 1.5e19, "o": {"id": 99999999999999999999}}"#

    static func data(_ result: CommandRunner.Result) -> [String: Any]? {
        let line = CampaignCommandTests.lines(result.stdout).first
        return ((line?["fcm"] as? [String: Any])?["message"] as? [String: Any])?["data"] as? [String: Any]
    }

    @Test("printed, filtered and compared exactly, as Liquid does")
    func exact() throws {
        let intent = #"""
            {"title": "T", "body": "b", "data": {
              "print": "{{ n }}|{{ n | truncate: 5 }}|{{ list }}|{{ m }}|{{ o.id }}|{{ o }}",
              "compare": "{% if n > 5 %}gt{% endif %}{% if n == same %}eq{% endif %}{% if m < 0 %}neg{% endif %}{% if n > m %}nm{% endif %}{% if list contains n %}in{% endif %}{% if n == 5 %}no{% endif %}"}}
            """#
        let result = try CampaignCommandTests.campaign(intent, [#"{"id": "u-1", "vars": \#(Self.vars)}"#], ["--platform", "fcm"])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        let data = try #require(Self.data(result), "\(result.stdout)")
        #expect(data["print"] as? String == "12345678901234567890|12...|112345678901234567890|-92233720368547758090|99999999999999999999|{\"id\":99999999999999999999}")
        #expect(data["compare"] as? String == "gteqnegnmin")
    }

    /// Source: the twelfth audit (cases 2 and 3): `uniq` kept the same 20-digit order number
    /// twice ("3 orders shipped"), and `sort` refused two of them, its message showing the
    /// numbers' inner form. The answers are ruby-liquid 5.4's for the same template and vars.
    @Test("uniq and sort take them by their digits, as Liquid does, in lists and by a member")
    func listFilters() throws {
        let vars = #"{"ids": [98765432109876543210, 12345678901234567890, 98765432109876543210, 5], "os": [{"id": 98765432109876543210}, {"id": 12345678901234567890}, {"id": 98765432109876543210}], "mixed": [12345678901234567890, "x"]}"#
        let intent = #"""
            {"title": "T", "body": "b", "data": {
              "lists": "{{ ids | uniq | join: ',' }}|{{ ids | sort | join: ',' }}|{{ os | uniq: 'id' | map: 'id' | join: ',' }}|{{ os | sort: 'id' | map: 'id' | join: ',' }}|{{ os | uniq | size }}"}}
            """#
        let result = try CampaignCommandTests.campaign(intent, [#"{"id": "u-1", "vars": \#(vars)}"#], ["--platform", "fcm"])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        let data = try #require(Self.data(result), "\(result.stdout)")
        #expect(data["lists"] as? String == "98765432109876543210,12345678901234567890,5|5,12345678901234567890,98765432109876543210,98765432109876543210|98765432109876543210,12345678901234567890|12345678901234567890,98765432109876543210,98765432109876543210|2")
        // A number and a text do not sort together; the message shows the number as written.
        let refused = try CampaignCommandTests.campaign(#"{"title": "T", "body": "b", "data": {"x": "{{ mixed | sort | join }}"}}"#, [#"{"id": "u-1", "vars": \#(vars)}"#], ["--platform", "fcm"])
        let line = try #require(CampaignCommandTests.lines(refused.stdout).first)
        let message = CampaignCommandTests.diagnostics(line).first?["message"] as? String
        #expect(message?.hasPrefix("sort: Cannot sort ") == true, "\(refused.stdout)")
        #expect(message?.contains(#"12345678901234567890 and "x""#) == true || message?.contains(#""x" and 12345678901234567890"#) == true, "\(refused.stdout)")
    }

    @Test("where it cannot stay exact, the recipient fails with one line naming the variable")
    func refused() throws {
        let cases = [
            ("{% if n > f %}x{% endif %}", "n is 12345678901234567890", "render-failed"),
            ("{{ n | date: '%Y' }}", "n is 12345678901234567890", "filter-failed"),
        ]
        for (template, named, rule) in cases {
            let intent = #"{"title": "T", "body": "b", "data": {"x": "\#(template)"}}"#
            let result = try CampaignCommandTests.campaign(intent, [#"{"id": "u-1", "vars": \#(Self.vars)}"#], ["--platform", "fcm"])
            #expect(result.status == 1, "\(template): \(result.stdout)")
            let line = try #require(CampaignCommandTests.lines(result.stdout).first, "\(template)")
            let diagnostics = CampaignCommandTests.diagnostics(line)
            #expect(diagnostics.count == 1, "\(template): \(diagnostics)")
            #expect(diagnostics.first?["rule"] as? String == rule, "\(template): \(diagnostics)")
            #expect((diagnostics.first?["message"] as? String)?.contains(named) == true, "\(template): \(diagnostics)")
        }
    }
}

extension CampaignWholeNumberTests {
    /// Source: the twenty-second audit (C1, N1): `increment` of a recipient's largest 64-bit
    /// integer (or `decrement` of the smallest) trapped the process, every recipient's line lost;
    /// one beyond 64 bits was counted from 0. Ruby goes on with a bignum, which pushmap does not
    /// show rounded: that recipient fails, with one line, and the others are translated.
    @Test("increment and decrement past 64 bits, or from a number beyond them, fail that recipient alone")
    func counters() throws {
        let intent = #"{"title": "{% increment c %}{% decrement d %}", "body": "b"}"#
        let recipients = [
            #"{"id": "a", "vars": {"c": 1, "d": 1}}"#,
            #"{"id": "b", "vars": {"c": 9223372036854775807, "d": 1}}"#,
            #"{"id": "c", "vars": {"c": 1, "d": -9223372036854775808}}"#,
            #"{"id": "d", "vars": {"c": 12345678901234567890, "d": 1}}"#,
            #"{"id": "e", "vars": {"c": 2, "d": 2}}"#,
        ]
        let result = try CampaignCommandTests.campaign(intent, recipients, ["--platform", "fcm"])
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        let lines = CampaignCommandTests.lines(result.stdout)
        #expect(lines.count == 5)
        let titles = lines.map { ((($0["fcm"] as? [String: Any])?["message"] as? [String: Any])?["data"] as? [String: Any])?["adb_title"] as? String }
        #expect(titles == ["10", nil, nil, nil, "21"])
        let messages = lines.map { CampaignCommandTests.diagnostics($0).first?["message"] as? String }
        #expect(messages[1] == "'increment c' would pass 64 bits: c is 9223372036854775807.")
        #expect(messages[2] == "'decrement d' would pass 64 bits: d is -9223372036854775808.")
        #expect(messages[3] == "c is 12345678901234567890, a whole number beyond 64 bits: 'increment' cannot use it exactly.")
    }
}
