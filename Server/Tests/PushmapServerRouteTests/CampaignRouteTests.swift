internal import Foundation
internal import HTTPTypes
internal import HummingbirdTesting
@testable internal import PushmapServer
internal import Testing

/// `/v1/campaign` in process: the lines, the errors answered before any recipient, `check=true`
/// and the metrics. Serialized: the metrics registry is the process's, and one test reads its deltas.
@Suite("Campaign route, in process", .serialized)
struct CampaignRouteTests {
    static let greeting = #"{"title": "Hello {{ first_name }}", "body": "Your {{ order.item }} shipped"}"#

    static func lines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            let value = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(value as? [String: Any], "\(line)")
        }
    }

    static func diagnostics(_ line: [String: Any]) -> [[String: Any]] {
        ((line["error"] as? [String: Any])?["diagnostics"] as? [[String: Any]]) ?? (line["warnings"] as? [[String: Any]]) ?? []
    }

    @Test("one line per recipient, in order, numbered from 1 after the intent line; a failed recipient is an error line")
    func lines() async throws {
        try await InProcessServer.test { client in
            let body = [
                Self.greeting,
                #"{"id": "u-1", "vars": {"first_name": "Ann", "order": {"item": "lamp"}}}"#,
                #"{"id": "u-2", "vars": {"order": {"item": "desk"}}}"#,
                "not json",
                #"{"id": "u-4", "platform": "fcm", "vars": {"first_name": "Bo", "order": {"item": "pen"}}}"#,
            ].joined(separator: "\n")
            let answer = try await client.send(.post, "/v1/campaign?platform=apns", body)
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType] == "application/x-ndjson")
            let lines = try Self.lines(answer.text)
            #expect(lines.map { $0["line"] as? Int } == [1, 2, 3, 4])
            #expect(lines.map { $0["id"] as? String } == ["u-1", "u-2", nil, "u-4"])
            #expect(lines.map { $0["error"] != nil } == [false, true, true, false])
            let alert = ((lines[0]["apns"] as? [String: Any])?["aps"] as? [String: Any])?["alert"] as? [String: Any]
            #expect(alert?["title"] as? String == "Hello Ann")
            #expect(Self.diagnostics(lines[1]).first?["path"] as? String == "$.title")
            #expect((Self.diagnostics(lines[1]).first?["message"] as? String)?.contains("first_name") == true)
            #expect(lines[3]["fcm"] != nil && lines[3]["apns"] == nil)
            // The intent alone: no recipients, no lines.
            let alone = try await client.send(.post, "/v1/campaign", Self.greeting + "\n")
            #expect(alone.status == .ok)
            #expect(alone.text.isEmpty)
        }
    }

    @Test("lenient renders a missing variable empty with a warning; noTruncate fails an oversize payload")
    func flags() async throws {
        try await InProcessServer.test { client in
            let lenient = try await client.send(.post, "/v1/campaign?platform=apns&lenient=true", Self.greeting + "\n{}\n")
            let line = try #require(try Self.lines(lenient.text).first)
            #expect(line["error"] == nil)
            #expect(Set(Self.diagnostics(line).compactMap { $0["path"] as? String }) == ["$.title", "$.body"])
            let long = #"{"title": "T", "body": "\#(String(repeating: "x", count: 5000))"}"#
            let cut = try #require(try Self.lines(try await client.send(.post, "/v1/campaign?platform=apns", long + "\n{}").text).first)
            #expect(cut["error"] == nil && Self.diagnostics(cut).contains { $0["rule"] as? String == "truncated" })
            let refused = try #require(try Self.lines(try await client.send(.post, "/v1/campaign?platform=apns&noTruncate=true", long + "\n{}").text).first)
            #expect(refused["error"] != nil && Self.diagnostics(refused).contains { $0["rule"] as? String == "apns-size" })
        }
    }

    @Test("what is wrong before any recipient is a 400 (413 for an intent line over the limit), and no line")
    func errors() async throws {
        try await InProcessServer.test({ $0.maxBodyBytes = 2000 }) { client in
            let empty = try await client.send(.post, "/v1/campaign", "")
            #expect(empty.status == .badRequest)
            #expect(try empty.error["message"] as? String == "a campaign needs a body: the intent on the first line, then one recipient per line")
            let blank = try await client.send(.post, "/v1/campaign", "\n{}\n")
            #expect(blank.status == .badRequest)
            #expect(try blank.error["message"] as? String == "the first line of a campaign's body is its intent, and it is empty")
            let notJSON = try await client.send(.post, "/v1/campaign", "{\"title\": \n{}\n")
            #expect(notJSON.status == .badRequest)
            #expect(try notJSON.error["kind"] as? String == "invalid json")
            let syntax = try await client.send(.post, "/v1/campaign", #"{"title": "t", "body": "Hi {{ first_name"}"# + "\n{}\n")
            #expect(syntax.status == .badRequest)
            #expect(syntax.requestID != nil)
            let diagnostic = try #require((try syntax.error["diagnostics"] as? [[String: Any]])?.first)
            #expect(try syntax.error["kind"] as? String == "invalid intent")
            #expect(diagnostic["path"] as? String == "$.body")
            #expect(diagnostic["rule"] as? String == "template-syntax")
            #expect((diagnostic["message"] as? String)?.hasPrefix("column ") == true, "\(diagnostic)")
            let locales = try await client.send(.post, "/v1/campaign", #"{"title": "t", "locales": {"de": "Hallo"}}"# + "\n{}\n")
            #expect(locales.status == .badRequest)
            #expect((try locales.error["diagnostics"] as? [[String: Any]])?.first?["path"] as? String == "$.locales.de")
            let flag = try await client.send(.post, "/v1/campaign?lenient=yes", Self.greeting + "\n{}\n")
            #expect(flag.status == .badRequest)
            #expect(try flag.error["message"] as? String == "lenient must be true or false")
            let long = try await client.send(.post, "/v1/campaign", #"{"title": "\#(String(repeating: "x", count: 3000))"}"# + "\n{}\n")
            #expect(long.status == .contentTooLarge)
            #expect(try long.error["message"] as? String == "the intent line of 3013 bytes exceeds the limit of 2000 bytes")
            // A recipient line over the limit is that recipient's error line.
            let recipient = try await client.send(.post, "/v1/campaign", Self.greeting + "\n" + #"{"id": "\#(String(repeating: "x", count: 3000))"}"#)
            #expect(recipient.status == .ok)
            #expect(recipient.text.hasPrefix(#"{"line":1,"error":{"diagnostics":"#), "\(recipient.text)")
            #expect(recipient.text.hasSuffix(#""kind":"invalid recipient"}}"# + "\n"))
            #expect(recipient.text.contains(#""rule":"too-large""#))
        }
    }

    @Test("check=true answers the failed recipients' lines, then the summary object")
    func check() async throws {
        try await InProcessServer.test { client in
            let intent = #"{"title": "Hello {{ first_name }}", "locales": {"fr": {"title": "Bonjour {{ first_name }}"}}}"#
            let body = [intent, #"{"id": "a", "locale": "de-AT", "vars": {"first_name": "Anna"}}"#, #"{"id": "b"}"#, #"{"id": "c", "locale": "fr", "vars": {"first_name": "Luc"}}"#]
            let answer = try await client.send(.post, "/v1/campaign?check=true", body.joined(separator: "\n"))
            #expect(answer.status == .ok)
            let lines = try Self.lines(answer.text)
            #expect(lines.count == 2)
            #expect(lines[0]["id"] as? String == "b" && lines[0]["error"] != nil)
            #expect(answer.text.hasSuffix(
                #"{"duplicateIds":{},"duplicateTargets":{},"failed":1,"localeFallbacks":{"de-AT":1},"missingVariables":{"first_name":1},"recipients":3,"translated":2,"truncated":{}}"# + "\n"))
            let none = try await client.send(.post, "/v1/campaign?check=true", intent)
            #expect(none.text == #"{"duplicateIds":{},"duplicateTargets":{},"failed":0,"localeFallbacks":{},"missingVariables":{},"recipients":0,"translated":0,"truncated":{}}"# + "\n")
        }
    }

    /// A sample of the exposition: its value, 0 when it is not there.
    static func sample(_ exposition: String, _ name: String) -> Double {
        for line in exposition.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1)) ?? -1
        }
        return 0
    }

    @Test("/metrics counts recipients by outcome, missing variables, locale fallbacks and truncations by field; no user text as a label")
    func metrics() async throws {
        try await InProcessServer.test { client in
            let names = [
                #"pushmap_campaign_recipients_total{outcome="translated"}"#, #"pushmap_campaign_recipients_total{outcome="failed"}"#,
                "pushmap_campaign_missing_variables_total", "pushmap_campaign_locale_fallbacks_total",
                #"pushmap_campaign_truncations_total{field="$.body"}"#, #"pushmap_campaign_truncations_total{field="$.data"}"#,
            ]
            let before = try await client.send(.get, "/metrics").text
            // A data value is never cut (a cut id is a wrong one): only the body is, and no field
            // name a team chose becomes a label.
            let intent = #"{"title": "Hi {{ name }}", "body": "{{ long }}{{ long }}", "data": {"secret_key_name": "{{ name | default: 'x' }}"}, "locales": {"fr": {"title": "Salut {{ name }}"}}}"#
            let long = String(repeating: "y", count: 2500)
            let body = [
                intent, #"{"locale": "xx-x-private-tag", "vars": {"name": "a", "long": "\#(long)"}}"#, #"{"vars": {"long": "b"}}"#,
                #"{"locale": "fr", "vars": {"name": "c", "long": "d"}}"#,
            ]
            let answer = try await client.send(.post, "/v1/campaign?platform=apns", body.joined(separator: "\n"))
            #expect(try Self.lines(answer.text).count == 3)
            let after = try await client.send(.get, "/metrics").text
            let deltas = names.map { Self.sample(after, $0) - Self.sample(before, $0) }
            #expect(deltas == [2, 1, 1, 1, 1, 0], "\(after)")
            #expect(!after.contains("private-tag") && !after.contains("secret_key_name") && !after.contains("\"name\""))
        }
    }
}
