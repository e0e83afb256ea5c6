import Foundation
import Testing
@_spi(Tools) @testable import Pushmap
import PushmapJSON

/// Every message case of the Firebase Admin SDKs' messaging tests, and every payload or request
/// of the APNs peers' tests, that FCMPeerCasesTests and APNSPeerCasesTests do not spell out:
/// written as the wire JSON each test sends or refuses, each named by repository, file and test
/// (PeerCorpus/*.json, gathered by the fifteenth, sixteenth, twenty-seventh, twenty-ninth and thirtieth audits, SDKs at their newest
/// stored commits).
///
/// - fcm-admin-sdks.json: `expect` is what the finding policy asks of the case, judged from the
///   SDK's test and Google's FCM v1 reference: `accepted` (no error: the SDK sends it), `error`
///   or `warning` (of `rule`, at `at`), or `finding` (an error or a warning at `at`).
/// - apns-peers.json: the errors (rule@path) pushmap gives, each judged against the policy when
///   gathered (the cases that disagreed were fixed first); no error where a peer sends it.
@Suite("Cases from the SDKs' and APNs peers' own tests")
struct PeerCorpusTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("PeerCorpus")

    struct FCMCase: Decodable, Sendable, CustomTestStringConvertible {
        let source: String
        let document: String
        let expect: String
        let at: String?
        let rule: String?
        var testDescription: String { source }
    }

    struct APNSCase: Decodable, Sendable, CustomTestStringConvertible {
        let source: String
        let document: String
        let errors: [String]
        var testDescription: String { source }
    }

    static let fcmCases: [FCMCase] = load("fcm-admin-sdks.json")
    static let apnsCases: [APNSCase] = load("apns-peers.json")

    static func load<Case: Decodable>(_ name: String) -> [Case] {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)) else { return [] }
        return (try? JSONDecoder().decode([Case].self, from: data)) ?? []
    }

    static func findings(_ document: String, _ platform: Platform) throws -> [Diagnostic] {
        try builtinTranslator().validate(Array(document.utf8), platform: platform)
    }

    @Test("each Admin SDK case gets the finding the policy asks for", arguments: fcmCases)
    func fcmCase(_ peer: FCMCase) throws {
        let findings = try Self.findings(peer.document, .fcm)
        let errors = findings.filter { $0.severity == .error }
        let at = findings.filter { $0.path == peer.at && (peer.rule == nil || $0.rule == peer.rule) }
        switch peer.expect {
        case "accepted":
            #expect(errors.isEmpty, "\(errors)")
        case "error":
            #expect(at.contains { $0.severity == .error }, "\(findings)")
        case "warning":
            #expect(errors.isEmpty, "\(errors)")
            #expect(at.contains { $0.severity == .warning }, "\(findings)")
        default:
            #expect(!at.isEmpty, "\(findings)")
        }
    }

    @Test("each APNs peer case gets the errors it was judged to", arguments: apnsCases)
    func apnsCase(_ peer: APNSCase) throws {
        let errors = try Self.findings(peer.document, .apns).filter { $0.severity == .error }
        #expect(errors.map { "\($0.rule)@\($0.path)" }.sorted() == peer.errors)
    }

    @Test("the corpus holds every SDK and peer, and both kinds of case")
    func coverage() {
        #expect(Self.fcmCases.count > 700 && Self.apnsCases.count > 150)
        for sdk in ["firebase/firebase-admin-go", "firebase/firebase-admin-python", "firebase/firebase-admin-node"] {
            #expect(Self.fcmCases.contains { $0.source.hasPrefix(sdk) && $0.expect == "accepted" }, "\(sdk)")
            #expect(Self.fcmCases.contains { $0.source.hasPrefix(sdk) && $0.expect == "error" }, "\(sdk)")
        }
        for peer in ["sideshow/apns2", "swift-server-community/APNSwift", "node-apn/node-apn", "Pr0Ger/PyAPNs2"] {
            #expect(Self.apnsCases.contains { $0.source.hasPrefix(peer) && $0.errors.isEmpty }, "\(peer)")
        }
    }
}
