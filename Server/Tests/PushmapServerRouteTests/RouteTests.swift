internal import Foundation
internal import HTTPTypes
internal import HummingbirdTesting
@testable internal import PushmapServer
internal import Testing

/// Each route of openapi.yaml: its answer and its errors, in process.
@Suite("Routes, in process")
struct RouteTests {
    static let intent = #"{"title":"Game request","body":"Shall we play a game?"}"#

    @Test("translate answers the payloads as compact JSON ending in a newline, the platforms asked for")
    func translate() async throws {
        try await InProcessServer.test { client in
            let both = try await client.send(.post, "/v1/translate", Self.intent)
            #expect(both.status == .ok)
            #expect(both.headers[.contentType] == "application/json")
            #expect(both.text.hasSuffix("}\n") && !both.text.contains("\n{") && !both.text.contains(": "))
            #expect(try Set(both.object.keys) == ["fcm", "apns"])
            let fcm = try await client.send(.post, "/v1/translate?platform=fcm&request=false", Self.intent)
            #expect(try Set(fcm.object.keys) == ["fcm"])
            let request = try await client.send(.post, "/v1/translate?platform=apns&request=true", Self.intent)
            let apns = try #require(try request.object["apns"] as? [String: Any])
            #expect(Set(apns.keys) == ["headers", "payload"])
        }
    }

    @Test("translate refuses bad parameters (400), a body not JSON (400), an invalid intent (422)")
    func translateErrors() async throws {
        try await InProcessServer.test { client in
            let platform = try await client.send(.post, "/v1/translate?platform=web", Self.intent)
            #expect(platform.status == .badRequest)
            #expect(try platform.error["message"] as? String == "platform must be fcm, apns or both")
            let form = try await client.send(.post, "/v1/translate?request=yes", Self.intent)
            #expect(form.status == .badRequest)
            #expect(try form.error["message"] as? String == "request and fcmApns must be true or false")
            let notJSON = try await client.send(.post, "/v1/translate", "{")
            #expect(notJSON.status == .badRequest)
            #expect(try notJSON.error["kind"] as? String == "invalid json")
            let invalid = try await client.send(.post, "/v1/translate", #"{"tittle":"Hi"}"#)
            #expect(invalid.status == .unprocessableContent)
            #expect(try invalid.error["kind"] as? String == "invalid intent")
            let diagnostics = try #require(try invalid.error["diagnostics"] as? [[String: Any]])
            #expect(diagnostics.first?["path"] as? String == "$.tittle")
        }
    }

    @Test("a body announced over the limit is 413 before it is read")
    func tooLarge() async throws {
        try await InProcessServer.test({ $0.maxBodyBytes = 16 }) { client in
            let announced = try await client.send(.post, "/v1/translate", Self.intent)
            #expect(announced.status == .contentTooLarge)
            #expect(try announced.error["message"] as? String == "the body exceeds the limit of 16 bytes")
        }
    }

    @Test("validate answers 200 with its findings and the request id, 422 for a payload with an error, 400 without a platform")
    func validate() async throws {
        try await InProcessServer.test { client in
            let translated = try await client.send(.post, "/v1/translate?platform=fcm", Self.intent)
            let fcm = try #require(try translated.object["fcm"])
            let message = String(decoding: try JSONSerialization.data(withJSONObject: fcm), as: UTF8.self)
            let valid = try await client.send(.post, "/v1/validate?platform=fcm", message, headers: [.requestID: "check-1"])
            #expect(valid.status == .ok)
            #expect(try valid.object["valid"] as? Bool == true)
            #expect(try valid.object["requestId"] as? String == "check-1")
            let invalid = try await client.send(.post, "/v1/validate?platform=fcm", #"{"message":{"data":{"a":1}}}"#)
            #expect(invalid.status == .unprocessableContent)
            #expect(try invalid.object["valid"] as? Bool == false)
            let noPlatform = try await client.send(.post, "/v1/validate", message)
            #expect(noPlatform.status == .badRequest)
            #expect(try noPlatform.error["message"] as? String == "platform is needed: fcm or apns")
        }
    }

    @Test("batch answers one NDJSON line per line in, in order, a bad line an error line; no body is 400")
    func batch() async throws {
        try await InProcessServer.test { client in
            let answer = try await client.send(.post, "/v1/batch?platform=apns", Self.intent + "\nnot json\n" + Self.intent)
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType] == "application/x-ndjson")
            let lines = answer.text.split(separator: "\n").map(String.init)
            #expect(lines.count == 3)
            #expect(lines[0].hasPrefix(#"{"line":1,"apns":"#))
            #expect(lines[1].hasPrefix(#"{"line":2,"error":"#))
            #expect(lines[2].hasPrefix(#"{"line":3,"apns":"#))
            let empty = try await client.send(.post, "/v1/batch", "")
            #expect(empty.status == .badRequest)
            #expect(try empty.error["message"] as? String == "a batch needs a body of NDJSON lines")
        }
    }

