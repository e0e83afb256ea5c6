import Foundation
import Testing

@Suite("pushmap campaign")
struct CampaignCommandTests {
    /// A folder with the intent and the recipients, removed at the end.
    struct Files {
        let folder: URL

        init(intent: String, recipients: [String]) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushmap-campaign-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(intent.utf8).write(to: folder.appendingPathComponent("intent.json"))
            try Data((recipients.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("recipients.ndjson"))
        }

        func run(_ options: [String] = []) throws -> CommandRunner.Result {
            defer { try? FileManager.default.removeItem(at: folder) }
            return try CommandRunner.run(["campaign", "intent.json", "recipients.ndjson"] + options, directory: folder)
        }
    }

    static func campaign(_ intent: String, _ recipients: [String], _ options: [String] = []) throws -> CommandRunner.Result {
        try Files(intent: intent, recipients: recipients).run(options)
    }

    static func lines(_ output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap { CommandRunner.json(String($0)) as? [String: Any] }
    }

    static func apnsAlert(_ line: [String: Any]) -> [String: Any]? {
        ((line["apns"] as? [String: Any])?["aps"] as? [String: Any])?["alert"] as? [String: Any]
    }

    static func diagnostics(_ line: [String: Any]) -> [[String: Any]] {
        ((line["error"] as? [String: Any])?["diagnostics"] as? [[String: Any]]) ?? (line["warnings"] as? [[String: Any]]) ?? []
    }

    static let greeting = #"{"title": "Hello {{ first_name }}", "body": "Your {{ order.item }} shipped", "link": {"uri": "https://example.com/o/{{ order.id }}"}}"#

    // MARK: - Variables

    @Test("strict: a recipient lacking a variable is an error line naming it and the intent path; the others translate")
    func strict() throws {
        let result = try Self.campaign(Self.greeting, [
            #"{"id": "u-1", "vars": {"first_name": "Ann", "order": {"item": "lamp", "id": "A1"}}}"#,
            #"{"id": "u-2", "vars": {"order": {"item": "desk", "id": "A2"}}}"#,
        ], ["--platform", "apns"])
        #expect(result.status == 1)
        let lines = Self.lines(result.stdout)
        #expect(lines.count == 2)
        #expect(lines.map { $0["line"] as? Int } == [1, 2])
        #expect(lines.map { $0["id"] as? String } == ["u-1", "u-2"])
        let alert = Self.apnsAlert(lines[0])
        #expect(alert?["title"] as? String == "Hello Ann")
        #expect(alert?["body"] as? String == "Your lamp shipped")
        #expect((lines[0]["apns"] as? [String: Any])?["adb_uri"] as? String == "https://example.com/o/A1")
        #expect(lines[0]["warnings"] == nil)
        let error = Self.diagnostics(lines[1])
        #expect(error.count == 1)
        #expect(error.first?["path"] as? String == "$.title")
        #expect(error.first?["rule"] as? String == "missing-variable")
        #expect(error.first?["message"] as? String == "first_name is not in this recipient's vars")
        #expect(result.stderr.contains("pushmap: campaign: 2 recipients, 1 translated, 1 failed"), "\(result.stderr)")
        #expect(result.stderr.contains("missing variables: first_name 1"), "\(result.stderr)")
    }

