import Foundation
import Testing

/// How the real server binary reads a route's query: as a browser's form sends one, the first of
/// two values winning, and a malformed query answered 400 or read past, never 500.
@Suite("pushmap-server query parameters", .serialized)
struct ServerQueryTests {
    static let intent = Data(#"{"title":"Goal","body":"2-1"}"#.utf8)

    /// The payload keys an answer holds (fcm, apns), or its status when it is not 200.
    static func answered(_ server: ServerUnderTest, _ query: String) throws -> String {
        let answer = try Curl.post("\(server.baseURL)/v1/translate?\(query)", intent)
        guard answer.status == 200 else {
            let message = (answer.object["error"] as? [String: Any])?["message"] as? String ?? ""
            return "\(answer.status) \(message)"
        }
        return answer.object.keys.filter { $0 != "warnings" }.sorted().joined(separator: ",")
    }

    @Test("percent escapes and + are decoded in names and values; the first of two values wins")
    func decoding() throws {
        let server = try ServerUnderTest()
        #expect(try Self.answered(server, "platform=fc%6D") == "fcm")
        #expect(try Self.answered(server, "pl%61tform=apns") == "apns")
        #expect(try Self.answered(server, "platform=fcm&platform=apns") == "fcm")
        #expect(try Self.answered(server, "platform=%20fcm") == "400 platform must be fcm, apns or both")
        #expect(try Self.answered(server, "platform=+fcm") == "400 platform must be fcm, apns or both")
        #expect(try Self.answered(server, "platform=apns%") == "400 platform must be fcm, apns or both")
    }

    @Test("empty pairs and names the route does not know are read past; a name with no = has an empty value")
    func malformed() throws {
        let server = try ServerUnderTest()
        // These three were 500 when the generated code read the query.
        #expect(try Self.answered(server, "&platform=fcm") == "fcm")
        #expect(try Self.answered(server, "a&platform=apns") == "apns")
        #expect(try Self.answered(server, "platform") == "400 platform must be fcm, apns or both")
        #expect(try Self.answered(server, "=x&platform=apns&") == "apns")
        #expect(try Self.answered(server, "platform=apns=x") == "400 platform must be fcm, apns or both")
        #expect(try Self.answered(server, "") == "apns,fcm")
        let validate = try Curl.post("\(server.baseURL)/v1/validate?platform&x", Data(#"{"message":{}}"#.utf8))
        #expect(validate.status == 400)
    }
}
