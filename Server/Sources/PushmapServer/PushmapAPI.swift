internal import HTTPTypes
internal import Logging
internal import OpenAPIRuntime
@_spi(Tools) internal import Pushmap
internal import PushmapJSON
@_spi(Tools) internal import PushmapOutput
internal import PushmapPreview
@_spi(Tools) internal import PushmapTooling

/// The operations of openapi.yaml (the generated `APIProtocol`); each answer mirrors what the
/// command line writes. A failure is thrown as an ``APIError``, which knows its answer.
struct PushmapAPI: APIProtocol {
    let store: ScriptStore
    let configuration: ServerConfiguration
    let metrics: ServerMetrics
    let readiness: Readiness

    /// The routes whose body is streamed, with a limit per line (``LineSplitter``); every other
    /// route reads one whole body of at most `--max-body-bytes` (``RequestBody``).
    static let streamedRoutes: Set<String> = ["/v1/batch", "/v1/campaign"]

    /// The OpenAPI document, embedded at build time from Server/Sources/PushmapServer/openapi.yaml.
    static var openAPIDocument: String { ServerFiles.files.first?.source ?? "" }

    func translate(_ input: Operations.Translate.Input) async throws -> Operations.Translate.Output {
        let query = RequestQuery.current
        let platforms = try Self.platforms(query["platform"], allowBoth: true) ?? [.fcm, .apns]
        let forms = try Self.forms(request: query["request"], fcmApns: query["fcmApns"])
        let body = try await RequestBody.bytes(input.body.raw, limit: configuration.maxBodyBytes)
        let started = ContinuousClock.now
        defer { metrics.translated(1, since: started) }
        let translation: Translation
        do throws(TranslationError) {
            let translator = store.translator
            translation = try await store.running { () throws(TranslationError) in try translator.translate(body, platforms: platforms, forms: forms) }
        } catch {
            throw failure(error)
        }
        // The platforms in the order of their names: `pushmap translate --format json` sorts its keys.
        let written = platforms.sorted { $0.name < $1.name }
        return .ok(.init(body: .applicationJsonBytes(HTTPBody(TranslationLine.success(translation, number: nil, platforms: written)))))
    }

    func validate(_ input: Operations.Validate.Input) async throws -> Operations.Validate.Output {
        guard let platform = try Self.platforms(RequestQuery.current["platform"], allowBoth: false)?.first else {
            throw APIError.badPlatform(allowBoth: false)
        }
        let body = try await RequestBody.bytes(input.body.raw, limit: configuration.maxBodyBytes)
        let findings = store.translator.validate(body, platform: platform)
        if findings.first?.rule == "json-syntax" {
            throw APIError.invalidJSON(findings)
        }
        let object: JSONObject = [
            "valid": .bool(!findings.hasErrors), "platform": .string(platform.name),
            "diagnostics": .array(findings.map(DiagnosticJSON.json)), "requestId": .string(RequestScope.current.requestID),
        ]
        let answer = HTTPBody(Answer.json(.object(object)))
        return findings.hasErrors ? .unprocessableContent(.init(body: .applicationJsonBytes(answer))) : .ok(.init(body: .applicationJsonBytes(answer)))
    }

    func batch(_ input: Operations.Batch.Input) async throws -> Operations.Batch.Output {
        let query = RequestQuery.current
        let platforms = try Self.platforms(query["platform"], allowBoth: true) ?? [.fcm, .apns]
        let forms = try Self.forms(request: query["request"], fcmApns: query["fcmApns"])
        try Self.requireBody("a batch needs a body of NDJSON lines")
        // The first chunk is read before the answer starts: a chunked body that ends with no byte
        // is the 400 a Content-Length of 0 gets, not a 200 with nothing.
        var chunks = input.body.raw.makeAsyncIterator()
        guard let first = try await chunks.next() else { throw APIError.badRequest("a batch needs a body of NDJSON lines") }
        var splitter = LineSplitter(maxLineBytes: configuration.maxBodyBytes)
        let lines = splitter.append(first)
        let ahead = BodyLinesAhead(BodyLines(lines: lines, splitter: splitter, chunks: chunks))
        let stream = LineStream(
            lines: { ahead.take() },
            answering: BatchAnswer(
                workers: Self.workers(store.translator), platforms: platforms, forms: forms, maxLineBytes: configuration.maxBodyBytes, metrics: metrics,
                logger: RequestScope.current.logger),
            timeLimit: .milliseconds(configuration.batchTimeoutMilliseconds))
        return .ok(.init(body: .applicationXNdjson(HTTPBody(stream, length: .unknown, iterationBehavior: .single))))
    }