    @Test("preview draws the page (html, the default) or the text form; another format is 400")
    func preview() async throws {
        try await InProcessServer.test { client in
            let page = try await client.send(.post, "/v1/preview", Self.intent)
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.text.contains("<html") && page.text.contains("Game request"))
            let text = try await client.send(.post, "/v1/preview?format=text&platform=fcm", Self.intent)
            #expect(text.headers[.contentType] == "text/plain; charset=utf-8")
            #expect(text.text.contains("Game request") && !text.text.contains("<html"))
            let pdf = try await client.send(.post, "/v1/preview?format=pdf", Self.intent)
            #expect(pdf.status == .badRequest)
            #expect(try pdf.error["message"] as? String == "format must be html or text")
        }
    }

    @Test("import gives back the intent of a payload; not JSON is 400, nothing to import 422")
    func importPayload() async throws {
        try await InProcessServer.test { client in
            let translated = try await client.send(.post, "/v1/translate?platform=apns", Self.intent)
            let apns = try #require(try translated.object["apns"])
            let payload = String(decoding: try JSONSerialization.data(withJSONObject: apns), as: UTF8.self)
            let imported = try await client.send(.post, "/v1/import?platform=apns", payload)
            #expect(imported.status == .ok)
            let intent = try #require(try imported.object["intent"] as? [String: Any])
            #expect(intent["title"] as? String == "Game request")
            let notJSON = try await client.send(.post, "/v1/import?platform=apns", "[")
            #expect(notJSON.status == .badRequest)
            #expect(try notJSON.error["kind"] as? String == "invalid json")
            let nothing = try await client.send(.post, "/v1/import?platform=apns", #"{"message":{}}"#)
            #expect(nothing.status == .unprocessableContent)
            #expect(try nothing.error["kind"] as? String == "invalid payload")
        }
    }

    @Test("templates, schema, the probes and the document answer GET")
    func reads() async throws {
        let readiness = Readiness()
        try await InProcessServer.test(readiness: readiness) { client in
            let templates = try await client.send(.get, "/v1/templates")
            let list = try JSONSerialization.jsonObject(with: Data(templates.text.utf8)) as? [[String: Any]]
            #expect(list?.contains { $0["name"] as? String == "basic" } == true)
            let schema = try await client.send(.get, "/v1/schema")
            #expect(try schema.object["$schema"] as? String != nil)
            #expect(try await client.send(.get, "/healthz").text == "{\"status\":\"ok\"}\n")
            #expect(try await client.send(.get, "/readyz").text == "{\"status\":\"ready\"}\n")
            readiness.stopping()
            let stopping = try await client.send(.get, "/readyz")
            #expect(stopping.status == .serviceUnavailable && stopping.text == "{\"status\":\"stopping\"}\n")
            let document = try await client.send(.get, "/openapi.yaml")
            #expect(document.headers[.contentType] == "application/yaml")
            #expect(document.text == PushmapAPI.openAPIDocument && document.text.hasPrefix("openapi: 3.1.0\n"))
            let metrics = try await client.send(.get, "/metrics")
            #expect(metrics.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
            #expect(metrics.text.contains(#"pushmap_http_requests_total{route="/v1/templates",status="200"}"#))
        }
    }
}
