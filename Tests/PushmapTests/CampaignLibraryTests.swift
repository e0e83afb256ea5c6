import Pushmap
import PushmapJSON
import Testing

/// A campaign through the library, as a service that embeds pushmap runs one: compiled once,
/// then translated per recipient with one translator.
@Suite("Campaigns through the library")
struct CampaignLibraryTests {
    static let intent: JSONValue = [
        "title": "Hi {{ first_name }}", "body": "{{ order.items[0].name | default: 'your order' }} is on its way",
        "target": ["token": "BASE"],
        "locales": ["fr": ["title": "Bonjour {{ first_name }}"], "fr-CA": ["body": "{{ order.items[0].name | default: 'ta commande' }} arrive"]],
    ]

    func translator() throws -> Translator {
        try Translator(options: Translator.Options(clock: { 1_800_000_000 }), logger: quietLogger)
    }

    @Test("a recipient's variables, locale chain and target reach the payloads")
    func rendered() throws {
        let campaign = try Campaign(intent: Self.intent, translator: translator())
        #expect(campaign.hasLocales)
        let recipient = CampaignRecipient(
            id: "u-1", target: ["token": "T-1"], locale: LocaleTag("FR_ca"),
            variables: ["first_name": "Zoë \"Z\" <b>", "order": ["items": [["name": "{{ x }}"]]]])
        let outcome = campaign.translate(recipient, translator: try translator(), platforms: [.fcm, .apns])
        let translation = try outcome.result.get()
        let data = translation.payloads[.fcm]?["message"]?["data"]
        // fr gives the title, fr-CA the body; values stay text, even one that looks like a template.
        #expect(data?["adb_title"] == "Bonjour Zoë \"Z\" <b>")
        #expect(data?["adb_body"] == "{{ x }} arrive")
        #expect(translation.payloads[.fcm]?["message"]?["token"] == "T-1")
        #expect(translation.payloads[.apns]?["aps"]?["alert"]?["title"] == "Bonjour Zoë \"Z\" <b>")
        #expect(outcome.fallback == nil && outcome.missingVariables.isEmpty && outcome.truncated.isEmpty)
    }

    /// Source: RFC 5646 2.2.5 and 2.2.6 (a variant or a singleton given twice is no tag) and RFC
    /// 4647 3.4 (Lookup drops a singleton a truncation leaves at the end); the twenty-eighth
    /// audit, F8 and F9: `en-US-x` was a step of the fallback chain, and a variant said twenty
    /// times a tag.
    @Test("a tag with a variant or a singleton twice is no tag; its fallback chain skips a truncation ending in a singleton")
    func localeTags() {
        #expect(LocaleTag("de-1901-1901") == nil)
        #expect(LocaleTag("en-a-bbb-a-ccc") == nil)
        #expect(LocaleTag("sl-rozaj-biske-1994")?.description == "sl-rozaj-biske-1994")
        #expect(LocaleTag("en-x-a-a")?.description == "en-x-a-a")
        #expect(LocaleTag("en-US-x-private")?.chain.map(\.description) == ["en-US-x-private", "en-US", "en"])
        #expect(LocaleTag("fr_ca")?.chain.map(\.description) == ["fr-CA", "fr"])
    }

