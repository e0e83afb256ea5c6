import Foundation
import Testing

/// The sizes issue 25 set, held so that they do not creep back (the forty-second audit found five
/// files over the limit that nothing checked): no hand-written file over 700 lines, plain.lua, the
/// script teams copy first, under 150.
@Suite("Repository shape")
struct RepositoryShapeTests {
    static let maxLines = 700

    /// What a person writes: code, scripts, documents and the service's OpenAPI document. Data
    /// (JSON fixtures, corpora, images) and generated code are left out.
    static let writtenExtensions: Set<String> = ["swift", "lua", "md", "c", "h", "py", "sh", "yaml", "yml", "js", "html", "css"]

    /// Folders no person writes in: builds, tools' caches and the generated routes.
    static let skippedFolders: Set<String> = [".build", ".git", ".swiftpm", ".venv-test", ".venv-bench", ".hypothesis", ".schemathesis", "Generated", "dist", "bench-results"]

    static func writtenFiles() -> [URL] {
        var found: [URL] = []
        guard let walk = FileManager.default.enumerator(at: repositoryRoot, includingPropertiesForKeys: [.isDirectoryKey]) else { return [] }
        for case let url as URL in walk {
            if skippedFolders.contains(url.lastPathComponent) || url.lastPathComponent.hasPrefix(".build") {
                walk.skipDescendants()
                continue
            }
            let isScript = url.deletingLastPathComponent().lastPathComponent == "scripts" && url.pathExtension.isEmpty
            if writtenExtensions.contains(url.pathExtension) || isScript { found.append(url) }
        }
        return found
    }

    static func lineCount(_ url: URL) throws -> Int {
        try Data(contentsOf: url).reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }

    @Test("no hand-written file is over 700 lines")
    func fileSizes() throws {
        let files = Self.writtenFiles()
        #expect(files.count > 100, "the walk found only \(files.count) files under \(repositoryRoot.path)")
        for file in files {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            let lines = try Self.lineCount(file)
            #expect(lines <= Self.maxLines, "\(file.path.dropFirst(repositoryRoot.path.count + 1)) has \(lines) lines; split it by concern")
        }
    }

    @Test("plain.lua, the script teams copy first, is under 150 lines")
    func plainScriptSize() throws {
        let lines = try Self.lineCount(repositoryRoot.appendingPathComponent("templates/plain.lua"))
        #expect(lines < 150, "templates/plain.lua has \(lines) lines")
    }
}