    /// What each phone shows of the intent, as `pushmap preview` draws it: the self-contained page
    /// (`format=html`, the default) or the text form (`format=text`).
    func preview(_ input: Operations.Preview.Input) async throws -> Operations.Preview.Output {
        let query = RequestQuery.current
        let platforms = try Self.platforms(query["platform"], allowBoth: true) ?? [.fcm, .apns]
        let format = query["format"] ?? "html"
        guard format == "html" || format == "text" else { throw APIError.badRequest("format must be html or text") }
        let body = try await RequestBody.bytes(input.body.raw, limit: configuration.maxBodyBytes)
        let drawn: NotificationPreview
        do throws(TranslationError) {
            let translator = store.translator
            drawn = try await store.running { () throws(TranslationError) in
                try Previewer(translator: translator).preview(body, name: "intent", platforms: platforms)
            }
        } catch {
            throw failure(error)
        }
        if format == "text" { return .ok(.init(body: .textPlainCharsetUtf8(HTTPBody(PreviewTextReport().text([drawn]))))) }
        return .ok(.init(body: .textHtmlCharsetUtf8(HTTPBody(PreviewPage(title: "pushmap preview").html([drawn])))))
    }

    /// The intent an existing payload comes from, as `pushmap import --format json` gives it: the
    /// intent, and beside it the warnings the command line prints (keys not kept, values changed).
    /// 400 for a body that is not JSON, 422 with the diagnostics when there is nothing to import,
    /// 500 when a mapping script fails on the intent (as for a translation).
    func _import(_ input: Operations.Import.Input) async throws -> Operations.Import.Output {
        guard let platform = try Self.platforms(RequestQuery.current["platform"], allowBoth: false)?.first else {
            throw APIError.badPlatform(allowBoth: false)
        }
        let body = try await RequestBody.bytes(input.body.raw, limit: configuration.maxBodyBytes)
        let (payload, read): (JSONValue, [Diagnostic])
        do throws(JSONParseError) {
            (payload, read) = try Translator.readPayload(body, platform: platform)
        } catch {
            throw APIError.invalidJSON([.jsonSyntax(error)])
        }
        let imported: (intent: JSONValue?, diagnostics: [Diagnostic])
        do throws(TranslationError) {
            let translator = store.translator
            imported = try await store.running { () throws(TranslationError) in try translator.importIntent(payload, platform: platform, read: read, text: body) }
        } catch {
            throw failure(error)
        }
        guard let intent = imported.intent, !imported.diagnostics.hasErrors else {
            throw APIError(
                .unprocessableContent, translationError: TranslationError(kind: .invalidIntent, diagnostics: imported.diagnostics),
                kind: "invalid payload")
        }
        var object: JSONObject = ["intent": intent]
        if !imported.diagnostics.isEmpty { object["warnings"] = .array(imported.diagnostics.map(DiagnosticJSON.json)) }
        return .ok(.init(body: .applicationJsonBytes(HTTPBody(Answer.json(.object(object))))))
    }

    func templates(_ input: Operations.Templates.Input) async throws -> Operations.Templates.Output {
        .ok(.init(body: .applicationJsonBytes(HTTPBody(Answer.json(TemplateListJSON.json(store.translator.templates))))))
    }

    func schema(_ input: Operations.Schema.Input) async throws -> Operations.Schema.Output {
        let schema = IntentJSONSchema.make(fields: store.translator.templates.mapValues(\.fields))
        return .ok(.init(body: .applicationJsonBytes(HTTPBody(Answer.json(schema)))))
    }

    func health(_ input: Operations.Health.Input) async throws -> Operations.Health.Output {
        .ok(.init(body: .applicationJsonBytes(HTTPBody(Answer.json(.object(["status": .string("ok")]))))))
    }

