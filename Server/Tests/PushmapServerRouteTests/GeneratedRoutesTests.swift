internal import Foundation
internal import Testing

/// The committed routes are those scripts/openapi-generate makes from openapi.yaml as it is.
@Suite("Generated routes")
struct GeneratedRoutesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let document = root.appendingPathComponent("Server/Sources/PushmapServer/openapi.yaml")

    /// `scripts/openapi-generate --check`, its exit status and standard error.
    static func check(document: URL) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["bash", root.appendingPathComponent("scripts/openapi-generate").path, "--check", "--document", document.path]
        process.currentDirectoryURL = root
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, message)
    }

    @Test("the generated code matches openapi.yaml, and a route added to the document without generating fails the check")
    func matchesDocument() throws {
        #expect(try Self.check(document: Self.document).status == 0)
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        let changed = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-\(UUID().uuidString).yaml")
        defer { try? FileManager.default.removeItem(at: changed) }
        let added = "paths:\n  /v1/extra:\n    get:\n      operationId: extra\n      responses:\n        '200':\n          description: More.\n"
        try text.replacingOccurrences(of: "paths:\n", with: added).write(to: changed, atomically: true, encoding: .utf8)
        let drifted = try Self.check(document: changed)
        #expect(drifted.status == 1)
        #expect(drifted.stderr.contains("run scripts/openapi-generate"))
    }
}
