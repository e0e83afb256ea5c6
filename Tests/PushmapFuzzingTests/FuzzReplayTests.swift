import Foundation
import PushmapFuzzing
import PushmapJSON
import Testing

/// The fuzz targets over their seed corpora and every input that ever broke a promise, so a
/// finding, once fixed, stays fixed (scripts/fuzz runs the same targets under libFuzzer).
@Suite("Fuzz targets, replayed")
struct FuzzReplayTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every file in a folder of the repository, sorted.
    static func files(_ folder: String) -> [URL] {
        let url = root.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { url.appendingPathComponent($0) }
    }

    /// The seeds scripts/fuzz starts from: the example intents, and the intents of the built-in
    /// scripts' fixtures.
    static func seedIntents() throws -> [[UInt8]] {
        var seeds = try files("examples/seeds").map { Array(try Data(contentsOf: $0)) }
        for folder in files("templates") where folder.pathExtension == "test" {
            for fixture in files("templates/" + folder.lastPathComponent) {
                let value = try JSONParser.parse(Array(try Data(contentsOf: fixture)))
                if let intent = value["intent"] { seeds.append(JSONWriter(style: .compact).write(intent)) }
            }
        }
        return seeds
    }

    /// The seeds scripts/fuzz starts the payload targets from: the reference payloads, and each
    /// bare Android data map also as the FCM message that carries it.
    static func seedPayloads() throws -> [[UInt8]] {
        var seeds: [[UInt8]] = []
        for file in files("examples/seed-payloads") where file.pathExtension == "json" {
            let bytes = Array(try Data(contentsOf: file))
            seeds.append(bytes)
            if let map = try JSONParser.parse(bytes).objectValue, !map.isEmpty, map.allSatisfy({ $0.value.stringValue != nil }) {
                let message: JSONValue = ["message": ["token": "t", "data": .object(map)]]
                seeds.append(JSONWriter(style: .compact).write(message))
            }
        }
        return seeds
    }

    static func target(_ name: String) throws -> FuzzTarget {
        let target = try FuzzTarget.named(name)
        return try #require(target, "no fuzz target named \(name)")
    }

    @Test("every target has a folder of regressions")
    func regressionFolders() throws {
        for target in try FuzzTarget.all() {
            var isDirectory: ObjCBool = false
            let path = Self.root.appendingPathComponent("fuzz/regressions/\(target.name)").path
            #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue, "missing \(path)")
        }
    }

    @Test("keeps its promises on every seed and every past finding", arguments: ["translate", "fast-path", "lua-values", "liquid", "campaign"])
    func replay(name: String) throws {
        let target = try Self.target(name)
        let seeds = try Self.seedIntents()
        #expect(seeds.count >= 20)
        for seed in seeds {
            #expect(target.run(seed) == nil, "\(String(decoding: seed, as: UTF8.self))")
        }
        for file in Self.files("fuzz/regressions/\(name)") {
            #expect(target.run(Array(try Data(contentsOf: file))) == nil, "\(file.lastPathComponent)")
        }
    }

    @Test("keeps its promises on every seed payload and every past finding", arguments: ["validate", "import"])
    func replayPayloads(name: String) throws {
        let target = try Self.target(name)
        let seeds = try Self.seedPayloads()
        #expect(seeds.count >= 9)
        for seed in seeds {
            #expect(target.run(seed) == nil, "\(String(decoding: seed, as: UTF8.self))")
        }
        for file in Self.files("fuzz/regressions/\(name)") {
            #expect(target.run(Array(try Data(contentsOf: file))) == nil, "\(file.lastPathComponent)")
        }
    }

    @Test("inputs the product must refuse are handled, not reported as findings")
    func refusedInputsAreNotFindings() throws {
        let translate = try Self.target("translate")
        #expect(translate.run(Array("{\"title\": 5}".utf8)) == nil)
        #expect(translate.run(Array("not json".utf8)) == nil)
        // A payload that is not JSON, or not a payload: findings of the product, not of the target.
        for name in ["validate", "import"] {
            let target = try Self.target(name)
            #expect(target.run(Array("not json".utf8)) == nil)
            #expect(target.run(Array("[1, {\"aps\": 2}]".utf8)) == nil)
        }
        // Deeper than the Lua host's depth limit: a typed error, not a finding.
        let values = try Self.target("lua-values")
        let deep = String(repeating: "[", count: 47) + String(repeating: "]", count: 47)
        #expect(values.run(Array(deep.utf8)) == nil)
    }
}
