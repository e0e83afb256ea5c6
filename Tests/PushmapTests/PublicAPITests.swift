import Foundation
import Testing

/// The library's public API is a short, documented list: every public declaration of Pushmap and
/// of the PushmapJSON types it re-exports has a doc comment (protocol witnesses excepted), every
/// public type of Pushmap is listed in the DocC catalog, and the whole stays under 110. Files
/// whose types are public only to the engine's modules (`@_spi(Engine)`, for speed) are left out,
/// and so are declarations for pushmap's own tools (`@_spi(Tools) public`, which this scan does not
/// take for `public `). 0.2.0 went from 99 to 108: `Translator.version`, and what pushmap-server,
/// a package of its own since, needs of the JSON parser and writer and of `Diagnostic` and
/// `Platform` (the parser was already shown in the README as API).
@Suite("Public API")
struct PublicAPITests {
    struct Declaration {
        let file: String
        let line: Int
        let text: String
        let documented: Bool
    }

    /// Conformances whose documentation is the protocol's.
    static let witnesses = [
        "static func ==", "static func <", "func hash(into", "var description: String", "func makeIterator", "var underestimatedCount",
        "init(stringLiteral", "init(integerLiteral", "init(floatLiteral", "init(booleanLiteral", "init(arrayLiteral",
        "init(dictionaryLiteral", "init(nilLiteral",
    ]

    static func declarations() throws -> [Declaration] {
        var found: [Declaration] = []
        for folder in ["Sources/Pushmap", "Sources/PushmapJSON"] {
            let root = repositoryRoot.appendingPathComponent(folder)
            let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
            for file in files.sorted() {
                let lines = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8).components(separatedBy: "\n")
                // A type public only to the engine's own modules (`@_spi(Engine)`) is not API.
                if lines.contains(where: { $0.hasPrefix("@_spi(Engine)") }) { continue }
                for (index, line) in lines.enumerated() {
                    let text = line.trimmingCharacters(in: .whitespaces)
                    guard text.hasPrefix("public "), !text.hasPrefix("public import") else { continue }
                    var above = index - 1
                    while above >= 0, lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("@") { above -= 1 }
                    let documented = above >= 0 && lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("///")
                    found.append(Declaration(file: "\(folder)/\(file)", line: index + 1, text: text, documented: documented))
                }
            }
        }
        return found
    }

    @Test("every public declaration has a doc comment, and there are fewer than 110")
    func documentedAndShort() throws {
        let all = try Self.declarations()
        for declaration in all where !declaration.documented && !Self.witnesses.contains(where: declaration.text.contains) {
            Issue.record("\(declaration.file):\(declaration.line): undocumented: \(declaration.text)")
        }
        let own = all.filter { declaration in !Self.witnesses.contains(where: declaration.text.contains) }
        #expect(own.count < 110, "\(own.count) public declarations")
    }

    @Test("every public type of Pushmap is in the DocC catalog's topics")
    func catalogued() throws {
        let catalog = try String(contentsOf: repositoryRoot.appendingPathComponent("Sources/Pushmap/Pushmap.docc/Pushmap.md"), encoding: .utf8)
        let types = try Self.declarations().filter { $0.file.hasPrefix("Sources/Pushmap/") }.compactMap { declaration -> String? in
            let words = declaration.text.split(separator: " ")
            guard words.count > 2, ["struct", "enum", "class", "final", "actor", "protocol"].contains(String(words[1])) else { return nil }
            let name = words[1] == "final" ? words[3] : words[2]
            return String(name.prefix { $0.isLetter || $0.isNumber })
        }
        // Nested types (Translator.Options, Diagnostic.Severity) are shown on their parent's page.
        for name in Set(types) where !catalog.contains("``\(name)``") && ["Options", "Severity", "Kind"].allSatisfy({ $0 != name }) {
            Issue.record("\(name) is public but not in Pushmap.docc/Pushmap.md")
        }
    }
}
