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
        // A layer whose key is no language tag, which campaign refuses (the forty-fourth audit, campaign F6).
        let badTag = #"{"title": "Hi", "body": "b", "locales": {"fr-12": {"title": "Salut"}}}"#
        let warned = try CommandRunner.run(["translate", "--platform", "apns"], input: Data(badTag.utf8))
        #expect(warned.status == 0, "\(warned.stderr)")
        #expect(warned.stderr.contains(#"warning: $.locales["fr-12"]: 'fr-12' is not a language tag such as fr or fr-CA; pushmap campaign refuses this layer [locale-tag]"#), "\(warned.stderr)")
        let refused = try Self.campaign(badTag, [#"{"id": "a"}"#], ["--platform", "apns"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains(#"error: $.locales["fr-12"]: 'fr-12' is not a language tag such as fr or fr-CA [locale-tag]"#), "\(refused.stderr)")
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

    /// Source: the forty-fourth audit, campaign F1: a carousel item with no image, and a layer
    /// giving `endsAt` over the base's `duration`, were one error line per recipient (100,000
    /// identical lines for an audience of 100,000), where campaign.md promises them once.
    @Test("a required field missing, or exclusive fields met, in the base or a layer merged over it, is said once, at the layer's path")
    func wholeIntentProblems() throws {
        let carousel = #"{"template": "carousel", "title": "t", "body": "b", "carousel": {"mode": "manual", "items": [{"text": "one"}, {"image": "https://e.com/2.png"}, {"image": "https://e.com/3.png"}]}}"#
        let base = try Self.campaign(carousel, [#"{"id": "u-1"}"#, #"{"id": "u-2"}"#], ["--platform", "fcm"])
        #expect(base.status == 1)
        #expect(base.stdout.isEmpty)
        #expect(base.stderr.components(separatedBy: "missing required field 'image'").count == 2, "\(base.stderr)")
        #expect(base.stderr.contains("intent.json: error: $.carousel.items[0]: missing required field 'image' [missing-field]"), "\(base.stderr)")
        let timer = #"{"template": "timer", "title": "t", "body": "b", "timer": {"duration": 60}, "expired": {"title": "x"}, "locales": {"fr": {"timer": {"endsAt": 1767225700}}}}"#
        let layer = try Self.campaign(timer, [#"{"id": "u-1", "locale": "fr"}"#, #"{"id": "u-2", "locale": "fr"}"#], ["--platform", "fcm"])
        #expect(layer.status == 1)
        #expect(layer.stdout.isEmpty)
        #expect(layer.stderr.contains("intent.json: error: $.locales.fr.timer: give only one of 'duration' and 'endsAt', not 'duration' and 'endsAt' (in the fr layer, merged over the base) [exclusive-fields]"), "\(layer.stderr)")
        // The same intent without the layer runs.
        let fine = try Self.campaign(timer.replacingOccurrences(of: #""endsAt": 1767225700"#, with: #""duration": 90"#), [#"{"id": "u-1", "locale": "fr"}"#], ["--platform", "fcm"])
        #expect(fine.status == 0, "\(fine.stderr)")
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
}
