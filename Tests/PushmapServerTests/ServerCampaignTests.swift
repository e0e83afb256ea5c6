import Foundation
import PushmapTestSupport
import Testing

/// `POST /v1/campaign` on the real server binary: the cases of `pushmap campaign`'s tests
/// (Tests/PushmapCLITests/CampaignCommandTests.swift), each answered byte for byte as the command
/// line writes it for the same intent, recipients, options and time.
@Suite("pushmap-server campaign", .serialized)
struct ServerCampaignTests {
    static let now = ["--now", "1800000000"]

    /// One campaign: the intent (any JSON layout; the body carries it on one line), the recipient
    /// lines, the command line's options and the same as query parameters.
    struct Case {
        var name: String
        var intent: String
        var recipients: [String]
        var options: [String] = []
        var query: String = ""
    }

    static let greeting = #"{"title": "Hello {{ first_name }}", "body": "Your {{ order.item }} shipped", "link": {"uri": "https://example.com/o/{{ order.id }}"}}"#
    static let localized = #"""
    {"title": "Hello {{ first_name }}", "body": "Your order shipped", "link": {"uri": "https://example.com/en"},
     "locales": {
       "fr": {"title": "Bonjour {{ first_name }}", "body": "Commande expédiée", "link": {"uri": "https://example.com/fr"}},
       "fr-CA": {"title": "Allo {{ first_name }}"}
     }}
    """#
    static let audience = [
        #"{"id": "a", "locale": "de-AT", "vars": {"first_name": "Anna"}}"#, #"{"id": "b"}"#,
        #"{"id": "c", "locale": "fr", "vars": {"first_name": "Luc"}}"#, #"{"id": "d"}"#,
    ]

    /// An intent whose APNS payload is over 4096 bytes by its body alone.
    static func oversize(_ body: String) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: ["title": "T", "body": body])) ?? Data(), as: UTF8.self)
    }

    /// The values of the command line's injection test, each a recipient's first_name.
    static let injected: [String] = [
        "say \"hi\"", #"back\slash"#, "two\nlines", "line\u{2028}separator", "{{ first_name }}", "{% if x %}y{% endif %}",
        "<b>bold</b><script>x</script>", #"","evil":"1"#,
    ].map { value in
        let vars = String(decoding: (try? JSONSerialization.data(withJSONObject: ["first_name": value])) ?? Data(), as: UTF8.self)
        return #"{"vars": \#(vars)}"#
    }

    static let cases: [Case] = [
        Case(name: "every filter and tag", intent: (try? CampaignTemplateCases.intent()) ?? "", recipients: [CampaignTemplateCases.recipient],
             options: ["--platform", "fcm"], query: "platform=fcm"),
        Case(name: "strict", intent: greeting, recipients: [
            #"{"id": "u-1", "vars": {"first_name": "Ann", "order": {"item": "lamp", "id": "A1"}}}"#,
            #"{"id": "u-2", "vars": {"order": {"item": "desk", "id": "A2"}}}"#,
        ], options: ["--platform", "apns"], query: "platform=apns"),
        Case(name: "lenient", intent: greeting, recipients: [#"{"vars": {"order": {"item": "desk", "id": "A2"}}}"#],
             options: ["--platform", "apns", "--lenient"], query: "platform=apns&lenient=true"),
        Case(name: "every string", intent: #"""
            {"title": "Hi {{ first_name | default: \"there\" }}", "body": "b",
             "buttons": [{"label": "Track {{ order.id }}", "uri": "https://e.com/{{ order.id }}"}],
             "data": {"order": "{{ order.id }}", "plain": "{ not a tag }"}}
            """#, recipients: [#"{"vars": {"order": {"id": "Z9"}}}"#], options: ["--platform", "apns"], query: "platform=apns"),
        Case(name: "injection-proof values", intent: #"{"title": "Hello {{ first_name }}", "body": "b"}"#, recipients: injected),
        Case(name: "locale chain", intent: localized, recipients: [
            #"{"id": "ca", "locale": "fr_ca", "vars": {"first_name": "Élise"}}"#, #"{"id": "be", "locale": "FR-be", "vars": {"first_name": "Jef"}}"#,
            #"{"id": "en", "locale": "en-GB", "vars": {"first_name": "Ann"}}"#, #"{"id": "none", "vars": {"first_name": "Bo"}}"#,
        ], options: ["--platform", "apns"], query: "platform=apns"),
        Case(name: "a layer's path", intent: localized, recipients: [#"{"locale": "fr-CA"}"#], options: ["--platform", "apns"], query: "platform=apns"),
        Case(name: "malformed recipients", intent: #"{"title": "Hi {{ first_name | default: \"you\" }}"}"#, recipients: [
            "not json", #"{"id": "u-2", "var": {}}"#, #"{"id": "u-3", "vars": []}"#, #"{"id": "u-4", "locale": "fr--CA"}"#,
            #"{"id": "u-5", "platform": "ios"}"#, "", #"{"id": 6}"#, #"{"id": "u-8"}"#,
        ], options: ["--platform", "apns"], query: "platform=apns"),
        Case(name: "target and platform", intent: #"{"title": "t", "body": "b", "target": {"topic": "news"}}"#, recipients: [
            #"{"target": {"token": "tok-1"}, "platform": "fcm"}"#, #"{"platform": "apns"}"#, #"{}"#,
        ]),
        Case(name: "request forms", intent: greeting, recipients: [#"{"vars": {"first_name": "A", "order": {"item": "i", "id": "1"}}}"#],
             options: ["--request", "--fcm-apns"], query: "request=true&fcmApns=true"),
        Case(name: "truncation", intent: oversize(String(repeating: "a", count: 5000)), recipients: ["{}"], options: ["--platform", "apns"], query: "platform=apns"),
        Case(name: "truncation at clusters", intent: oversize(["👨‍👩‍👧‍👦", "🇫🇷", "e\u{301}\u{327}", "漢", "🏳️‍🌈"].map { String(repeating: $0, count: 300) }.joined()),
             recipients: ["{}", #"{"platform": "fcm"}"#]),
        Case(name: "no truncation", intent: oversize(String(repeating: "x", count: 5000)), recipients: ["{}"],
             options: ["--platform", "apns", "--no-truncate"], query: "platform=apns&noTruncate=true"),
        Case(name: "check", intent: localized, recipients: audience, options: ["--check", "--format", "json"], query: "check=true"),
        Case(name: "date filter at the server's time", intent: #"{"title": "{{ \"now\" | date: \"%Y-%m-%d %H:%M\" }}", "body": "b"}"#, recipients: ["{}"]),
    ]

    /// The command line's output for the case, from files as a user runs it.
    static func cli(_ campaign: Case) throws -> (status: Int32, stdout: Data, stderr: String) {
        let folder = try ServerPaths.scratch("campaign")
        defer { try? FileManager.default.removeItem(at: folder) }
        let intent = folder.appendingPathComponent("intent.json")
        let recipients = folder.appendingPathComponent("recipients.ndjson")
        try Data(campaign.intent.utf8).write(to: intent)
        try Data((campaign.recipients.joined(separator: "\n") + "\n").utf8).write(to: recipients)
        return try runCommand(ServerPaths.cli.path, ["campaign", intent.path, recipients.path] + campaign.options + now)
    }

    /// The server's answer: the intent on one line (its line breaks are JSON whitespace), then the recipients.
    static func serve(_ campaign: Case, on server: ServerUnderTest) throws -> HTTPAnswer {
        let body = campaign.intent.replacingOccurrences(of: "\n", with: " ") + "\n" + campaign.recipients.joined(separator: "\n") + "\n"
        return try Curl.request(
            "POST", "\(server.baseURL)/v1/campaign?\(campaign.query)", body: Data(body.utf8), headers: ["Content-Type": "application/x-ndjson"])
    }

    @Test("each case of pushmap campaign's tests is answered with the bytes pushmap campaign writes")
    func sameBytes() throws {
        let server = try ServerUnderTest(Self.now)
        for campaign in Self.cases {
            let expected = try Self.cli(campaign)
            #expect(expected.status == 0 || expected.status == 1, "\(campaign.name): \(expected.stderr)")
            #expect(!expected.stdout.isEmpty, "\(campaign.name)")
            let answer = try Self.serve(campaign, on: server)
            #expect(answer.status == 200, "\(campaign.name): \(answer.text)")
            #expect(answer.headers["content-type"] == "application/x-ndjson", "\(campaign.name)")
            #expect(answer.text == String(decoding: expected.stdout, as: UTF8.self), "\(campaign.name)")
        }
    }

    @Test("the cases test what they say: each renders, fails, falls back or cuts as pushmap campaign's tests expect")
    func casesMeanSomething() throws {
        let server = try ServerUnderTest(Self.now)
        func text(_ name: String) throws -> String {
            try Self.serve(try #require(Self.cases.first { $0.name == name }), on: server).text
        }
        let strict = try text("strict")
        #expect(strict.contains(#"{"line":2,"id":"u-2","error":"#) && strict.contains(#""rule":"missing-variable""#), "\(strict)")
        #expect(try text("lenient").contains(#""title":"Hello ""#))
        #expect(try text("locale chain").contains(#""title":"Allo Élise""#))
        #expect(try text("locale chain").contains("no en-GB or en: sent in the default language"))
        #expect(try text("a layer's path").contains(#"$.locales[\"fr-CA\"].title"#))
        #expect(try text("injection-proof values").contains(#""title":"Hello \",\"evil\":\"1""#))
        #expect(try text("truncation").contains(#""rule":"truncated""#))
        #expect(try text("truncation at clusters").contains("…"))
        #expect(try text("no truncation").contains(#""rule":"apns-size""#))
        #expect(try text("check").hasSuffix(#"{"duplicateIds":{},"duplicateTargets":{},"failed":2,"localeFallbacks":{"de-AT":1},"missingVariables":{"first_name":2},"recipients":4,"translated":2,"truncated":{}}"# + "\n"))
        #expect(try text("date filter at the server's time").contains("2027-01-15 08:00"))
        #expect(try text("request forms").contains(#""headers":"#))
    }

    @Test("an intent that does not compile is a 400 naming each problem where pushmap campaign names it, and no line")
    func intentErrors() throws {
        let server = try ServerUnderTest(Self.now)
        let intents = [
            #"{"title": "t", "body": "Hi {{ first_name", "buttons": [{"label": "{% if x %}open"}]}"#,
            #"{"title": "t", "locales": {"fr": {"title": "x"}, "french!": {"title": "y"}, "de": "Hallo", "FR": {"body": "z"}}}"#,
            // Compiles, but is wrong whoever receives it: the command line says so before any
            // recipient, and so does the server.
            #"{"titel": "Hi {{ first_name }}", "badge": "3", "locales": {"fr-CA": {"android": {"chanel": "x"}}}}"#,
        ]
        for intent in intents {
            let campaign = Case(name: intent, intent: intent, recipients: [#"{"id": "u-1"}"#])
            let expected = try Self.cli(campaign)
            #expect(expected.status == 1)
            #expect(expected.stdout.isEmpty)
            let answer = try Self.serve(campaign, on: server)
            #expect(answer.status == 400, "\(answer.text)")
            let error = answer.object["error"] as? [String: Any]
            #expect(error?["kind"] as? String == "invalid intent")
            let diagnostics = error?["diagnostics"] as? [[String: Any]] ?? []
            #expect(diagnostics.count >= 2, "\(answer.text)")
            for diagnostic in diagnostics {
                let said = "error: \(diagnostic["path"] as? String ?? "?"): \(diagnostic["message"] as? String ?? "?") [\(diagnostic["rule"] as? String ?? "?")]"
                #expect(expected.stderr.contains(said), "\(said)\n\(expected.stderr)")
            }
        }
    }

    /// Source: the forty-fourth audit, campaign F1: a required field missing, or exclusive fields
    /// met in a layer merged over the base, were an error line per recipient, and the server
    /// answered 200 with them.
    @Test("a required field missing, or exclusive fields in a merged layer, is a 400 with the command line's one finding")
    func wholeIntentErrors() throws {
        let server = try ServerUnderTest(Self.now)
        let intents = [
            #"{"template": "carousel", "title": "t", "body": "b", "carousel": {"mode": "manual", "items": [{"text": "one"}, {"image": "https://e.com/2.png"}, {"image": "https://e.com/3.png"}]}}"#,
            #"{"template": "timer", "title": "t", "body": "b", "timer": {"duration": 60}, "locales": {"fr": {"timer": {"endsAt": 1767225700}}}}"#,
        ]
        for intent in intents {
            let campaign = Case(name: intent, intent: intent, recipients: [#"{"id": "u-1", "locale": "fr"}"#, #"{"id": "u-2", "locale": "fr"}"#])
            let expected = try Self.cli(campaign)
            #expect(expected.status == 1 && expected.stdout.isEmpty, "\(expected.stdout)")
            let answer = try Self.serve(campaign, on: server)
            #expect(answer.status == 400, "\(answer.text)")
            let diagnostics = (answer.object["error"] as? [String: Any])?["diagnostics"] as? [[String: Any]] ?? []
            #expect(diagnostics.count == 1, "\(answer.text)")
            for diagnostic in diagnostics {
                let said = "error: \(diagnostic["path"] as? String ?? "?"): \(diagnostic["message"] as? String ?? "?") [\(diagnostic["rule"] as? String ?? "?")]"
                #expect(expected.stderr.contains(said), "\(said)\n\(expected.stderr)")
            }
        }
    }

    /// Source: the twenty-eighth audit, F2: the repository's own examples/campaign/welcome.json,
    /// written over several lines, sent with its recipients, got "1:2: unexpected end of input".
    @Test("an intent written over several lines is a 400 that says the intent is the body's first line, whole")
    func multiLineIntent() throws {
        let server = try ServerUnderTest(Self.now)
        let intent = try String(contentsOf: ServerPaths.root.appendingPathComponent("examples/campaign/welcome.json"), encoding: .utf8)
        let recipients = try String(contentsOf: ServerPaths.root.appendingPathComponent("examples/campaign/recipients.ndjson"), encoding: .utf8)
        #expect(intent.contains("\n{") || intent.hasPrefix("{\n"), "the example is written over several lines")
        let answer = try Curl.request(
            "POST", "\(server.baseURL)/v1/campaign?platform=apns", body: Data((intent + recipients).utf8), headers: ["Content-Type": "application/x-ndjson"])
        #expect(answer.status == 400, "\(answer.text)")
        #expect(answer.text.contains("unexpected end of input; the intent must be the body's first line, whole"), "\(answer.text)")
    }

    @Test("a large campaign streams: 5,000 recipients in one body, each answered in order, as the command line answers them")
    func streamed() throws {
        let server = try ServerUnderTest(Self.now)
        let recipients = (1...5_000).map { #"{"id": "u-\#($0)", "locale": "\#(["fr", "fr-CA", "de", "en"][$0 % 4])", "vars": {"first_name": "N\#($0)"}}"# }
        let campaign = Case(name: "large", intent: Self.localized, recipients: recipients, options: ["--platform", "fcm"], query: "platform=fcm")
        let answer = try Self.serve(campaign, on: server)
        #expect(answer.status == 200)
        let expected = try Self.cli(campaign)
        #expect(answer.body == expected.stdout)
        #expect(answer.text.split(separator: "\n").count == 5_000)
    }

    @Test("/metrics counts the recipients by outcome, missing variables, locale fallbacks and truncations by field")
    func metrics() throws {
        let server = try ServerUnderTest(Self.now)
        for name in ["check", "truncation", "strict"] {
            _ = try Self.serve(try #require(Self.cases.first { $0.name == name }), on: server)
        }
        let metrics = try Curl.get("\(server.baseURL)/metrics").text
        // check: 2 translated, 2 failed (first_name twice), de-AT sent in the default language;
        // truncation: 1 translated, its body cut; strict: 1 translated, 1 failed (first_name).
        for sample in [
            #"pushmap_campaign_recipients_total{outcome="translated"} 4"#, #"pushmap_campaign_recipients_total{outcome="failed"} 3"#,
            "pushmap_campaign_missing_variables_total 3", "pushmap_campaign_locale_fallbacks_total 1",
            #"pushmap_campaign_truncations_total{field="$.body"} 1"#, #"pushmap_http_requests_total{route="/v1/campaign",status="200"} 3"#,
        ] {
            #expect(metrics.contains(sample + "\n"), "\(sample)\n\(metrics)")
        }
    }

    /// A campaign body of `count` recipients sent by curl at 20 KB/s, about `count * 50` bytes.
    static func slowCampaign(_ server: ServerUnderTest, count: Int) throws -> RunningProcess {
        let input = server.scratch.appendingPathComponent("campaign.ndjson")
        let recipients = (1...count).map { #"{"id": "u-\#($0)", "vars": {"first_name": "Name \#($0)"}}"# }
        try Data((Self.greeting.replacingOccurrences(of: "{{ order.item }}", with: "order").replacingOccurrences(of: "{{ order.id }}", with: "1")
            + "\n" + recipients.joined(separator: "\n") + "\n").utf8).write(to: input)
        return try RunningProcess(
            URL(fileURLWithPath: "/usr/bin/curl"),
            ["-s", "-H", "Expect:", "--max-time", "20", "--limit-rate", "20000", "-H", "Content-Type: application/x-ndjson", "--data-binary", "@" + input.path,
             "\(server.baseURL)/v1/campaign?platform=fcm"],
            scratch: server.scratch, label: "client")
    }

    @Test("a campaign holds its concurrency slot while it streams: another request is 503 until it ends")
    func holdsSlot() throws {
        let server = try ServerUnderTest(["--max-concurrent-requests", "1"] + Self.now)
        let client = try Self.slowCampaign(server, count: 800)
        defer { client.stop() }
        usleep(700_000)
        let busy = try Curl.get("\(server.baseURL)/v1/templates")
        #expect(busy.status == 503, "\(busy.text)")
        #expect(client.wait(seconds: 20) == 0)
        let answered = client.stdout.split(separator: "\n")
        #expect(answered.count == 800)
        #expect(answered.last?.hasPrefix(#"{"line":800,"id":"u-800","fcm":"#) == true)
        #expect(try Curl.get("\(server.baseURL)/v1/templates").status == 200)
    }

    @Test("a campaign stream stops at --batch-timeout-ms with a timeout line naming the recipients answered")
    func timeLimit() throws {
        let server = try ServerUnderTest(["--batch-timeout-ms", "400"] + Self.now)
        let client = try Self.slowCampaign(server, count: 800)
        defer { client.stop() }
        _ = client.wait(seconds: 20)
        let answered = client.stdout.split(separator: "\n")
        #expect(answered.count > 1 && answered.count < 800, "\(answered.count) lines")
        let last = try #require(answered.last)
        #expect(last.hasPrefix(#"{"error":{"kind":"timeout","message":"the campaign took longer than its limit; recipients after "#), "\(last)")
        #expect(last.contains("after \(answered.count - 1) were not read"), "\(last)")
    }
}
