internal import Logging
@_spi(Tools) internal import Pushmap
internal import PushmapJSON

extension FuzzTarget {
    /// Random Liquid templates (``LiquidRecipe``) placed in an intent's texts, links, labels,
    /// data and a locale's layer, compiled as a campaign and sent to a recipient with random
    /// vars. Promises: a compile error is only a template's, at a path; the rendered intent is
    /// JSON; a translation's payloads parse back and are within 4096 bytes; an error says why.
    static func campaign(logger: Logger) throws -> FuzzTarget {
        let now: Int64 = 1_795_687_200
        let translator = try Translator(options: Translator.Options(idleStates: 1, clock: { now }), logger: logger)
        return FuzzTarget(name: "campaign", summary: "random templates and vars through a campaign: rendered, translated, cut to fit") { input in
            // The first byte places the templates; the rest is the recipe.
            let choice = Int(input.first ?? 0)
            var recipe = LiquidRecipe(UnsafeBufferPointer(rebasing: input.dropFirst()))
            let vars = recipe.vars()
            let first = recipe.template()
            let second = recipe.template()
            let long = String(repeating: "é👨‍👩‍👧‍👦🇫🇷e\u{301}日本", count: (choice % 8) * 60)
            var intent: JSONObject = ["title": .string(first), "body": .string(long + second), "link": ["uri": .string("https://e.com/" + first)]]
            if choice & 8 != 0 { intent["data"] = ["k": .string(second)] }
            if choice & 16 != 0 { intent["buttons"] = [["label": .string(first)]] }
            if choice & 32 != 0 { intent["locales"] = ["fr": ["title": .string(second), "expandedBody": .string(long + first)]] }
            let campaign: Campaign
            do throws(CampaignError) {
                campaign = try Campaign(intent: .object(intent), translator: translator)
            } catch {
                for finding in error.diagnostics where finding.rule != "template-syntax" || !finding.path.hasPrefix("$.") {
                    return "a compile error that is not a template's, at a path: \(finding)"
                }
                return error.diagnostics.isEmpty ? "a compile error with no diagnostic" : nil
            }
            let platforms: [Platform] = [.fcm, .apns]
            let recipient = CampaignRecipient(target: ["token": "t"], locale: choice & 64 != 0 ? LocaleTag("fr-CA") : nil, variables: vars)
            let lenient = choice & 128 != 0
            guard (try? JSONParser.parse(campaign.render(recipient, lenient: lenient, now: now).intent)) != nil else {
                return "a rendered intent that is not JSON"
            }
            let outcome = campaign.translate(recipient, lenient: lenient, truncate: true, now: now) { bytes throws(TranslationError) in
                try translator.translateRendered(bytes, platforms: platforms)
            }
            switch outcome.result {
            case .success(let translation):
                for platform in platforms {
                    let text = translation.bytes(for: platform, style: .compact)
                    guard (try? JSONParser.parse(text)) != nil else { return "the \(platform) payload does not parse back" }
                    if text.count > 4096 + 12 { return "a \(platform) payload of \(text.count) bytes" }
                }
                return nil
            case .failure(let error):
                if error.kind == .scriptFailed, error.scriptError?.kind != .instructionLimit, error.scriptError?.kind != .memoryLimit,
                   error.scriptError?.kind != .timeLimit {
                    return "a built-in script failed: \(error)"
                }
                return error.diagnostics.hasErrors ? nil : "an error with no error diagnostic: \(error)"
            }
        }
    }
}
