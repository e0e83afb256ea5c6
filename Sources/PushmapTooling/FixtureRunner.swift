@_spi(Tools) package import Pushmap
internal import PushmapJSON

/// Runs fixtures against a translator: the engine of `pushmap scripts check`.
package struct FixtureRunner: Sendable {
    /// One fixture's outcome.
    package struct Outcome: Sendable, Hashable {
        package var path: String
        package var passed: Bool
        /// What differs, one line each (empty when passed).
        package var differences: [String]

        package init(path: String, passed: Bool, differences: [String]) {
            self.path = path
            self.passed = passed
            self.differences = differences
        }
    }

    package let translator: Translator

    package init(translator: Translator) {
        self.translator = translator
    }

    /// Translates the fixture's intent and compares with what it expects; a file that is not a
    /// fixture fails on its own, saying why.
    package func run(_ loaded: Result<Fixture, FixtureProblem>) -> Outcome {
        switch loaded {
        case .success(let fixture): run(fixture)
        case .failure(let problem): Outcome(path: problem.path, passed: false, differences: [problem.reason])
        }
    }

    /// Translates the fixture's intent and compares with what it expects.
    package func run(_ fixture: Fixture) -> Outcome {
        // NAME.test/ holds NAME's fixtures: a folder named for no template tests nothing it names
        // (the forty-sixth audit, cli F6).
        if let folder = Self.folderTemplate(of: fixture.path), translator.templates[folder] == nil {
            return Outcome(
                path: fixture.path, passed: false,
                differences: ["no template \(folder) is loaded: \(folder).test/ holds the fixtures of the template \(folder) (a script \(folder).lua beside it)"])
        }
        // An error case runs on the platforms the template has: another platform's
        // unsupported-platform error would stand in for the script's own (the forty-sixth
        // audit, scripts F2).
        let own = translator.templates[fixture.template]?.platforms ?? Platform.all
        let platforms = fixture.expectedError != nil && fixture.expected.isEmpty ? Platform.all.filter(own.contains) : Platform.all.filter { fixture.expected[$0] != nil }
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
            if let wanted = fixture.expectedWarnings {
                differences += Self.warningDifferences(expected: wanted, actual: translation.diagnostics.filter { $0.severity == .warning })
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

    /// Each expected part must be in a warning of its own, and every warning must be expected.
    static func warningDifferences(expected: [String], actual: [Diagnostic]) -> [String] {
        var unmatched = actual
        var differences: [String] = []
        for part in expected {
            if let index = unmatched.firstIndex(where: { $0.description.contains(part) }) {
                unmatched.remove(at: index)
            } else {
                differences.append("expected a warning containing \"\(part)\", got none")
            }
        }
        return differences + unmatched.map { "unexpected \($0)" }
    }

    /// Every fixture under `folder`: the files `NAME.test/*.json`, each read on its own, so a
    /// broken one is one failure; `defaultNow` is the time of those that name none.
    package static func fixtures(in folder: String, defaultNow: Int64 = Fixture.defaultNow) throws(FileError) -> [Result<Fixture, FixtureProblem>] {
        let base = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        var fixtures: [Result<Fixture, FixtureProblem>] = []
        for entry in try FileSystem.list(base, ending: ".test") where FileSystem.isDirectory(base + "/" + entry) {
            for file in try FileSystem.list(base + "/" + entry, ending: ".json") {
                let path = base + "/" + entry + "/" + file
                do {
                    let bytes = try FileSystem.readFile(path, limit: 1 << 20)
                    fixtures.append(Result { () throws(FixtureProblem) in try Fixture(path: path, bytes: bytes, defaultNow: defaultNow) })
                } catch {
                    fixtures.append(.failure(FixtureProblem(path: path, reason: error.reason)))
                }
            }
        }
        return fixtures
    }

    /// The templates loaded from `folder` that no fixture there tests: those without a
    /// `NAME.test/` holding a fixture of an intent for NAME (a fixture there may test how another
    /// template treats NAME's fields, but it runs the other template: the forty-sixth audit,
    /// cli F6). A file that is not a fixture fails on its own and counts for its folder.
    package static func untested(_ templates: [TemplateInfo], fixtures: [Result<Fixture, FixtureProblem>]) -> [TemplateInfo] {
        let tested = Set(fixtures.compactMap { loaded -> String? in
            let folder = folderTemplate(of: path(of: loaded))
            if case .success(let fixture) = loaded, fixture.template != folder { return nil }
            return folder
        })
        return templates.filter { !tested.contains($0.name) }
    }

    /// NAME for a fixture at `DIR/NAME.test/CASE.json`.
    static func folderTemplate(of path: String) -> String? {
        guard let folder = path.split(separator: "/").dropLast().last, folder.hasSuffix(".test") else { return nil }
        return String(folder.dropLast(".test".count))
    }

    /// The file of a fixture, read or not.
    package static func path(of loaded: Result<Fixture, FixtureProblem>) -> String {
        switch loaded {
        case .success(let fixture): fixture.path
        case .failure(let problem): problem.path
        }
    }

    /// The script a fixture belongs to: `DIR/NAME.lua` for `DIR/NAME.test/CASE.json`; nil for a
    /// file in no `.test` folder.
    package static func script(ofFixture path: String) -> String? {
        guard let slash = path.lastIndex(of: "/"), path[..<slash].hasSuffix(".test") else { return nil }
        return String(path[..<slash].dropLast(".test".count)) + ".lua"
    }

    /// The built-in scripts and fixtures as files, for `pushmap scripts export`.
    package static var builtinFiles: [(path: String, source: String)] {
        BuiltinFiles.templateFiles.map { (String($0.path.dropFirst("templates/".count)), $0.source) }
    }
}
