import Foundation
import PushmapTestSupport
import Testing

/// The library's public API is a short, documented list, as the compiler sees it: the symbol
/// graphs of Pushmap and of PushmapJSON (whose types Pushmap re-exports), extracted by
/// swift-symbolgraph-extract from the modules this test was built with. Every public declaration
/// has a doc comment, every public type of Pushmap is in the DocC catalog, and the whole stays
/// under a fixed count. `@_spi` declarations (`Engine`, `Tools`) are not in a symbol graph, so
/// they are not counted: they are not API.
@Suite("Public API")
struct PublicAPITests {
    struct Symbol {
        let module: String
        let kind: String
        let path: [String]
        let documented: Bool
        var name: String { path.joined(separator: ".") }
    }

    /// Public declarations, the extensions of other modules' types included; a member the
    /// compiler makes up (an inherited or synthesised one, with no place in the sources) is left out.
    static let symbols: Result<[Symbol], SymbolGraphError> = Result { () throws(SymbolGraphError) in try extract(["Pushmap", "PushmapJSON"]) }

    /// 0.2.0: 146 (Pushmap 95, PushmapJSON 51), protocol witnesses (`==`, `hash(into:)`,
    /// `description`, the literal initialisers) included. Campaigns added 50 (196): the compiled
    /// campaign, its recipient, outcome, rendering, error and language tag, and the Liquid templates.
    /// One-line descriptions of CampaignError and LiquidSyntaxError, which printed as struct dumps
    /// (the forty-fifth audit, embedding F3), made it 201.
    static let limit = 205

    @Test("every public declaration has a doc comment, and there are fewer than the limit")
    func documentedAndShort() throws {
        let all = try Self.symbols.get()
        for symbol in all where !symbol.documented {
            Issue.record("\(symbol.module): \(symbol.kind) \(symbol.name) is public and undocumented")
        }
        #expect(all.count > 50, "the symbol graph lost declarations: \(all.count)")
        #expect(all.count < Self.limit, "\(all.count) public declarations: \(Dictionary(grouping: all, by: \.module).mapValues(\.count))")
    }

    @Test("every public type of Pushmap is in the DocC catalog's topics")
    func catalogued() throws {
        let catalog = try String(contentsOf: repositoryRoot.appendingPathComponent("Sources/Pushmap/Pushmap.docc/Pushmap.md"), encoding: .utf8)
        let types = try Self.symbols.get().filter { symbol in
            symbol.module == "Pushmap" && symbol.path.count == 1
                && ["swift.struct", "swift.enum", "swift.class", "swift.protocol", "swift.typealias"].contains(symbol.kind)
        }
        #expect(!types.isEmpty)
        for type in types where !catalog.contains("``\(type.name)``") {
            Issue.record("\(type.name) is public but not in Pushmap.docc/Pushmap.md")
        }
    }

    /// Source: the forty-fifth audit, embedding F4: the catalog linked a type that is not public
    /// and left five parameters undocumented, which `docc convert --analyze` warns of.
    @Test("the DocC catalog builds with no warning: no broken link, no undocumented parameter")
    func catalogBuildsClean() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("pushmap-docc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let graphs = work.appendingPathComponent("graphs")
        _ = try Self.extract(["Pushmap", "PushmapJSON"], keeping: graphs)
        let result = try runProgram("/usr/bin/env", [
            "docc", "convert", repositoryRoot.appendingPathComponent("Sources/Pushmap/Pushmap.docc").path,
            "--additional-symbol-graph-dir", graphs.path, "--fallback-display-name", "Pushmap",
            "--fallback-bundle-identifier", "pushmap", "--output-path", work.appendingPathComponent("out").path, "--analyze",
        ])
        #expect(result.status == 0, "\(result.stderr.suffix(2000))")
        let warnings = (result.stdout + result.stderr).split(separator: "\n").filter { $0.contains("warning:") || $0.contains("error:") }
        #expect(warnings.isEmpty, "\(warnings.joined(separator: "\n"))")
    }