    /// Source: RFC 5646 2.1 (the ABNF: region is 2ALPHA or 3DIGIT, an extension's subtags are
    /// 2 to 8 characters, privateuse is a tag alone, the irregular tags of 2.2.8) and 2.1.1
    /// (case); the thirty-seventh audit, F4 and F7.
    @Test("a tag is well formed by RFC 5646's grammar, each subtag in its usual case; a private-use tag is a tag")
    func wellFormedTags() {
        for malformed in ["en-a", "fr-12", "fr-CA-US", "fr-CA-a-b", "fr-u", "fr-CA-x", "a-b", "en--US", "x", "en-abcd-abcd", "fr-CA-1"] {
            #expect(LocaleTag(malformed) == nil, "\(malformed)")
        }
        let wellFormed = [
            "x-private": "x-private", "en-US-u-ca-gregory": "en-US-u-ca-gregory", "zh-yue-hk": "zh-yue-HK", "ES-419": "es-419",
            "de-1996": "de-1996", "i-klingon": "i-klingon", "EN-gb-OED": "en-GB-oed", "sgn-be-fr": "sgn-BE-FR", "sr_latn_rs": "sr-Latn-RS", "de-u-co-phonebk-x-a": "de-u-co-phonebk-x-a",
        ]
        for (text, written) in wellFormed { #expect(LocaleTag(text)?.description == written, "\(text)") }
        #expect(LocaleTag("x-klingon")?.chain.map(\.description) == ["x-klingon"])
        #expect(LocaleTag("i-klingon")?.chain.map(\.description) == ["i-klingon"])
        #expect(LocaleTag("de-u-co-phonebk-x-a")?.chain.map(\.description) == ["de-u-co-phonebk-x-a", "de-u-co-phonebk", "de-u-co", "de"])
    }

    @Test("a missing variable is the recipient's error, or with lenient a warning; a language with no layer falls back")
    func missing() throws {
        let campaign = try Campaign(intent: Self.intent, translator: translator())
        let translator = try translator()
        let recipient = CampaignRecipient(locale: LocaleTag("de-AT"))
        let strict = campaign.translate(recipient, translator: translator, platforms: [.fcm])
        guard case .failure(let error) = strict.result else { Issue.record("a missing variable translated"); return }
        #expect(error.diagnostics.contains { $0.rule == "missing-variable" && $0.path == "$.title" && $0.severity == .error })
        #expect(strict.missingVariables == ["first_name"])
        let lenient = campaign.translate(recipient, translator: translator, platforms: [.fcm], lenient: true)
        let translation = try lenient.result.get()
        #expect(translation.payloads[.fcm]?["message"]?["data"]?["adb_title"] == "Hi ")
        #expect(translation.payloads[.fcm]?["message"]?["data"]?["adb_body"] == "your order is on its way")
        #expect(lenient.fallback == LocaleTag("de-AT"))
        #expect(translation.diagnostics.contains { $0.rule == "missing-variable" && $0.severity == .warning })
    }

    /// Source: docs/campaign.md, and Liquid's strict mode (the ruby-liquid gem,
    /// `strict_variables: true`), which renders an index past a list's end empty: here it is
    /// lacking, as a missing key is, so a recipient with fewer items does not get a blank.
    @Test("an index past a list's end is a missing variable: an error, or with lenient a warning and an empty text")
    func indexPastTheEnd() throws {
        let campaign = try Campaign(intent: ["title": "Your {{ items[2] }}", "body": "b"], translator: translator())
        let recipient = CampaignRecipient(variables: ["items": ["hat", "scarf"]])
        let strict = campaign.translate(recipient, translator: try translator(), platforms: [.fcm])
        #expect(strict.missingVariables == ["items[2]"])
        let lenient = try campaign.translate(recipient, translator: try translator(), platforms: [.fcm], lenient: true).result.get()
        #expect(lenient.payloads[.fcm]?["message"]?["data"]?["adb_title"] == "Your ")
    }

    @Test("a template that does not compile is one error at its path, naming the column")
    func syntax() throws {
        let translator = try translator()
        do throws(CampaignError) {
            _ = try Campaign(intent: ["title": "Hi {{ first_name | upcse }}"], translator: translator)
            Issue.record("a misspelt filter compiled")
        } catch {
            #expect(error.diagnostics.count == 1)
            #expect(error.diagnostics.first?.path == "$.title")
            #expect(error.diagnostics.first?.message.contains("upcase") == true)
            #expect(!"\(error)".contains("CampaignError("), "\(error)")
        }
    }

    @Test("a field no recipient's values can mend is an error before any recipient, in the base and in a layer")
    func writtenProblems() throws {
        let translator = try translator()
        do throws(CampaignError) {
            _ = try Campaign(intent: ["titel": "Hi {{ first_name }}", "locales": ["fr": ["badge": "3"]]], translator: translator)
            Issue.record("an intent with a typo compiled")
        } catch {
            #expect(error.diagnostics.map(\.path) == ["$.titel", "$.locales.fr.badge"])
            #expect(error.diagnostics.map(\.rule) == ["unknown-field", "wrong-type"])
            // One line, as TranslationError's (the forty-fifth audit, embedding F3: a struct dump).
            #expect("\(error)".hasPrefix("invalid campaign: error: $.titel: ") && "\(error)".hasSuffix(" (and 1 more)"), "\(error)")
        }
    }
}
