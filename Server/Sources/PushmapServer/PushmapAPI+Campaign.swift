internal import HTTPTypes
internal import OpenAPIRuntime
@_spi(Tools) internal import Pushmap
internal import PushmapJSON
@_spi(Tools) internal import PushmapOutput

extension PushmapAPI {
    /// `POST /v1/campaign`, as `pushmap campaign`: the body's first line is the intent, compiled
    /// before the answer starts (what does not compile is a 400 naming each problem's path, as the
    /// command line names it before reading a recipient); the recipients after it are streamed.
    func campaign(_ input: Operations.Campaign.Input) async throws -> Operations.Campaign.Output {
        let query = RequestQuery.current
        let platforms = try Self.platforms(query["platform"], allowBoth: true) ?? [.fcm, .apns]
        let forms = try Self.forms(request: query["request"], fcmApns: query["fcmApns"])
        let lenient = try Self.flag(query["lenient"], "lenient")
        let noTruncate = try Self.flag(query["noTruncate"], "noTruncate")
        let check = try Self.flag(query["check"], "check")
        try Self.requireBody("a campaign needs a body: the intent on the first line, then one recipient per line")
        let body = try await CampaignBody(input.body.raw, maxLineBytes: configuration.maxBodyBytes)
        let translator = store.translator
        let campaign = try Self.compile(body.intent, translator: translator)
        let settings = CampaignLine.Settings(
            campaign: campaign, platforms: platforms, forms: forms, lenient: lenient, truncate: !noTruncate, errorsOnly: check,
            maxLineBytes: configuration.maxBodyBytes, now: translator.options.clock())
        let stream = LineStream(
            lines: { body.rest.take() },
            answering: CampaignAnswer(settings: settings, workers: Self.workers(translator), metrics: metrics, logger: RequestScope.current.logger),
            timeLimit: .milliseconds(configuration.batchTimeoutMilliseconds))
        return .ok(.init(body: .applicationXNdjson(HTTPBody(stream, length: .unknown, iterationBehavior: .single))))
    }

    /// The intent line, compiled and checked; 400 with the diagnostics when it is not JSON, does
    /// not compile, or is wrong whoever receives it.
    static func compile(_ intent: [UInt8], translator: Translator) throws(APIError) -> Campaign {
        let value: JSONValue
        do throws(JSONParseError) {
            value = try JSONParser.parse(intent)
        } catch {
            var finding = Diagnostic.jsonSyntax(error)
            // The line ended inside the intent: written over several lines, as a file may hold
            // it (examples/campaign/welcome.json), where the route reads its first line alone
            // (the twenty-eighth audit, F2: "1:2: unexpected end of input" said no more).
            if finding.message.hasSuffix("unexpected end of input") {
                finding.message += "; the intent must be the body's first line, whole (write it compactly, as jq -c does)"
            }
            throw APIError.invalidJSON([finding])
        }
        do throws(CampaignError) {
            return try Campaign(intent: value, translator: translator)
        } catch {
            throw APIError(.badRequest, translationError: TranslationError(kind: .invalidIntent, diagnostics: error.diagnostics))
        }
    }
}
