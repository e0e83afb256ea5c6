internal import HTTPTypes
internal import Hummingbird
internal import Logging
internal import NIOCore
@_spi(Tools) internal import Pushmap
internal import PushmapJSON
@_spi(Tools) internal import PushmapOutput
internal import PushmapPreview

/// The routes of openapi.yaml; each answer mirrors what the command line writes.
struct Routes: Sendable {
    let store: ScriptStore
    let configuration: ServerConfiguration
    let metrics: ServerMetrics
    let readiness: Readiness
    let limiter: RequestLimiter

    /// Every path the server answers, and its method: the router registers exactly these (a
    /// handler's method comes from here), and ServerResponder answers 404 and 405 and labels its
    /// metrics from the same list.
    static let methods: [String: HTTPRequest.Method] = [
        "/v1/translate": .post, "/v1/validate": .post, "/v1/batch": .post, "/v1/preview": .post, "/v1/import": .post, "/v1/templates": .get,
        "/v1/schema": .get, "/healthz": .get, "/readyz": .get, "/metrics": .get, "/openapi.yaml": .get,
    ]

    func router() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        func on(_ path: String, _ handler: @escaping @Sendable (Request, BasicRequestContext) async throws -> Response) {
            if let method = Self.methods[path] { router.on(RouterPath(path), method: method, use: handler) }
        }
        on("/v1/translate") { request, context in try await translate(request, context: context) }
        on("/v1/validate") { request, context in try await validate(request, context: context) }
        on("/v1/batch") { request, context in batch(request, context: context) }
        on("/v1/preview") { request, context in try await preview(request, context: context) }
        on("/v1/import") { request, context in try await importPayload(request, context: context) }
        on("/v1/templates") { _, _ in templates() }
        on("/v1/schema") { _, _ in schema() }
        on("/healthz") { _, _ in ServerResponse.json(.ok, Array(#"{"status":"ok"}"#.utf8) + [0x0A]) }
        on("/readyz") { _, _ in
            readiness.ready
                ? ServerResponse.json(.ok, Array(#"{"status":"ready"}"#.utf8) + [0x0A])
                : ServerResponse.json(.serviceUnavailable, Array(#"{"status":"stopping"}"#.utf8) + [0x0A])
        }
        on("/metrics") { _, _ in
            ServerResponse.text(.ok, metrics.exposition(), contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
        on("/openapi.yaml") { _, _ in
            ServerResponse.text(.ok, Array(Self.openAPIDocument.utf8), contentType: "application/yaml")
        }
        return router
    }

    /// The OpenAPI document, embedded at build time from Server/Sources/PushmapServer/openapi.yaml.
    static var openAPIDocument: String { ServerFiles.files.first?.source ?? "" }

    // MARK: - Routes

    func translate(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let requestID = context.requestID
        guard let platforms = Self.platforms(request, allowBoth: true, default: [.fcm, .apns]) else {
            return Self.badPlatform(requestID: requestID, allowBoth: true)
        }
        guard let forms = Self.forms(request) else {
            return ErrorAnswer.response(.badRequest, kind: "bad request", message: "request and fcmApns must be true or false", requestID: requestID)
        }
        let body = try await Self.bodyBytes(request, limit: configuration.maxBodyBytes)
        let started = ContinuousClock.now
        do {
            let translation = try Self.translateNow(store.translator, body, platforms: platforms, forms: forms)
            metrics.translated(nanoseconds: (ContinuousClock.now - started).nanoseconds)
            return ServerResponse.json(.ok, TranslationLine.success(translation, number: nil, platforms: platforms))
        } catch {
            metrics.translated(nanoseconds: (ContinuousClock.now - started).nanoseconds)
            return failure(error, requestID: requestID, logger: context.logger)
        }
    }

    /// A failed translation's answer: 400 for a body that is not JSON, 422 for an invalid intent
    /// or failed checks, 500 for a script that failed (the script's own message, which the
    /// command line shows too; nothing of the server's internals).
    func failure(_ error: TranslationError, requestID: String, logger: Logger) -> Response {
        if error.kind == .scriptFailed {
            metrics.scriptFailed()
            logger.warning("script failed", metadata: ["error": "\(error)"])
            return ErrorAnswer.response(.internalServerError, translationError: error, requestID: requestID)
        }
        if error.diagnostics.contains(where: { $0.rule == "json-syntax" }) {
            return ErrorAnswer.response(.badRequest, translationError: error, kind: "invalid json", requestID: requestID)
        }
        return ErrorAnswer.response(.unprocessableContent, translationError: error, requestID: requestID)
    }

    func validate(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let requestID = context.requestID
        guard let platforms = Self.platforms(request, allowBoth: false, default: nil), let platform = platforms.first else {
            return Self.badPlatform(requestID: requestID, allowBoth: false)
        }
        let body = try await Self.bodyBytes(request, limit: configuration.maxBodyBytes)
        let findings = store.translator.validate(body, platform: platform)
        if findings.first?.rule == "json-syntax" {
            return ErrorAnswer.response(
                .badRequest, translationError: TranslationError(kind: .invalidIntent, diagnostics: findings), kind: "invalid json",
                requestID: requestID)
        }
        let object: JSONObject = [
            "valid": .bool(!findings.hasErrors), "platform": .string(platform.name),
            "diagnostics": .array(findings.map(DiagnosticJSON.json)), "requestId": .string(requestID),
        ]
        return ErrorAnswer.json(findings.hasErrors ? .unprocessableContent : .ok, object)
    }

    func batch(_ request: Request, context: BasicRequestContext) -> Response {
        let requestID = context.requestID
        guard let platforms = Self.platforms(request, allowBoth: true, default: [.fcm, .apns]) else {
            return Self.badPlatform(requestID: requestID, allowBoth: true)
        }
        // No body, or an empty one, is a request that forgot it (the command line would read no lines).
        let length = request.headers[.contentLength]
        if length == "0" || (length == nil && request.headers[.transferEncoding] == nil) {
            return ErrorAnswer.response(.badRequest, kind: "bad request", message: "a batch needs a body of NDJSON lines", requestID: requestID)
        }
        // The stream holds a slot of its own for as long as it runs, not just while this returns.
        guard limiter.acquire() else {
            return ErrorAnswer.response(.serviceUnavailable, kind: "overloaded", message: "too many requests in flight; try again", requestID: requestID)
        }
        let stream = BatchStream(
            translator: store.translator, platforms: platforms, maxLineBytes: configuration.maxBodyBytes,
            timeLimit: .milliseconds(configuration.batchTimeoutMilliseconds), metrics: metrics, logger: context.logger)
        let limiter = self.limiter
        return Response(
            status: .ok, headers: [.contentType: "application/x-ndjson"],
            body: ResponseBody { writer in
                defer { limiter.release() }
                try await stream.run(request.body, writer: &writer)
            })
    }

    /// What each phone shows of the intent, as `pushmap preview` draws it: the self-contained page
    /// (`format=html`, the default) or the text form (`format=text`).
    func preview(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let requestID = context.requestID
        guard let platforms = Self.platforms(request, allowBoth: true, default: [.fcm, .apns]) else {
            return Self.badPlatform(requestID: requestID, allowBoth: true)
        }
        let format = request.uri.queryParameters["format"].map(String.init) ?? "html"
        guard format == "html" || format == "text" else {
            return ErrorAnswer.response(.badRequest, kind: "bad request", message: "format must be html or text", requestID: requestID)
        }
        let body = try await Self.bodyBytes(request, limit: configuration.maxBodyBytes)
        do {
            let drawn = try Previewer(translator: store.translator).preview(body, name: "intent", platforms: platforms)
            if format == "text" {
                return ServerResponse.text(.ok, Array(PreviewTextReport().text([drawn]).utf8), contentType: "text/plain; charset=utf-8")
            }
            let page = PreviewPage(title: "pushmap preview").html([drawn])
            return ServerResponse.text(.ok, Array(page.utf8), contentType: "text/html; charset=utf-8")
        } catch {
            return failure(error, requestID: requestID, logger: context.logger)
        }
    }

    /// The intent an existing payload comes from, as `pushmap import --format json` gives it: the
    /// intent, and beside it the warnings the command line prints (keys not kept, values changed).
    /// 400 for a body that is not JSON, 422 with the diagnostics when there is nothing to import,
    /// 500 when a mapping script fails on the intent (as for a translation).
    func importPayload(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let requestID = context.requestID
        guard let platforms = Self.platforms(request, allowBoth: false, default: nil), let platform = platforms.first else {
            return Self.badPlatform(requestID: requestID, allowBoth: false)
        }
        let body = try await Self.bodyBytes(request, limit: configuration.maxBodyBytes)
        let payload: JSONValue
        do {
            payload = try JSONParser.parse(body)
        } catch {
            return ErrorAnswer.response(
                .badRequest, translationError: TranslationError(kind: .invalidIntent, diagnostics: [.jsonSyntax(error)]), kind: "invalid json",
                requestID: requestID)
        }
        let imported: (intent: JSONValue?, diagnostics: [Diagnostic])
        do {
            imported = try store.translator.importIntent(payload, platform: platform)
        } catch {
            return failure(error, requestID: requestID, logger: context.logger)
        }
        guard let intent = imported.intent, !imported.diagnostics.hasErrors else {
            return ErrorAnswer.response(
                .unprocessableContent, translationError: TranslationError(kind: .invalidIntent, diagnostics: imported.diagnostics),
                kind: "invalid payload", requestID: requestID)
        }
        var object: JSONObject = ["intent": intent]
        if !imported.diagnostics.isEmpty { object["warnings"] = .array(imported.diagnostics.map(DiagnosticJSON.json)) }
        return ErrorAnswer.json(.ok, object)
    }

    func templates() -> Response {
        var bytes = JSONWriter(style: .compact).write(TemplateListJSON.json(store.translator.templates))
        bytes.append(0x0A)
        return ServerResponse.json(.ok, bytes)
    }

    func schema() -> Response {
        var bytes = JSONWriter(style: .compact).write(IntentJSONSchema.make(fields: store.translator.templates.mapValues(\.fields)))
        bytes.append(0x0A)
        return ServerResponse.json(.ok, bytes)
    }

    // MARK: - Helpers

    /// The translator's call: microseconds of CPU, run on the request's task.
    static func translateNow(
        _ translator: Translator, _ intent: [UInt8], platforms: [Platform], forms: Set<RequestForm> = []
    ) throws(TranslationError) -> Translation {
        try translator.translate(intent, platforms: platforms, forms: forms)
    }

    /// `?request=` and `?fcmApns=`, true or false (absent: false), as `--request` and `--fcm-apns`;
    /// nil for any other value.
    static func forms(_ request: Request) -> Set<RequestForm>? {
        var forms: Set<RequestForm> = []
        for (name, form) in [("request", RequestForm.apnsRequest), ("fcmApns", .fcmAPNS)] {
            switch request.uri.queryParameters[Substring(name)].map(String.init) {
            case nil, "false": continue
            case "true": forms.insert(form)
            default: return nil
            }
        }
        return forms
    }

    /// `?platform=`: fcm, apns, or (where allowed) both; nil for anything else.
    static func platforms(_ request: Request, allowBoth: Bool, default fallback: [Platform]?) -> [Platform]? {
        guard let value = request.uri.queryParameters["platform"].map(String.init) else { return fallback }
        switch value {
        case "fcm": return [.fcm]
        case "apns": return [.apns]
        case "both" where allowBoth: return [.fcm, .apns]
        default: return nil
        }
    }

    static func badPlatform(requestID: String, allowBoth: Bool) -> Response {
        ErrorAnswer.response(
            .badRequest, kind: "bad request",
            message: allowBoth ? "platform must be fcm, apns or both" : "platform is needed: fcm or apns", requestID: requestID)
    }

    /// The whole body, refused over `limit` (413). Hummingbird's own error for it would become a
    /// bare answer inside the router; ours reaches ServerResponder, which answers in JSON.
    static func bodyBytes(_ request: Request, limit: Int) async throws -> [UInt8] {
        var buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw BodyTooLarge()
        }
        return buffer.readBytes(length: buffer.readableBytes) ?? []
    }
}

extension BasicRequestContext {
    /// The id ServerResponder gave the request.
    var requestID: String {
        if case .string(let id) = logger[metadataKey: "request_id"] { return id }
        return "-"
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
