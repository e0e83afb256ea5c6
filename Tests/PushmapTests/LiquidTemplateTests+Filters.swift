import Foundation
@_spi(Tools) @testable import Pushmap
import PushmapJSON
import Testing

extension LiquidTemplateTests {
    static let filters: [Case] = [
        // Shopify Liquid docs, filters/upcase, filters/downcase, filters/capitalize.
        Case(#"{{ "Parker Moore" | upcase }}"#, "{}", "PARKER MOORE"),
        Case(#"{{ "APPLE" | upcase }}"#, "{}", "APPLE"),
        Case(#"{{ "Parker Moore" | downcase }}"#, "{}", "parker moore"),
        Case(#"{{ "apple" | downcase }}"#, "{}", "apple"),
        Case(#"{{ "title" | capitalize }}"#, "{}", "Title"),
        Case(#"{{ "my GREAT title" | capitalize }}"#, "{}", "My great title"),
        Case("{{ name | upcase }} {{ name | downcase }} {{ name | capitalize }}", #"{"name": "élodie ÇA"}"#, "ÉLODIE ÇA élodie ça Élodie ça"),
        Case("{{ n | upcase }}{{ empty_text | capitalize }}", #"{"n": 12, "empty_text": ""}"#, "12"),
        // Shopify Liquid docs, filters/truncate.
        Case(#"{{ "Ground control to Major Tom." | truncate: 20 }}"#, "{}", "Ground control to..."),
        Case(#"{{ "Ground control to Major Tom." | truncate: 25, ", and so on" }}"#, "{}", "Ground control, and so on"),
        Case(#"{{ "Ground control to Major Tom." | truncate: 20, "" }}"#, "{}", "Ground control to Ma"),
        // shopify.dev, Liquid filters: truncate (15 characters keep the space after "if").
        Case("{{ article.title | truncate: 15 }}", #"{"article": {"title": "How to tell if you're out of invisibility potion"}}"#, "How to tell ..."),
        Case("{{ article.title | truncate: 15, '--' }}", #"{"article": {"title": "How to tell if you're out of invisibility potion"}}"#, "How to tell i--"),
        Case("{{ article.title | truncate: 15, '' }}", #"{"article": {"title": "How to tell if you're out of invisibility potion"}}"#, "How to tell if "),
        Case("{{ 'short' | truncate: 5 }}|{{ 'short' | truncate: 4 }}|{{ 'short' | truncate: 2 }}|{{ 'short' | truncate: 0, '' }}", "{}", "short|s...|...|"),
        Case("{{ 'abc' | truncate: n }}{{ 'abcdef' | truncate: '4', e }}", #"{"n": 2, "e": "~"}"#, "...abc~"),
        // Shopify Liquid docs, filters/date.
        Case(#"{{ article.published_at | date: "%a, %b %d, %y" }}"#, #"{"article": {"published_at": "2015-07-17"}}"#, "Fri, Jul 17, 15"),
        Case(#"{{ article.published_at | date: "%Y" }}"#, #"{"article": {"published_at": "2015-07-17"}}"#, "2015"),
        Case(#"{{ "now" | date: "%Y-%m-%d %H:%M" }}"#, "{}", "2026-11-26 10:00"),
        Case(#"{{ "today" | date: "%Y-%m-%d" }}|{{ "Now" | date: "%s" }}"#, "{}", "2026-11-26|1795687200"),
    ]

    @Test("each filter does what Liquid's documentation shows", arguments: filters)
    func filter(_ example: Case) throws {
        let rendering = try Self.render(example.template, example.vars)
        #expect(rendering.text == example.expected)
        #expect(rendering.problems == [])
    }

    /// Texts whose characters are several scalars each: a family emoji (7 scalars), flags (2),
    /// a letter with a combining accent (2), and CJK.
    static let truncations: [(text: String, length: Int, expected: String)] = [
        ("👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦", 3, "..."),
        ("👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦", 4, "👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦"),
        ("👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦x", 4, "👨‍👩‍👧‍👦..."),
        ("🇫🇷🇩🇪🇮🇹🇪🇸🇬🇧", 5, "🇫🇷🇩🇪🇮🇹🇪🇸🇬🇧"),
        ("🇫🇷🇩🇪🇮🇹🇪🇸🇬🇧", 4, "🇫🇷..."),
        ("e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}", 4, "e\u{301}..."),
        ("e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}", 5, "e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}"),
        ("東京都渋谷区神南一丁目", 6, "東京都..."),
        ("한국어 텍스트입니다", 5, "한국..."),
    ]

    @Test("truncate counts characters and never cuts inside one", arguments: truncations)
    func truncateCharacters(_ example: (text: String, length: Int, expected: String)) throws {
        let vars: JSONValue = ["t": .string(example.text)]
        let rendering = try LiquidTemplate("{{ t | truncate: \(example.length) }}").render(vars, lenient: false)
        #expect(rendering.text.unicodeScalars.elementsEqual(example.expected.unicodeScalars))
        #expect(rendering.text.count <= max(example.length, 3))
        #expect(try LiquidTemplate("{{ t | truncate: 1, '' }}").render(vars, lenient: false).text == String(example.text.first!))
    }

    static let dates: [(input: String, format: String, expected: String)] = [
        // POSIX strftime and Ruby's Time#strftime, which Liquid's date filter calls.
        (#""2026-11-26T10:00:00Z""#, "%Y-%m-%d %H:%M:%S", "2026-11-26 10:00:00"),
        // A time with an offset is written in it, as Ruby keeps it (the sixth audit: it was moved to UTC).
        (#""2026-11-26T10:00:00+02:00""#, "%H:%M %Z %z", "10:00  +0200"),
        (#""2026-11-26T10:00:00-0530""#, "%H:%M %s", "10:00 1795707000"),
        (#""2026-11-26 10:00""#, "%I:%M %p", "10:00 AM"),
        (#""2026-11-26T23:59:59.999Z""#, "%l %p %P %k", "11 PM pm 23"),
        ("1795687200", "%A %B %e %j %u %w %y %C", "Thursday November 26 330 4 4 26 20"),
        (#""1795687200""#, "%a %b %d", "Thu Nov 26"),
        ("1795687200.9", "%S %s", "00 1795687200"),
        (#""2024-02-29T23:59:59Z""#, "%F %T %D %R %r", "2024-02-29 23:59:59 02/29/24 23:59 11:59:59 PM"),
        (#""2026-01-05T07:08:09Z""#, "%-d/%-m %e|%_H|%-I %l %j %^a %^B %h %%", "5/1  5| 7|7  7 005 MON JANUARY Jan %"),
        ("0", "%c", "Thu Jan  1 00:00:00 1970"),
        ("-1", "%F %T", "1969-12-31 23:59:59"),
        (#""0001-01-01""#, "%Y %a", "0001 Mon"),
        (#""2026-11-26""#, "%Q %", "%Q %"),
        (#""2026-11-26""#, "no directive", "no directive"),
        // ruby/ruby test/ruby/test_time.rb, in UTC: test_strftime_subsec, test_strftime_flags,
        // test_strftime_weekflags, test_strftime_ctrlchar, test_strfimte_zoneoffset (no `-`: pushmap's
        // times are not Ruby's UTC mode), test_strftime_padding (offset 0), test_strftime (%U %W),
        // test_strftime_invalid_flags, test_strftime_invalid_modifier, test_strftime_wide_precision,
        // test_strftime_sec.
        (#""2000-01-01T00:00:00.123456789Z""#, "%3N|%6N|%9N|%10N|%0N|%L", "123|123456|123456789|1234567890|123456789|123"),
        (#""2001-10-01T14:00:00Z""#, "%p %#p %P %#P %_I %0k %^a %^b", "PM pm pm PM  2 14 MON OCT"),
        ("946684800", "%^Z %#Z %^c|%#a %#A %#b %#B %#h", "UTC utc SAT JAN  1 00:00:00 2000|SAT SATURDAY JAN JANUARY JAN"),
        ("946684800", "%3t|%03t|%3n|%03n", "  \t|00\t|  \n|00\n"),
        ("946684800", "%z %:z %::z %:::z %U %W", "+0000 +00:00 +00:00:00 +00 00 00"),
        ("946684800", "%_10z|%10z|%_10:z|%10:z|%_10::z|%10::z", "      +000|+000000000|     +0:00|+000000:00|  +0:00:00|+000:00:00"),
        ("946684800", "%4^p|%:y|%:0z|%:10z|%Ob|%Eb|%O0y", "%4^p|%:y|%:0z|%:10z|%Ob|%Eb|%O0y"),
        ("946684800", "[%28c]|%3S", "[    Sat Jan  1 00:00:00 2000]|000"),
        // ISO 8601 weeks near New Year (Ruby's Time#strftime, checked with ruby -e).
        (#""2024-12-31""#, "%U %W %V %G %g %v", "52 53 01 2025 25 31-DEC-2024"),
        (#""2021-01-01""#, "%U %W %V %G %g", "00 00 53 2020 20"),
        (#""2026-01-05T07:08:09Z""#, "%v|%4v|%-V|%OV", " 5-JAN-2026| 5-JAN-2026|2|02"),
        // The audit's L02 and L03 (Liquid hands the format to Ruby's Time#strftime).
        ("1795687200", "%U|%W|%V|%G|%g|%v|%:z|%::z|%010Y|%-5d|%_5d|%^10B|%Ey|%#p", "47|47|48|2026|26|26-NOV-2026|+00:00|+00:00:00|0000002026|26|   26|  NOVEMBER|26|am"),
        (#""2026-11-26T10:00:00.123456Z""#, "%L|%N|%3N", "123|123456000|123"),
        ("1795687200.5", "%L|%N", "500|500000000"),
        // The audit's L13 and L20: ISO 8601 basic and ordinal dates, an offset after a space (Ruby's Time.parse).
        (#""20261126T100509Z""#, "%F %T", "2026-11-26 10:05:09"),
        (#""20261126T100509.25+0200""#, "%F %T %L", "2026-11-26 10:05:09 250"),
        (#""2026-330""#, "%F", "2026-11-26"),
        (#""2026-11-26 10:05:09 +0000""#, "%F %T", "2026-11-26 10:05:09"),
        (#""2026-11-26 10:05:09 -05:30""#, "%F %T %:z", "2026-11-26 10:05:09 -05:30"),
    ]

    @Test("date reads epoch seconds and ISO 8601 and writes strftime formats in UTC, or in the offset given", arguments: dates)
    func date(_ example: (input: String, format: String, expected: String)) throws {
        let rendering = try Self.render("{{ when | date: f }}", #"{"when": \#(example.input), "f": "\#(example.format)"}"#)
        #expect(rendering.text == example.expected)
        #expect(rendering.problems == [])
    }

    @Test("a value a filter cannot use is a filterFailed problem and renders empty")
    func filterFailures() throws {
        let vars = #"{"fruit": "banana", "list": [1], "bad_month": "2026-13-01", "feb": "2025-02-29", "far": 1e300, "trailing": "2026-11-26T10:00:00Zjunk", "n": 5, "mixed": "2026-11-26T1005", "day366": "2026-366", "late": "2026-11-26T24:00:01"}"#
        let failing = [
            #"{{ fruit | date: "%Y" }}"#, "{{ list | date: '%Y' }}", "{{ bad_month | date: '%Y' }}", "{{ feb | date: '%Y' }}",
            "{{ mixed | date: '%Y' }}", "{{ day366 | date: '%Y' }}", "{{ late | date: '%Y' }}",
            "{{ far | date: '%Y' }}", "{{ trailing | date: '%Y' }}", "{{ 99999999999999 | date: '%Y' }}",
            "{{ 'now' | date: n }}", "{{ 'abc' | truncate: 'many' }}", "{{ 'abc' | truncate: 1.5 }}",
        ]
        for template in failing {
            let rendering = try Self.render(template, vars)
            #expect(rendering.text == "", "\(template)")
            guard case .filterFailed(let filter, let message)? = rendering.problems.first, rendering.problems.count == 1 else {
                Issue.record("\(template): \(rendering.problems)")
                continue
            }
            #expect(["date", "truncate"].contains(filter))
            #expect(!message.isEmpty && !message.contains("\n"))
        }
        let banana = try Self.render(#"[{{ fruit | date: "%Y" }}]"#, vars)
        #expect(banana.text == "[]")
        #expect(banana.problems == [.filterFailed(filter: "date", message: "'date' cannot read \"banana\" as a time; give epoch seconds, an ISO 8601 date such as 2026-11-26T10:00:00Z or an English one such as March 14, 2016.")])
        // Places past 32 bits fail the recipient, as Ruby's RangeError does (the twentieth audit, N9).
        for places in ["2147483648", "-9223372036854775808"] {
            let huge = try Self.render("[{{ 0.1 | round: \(places) }}]", vars)
            #expect(huge.problems.count == 1 && huge.text == "[]", "\(places): \(huge)")
        }
        #expect(try Self.render("[{{ 0.15 | round: 2147483647 }}]", vars).text == "[0.15]")
        // Epoch seconds are digits only, as Liquid's /\A\d+\z/ (the twentieth audit, N8: "+5" read as 5).
        let signed = try Self.render(#"[{{ "+5" | date: "%s" }}]"#, vars)
        #expect(signed.problems.count == 1 && signed.text == "[]", "\(signed)")
        #expect(try Self.render(#"[{{ "42" | date: "%s" }}]"#, vars).text == "[42]")
        // Nothing to format stays nothing, as Liquid leaves nil and "" alone.
        #expect(try Self.render("[{{ n2 | date: '%Y' }}{{ '' | date: '%Y' }}]", #"{"n2": null}"#) == LiquidRendering(text: "[]", problems: []))
    }
}

extension LiquidTemplateTests {
    /// The filter-failed problem a rendering gives, or nil.
    static func filterFailure(_ rendering: LiquidRendering) -> String? {
        for problem in rendering.problems {
            if case .filterFailed(let filter, _) = problem { return filter }
        }
        return nil
    }

    // pushmap's limits: a template is the team's, the values a recipient's; neither may make a
    // filter build gigabytes or search for minutes.
    @Test("filters that grow a text stop at the output limit, before building it, and searches stay linear")
    func filterLimits() throws {
        let text = String(repeating: "ab", count: 5000)
        // An empty pattern matches 10,001 times: 100 MB if built.
        let replaced = try LiquidTemplate("{{ s | replace: '', s }}").render(["s": .string(text)], lenient: false)
        #expect(Self.filterFailure(replaced) == "replace")
        #expect(replaced.text.isEmpty)
        // Each append doubles the text: refused at the step past 64 KiB.
        let chain = "{{ s" + String(repeating: " | append: s", count: 40) + " }}"
        #expect(Self.filterFailure(try LiquidTemplate(chain).render(["s": .string(text)], lenient: false)) == "append")
        // A long glue between many items.
        let items = JSONValue.array(Array(repeating: .string("x"), count: 10_000))
        let joined = try LiquidTemplate("{{ list | join: s }}").render(["list": items, "s": .string(text)], lenient: false)
        #expect(Self.filterFailure(joined) == "join")
        // Growth within the limit is fine, and a long value may shrink.
        #expect(try LiquidTemplate("{{ s | replace: 'a', 'xy' | size }}").render(["s": .string(text)], lenient: false).text == "15000")
        let long = String(repeating: "a", count: 100_000)
        #expect(try LiquidTemplate("{{ s | remove: 'a' | size }}").render(["s": .string(long)], lenient: false).text == "0")
        // A long near-match looked for in a long value: linear, not the product of the lengths
        // (half a million comparisons of a megabyte each, for a naive search: this test would
        // not end within CI's time). Not timed: speed is measured by benchmarks.
        let haystack = String(repeating: "a", count: 1 << 20), needle = String(repeating: "a", count: 1 << 19) + "b"
        let vars: JSONValue = ["h": .string(haystack), "n": .string(needle)]
        for filter in ["remove", "remove_first", "remove_last", "split"] {
            let rendering = try LiquidTemplate("{{ h | \(filter): n | size }}").render(vars, lenient: false)
            #expect(rendering.text == (filter == "split" ? "1" : "1048576"), "\(filter)")
        }
        // Thousands of unclosed script tags and lone '<' in strip_html: one pass each.
        let tags = String(repeating: "<script <", count: 20_000)
        #expect(try LiquidTemplate("{{ h | strip_html | size }}").render(["h": .string(tags)], lenient: false).text == "180000")
    }

    @Test("math filters fail, naming the filter, where Liquid would show Infinity or a number past 64 bits")
    func mathFailures() throws {
        for template in ["{{ 1 | divided_by: 0 }}", "{{ 1.5 | divided_by: 0.0 }}", "{{ 7 | modulo: 0 }}",
                         "{{ 9223372036854775807 | plus: 1 }}", "{{ -9223372036854775807 | minus: 2 }}",
                         "{{ 9223372036854775807 | times: 2 }}", "{{ '99999999999999999999' | plus: 0 }}",
                         "{{ 'x' | slice: 'a' }}", "{{ '%FF' | url_decode }}", "{{ '!!' | base64_decode }}"] {
            let rendering = try LiquidTemplate(template).render([:], lenient: false)
            #expect(Self.filterFailure(rendering) != nil, "\(template): \(rendering.text)")
        }
        // Extreme arguments neither trap nor hang.
        for template in ["{{ 1.5 | round: -9223372036854775808 }}", "{{ 15 | round: -9223372036854775807 }}", "{{ 1.5 | round: 9223372036854775807 }}",
                         "{{ 'abc' | slice: -9223372036854775808, 9223372036854775807 }}", "{{ 'a b' | truncatewords: 9223372036854775807 }}",
                         "{{ -9223372036854775807 | minus: 1 | abs }}"] {
            _ = try LiquidTemplate(template).render([:], lenient: false)
        }
    }
}

extension LiquidTemplateTests {
    // shopify.github.io/liquid/filters/date reads "March 14, 2016"; Ruby's Time.parse the forms below.
    @Test("date reads English dates with the month by name, and refuses a text it would have to guess at")
    func englishDates() throws {
        let read: [(String, String)] = [
            ("March 14, 2016", "2016-03-14 00:00 +0000"), ("mar 14 2016", "2016-03-14 00:00 +0000"),
            ("14 March 2016 21:30", "2016-03-14 21:30 +0000"), ("Sunday, 14 Mar. 2016 9pm", "2016-03-14 21:00 +0000"),
            ("Tue, 15 Mar 2016 10:05:09 -0330", "2016-03-15 10:05 -0330"), ("December 25", "2026-12-25 00:00 +0000"),
            ("Feb 29, 2024 12:00 am GMT", "2024-02-29 00:00 +0000"),
        ]
        for (text, expected) in read {
            let rendering = try Self.render(#"{{ t | date: "%Y-%m-%d %H:%M %z" }}"#, #"{"t": "\#(text)"}"#)
            #expect(rendering.text == expected, "\(text)")
            #expect(rendering.problems == [], "\(text)")
        }
        for text in ["March", "March 32, 2016", "Feb 30 2016", "Smarch 14 2016", "14 March 2016 25:00", "March 14 2016 13 pm",
                     "2016 March 14", "March 14, 2016 +2500", "March 14, 2016 10:00 UTC UTC", "March April 14 2016", "14 March 2016 tomorrow"] {
            let rendering = try Self.render(#"{{ t | date: "%Y" }}"#, #"{"t": "\#(text)"}"#)
            #expect(Self.filterFailure(rendering) == "date", "\(text): \(rendering.text)")
        }
    }
}

extension LiquidTemplateTests {
    @Test("docs/campaign.md lists every filter there is, and no other")
    func filtersDocumented() throws {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/campaign.md")
        let text = try String(contentsOf: page, encoding: .utf8)
        let section = try #require(text.range(of: "## Filters").map { text[$0.upperBound...] })
        let table = section.split(separator: "\n").prefix { !$0.hasPrefix("They behave") }.filter { $0.hasPrefix("| ") }
        let listed = Set(table.flatMap { row in row.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) } })
        #expect(listed == Set(LiquidFilter.names))
    }

    @Test("docs/campaign.md names every tag there is, and the ones refused")
    func tagsDocumented() throws {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/campaign.md")
        let text = try String(contentsOf: page, encoding: .utf8)
        let paragraph = try #require(text.components(separatedBy: "\n\n").first { $0.contains("Any string of an intent may hold") })
        for tag in LiquidParser.tags where !tag.hasPrefix("end") {
            #expect(paragraph.contains("{% \(tag)") || paragraph.contains("`\(tag)`"), "docs/campaign.md does not name the tag \(tag)")
        }
        for tag in LiquidParser.unsupported {
            #expect(paragraph.contains("`\(tag)`"), "docs/campaign.md does not say \(tag) is refused")
        }
    }
}