    func ready(_ input: Operations.Ready.Input) async throws -> Operations.Ready.Output {
        guard readiness.ready else {
            return .serviceUnavailable(.init(body: .applicationJsonBytes(HTTPBody(Answer.json(.object(["status": .string("stopping")]))))))
        }
        return .ok(.init(body: .applicationJsonBytes(HTTPBody(Answer.json(.object(["status": .string("ready")]))))))
    }

    func metrics(_ input: Operations.Metrics.Input) async throws -> Operations.Metrics.Output {
        .ok(.init(body: .textPlainCharsetUtf8Version_0_0_4(HTTPBody(metrics.exposition()))))
    }

    func openapi(_ input: Operations.Openapi.Input) async throws -> Operations.Openapi.Output {
        .ok(.init(body: .yaml(HTTPBody(Self.openAPIDocument))))
    }

    // MARK: - Shared by the routes

    /// A failed translation's answer: 400 for a body that is not JSON, 422 for an invalid intent
    /// or failed checks, 500 for a script that failed (the script's own message, which the
    /// command line shows too; nothing of the server's internals).
    func failure(_ error: TranslationError) -> APIError {
        if error.kind == .scriptFailed {
            metrics.scriptFailed()
            RequestScope.current.logger.warning("script failed", metadata: ["error": "\(error)"])
            return APIError(.internalServerError, translationError: error)
        }
        if error.diagnostics.contains(where: { $0.rule == "json-syntax" }) {
            return APIError(.badRequest, translationError: error, kind: "invalid json")
        }
        return APIError(.unprocessableContent, translationError: error)
    }

    /// `?platform=`: fcm, apns, or (where allowed) both; nil when absent, 400 for anything else.
    static func platforms(_ value: String?, allowBoth: Bool) throws(APIError) -> [Platform]? {
        switch value {
        case nil: return nil
        case "fcm": return [.fcm]
        case "apns": return [.apns]
        case "both" where allowBoth: return [.fcm, .apns]
        default: throw APIError.badPlatform(allowBoth: allowBoth)
        }
    }

    /// The worker threads a streamed route translates its runs on: as many as the translator keeps
    /// idle Lua states, one a core.
    static func workers(_ translator: Translator) -> LineWorkers {
        LineWorkers(translator: translator, workers: translator.options.idleStates)
    }

    /// 400 saying `message` when the request has no body, or an empty one: a streamed route's
    /// request that forgot it (the command line would have no line to read).
    static func requireBody(_ message: String) throws(APIError) {
        let head = RequestScope.current.head.headerFields
        if head[.contentLength] == "0" || (head[.contentLength] == nil && head[.transferEncoding] == nil) {
            throw APIError.badRequest(message)
        }
    }

    /// A true-or-false query parameter (absent: false), as a flag of the command line.
    static func flag(_ value: String?, _ name: String) throws(APIError) -> Bool {
        switch value {
        case nil, "false": return false
        case "true": return true
        default: throw APIError.badRequest("\(name) must be true or false")
        }
    }

    /// `?request=` and `?fcmApns=`, true or false (absent: false), as `--request` and `--fcm-apns`.
    static func forms(request: String?, fcmApns: String?) throws(APIError) -> Set<RequestForm> {
        var forms: Set<RequestForm> = []
        for (value, form) in [(request, RequestForm.apnsRequest), (fcmApns, .fcmAPNS)] where try flag(value, "request and fcmApns") {
            forms.insert(form)
        }
        return forms
    }
}

extension Components.RequestBodies.Bytes {
    /// The body as it arrives (the view of the document the code is generated from gives every
    /// operation that takes a body this one, of any media type).
    var raw: HTTPBody {
        switch self {
        case .any(let body): body
        }
    }
}

extension APIError {
    static func badPlatform(allowBoth: Bool) -> APIError {
        .badRequest(allowBoth ? "platform must be fcm, apns or both" : "platform is needed: fcm or apns")
    }

    /// A body that is not JSON: 400, the `json-syntax` finding saying where.
    static func invalidJSON(_ findings: [Diagnostic]) -> APIError {
        APIError(.badRequest, translationError: TranslationError(kind: .invalidIntent, diagnostics: findings), kind: "invalid json")
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
