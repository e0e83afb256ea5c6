import Foundation
import Testing

/// The committed FCM model is what scripts/fcm-model makes from Google's discovery document.
@Suite("FCM model generation")
struct FCMModelGenerationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// fcm.v1.json where scripts/fcm-model looks for it: $FCM_DISCOVERY_DOCUMENT, or the package
    /// scripts/setup --test installs into .venv-test.
    static var document: String? {
        if let path = ProcessInfo.processInfo.environment["FCM_DISCOVERY_DOCUMENT"], FileManager.default.fileExists(atPath: path) { return path }
        let lib = root.appendingPathComponent(".venv-test/lib")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? []
        for version in versions.sorted() where version.hasPrefix("python3") {
            let path = lib.appendingPathComponent("\(version)/site-packages/googleapiclient/discovery_cache/documents/fcm.v1.json").path
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        return nil
    }

    @Test(
        "scripts/fcm-model gives the committed table",
        .enabled(if: document != nil, "fcm.v1.json not found: scripts/setup --test installs google-api-python-client into .venv-test")
    )
    func regenerated() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.root.appendingPathComponent("scripts/fcm-model").path, "--check", "--document", try #require(Self.document)]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(message)")
    }
}
