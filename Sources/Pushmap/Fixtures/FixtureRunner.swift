internal import PushmapJSON

/// Runs fixtures against a translator: the engine of `pushmap scripts check`.
package struct FixtureRunner: Sendable {
    /// One fixture's outcome.
    package struct Outcome: Sendable, Hashable {
        package var path: String
        package var passed: Bool
        /// What differs, one line each (empty when passed).
        package var differences: [String]
    }

    package let translator: Translator

    package init(translator: Translator) {
        self.translator = translator
    }

    /// Translates the fixture's intent and compares with what it expects.
    package func run(_ fixture: Fixture) -> Outcome {
        let platforms = fixture.expectedError != nil && fixture.expected.isEmpty ? Platform.all : Platform.all.filter { fixture.expected[$0] != nil }
        do {
            let translation = try translator.translate(fixture.intent, platforms: platforms, now: fixture.now)
            if let expectedError = fixture.expectedError {
                return Outcome(path: fixture.path, passed: false, differences: ["expected an error containing \"\(expectedError)\", got a payload"])
            }
            var differences: [String] = []
            for platform in platforms {
                guard let expected = fixture.expected[platform], let actual = translation.payloads[platform] else { continue }
                differences += JSONDifference.lines(expected: expected, actual: actual, path: JSONPath.root).map { "\(platform): \($0)" }
            }
            return Outcome(path: fixture.path, passed: differences.isEmpty, differences: differences)
        } catch {
            let messages = error.diagnostics.filter { $0.severity == .error }.map(\.description) + (error.scriptError.map { ["\($0)"] } ?? [])
            if let expectedError = fixture.expectedError, messages.contains(where: { $0.contains(expectedError) }) {
                return Outcome(path: fixture.path, passed: true, differences: [])
            }
            let wanted = fixture.expectedError.map { "expected an error containing \"\($0)\", got: " } ?? "expected a payload, got: "
            return Outcome(path: fixture.path, passed: false, differences: messages.map { wanted + $0 })
        }
    }

    /// Every fixture under `folder`: the files `NAME.test/*.json`; `defaultNow` is the time of
    /// those that name none.
    package static func fixtures(in folder: String, defaultNow: Int64 = Fixture.defaultNow) throws -> [Fixture] {
        let base = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        var fixtures: [Fixture] = []
        for entry in try FileSystem.list(base) where entry.hasSuffix(".test") && FileSystem.isDirectory(base + "/" + entry) {
            for file in try FileSystem.list(base + "/" + entry) where file.hasSuffix(".json") {
                let path = base + "/" + entry + "/" + file
                fixtures.append(try Fixture(path: path, bytes: try FileSystem.readFile(path, limit: 1 << 20), defaultNow: defaultNow))
            }
        }
        return fixtures
    }

    /// The fixtures that ship with the built-in scripts.
    package static var builtinFixtures: [Fixture] {
        get throws {
            try BuiltinFiles.fixtures.map { file throws in try Fixture(path: file.path, bytes: Array(file.source.utf8)) }
        }
    }

    /// The built-in scripts and fixtures as files, for `pushmap scripts export`.
    package static var builtinFiles: [(path: String, source: String)] {
        BuiltinScripts.files.filter { $0.path.hasPrefix("templates/") }.map { (String($0.path.dropFirst("templates/".count)), $0.source) }
    }
}
