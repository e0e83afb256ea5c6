internal import Foundation
internal import HTTPTypes
internal import HummingbirdTesting
@testable internal import PushmapServer
internal import Testing

/// The middleware, in order: the request id on every answer, the token and its exempt probes,
/// the concurrency limit, 404 and 405.
@Suite("Middleware, in process")
struct MiddlewareTests {
    static let token = "s3cret"

    /// Every answer carries the id in X-Request-Id and, for an error, in its body.
    static func expectRequestID(_ response: TestResponse, _ status: HTTPResponse.Status, given: String? = nil) throws {
        #expect(response.status == status)
        let id = try #require(response.requestID)
        if let given { #expect(id == given) } else { #expect(id.count == 32) }
        if status.code >= 400 { #expect(try response.object["requestId"] as? String == id) }
    }

    @Test("a safe caller's id is kept; an unsafe or overlong one is replaced by a new one")
    func requestID() async throws {
        try await InProcessServer.test { client in
            try Self.expectRequestID(try await client.send(.get, "/healthz", headers: [.requestID: "proxy-1.a_b"]), .ok, given: "proxy-1.a_b")
            let unsafe = try await client.send(.get, "/healthz", headers: [.requestID: "a b"])
            try Self.expectRequestID(unsafe, .ok)
            let long = try await client.send(.get, "/healthz", headers: [.requestID: String(repeating: "a", count: 129)])
            try Self.expectRequestID(long, .ok)
            #expect(unsafe.requestID != long.requestID)
        }
    }

    @Test("an unknown path is 404 and a known one under another method 405 with Allow, each with the id")
    func notFoundAndMethod() async throws {
        try await InProcessServer.test { client in
            let missing = try await client.send(.get, "/v2/translate", headers: [.requestID: "r404"])
            try Self.expectRequestID(missing, .notFound, given: "r404")
            #expect(try missing.error["message"] as? String == "no such route")
            let method = try await client.send(.get, "/v1/translate", headers: [.requestID: "r405"])
            try Self.expectRequestID(method, .methodNotAllowed, given: "r405")
            #expect(method.headers[.allow] == "POST")
            #expect(try method.error["message"] as? String == "/v1/translate takes POST")
            let metrics = try await client.send(.get, "/metrics")
            #expect(metrics.text.contains(#"pushmap_http_requests_total{route="unmatched",status="404"}"#))
            #expect(metrics.text.contains(#"pushmap_http_requests_total{route="/v1/translate",status="405"}"#))
        }
    }

    @Test("with a token, a route needs it (401 with the id); the probes answer without, /metrics does not")
    func token() async throws {
        try await InProcessServer.test({ $0.token = Array(Self.token.utf8) }) { client in
            let without = try await client.send(.get, "/v1/templates", headers: [.requestID: "r401"])
            try Self.expectRequestID(without, .unauthorized, given: "r401")
            #expect(without.headers[.wwwAuthenticate] == "Bearer")
            let wrong = try await client.send(.get, "/v1/templates", headers: [.authorization: "Bearer s3cre"])
            #expect(wrong.status == .unauthorized)
            let right = try await client.send(.get, "/v1/templates", headers: [.authorization: "Bearer \(Self.token)"])
            #expect(right.status == .ok)
            #expect(try await client.send(.get, "/healthz").status == .ok)
            #expect(try await client.send(.get, "/readyz").status == .ok)
            #expect(try await client.send(.get, "/metrics").status == .unauthorized)
            // A path no route answers is the router's 404 whatever the token.
            #expect(try await client.send(.get, "/nowhere").status == .notFound)
        }
    }

    @Test("with every slot taken a route is 503 with Retry-After and the id; the probes, the metrics and the OpenAPI document still answer")
    func overloaded() async throws {
        let slots = RequestSlots(limit: 1)
        #expect(slots.acquire())
        try await InProcessServer.test(slots: slots) { client in
            let busy = try await client.send(.post, "/v1/translate", RouteTests.intent, headers: [.requestID: "r503"])
            try Self.expectRequestID(busy, .serviceUnavailable, given: "r503")
            #expect(busy.headers[.retryAfter] == "1")
            #expect(try busy.error["kind"] as? String == "overloaded")
            #expect(try await client.send(.get, "/healthz").status == .ok)
            #expect(try await client.send(.get, "/metrics").status == .ok)
            #expect(try await client.send(.get, "/openapi.yaml").status == .ok)
            slots.release()
            #expect(try await client.send(.post, "/v1/translate", RouteTests.intent).status == .ok)
            // The answer gave its slot back: another request gets one.
            #expect(slots.acquire())
            slots.release()
            // A streamed answer holds its slot until the last line is written, then gives it back.
            let batch = try await client.send(.post, "/v1/batch", RouteTests.intent + "\n" + RouteTests.intent)
            #expect(batch.status == .ok && batch.text.split(separator: "\n").count == 2)
            #expect(slots.acquire())
        }
    }

    @Test("a request refused for its size is 413 with the id")
    func tooLargeCarriesID() async throws {
        try await InProcessServer.test({ $0.maxBodyBytes = 4 }) { client in
            try Self.expectRequestID(try await client.send(.post, "/v1/preview", RouteTests.intent, headers: [.requestID: "r413"]), .contentTooLarge, given: "r413")
        }
    }
}