    @Test("--lenient: a missing variable renders empty, with a warning at the intent path; exit 0")
    func lenient() throws {
        let result = try Self.campaign(Self.greeting, [#"{"vars": {"order": {"item": "desk", "id": "A2"}}}"#], ["--platform", "apns", "--lenient"])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(Self.lines(result.stdout).first)
        #expect(line["id"] == nil)
        #expect(Self.apnsAlert(line)?["title"] as? String == "Hello ")
        let warnings = Self.diagnostics(line)
        #expect(warnings.map { $0["rule"] as? String } == ["missing-variable"])
        #expect(warnings.first?["path"] as? String == "$.title")
        #expect(warnings.first?["severity"] as? String == "warning")
    }

    @Test("a default filter fills a missing variable, and templates render in buttons, data and nested texts")
    func everyString() throws {
        let intent = #"""
        {"title": "Hi {{ first_name | default: \"there\" }}", "body": "b",
         "buttons": [{"label": "Track {{ order.id }}", "uri": "https://e.com/{{ order.id }}"}],
         "data": {"order": "{{ order.id }}", "plain": "{ not a tag }"}}
        """#
        let result = try Self.campaign(intent, [#"{"vars": {"order": {"id": "Z9"}}}"#], ["--platform", "apns"])
        #expect(result.status == 0, "\(result.stderr)\(result.stdout)")
        let line = try #require(Self.lines(result.stdout).first)
        let apns = try #require(line["apns"] as? [String: Any])
        #expect(Self.apnsAlert(line)?["title"] as? String == "Hi there")
        #expect(apns["order"] as? String == "Z9")
        #expect(apns["plain"] as? String == "{ not a tag }")
        #expect(result.stdout.contains("Track Z9"), "\(result.stdout)")
    }

    @Test("variable values are text: quotes, backslashes, newlines, U+2028, tags and HTML reach the payload as given")
    func injectionProof() throws {
        let values = ["say \"hi\"", #"back\slash"#, "two\nlines", "line\u{2028}separator", "{{ first_name }}", "{% if x %}y{% endif %}", "<b>bold</b><script>x</script>", #"","evil":"1"#]
        for value in values {
            let vars = String(decoding: try JSONSerialization.data(withJSONObject: ["first_name": value]), as: UTF8.self)
            let result = try Self.campaign(#"{"title": "Hello {{ first_name }}", "body": "b"}"#, [#"{"vars": \#(vars)}"#])
            #expect(result.status == 0, "\(value): \(result.stderr)\(result.stdout)")
            let line = try #require(Self.lines(result.stdout).first, "\(value): \(result.stdout)")
            #expect(Self.apnsAlert(line)?["title"] as? String == "Hello " + value)
            let data = ((line["fcm"] as? [String: Any])?["message"] as? [String: Any])?["data"] as? [String: Any]
            #expect(data?["adb_title"] as? String == "Hello " + value)
            #expect(data?["evil"] == nil)
        }
    }

    // MARK: - Locales

    static let localized = #"""
    {"title": "Hello {{ first_name }}", "body": "Your order shipped", "link": {"uri": "https://example.com/en"},
     "locales": {
       "fr": {"title": "Bonjour {{ first_name }}", "body": "Commande expédiée", "link": {"uri": "https://example.com/fr"}},
       "fr-CA": {"title": "Allo {{ first_name }}"}
     }}
    """#

    @Test("a locale chain by truncation: fr-CA's title, fr's body and link, the base for the rest; case and _ forgiven")
    func localeChain() throws {
        let result = try Self.campaign(Self.localized, [
            #"{"id": "ca", "locale": "fr_ca", "vars": {"first_name": "Élise"}}"#,
            #"{"id": "be", "locale": "FR-be", "vars": {"first_name": "Jef"}}"#,
            #"{"id": "en", "locale": "en-GB", "vars": {"first_name": "Ann"}}"#,
            #"{"id": "none", "vars": {"first_name": "Bo"}}"#,
        ], ["--platform", "apns"])
        let lines = Self.lines(result.stdout)
        #expect(lines.count == 4)
        let alerts = lines.map { Self.apnsAlert($0) }
        #expect(alerts.map { $0?["title"] as? String } == ["Allo Élise", "Bonjour Jef", "Hello Ann", "Hello Bo"])
        #expect(alerts.map { $0?["body"] as? String } == ["Commande expédiée", "Commande expédiée", "Your order shipped", "Your order shipped"])
        #expect(lines.map { ($0["apns"] as? [String: Any])?["adb_uri"] as? String }
            == ["https://example.com/fr", "https://example.com/fr", "https://example.com/en", "https://example.com/en"])
        // No layer for en-GB or en: the base, with a warning; no locale at all: the base, quietly.
        let fallback = Self.diagnostics(lines[2])
        #expect(fallback.map { $0["rule"] as? String } == ["locale-fallback"])
        #expect(fallback.first?["message"] as? String == "no en-GB or en: sent in the default language")
        #expect(lines[3]["warnings"] == nil)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("locale fallbacks: en-GB 1"), "\(result.stderr)")
    }

    @Test("tags with a script and a region truncate subtag by subtag: zh_hant_tw finds zh-Hant, then zh")
    func scriptSubtags() throws {
        let intent = #"{"title": "Hello", "body": "b", "locales": {"zh": {"title": "你好", "body": "简体"}, "zh-Hant": {"body": "繁體"}}}"#
        let result = try Self.campaign(intent, [#"{"locale": "zh_hant_tw"}"#, #"{"locale": "ZH-cn"}"#], ["--platform", "apns"])
        #expect(result.status == 0, "\(result.stderr)")
        let alerts = Self.lines(result.stdout).map { Self.apnsAlert($0) }
        #expect(alerts.map { $0?["title"] as? String } == ["你好", "你好"])
        #expect(alerts.map { $0?["body"] as? String } == ["繁體", "简体"])
    }

    @Test("a layer's template that a recipient cannot render is reported at the layer's path")
    func layerPath() throws {
        let result = try Self.campaign(Self.localized, [#"{"locale": "fr-CA"}"#], ["--platform", "apns"])
        #expect(result.status == 1)
        let error = Self.diagnostics(try #require(Self.lines(result.stdout).first))
        #expect(error.first?["path"] as? String == #"$.locales["fr-CA"].title"#)
    }

    @Test("malformed locales: a bad tag, a layer that is no object, the same language twice; each at its path, no recipient run")
    func badLocales() throws {
        let intent = #"{"title": "t", "locales": {"fr": {"title": "x"}, "french!": {"title": "y"}, "de": "Hallo", "FR": {"body": "z"}}}"#
        let result = try Self.campaign(intent, [#"{"id": "u-1"}"#])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("error: $.locales[\"french!\"]: 'french!' is not a language tag"), "\(result.stderr)")
        #expect(result.stderr.contains("error: $.locales.de: expected an object"), "\(result.stderr)")
        #expect(result.stderr.contains("error: $.locales.FR: 'FR' is fr again"), "\(result.stderr)")
    }

    @Test("translate and batch send the base text of an intent with locales, with a warning")
    func localesOutsideCampaigns() throws {
        let result = try CommandRunner.run(["translate", "--platform", "apns"], input: Data(#"{"title": "Hello", "locales": {"fr": {"title": "Bonjour"}}}"#.utf8))
        #expect(result.status == 0)
        #expect(result.stdout.contains("\"Hello\""))
        #expect(result.stderr.contains("$.locales: only pushmap campaign reads locales"), "\(result.stderr)")
    }

    /// Source: the sixth audit: `translate` and `batch` sent `Hi {{ first_name }}` to phones with
    /// no word. A recipient's value that holds `{{` in a campaign is text, and no tag.
    @Test("translate and batch warn of each Liquid tag they send as written; a campaign's rendered values are not warned of")
    func tagsOutsideCampaigns() throws {
        let intent = #"{"title": "Hi {{ first_name }}", "body": "{% if vip %}VIP{% endif %}", "data": {"k": "plain"}}"#
        let translated = try CommandRunner.run(["translate", "--platform", "apns"], input: Data(intent.utf8))
        #expect(translated.status == 0)
        #expect(translated.stdout.contains("Hi {{ first_name }}"))
        #expect(translated.stderr.contains("warning: $.title: holds a Liquid tag, which only pushmap campaign renders: it is sent as written [campaign-only]"), "\(translated.stderr)")
        #expect(translated.stderr.contains("warning: $.body: holds a Liquid tag"), "\(translated.stderr)")
        #expect(translated.stderr.split(separator: "\n").count == 2, "\(translated.stderr)")
        let batch = try CommandRunner.run(["batch", "--platform", "apns"], input: Data((intent + "\n").utf8))
        #expect(batch.status == 0)
        #expect(batch.stdout.contains(#""path":"$.title","rule":"campaign-only""#), "\(batch.stdout)")
        let campaign = try Self.campaign(#"{"title": "Hi {{ first_name }}", "body": "b"}"#, [#"{"vars": {"first_name": "{{Ann}}"}}"#], ["--platform", "apns"])
        #expect(campaign.status == 0)
        #expect(campaign.stdout.contains("Hi {{Ann}}") && !campaign.stdout.contains("campaign-only"), "\(campaign.stdout)")
    }

    /// Source: the twenty-fifth audit, F13: `translate` said only "campaign-only" of a locale
    /// layer with an unknown field, which `campaign` refuses; a user checking the intent with
    /// `translate` or `batch` did not learn that it was broken for the campaign.
    @Test("translate and batch warn of what campaign refuses in a locale layer, at the layer's path; the translation still goes")
    func localeLayerFaultsOutsideCampaigns() throws {
        let intent = #"{"title": "Hi", "body": "b", "locales": {"fr": {"title": "Salut", "bogus": 1, "badge": "x"}}}"#
        let translated = try CommandRunner.run(["translate", "--platform", "apns"], input: Data(intent.utf8))
        #expect(translated.status == 0, "\(translated.stderr)")
        #expect(translated.stdout.contains("\"Hi\""))
        #expect(translated.stderr.contains("warning: $.locales.fr.bogus: unknown field 'bogus' at $.locales.fr; pushmap campaign refuses this layer [unknown-field]"), "\(translated.stderr)")
        #expect(translated.stderr.contains("warning: $.locales.fr.badge: expected an integer, got string; pushmap campaign refuses this layer [wrong-type]"), "\(translated.stderr)")
        let batch = try CommandRunner.run(["batch", "--platform", "apns"], input: Data((intent + "\n").utf8))
        #expect(batch.status == 0)
        #expect(batch.stdout.contains(#""path":"$.locales.fr.bogus","rule":"unknown-field""#), "\(batch.stdout)")
        // The campaign refuses the same two, as errors at the same paths.
        let campaign = try Self.campaign(intent, [#"{"id": "a"}"#], ["--platform", "apns"])
        #expect(campaign.status == 1)
        #expect(campaign.stderr.contains("error: $.locales.fr.bogus: unknown field 'bogus' at $.locales.fr [unknown-field]"), "\(campaign.stderr)")
        // A layer with nothing campaign refuses adds nothing to the campaign-only warning.
        let clean = try CommandRunner.run(["translate", "--platform", "apns"], input: Data(#"{"title": "Hi", "body": "b", "locales": {"fr": {"title": "Salut"}}}"#.utf8))
        #expect(clean.stderr.split(separator: "\n").count == 1, "\(clean.stderr)")
    }

    /// Source: the twenty-eighth audit, F3: a link built from recipient data went out with a
    /// space and a line break in it, or empty (a tap that opens nothing), with no word.
    @Test("a link that recipient data leaves empty or with a space is a warning on that recipient's line, per platform")
    func recipientLinks() throws {
        let result = try Self.campaign(
            #"{"title": "t", "body": "b", "link": {"uri": "{{ base }}{{ order }}"}}"#,
            [
                #"{"id": "1", "vars": {"base": "https://shop.example.com/o/", "order": "a b"}}"#, #"{"id": "2", "vars": {"base": "", "order": ""}}"#,
                #"{"id": "3", "vars": {"base": "https://shop.example.com/o/", "order": "77"}}"#,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = Self.lines(result.stdout)
        #expect(lines.count == 3)
        let rules = lines.map { Self.diagnostics($0).compactMap { $0["rule"] as? String }.sorted() }
        #expect(rules == [["android-link-uri", "ios-link-uri"], ["android-link-uri", "ios-link-uri"], []], "\(result.stdout)")
        let paths = Set(lines.prefix(2).flatMap { Self.diagnostics($0).compactMap { $0["path"] as? String } })
        #expect(paths == ["$.link.uri"], "\(paths)")
    }

    /// Source: the twenty-eighth audit, F8: 5,000 recipients' own locale tags made the summary's
    /// fallback line 935 KB long.
    @Test("the summary names the 20 most frequent locale fallbacks and counts the rest")
    func boundedSummary() throws {
        let tags = ["aa", "ab", "ae", "af", "ak", "am", "an", "ar", "as", "av", "ay", "az", "ba", "be", "bg", "bi", "bm", "bn", "bo", "br", "bs", "ca", "ce", "ch", "co"]
        let recipients = tags.enumerated().map { #"{"id": "u-\#($0.offset)", "locale": "\#($0.element)"}"# }
        let result = try Self.campaign(#"{"title": "t", "body": "b", "locales": {"fr": {"title": "Salut"}}}"#, recipients, ["--platform", "apns"])
        #expect(result.status == 0, "\(result.stderr)")
        let line = result.stderr.split(separator: "\n").first { $0.contains("locale fallbacks:") } ?? ""
        #expect(line.hasSuffix(", and 5 more"), "\(line)")
        #expect(line.components(separatedBy: ", ").count == 21, "\(line)")
    }

    /// Source: the twenty-eighth audit, F4: `assign` in the title, used in the body, failed every
    /// recipient as if the audience lacked the name. Liquid renders each text alone here.
    @Test("a name assigned in another text is missing, and the error says where it is assigned")
    func assignElsewhere() throws {
        let intent = #"{"title": "{% assign greet = 'Hi' %}{{ greet }} {{ n }}", "body": "{{ greet }}, there"}"#
        let result = try Self.campaign(intent, [#"{"id": "a", "vars": {"n": "x"}}"#], ["--platform", "apns"])
        #expect(result.status == 1, "\(result.stderr)")
        let found = try #require(Self.lines(result.stdout).first.map(Self.diagnostics)?.first)
        #expect(found["path"] as? String == "$.body")
        #expect(
            found["message"] as? String
                == "greet is not in this recipient's vars ($.title assigns it, but each text renders on its own: assign it in this text too)")
    }

    /// Source: the twenty-eighth audit, F11: two lines with the same id were both sent, without a
    /// word; a person on the list twice gets the message twice.
    @Test("repeated ids, and targets of translated recipients, are counted in the summary; the lines still go")
    func duplicates() throws {
        let recipients = [
            #"{"id": "a", "target": {"token": "T1"}, "vars": {"n": "x"}}"#,
            #"{"id": "dup", "target": {"token": "T2"}, "vars": {"n": "x"}}"#,
            #"{"id": "dup", "target": {"token": "T1"}, "vars": {"n": "x"}}"#,
            #"{"id": "dup", "target": {"token": "T3"}}"#, // fails: not sent, its target not counted
            #"{"id": "c", "target": {"token": "T3"}, "vars": {"n": "x"}}"#,
        ]
        let intent = #"{"title": "{{ n }}", "body": "b"}"#
        let human = try Self.campaign(intent, recipients, ["--platform", "fcm"])
        #expect(human.status == 1, "\(human.stderr)")
        #expect(Self.lines(human.stdout).count == 5)
        #expect(human.stderr.contains("  duplicate ids: dup 3\n"), "\(human.stderr)")
        #expect(human.stderr.contains(#"  duplicate targets: {"token":"T1"} 2"#), "\(human.stderr)")
        let json = try Self.campaign(intent, recipients, ["--platform", "fcm", "--check", "--format", "json"])
        let summary = try #require(Self.lines(json.stdout).last)
        #expect(summary["duplicateIds"] as? [String: Int] == ["dup": 3])
        #expect(summary["duplicateTargets"] as? [String: Int] == [#"{"token":"T1"}"#: 2])
    }

    /// Source: campaign.md (the targets of more than one translated recipient); the
    /// thirty-seventh audit, F3: a target the intent's template renders was never counted.
    @Test("a target the intent renders for each recipient is counted as the recipient's own is")
    func renderedTargets() throws {
        let intent = #"{"title": "t", "body": "b", "target": {"token": "{{ tok }}"}}"#
        // p4 is sent on APNS alone, where a target goes nowhere: not counted (the thirty-eighth audit, F3).
        let recipients = [
            #"{"id": "p1", "vars": {"tok": "same"}}"#, #"{"id": "p2", "vars": {"tok": "same"}}"#, #"{"id": "p3", "vars": {"tok": "other"}}"#,
            #"{"id": "p4", "platform": "apns", "vars": {"tok": "same"}}"#,
        ]
        let json = try Self.campaign(intent, recipients, ["--platform", "fcm", "--check", "--format", "json"])
        let summary = try #require(Self.lines(json.stdout).last)
        #expect(summary["duplicateTargets"] as? [String: Int] == [#"{"token":"same"}"#: 2], "\(json.stdout)")
    }

    // MARK: - Templates that do not compile

    /// Source: the twenty-eighth audit, F1: a data key `{{ k }}` went to every phone as written,
    /// with no word from campaign (translate warned of it).
    @Test("a key holding a Liquid tag is refused before any recipient: only values render")
    func tagInKey() throws {
        let result = try Self.campaign(#"{"title": "t", "body": "b", "data": {"{{ k }}": "v", "ok": "{{ k }}"}}"#, [#"{"id": "u-1", "vars": {"k": "key"}}"#])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(#"intent.json: error: $.data["{{ k }}"]: the key holds a Liquid tag, but a campaign renders values only"#), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test("a template syntax error names the intent path and the column, before any recipient; exit 1")
    func syntaxError() throws {
        let result = try Self.campaign(#"{"title": "t", "body": "Hi {{ first_name", "buttons": [{"label": "{% if x %}open"}]}"#, [#"{"id": "u-1"}"#])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("intent.json: error: $.body: column "), "\(result.stderr)")
        #expect(result.stderr.contains("intent.json: error: $.buttons[0].label: column "), "\(result.stderr)")
        #expect(result.stderr.contains("[template-syntax]"), "\(result.stderr)")
        #expect(!result.stderr.contains("recipient"), "\(result.stderr)")
        // The sixth audit: in a text of many lines the column was counted across them.
        let lines = try Self.campaign(#"{"title": "a\nb {{ n | bogus }}", "body": "x\r\ny\nz {{ n | bogus }}"}"#, [#"{"id": "u-1"}"#])
        #expect(lines.stderr.contains("$.title: line 2, column 10: Unknown filter 'bogus'"), "\(lines.stderr)")
        #expect(lines.stderr.contains("$.body: line 3, column 10: Unknown filter 'bogus'"), "\(lines.stderr)")
    }

    @Test("what is wrong with the intent whoever receives it is said once, at its path in the file, before any recipient")
    func writtenProblems() throws {
        let intent = #"{"titel": "Hi {{ first_name }}", "badge": "3", "locales": {"fr-CA": {"android": {"chanel": "x"}}}}"#
        let result = try Self.campaign(intent, [#"{"id": "u-1"}"#, #"{"id": "u-2"}"#])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("intent.json: error: $.titel: unknown field 'titel' at $; did you mean 'title'?"), "\(result.stderr)")
        #expect(result.stderr.contains("intent.json: error: $.badge: expected an integer, got string"), "\(result.stderr)")
        #expect(result.stderr.contains(#"error: $.locales["fr-CA"].android.chanel: unknown field 'chanel' at $.locales["fr-CA"].android"#), "\(result.stderr)")
    }

    // MARK: - Recipients

    @Test("malformed recipient lines are error lines and the run goes on")
    func malformedRecipients() throws {
        let result = try Self.campaign(#"{"title": "Hi {{ first_name | default: \"you\" }}"}"#, [
            "not json",
            #"{"id": "u-2", "var": {}}"#,
            #"{"id": "u-3", "vars": []}"#,
            #"{"id": "u-4", "locale": "fr--CA"}"#,
            #"{"id": "u-5", "platform": "ios"}"#,
            "",
            #"{"id": 6}"#,
            #"{"id": "u-8"}"#,
        ], ["--platform", "apns"])
        #expect(result.status == 1)
        let lines = Self.lines(result.stdout)
        #expect(lines.map { $0["line"] as? Int } == Array(1...8))
        #expect(lines.map { $0["apns"] != nil } == [false, false, false, false, false, false, false, true])
        #expect(lines.map { ($0["error"] as? [String: Any])?["kind"] as? String }.prefix(7).allSatisfy { $0 == "invalid recipient" })
        let rules = lines.prefix(7).map { Self.diagnostics($0).first?["rule"] as? String }
        #expect(rules == ["json-syntax", "unknown-field", "wrong-type", "locale-tag", "bad-value", "empty-line", "wrong-type"])
        #expect((Self.diagnostics(lines[1]).first?["message"] as? String)?.contains("did you mean 'vars'?") == true)
        #expect(Self.diagnostics(lines[3]).first?["path"] as? String == "$.locale")
        #expect(lines.map { $0["id"] as? String } == [nil, "u-2", "u-3", "u-4", "u-5", nil, nil, "u-8"])
        #expect(result.stderr.contains("8 recipients, 1 translated, 7 failed"), "\(result.stderr)")
    }

    @Test("a recipient's target replaces the intent's, and its platform the run's")
    func targetAndPlatform() throws {
        let result = try Self.campaign(#"{"title": "t", "body": "b", "target": {"topic": "news"}}"#, [
            #"{"target": {"token": "tok-1"}, "platform": "fcm"}"#,
            #"{"platform": "apns"}"#,
            #"{}"#,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = Self.lines(result.stdout)
        let first = (lines[0]["fcm"] as? [String: Any])?["message"] as? [String: Any]
        #expect(first?["token"] as? String == "tok-1")
        #expect(first?["topic"] == nil)
        #expect(lines[0]["apns"] == nil)
        #expect(lines[1]["fcm"] == nil && lines[1]["apns"] != nil)
        #expect(((lines[2]["fcm"] as? [String: Any])?["message"] as? [String: Any])?["topic"] as? String == "news")
        #expect(lines[2]["apns"] != nil)
    }

    // MARK: - Within the limit

    /// The compact bytes of the `apns` payload on an output line.
    static func apnsBytes(_ line: Substring) -> Int? {
        guard let start = line.range(of: #""apns":"#)?.upperBound else { return nil }
        let end = line.range(of: #","warnings":"#)?.lowerBound ?? line.index(line.endIndex, offsetBy: -1)
        return line[start..<end].utf8.count
    }

    static func fit(body: String, _ options: [String] = []) throws -> (result: CommandRunner.Result, size: Int?, body: String?) {
        let intent = String(decoding: try JSONSerialization.data(withJSONObject: ["title": "T", "body": body]), as: UTF8.self)
        let result = try campaign(intent, ["{}"], ["--platform", "apns"] + options)
        let line = result.stdout.split(separator: "\n").first ?? ""
        return (result, apnsBytes(line), Self.lines(result.stdout).first.flatMap { apnsAlert($0)?["body"] as? String })
    }

    @Test("a payload of exactly 4096 bytes is sent whole; one byte more and the body loses just enough, to 4096")
    func exactLimit() throws {
        let probe = try Self.fit(body: "a")
        let overhead = try #require(probe.size) - 1
        let whole = try Self.fit(body: String(repeating: "a", count: 4096 - overhead))
        #expect(whole.size == 4096)
        #expect(whole.result.status == 0)
        #expect(!whole.result.stdout.contains("truncated"))
        let over = try Self.fit(body: String(repeating: "a", count: 4097 - overhead))
        #expect(over.size == 4096)
        #expect(over.result.status == 0)
        #expect(over.body?.hasSuffix("aaa…") == true)
        let line = try #require(Self.lines(over.result.stdout).first)
        let warning = Self.diagnostics(line).first { $0["rule"] as? String == "truncated" }
        #expect(warning?["path"] as? String == "$.body")
        #expect(warning?["message"] as? String == "shortened from \(4097 - overhead) to \(4097 - overhead - 3) characters to fit the payload within its limit")
        #expect(over.result.stderr.contains("truncated: $.body 1"), "\(over.result.stderr)")
    }

    /// Source: campaign.md ("in this order until the payload fits: expandedBody, body, ...
    /// title"); the thirty-fifth audit, F1: a title and a body too long for either alone to
    /// make room were both left whole, and the recipient failed with apns-size.
    @Test("a payload no one text can make fit has its texts cut in order, body then title, each keeping a character")
    func severalTextsCut() throws {
        let intent = #"{"title": "{{ t }}", "body": "{{ b }}"}"#
        let recipient = #"{"vars": {"t": "\#(String(repeating: "T", count: 4100))", "b": "\#(String(repeating: "b", count: 4100))"}}"#
        let result = try Self.campaign(intent, [recipient], ["--platform", "apns"])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(Self.lines(result.stdout).first)
        #expect(try #require(Self.apnsBytes(result.stdout.split(separator: "\n")[0])) <= 4096)
        let alert = try #require(Self.apnsAlert(line))
        #expect(alert["body"] as? String == "b…")
        #expect((alert["title"] as? String)?.hasSuffix("T…") == true)
        #expect(Self.diagnostics(line).filter { $0["rule"] as? String == "truncated" }.compactMap { $0["path"] as? String } == ["$.body", "$.title"])
    }

    /// Source: campaign.md ("when both platforms are asked for, both get the shortened text");
    /// the thirty-seventh audit, F1: with both platforms, a cut sized for the larger overflow
    /// (FCM's whole message, with a long token) or that mended one platform only (a subtitle is
    /// APNS's, a carousel's expandedBody FCM's) was thrown away, and recipients that fit on
    /// each platform alone failed.
    @Test("both platforms: a text is cut once for both, and a text in one payload is cut for that one's overflow")
    func bothPlatformsCut() throws {
        let token = String(repeating: "k", count: 160)
        let title = #"{"id": "n", "target": {"token": "\#(token)"}, "vars": {"t": "\#(String(repeating: "T", count: 4064))"}}"#
        let shared = try Self.campaign(#"{"title": "{{ t }}", "body": "b"}"#, [title], ["--platform", "both"])
        #expect(shared.status == 0, "\(shared.stderr)")
        let line = try #require(Self.lines(shared.stdout).first)
        let cut = try #require(Self.apnsAlert(line)?["title"] as? String)
        #expect(cut.hasSuffix("T…") && cut.count < 4064, "\(shared.stdout.prefix(300))")
        let fcmTitle = (((line["fcm"] as? [String: Any])?["message"] as? [String: Any])?["data"] as? [String: Any])?["adb_title"] as? String
        #expect(fcmTitle == cut)

        let carousel = #"{"template": "carousel", "title": "Picks", "body": "New", "subtitle": "{{ s }}", "expandedBody": "{{ eb }}", "carousel": {"items": [{"image": "https://x.example/1.png"}, {"image": "https://x.example/2.png"}, {"image": "https://x.example/3.png"}]}}"#
        let apart = #"{"vars": {"eb": "\#(String(repeating: "e", count: 4100))", "s": "\#(String(repeating: "s", count: 4400))"}}"#
        let result = try Self.campaign(carousel, [apart], ["--platform", "both"])
        #expect(result.status == 0, "\(result.stderr)")
        let paths = Self.diagnostics(try #require(Self.lines(result.stdout).first)).filter { $0["rule"] as? String == "truncated" }.compactMap { $0["path"] as? String }
        #expect(paths == ["$.expandedBody", "$.subtitle"], "\(result.stdout.suffix(600))")
    }

    /// Source: FCM's 4096 bytes count the data keys and values plus an overhead Google does not
    /// document (a sender's measurements on Stack Overflow), so a message past 4096 bytes written
    /// compactly but not in keys and values is one FCM may take: a campaign cuts it to be sure,
    /// and with --no-truncate it goes with the fcm-size warning.
    @Test("an FCM message FCM may refuse is cut to 4096 bytes; with --no-truncate it goes with a warning")
    func fcmMayRefuse() throws {
        let intent = String(decoding: try JSONSerialization.data(withJSONObject: [
            "title": "T", "body": String(repeating: "a", count: 3_950), "target": ["token": String(repeating: "t", count: 163)],
        ]), as: UTF8.self)
        let cut = try Self.campaign(intent, ["{}"], ["--platform", "fcm"])
        #expect(cut.status == 0, "\(cut.stderr)")
        let line = try #require(Self.lines(cut.stdout).first)
        let message = try #require((line["fcm"] as? [String: Any])?["message"])
        let written = try JSONSerialization.data(withJSONObject: message, options: [.withoutEscapingSlashes])
        #expect(written.count <= 4096)
        #expect(Self.diagnostics(line).contains { $0["rule"] as? String == "truncated" && $0["path"] as? String == "$.body" })
        #expect(!Self.diagnostics(line).contains { $0["rule"] as? String == "fcm-size" })

        let whole = try Self.campaign(intent, ["{}"], ["--platform", "fcm", "--no-truncate"])
        #expect(whole.status == 0, "\(whole.stderr)")
        let kept = try #require(Self.lines(whole.stdout).first)
        let size = Self.diagnostics(kept).first { $0["rule"] as? String == "fcm-size" }
        #expect(size?["severity"] as? String == "warning")
        #expect(!Self.diagnostics(kept).contains { $0["rule"] as? String == "truncated" })
    }

    /// Source: the sixth audit, and commands.md's limits (intent nesting: 32 levels): a campaign's
    /// intent took 64, and each recipient then failed on it.
    @Test("an intent nested past 32 levels is refused once, before any recipient, as translate refuses it")
    func intentNesting() throws {
        var nested = #"{"x": 1}"#
        for _ in 0..<40 { nested = #"{"a": \#(nested)}"# }
        let result = try Self.campaign(#"{"title": "t", "body": "b", "data": {"k": "v"}, "ios": {"liveActivity": {"event": "update", "contentState": \#(nested)}}}"#, ["{}"], ["--platform", "apns"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(result.stderr.contains("nesting deeper than 32 levels [json-syntax]"), "\(result.stderr)")
    }

    /// Source: the sixth audit: a text cut in a locale layer was reported at `$.body`, which the
    /// base wrote and the recipient never got; campaign.md: each finding "at its path".
    @Test("a finding about a layer's text is at the layer's path, as the summary's truncations are")
    func layerPaths() throws {
        let intent = #"{"title": "t", "body": "{{ b }}", "locales": {"fr-CA": {"body": "FR {{ b }}"}}}"#
        let long = String(repeating: "x", count: 5_000)
        let result = try Self.campaign(intent, [#"{"locale": "fr-CA", "vars": {"b": "\#(long)"}}"#, #"{"vars": {"b": "\#(long)"}}"#], ["--platform", "apns"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = Self.lines(result.stdout)
        let paths = lines.map { line in Set(Self.diagnostics(line).map { $0["path"] as? String ?? "" }) }
        #expect(paths.first == [#"$.locales["fr-CA"].body"#], "\(paths)")
        #expect(paths.last == ["$.body"], "\(paths)")
        #expect(result.stderr.contains(#"truncated: $.body 1, $.locales["fr-CA"].body 1"#) || result.stderr.contains(#"$.locales["fr-CA"].body 1"#), "\(result.stderr)")
    }

    /// Source: the sixth audit and campaign.md: a malformed recipient line is "an error line of
    /// kind invalid recipient"; a recipient's target with no token was labelled invalid intent.
    @Test("a fault in a recipient's target is the recipient's: kind invalid recipient")
    func recipientTarget() throws {
        let result = try Self.campaign(#"{"title": "t", "body": "b"}"#, [#"{"id": "a", "target": {}}"#], ["--platform", "fcm"])
        #expect(result.status == 1)
        let error = try #require(Self.lines(result.stdout).first?["error"] as? [String: Any])
        #expect(error["kind"] as? String == "invalid recipient", "\(error)")
        #expect((error["diagnostics"] as? [[String: Any]])?.first?["path"] as? String == "$.target")
    }

    /// Source: the sixth audit: a name used three times gave three findings a recipient (two the
    /// same), and the summary counted 6 for 2 recipients. One fault, the recipient's lack.
    @Test("a missing variable used many times is one finding a recipient, and counts once a recipient")
    func missingOnce() throws {
        let result = try Self.campaign(#"{"title": "Hi {{ n }}", "body": "Bye {{ n }} {{ n }}"}"#, [#"{"id": "a"}"#, #"{"id": "b"}"#], ["--check", "--format", "json"])
        #expect(result.status == 1)
        let lines = Self.lines(result.stdout)
        #expect(lines.count == 3, "\(result.stdout)")
        for line in lines.prefix(2) {
            let diagnostics = ((line["error"] as? [String: Any])?["diagnostics"] as? [[String: Any]]) ?? []
            #expect(diagnostics.count == 1 && diagnostics.first?["path"] as? String == "$.title", "\(line)")
        }
        #expect((lines.last?["missingVariables"] as? [String: Int]) == ["n": 2], "\(lines.last ?? [:])")
    }

    /// Source: the twenty-eighth audit, F6: a data value of 5,000 bytes, which no cut shortens,
    /// failed the recipient with a size finding at `$` that did not say what to make smaller.
    @Test("a recipient whose payload no cut makes fit names the largest value a campaign never cuts")
    func uncutValueNamed() throws {
        let recipient = #"{"id": "d", "vars": {"v": "\#(String(repeating: "x", count: 5000))"}}"#
        let result = try Self.campaign(#"{"title": "t", "body": "b", "data": {"k": "{{ v }}"}}"#, [recipient], ["--platform", "fcm"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("the texts were shortened as far as they go, and the largest value a campaign never cuts is $.data.k, 5000 bytes"), "\(result.stdout)")
    }

    /// Source: the thirty-seventh audit, F6 (a title of one cluster of 6 KB failed with a size
    /// finding naming nothing) and F8 ("from 1500 to 1 characters").
    @Test("a title of one huge character is named when nothing fits; a text cut to one character says so in the singular")
    func oneCharacterLeft() throws {
        let zalgo = "Z" + String(repeating: "\u{0301}", count: 3000)
        let failed = try Self.campaign(#"{"title": "{{ t }}", "body": "b"}"#, [#"{"vars": {"t": "\#(zalgo)"}}"#], ["--platform", "apns"])
        #expect(failed.status == 1)
        #expect(failed.stdout.contains("and $.title is still 6001 bytes: its first character, which a cut keeps, is that long"), "\(failed.stdout)")
        // The expanded body goes first, all of it; then the body loses what is left to save.
        let long = #"{"vars": {"e": "\#(String(repeating: "e", count: 1500))", "b": "\#(String(repeating: "b", count: 4000))"}}"#
        let cut = try Self.campaign(#"{"template": "basic", "title": "t", "body": "{{ b }}", "expandedBody": "{{ e }}"}"#, [long], ["--platform", "apns"])
        #expect(cut.status == 0, "\(cut.stderr)")
        let warning = Self.diagnostics(try #require(Self.lines(cut.stdout).first)).first { $0["path"] as? String == "$.expandedBody" }
        #expect(warning?["message"] as? String == "shortened from 1500 to 1 character to fit the payload within its limit", "\(cut.stdout.suffix(400))")
    }

    /// Source: the twenty-eighth audit, F5: a member missing from one item of a loop was named by
    /// the loop's variable (`i.price`), not by what the audience file lacks (`items[2].price`).
    @Test("a member missing from a loop's item is named by its path in the recipient's vars, nested loops too")
    func loopItemPaths() throws {
        let intent = #"{"title": "t", "body": "{% for i in items %}{{ i.name }} {{ i.price }};{% endfor %}{% for o in orders %}{% for l in o.lines %}{{ l.sku }}{% endfor %}{% endfor %}"}"#
        let recipient = #"{"id": "1", "vars": {"items": [{"name": "a", "price": 1}, {"name": "b"}], "orders": [{"lines": [{"sku": "x"}]}, {"lines": [{"sku": "y"}, {}]}]}}"#
        let result = try Self.campaign(intent, [recipient], ["--platform", "apns"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("items[1].price is not in this recipient's vars"), "\(result.stdout)")
        #expect(result.stderr.contains("missing variables: items[1].price 1, orders[1].lines[1].sku 1"), "\(result.stderr)")
    }

    /// Source: the twenty-eighth audit, F12: a CRM export's epoch milliseconds failed the date
    /// filter with no word of the fix; Liquid's is `divided_by: 1000`.
    @Test("a date in epoch milliseconds fails the recipient with the fix; divided by 1000 it renders")
    func dateMilliseconds() throws {
        let recipient = #"{"id": "1", "vars": {"d": "1764151200000"}}"#
        let failed = try Self.campaign(#"{"title": "t", "body": "{{ d | date: \"%F\" }}"}"#, [recipient], ["--platform", "apns"])
        #expect(failed.status == 1)
        #expect(failed.stdout.contains("It reads as epoch milliseconds: divide by 1000 first (| divided_by: 1000)."), "\(failed.stdout)")
        let fixed = try Self.campaign(#"{"title": "t", "body": "{{ d | divided_by: 1000 | date: \"%F\" }}"}"#, [recipient], ["--platform", "apns"])
        #expect(fixed.status == 0 && fixed.stdout.contains(#""body":"2025-11-26""#), "\(fixed.stdout)")
    }

    /// Source: the twenty-eighth audit, F10: a title of one grapheme cluster of 6,001 bytes (an e
    /// and 3,000 combining marks) was cut to "…" alone and counted as translated: a blank
    /// notification, which docs/campaign.md says a recipient never gets.
    @Test("a title or body that only the ellipsis would be left of fails the recipient on its size")
    func ellipsisAlone() throws {
        let huge = "e" + String(repeating: "\u{301}", count: 3000)
        let recipient = String(decoding: try JSONSerialization.data(withJSONObject: ["id": "c", "vars": ["t": huge]]), as: UTF8.self)
        let result = try Self.campaign(#"{"title": "{{ t }}", "body": "b"}"#, [recipient], ["--platform", "apns"])
        #expect(result.status == 1, "\(result.stdout)")
        let line = try #require(Self.lines(result.stdout).first)
        #expect(Self.diagnostics(line).map { $0["rule"] as? String } == ["apns-size"], "\(line)")
        #expect(!result.stdout.contains("\"title\":\"…\""))
    }

    /// Source: the sixth audit: FCM's adb_items holds the captions as JSON inside a JSON string,
    /// where a quote costs 4 bytes; counted as 2, the cut took two whole captions ([700, 1, 1]
    /// characters, 3,231 bytes) where cutting the second to about 215 fits.
    @Test("captions of quotes are cut only as far as FCM's message needs, not whole")
    func carouselQuotes() throws {
        let items = (0..<3).map { index in
            ["image": "https://e.com/\(index).png", "text": "{{ c }}", "uri": "https://e.com/\(index)"]
        }
        let intent = String(decoding: try JSONSerialization.data(withJSONObject: [
            "template": "carousel", "title": "t", "body": "b", "link": ["uri": "https://e.com"],
            "carousel": ["mode": "manual", "items": items],
        ] as [String: Any]), as: UTF8.self)
        let recipient = String(decoding: try JSONSerialization.data(withJSONObject: ["vars": ["c": String(repeating: "\"", count: 700)]]), as: UTF8.self)
        let result = try Self.campaign(intent, [recipient], ["--platform", "fcm"])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(Self.lines(result.stdout).first)
        let message = try #require((line["fcm"] as? [String: Any])?["message"] as? [String: Any])
        let written = try JSONSerialization.data(withJSONObject: message, options: [.withoutEscapingSlashes])
        #expect(written.count <= 4096 && written.count > 4_050, "\(written.count) bytes")
        let adbItems = try #require(((message["data"] as? [String: Any])?["adb_items"] as? String)?.data(using: .utf8))
        let captions = try #require(try JSONSerialization.jsonObject(with: adbItems) as? [[String: Any]]).map { ($0["txt"] as? String)?.count ?? 0 }
        #expect(captions[0] == 700 && captions[1] > 150 && captions[2] == 1, "\(captions)")
    }

    /// Source: the twelfth audit (cases 4 and 5): on APNS, whose payload escapes a caption once,
    /// the cut counted as FCM's adb_items (twice) fell short three times, moved on to the caption
    /// before it, and the recipient failed `apns-size` with 2,000 characters still to give.
    @Test("APNS captions of quotes and newlines are cut until the payload fits, the last caption first")
    func carouselQuotesAPNS() throws {
        let items = (0..<3).map { index in
            ["image": "https://e.com/\(index).png", "text": index == 2 ? "Blue" : "{{ c\(index) }}"]
        }
        let intent = String(decoding: try JSONSerialization.data(withJSONObject: [
            "template": "carousel", "title": "Pick one", "body": "Three colours",
            "carousel": ["mode": "manual", "items": items],
        ] as [String: Any]), as: UTF8.self)
        let plain = String(repeating: "Red, the classic colour of the season. ", count: 40)
        let quoted = String(repeating: "\"Green\" \"Forest\" \"Mint\"\n", count: 100)
        let recipient = String(decoding: try JSONSerialization.data(withJSONObject: ["vars": ["c0": plain, "c1": quoted]]), as: UTF8.self)
        let result = try Self.campaign(intent, [recipient], ["--platform", "apns"])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        let line = try #require(Self.lines(result.stdout).first)
        let payload = try #require(line["apns"] as? [String: Any], "\(line)")
        let written = try JSONSerialization.data(withJSONObject: payload, options: [.withoutEscapingSlashes])
        #expect(written.count <= 4096, "\(written.count) bytes")
        let cut = (line["warnings"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        #expect(cut.contains("$.carousel.items[1].text") && !cut.contains("$.carousel.items[0].text"), "\(cut)")
    }

    /// Source: the sandbox audit: a body whose last character is one grapheme cluster of 20,001
    /// scalars was cut to "a …", and the warning said "from 3 to 3 characters".
    @Test("a cut that takes one character of many bytes says so in bytes")
    func oneHugeCluster() throws {
        let fitted = try Self.fit(body: "a e" + String(repeating: "\u{301}", count: 20_000))
        #expect(fitted.result.status == 0, "\(fitted.result.stdout.prefix(300))")
        #expect(fitted.body == "a …")
        let line = try #require(Self.lines(fitted.result.stdout).first)
        let warning = Self.diagnostics(line).first { $0["rule"] as? String == "truncated" }
        #expect(warning?["message"] as? String
            == "shortened from 40003 to 5 bytes (3 characters either way: one of many bytes was taken) to fit the payload within its limit")
    }

    @Test("truncation keeps grapheme clusters whole: family emoji, flags, combining marks, CJK")
    func clusters() throws {
        let clusters = ["👨‍👩‍👧‍👦", "🇫🇷", "e\u{301}\u{327}", "漢", "🏳️‍🌈"]
        for cluster in clusters {
            let body = String(repeating: cluster, count: 5000 / cluster.utf8.count + 10)
            let fitted = try Self.fit(body: body)
            #expect(fitted.result.status == 0, "\(cluster): \(fitted.result.stdout)")
            let size = try #require(fitted.size)
            #expect(size <= 4096 && size > 4096 - cluster.utf8.count - 3, "\(cluster): \(size) bytes")
            let shortened = try #require(fitted.body)
            #expect(shortened.hasSuffix("…"))
            let kept = Array(shortened.dropLast())
            #expect(!kept.isEmpty && kept.allSatisfy { $0 == Character(cluster) }, "\(cluster): a cluster was split")
            #expect(shortened.unicodeScalars.count == kept.count * cluster.unicodeScalars.count + 1)
        }
    }

    @Test("--no-truncate: a payload over the limit fails with the size rule")
    func noTruncate() throws {
        let fitted = try Self.fit(body: String(repeating: "x", count: 5000), ["--no-truncate"])
        #expect(fitted.result.status == 1)
        let line = try #require(Self.lines(fitted.result.stdout).first)
        let errors = Self.diagnostics(line).filter { $0["severity"] as? String == "error" }
        #expect(errors.map { $0["rule"] as? String } == ["apns-size"])
    }

    // MARK: - Summary and --check

    static let audience = [
        #"{"id": "a", "locale": "de-AT", "vars": {"first_name": "Anna"}}"#,
        #"{"id": "b"}"#,
        #"{"id": "c", "locale": "fr", "vars": {"first_name": "Luc"}}"#,
        #"{"id": "d"}"#,
    ]

    @Test("--check writes only the failed recipients' lines, and the summary for people on standard error")
    func checkHuman() throws {
        let result = try Self.campaign(Self.localized, Self.audience, ["--check"])
        #expect(result.status == 1)
        let lines = Self.lines(result.stdout)
        #expect(lines.map { $0["id"] as? String } == ["b", "d"])
        #expect(lines.allSatisfy { $0["error"] != nil })
        #expect(result.stderr.contains("pushmap: campaign: 4 recipients, 2 translated, 2 failed"), "\(result.stderr)")
        #expect(result.stderr.contains("  missing variables: first_name 2"), "\(result.stderr)")
        #expect(result.stderr.contains("  locale fallbacks: de-AT 1"), "\(result.stderr)")
    }

    @Test("--check --format json: the summary is one JSON object on standard output after the error lines")
    func checkJSON() throws {
        let result = try Self.campaign(Self.localized, Self.audience, ["--check", "--format", "json"])
        #expect(result.status == 1)
        let lines = Self.lines(result.stdout)
        #expect(lines.count == 3)
        let summary = try #require(lines.last)
        #expect(summary["recipients"] as? Int == 4)
        #expect(summary["translated"] as? Int == 2)
        #expect(summary["failed"] as? Int == 2)
        #expect(summary["missingVariables"] as? [String: Int] == ["first_name": 2])
        #expect(summary["localeFallbacks"] as? [String: Int] == ["de-AT": 1])
        #expect(summary["truncated"] as? [String: Int] == [:])
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    // MARK: - batch

    @Test("batch lines carry an intent's top-level id, on success and on error; none without one")
    func batchID() throws {
        let input = [
            #"{"id": "m-1", "title": "t", "buttons": [{"label": "x", "id": "b"}]}"#,
            #"{"id": "m-2", "tittle": "typo"}"#,
            #"{"title": "no id", "data": {"id": "not the message's"}}"#,
        ].joined(separator: "\n") + "\n"
        let result = try CommandRunner.run(["batch", "--platform", "apns"], input: Data(input.utf8))
        let lines = Self.lines(result.stdout)
        #expect(lines.map { $0["id"] as? String } == ["m-1", "m-2", nil])
        #expect(lines.map { $0["error"] != nil } == [false, true, false])
        #expect(result.stdout.hasPrefix(#"{"line":1,"id":"m-1","apns":"#), "\(result.stdout)")
        // Source: the twelfth audit (case 8): bad JSON after the id (here a lone surrogate)
        // keeps it, in batch and in campaign alike.
        let broken = try CommandRunner.run(["batch", "--platform", "apns"], input: Data((#"{"id": "m-4", "title": "\udc00"}"# + "\n").utf8))
        #expect(Self.lines(broken.stdout).map { $0["id"] as? String } == ["m-4"], "\(broken.stdout)")
        let recipients = [#"{"id": "u-2", "vars": {"name": "\udc00Bo"}}"#, #"{"id": "u-3", "vars": {"a": [1,]}}"#]
        let campaign = try Self.campaign(#"{"title": "Hi {{ name }}", "body": "b"}"#, recipients, ["--platform", "apns"])
        #expect(Self.lines(campaign.stdout).map { $0["id"] as? String } == ["u-2", "u-3"], "\(campaign.stdout)")
    }

    // MARK: - preview

    @Test("preview --recipient draws what that recipient sees: their layer, their variables")
    func previewRecipient() throws {
        let files = try Files(intent: Self.localized, recipients: [#"{"locale": "fr-CA", "platform": "apns", "vars": {"first_name": "Élise"}}"#])
        defer { try? FileManager.default.removeItem(at: files.folder) }
        let result = try CommandRunner.run(["preview", "intent.json", "--recipient", "recipients.ndjson"], directory: files.folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Allo Élise"), "\(result.stdout)")
        #expect(result.stdout.contains("Commande expédiée"), "\(result.stdout)")
        #expect(!result.stdout.contains("Android"), "a recipient on apns is drawn on iOS only: \(result.stdout)")
        let missing = try Files(intent: Self.localized, recipients: [#"{"locale": "fr"}"#])
        defer { try? FileManager.default.removeItem(at: missing.folder) }
        let failed = try CommandRunner.run(["preview", "intent.json", "--recipient", "recipients.ndjson"], directory: missing.folder)
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("$.locales.fr.title: first_name is not in this recipient's vars [missing-variable]"), "\(failed.stderr)")
    }
}