    // MARK: - The symbol graph

    struct SymbolGraphError: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs swift-symbolgraph-extract on the built modules beside the running test binary.
    /// - Parameter keeping: a folder to leave the graphs in, for DocC; none by default.
    static func extract(_ modules: [String], keeping: URL? = nil) throws(SymbolGraphError) -> [Symbol] {
        let build = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let moduleFolder = build.appendingPathComponent("Modules")
        guard FileManager.default.fileExists(atPath: moduleFolder.appendingPathComponent("Pushmap.swiftmodule").path) else {
            throw SymbolGraphError(description: "no Pushmap.swiftmodule in \(moduleFolder.path): run from a SwiftPM build")
        }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("pushmap-symbols-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        // The C modules the Swift ones import: Lua's headers from pkg-config, the host's and the
        // item's from the sources, and the module maps SwiftPM wrote for them.
        var clang = ["-Xcc", "-fmodule-map-file=\(repositoryRoot.path)/Sources/CLua/module.modulemap"]
        for folder in ["Sources/CJSONItem/include", "Sources/CLuaHost/include"] {
            clang += ["-Xcc", "-I", "-Xcc", repositoryRoot.appendingPathComponent(folder).path]
        }
        let luaFlags = (try? runProgram("/usr/bin/env", ["pkg-config", "--cflags-only-I", "lua5.4"]))?.stdout ?? ""
        for flag in luaFlags.split(separator: " ") where flag.hasPrefix("-I") {
            clang += ["-Xcc", String(flag).trimmingCharacters(in: .whitespacesAndNewlines)]
        }
        let built = (try? FileManager.default.contentsOfDirectory(atPath: build.path)) ?? []
        for folder in built where folder.hasSuffix(".build") {
            let map = build.appendingPathComponent(folder).appendingPathComponent("module.modulemap")
            if FileManager.default.fileExists(atPath: map.path) { clang += ["-Xcc", "-fmodule-map-file=\(map.path)"] }
        }
        var symbols: [Symbol] = []
        for module in modules {
            do {
                try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
                #if arch(x86_64)
                let target = "x86_64-unknown-linux-gnu"
                #else
                let target = "aarch64-unknown-linux-gnu"
                #endif
                let result = try runProgram("/usr/bin/env", ["swift-symbolgraph-extract", "-module-name", module, "-I", moduleFolder.path,
                                                      "-target", target, "-minimum-access-level", "public",
                                                      "-output-dir", output.path] + clang)
                guard result.status == 0 else {
                    throw SymbolGraphError(description: "swift-symbolgraph-extract \(module): \(result.stderr.suffix(2000))")
                }
                // MODULE.symbols.json, and MODULE@OTHER.symbols.json for extensions of OTHER's types.
                for file in try FileManager.default.contentsOfDirectory(atPath: output.path)
                where file == "\(module).symbols.json" || file.hasPrefix("\(module)@") {
                    let data = try Data(contentsOf: output.appendingPathComponent(file))
                    let graph = try JSONSerialization.jsonObject(with: data) as? [String: Any]
                    for entry in graph?["symbols"] as? [[String: Any]] ?? [] where entry["location"] != nil {
                        symbols.append(Symbol(
                            module: module,
                            kind: (entry["kind"] as? [String: Any])?["identifier"] as? String ?? "?",
                            path: entry["pathComponents"] as? [String] ?? [],
                            documented: entry["docComment"] != nil
                        ))
                    }
                    if let keeping {
                        try FileManager.default.createDirectory(at: keeping, withIntermediateDirectories: true)
                        try FileManager.default.moveItem(at: output.appendingPathComponent(file), to: keeping.appendingPathComponent(file))
                    } else {
                        try FileManager.default.removeItem(at: output.appendingPathComponent(file))
                    }
                }
            } catch let error as SymbolGraphError {
                throw error
            } catch {
                throw SymbolGraphError(description: "\(module): \(error)")
            }
        }
        return symbols
    }
}
