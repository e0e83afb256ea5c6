internal import Foundation
internal import HTTPTypes
internal import Hummingbird
internal import HummingbirdTesting
internal import Logging
internal import NIOCore
@testable internal import PushmapServer

/// The server's router in process, as `pushmap-server` builds it, with the built-in scripts and a
/// fixed clock; requests go through HummingbirdTesting's router client, no socket.
enum InProcessServer {
    /// One registry per process: swift-metrics is bootstrapped once.
    static let metrics = ServerMetrics.bootstrap()

    static func test<Value>(
        slots: RequestSlots? = nil, readiness: Readiness = Readiness(), _ configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        var configuration = ServerConfiguration()
        configuration.now = 1_700_000_000
        configure(&configuration)
        var logger = Logger(label: "pushmap-server-test")
        logger.logLevel = .critical
        let store = try ScriptStore(directories: [], now: configuration.now, logger: logger, metrics: metrics)
        let api = PushmapAPI(store: store, configuration: configuration, metrics: metrics, readiness: readiness)
        let router = try ServerRouter.make(api: api, configuration: configuration, metrics: metrics, slots: slots)
        return try await Application(router: router, logger: logger).test(.router, body)
    }
}

extension TestClientProtocol {
    /// A request with a body given as text, its length announced as a client announces it.
    func send(_ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil, headers: HTTPFields = [:]) async throws -> TestResponse {
        var headers = headers
        if let body, headers[.contentLength] == nil, headers[.transferEncoding] == nil { headers[.contentLength] = String(body.utf8.count) }
        return try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }

    /// The body as JSON, a dictionary at the top.
    var object: [String: Any] {
        get throws {
            let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
            guard let object = value as? [String: Any] else { throw NotAnObject(text: text) }
            return object
        }
    }

    /// The `error` object of an error answer.
    var error: [String: Any] { get throws { try object["error"] as? [String: Any] ?? [:] } }

    var requestID: String? { headers[.requestID] }
}

struct NotAnObject: Error {
    let text: String
}
