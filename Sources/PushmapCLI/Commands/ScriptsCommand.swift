internal import ArgumentParser
@_spi(Tools) internal import Pushmap
internal import PushmapJSON
@_spi(Tools) internal import PushmapTooling

/// `pushmap scripts`: scaffolding and checks for custom template scripts.
struct ScriptsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scripts",
        abstract: "Export the built-in scripts as a starting point, or check a folder of scripts and fixtures.",
        subcommands: [Export.self, Check.self]
    )

    /// `pushmap scripts export DIR`.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the built-in template scripts and their fixtures into a folder, and types/pushmap.lua: Lua Language Server annotations of the pushmap API, ctx and the intent.",
            discussion: """
            With --scripts (or PUSHMAP_SCRIPTS), the intent's annotations also hold the fields those scripts declare. \
            --types-only writes (and replaces) types/pushmap.lua alone: run it in your own folder after changing a field.
            """
        )

        @Flag(name: .long, help: "Replace files that already exist.")
        var force = false

        @Flag(name: .long, help: "Write only types/pushmap.lua, replacing it.")
        var typesOnly = false

        @OptionGroup var scriptOptions: ScriptOptions

        @Argument(help: ArgumentHelp("The folder to write into (made if missing).", valueName: "dir"), completion: .directory)
        var directory: String

        func run() throws {
            let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
            // The fields the scripts in force declare, for the intent's annotations: any template's,
            // so each is optional there.
            var declared: [IntentField] = []
            if !scriptOptions.directories.isEmpty || !TemplateScripts.environmentFolders.isEmpty {
                let translator = try scriptOptions.translator(format: .human)
                for template in translator.templates.values.sorted(by: { $0.name < $1.name }) {
                    for field in template.fields where IntentSchema.root.field(named: field.name) == nil && !declared.contains(where: { $0.name == field.name }) {
                        var optional = field
                        optional.required = false
                        declared.append(optional)
                    }
                }
            }
            let annotations = (path: LuaAnnotations.path, source: LuaAnnotations.file(adding: declared.sorted { $0.name < $1.name }))
            // The scripts and fixtures, then the editor's annotations in a folder of their own.
            let files = (typesOnly ? [] : FixtureRunner.builtinFiles) + [annotations]
            // Every file that would be replaced said before any is written: a refusal halfway
            // left half an export, which the next run refused at its first file.
            if !force {
                let existing = files.map { base + "/" + $0.path }.filter(FileSystem.exists)
                    .filter { !(typesOnly && $0 == base + "/" + LuaAnnotations.path) }
                if let first = existing.first {
                    // "DIR/basic.lua already exists", or "DIR/basic.lua and 62 more files export
                    // writes already exist" (the twenty-sixth audit, F22: the sentence was garbled).
                    let what = existing.count == 1
                        ? "\(first) already exists (use --force to replace it)"
                        : "\(first) and \(existing.count - 1) more files export writes already exist (use --force to replace them)"
                    StandardStream.note("pushmap: scripts export: \(what); nothing was written")
                    throw ExitStatus.invalid
                }
            }
            // The `wrote` lines only report: a reader that goes away (`| head -1`) must not stop
            // the export halfway, which the next run would refuse (the forty-sixth audit, cli F2).
            StandardStream.ignoreBrokenPipes()
            do throws(FileError) {
                try FileSystem.makeDirectory(base)
                for file in files {
                    let path = base + "/" + file.path
                    if let slash = path.lastIndex(of: "/") { try FileSystem.makeDirectory(String(path[..<slash])) }
                    try FileSystem.writeFile(Array(file.source.utf8), to: path)
                    try? StandardStream.output.write("wrote \(path)\n")
                }
            } catch {
                StandardStream.note("pushmap: \(error)")
                throw ExitStatus.invalid
            }
        }
    }

    /// `pushmap scripts check DIR`.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compile every script in a folder, check its contract, and run the fixtures beside it (NAME.test/*.json).",
            discussion: """
            One PASS or FAIL line per fixture, with the differences; a file that is not a fixture, a template \
            with no fixture and a script that does not load fail too (the others are still checked). Exit 1 when \
            anything fails, 2 when a script does not load.
            """
        )

        @Option(name: .long, help: "Lines for people, or one JSON object.")
        var format: OutputFormat = .human

        @Flag(name: .long, help: "Show what scripts print.")
        var verbose = false

        @OptionGroup var clock: ClockOption

        @Argument(help: ArgumentHelp("The folder of scripts and fixtures.", valueName: "dir"), completion: .directory)
        var directory: String

        func run() throws {
            var options = ScriptOptions()
            options.directories = [directory]
            options.usesEnvironment = false
            options.verbose = verbose
            var scripts = try options.readScripts()
            // A script that does not load is said, and the rest checked without it, so one run
            // shows every broken script and the others' fixtures (the forty-second audit, F5: the
            // first broken script hid the rest). A template built on a broken one fails in turn.
            var broken: [ScriptError] = []
            var loaded: Translator?
            while loaded == nil {
                do {
                    loaded = try options.translator(scripts, blameWarnings: true)
                } catch {
                    broken.append(error)
                    guard let path = error.script, let rest = scripts.removing(path: path) else { break }
                    scripts = rest
                }
            }
            // Each error on standard error, as every command says a script that does not load;
            // the list below names the script again, with its place among the fixtures.
            if format == .human {
                for error in broken { DiagnosticReport(format: format, file: error.script ?? "scripts").emit([], scriptError: error) }
            }
            // Nothing loads without the error (shared.lua, say): nothing can be checked.
            guard let translator = loaded else {
                if format == .json { Self.writeJSON(local: [], outcomes: [], untested: [], broken: broken, passed: 0, failed: broken.count) }
                throw ExitStatus.scriptFailed
            }
            let local = translator.templates.values.filter { $0.layer != TemplateScript.builtinLayer }.sorted { $0.name < $1.name }
            let fixtures: [Result<Fixture, FixtureProblem>]
            do {
                fixtures = try FixtureRunner.fixtures(in: directory, defaultNow: clock.now ?? Fixture.defaultNow)
            } catch {
                StandardStream.note("pushmap: \(error)")
                throw ExitStatus.invalid
            }
            // A folder with nothing to check is most likely a wrong path: green in CI, it would
            // hide that nothing ran.
            if local.isEmpty && fixtures.isEmpty && broken.isEmpty {
                StandardStream.note("pushmap: \(directory): no scripts (NAME.lua) or fixtures (NAME.test/CASE.json) to check")
                throw ExitStatus.invalid
            }
            // The fixtures of a broken script are not run: another layer's template of that name
            // (a built-in) would answer them instead.
            let brokenPaths = Set(broken.compactMap(\.script))
            let runner = FixtureRunner(translator: translator)
            let outcomes = fixtures.map { fixture in
                let path = FixtureRunner.path(of: fixture)
                guard let script = FixtureRunner.script(ofFixture: path), brokenPaths.contains(script) else { return runner.run(fixture) }
                return FixtureRunner.Outcome(path: path, passed: false, differences: ["not run: \(script) does not load"])
            }
            let untested = FixtureRunner.untested(local, fixtures: fixtures)
            let passed = outcomes.filter(\.passed).count
            let failed = outcomes.count - passed + untested.count + broken.count
            switch format {
            case .human:
                var text = ""
                for error in broken { text += "FAIL \(error.script ?? "scripts"): does not load (its error is above)\n" }
                for template in local {
                    text += "ok   \(template.path): template \(template.name) (\(template.platforms.map(\.name).joined(separator: ", ")))\n"
                }
                for outcome in outcomes {
                    text += (outcome.passed ? "PASS " : "FAIL ") + outcome.path + "\n"
                    for line in outcome.differences { text += "     " + line + "\n" }
                }
                for template in untested {
                    text += "FAIL \(template.path): no fixtures (write them as \(Self.testFolder(template))/CASE.json)\n"
                }
                text += "\(passed) passed, \(failed) failed\n"
                try? StandardStream.output.write(text)
            case .json:
                Self.writeJSON(local: local, outcomes: outcomes, untested: untested, broken: broken, passed: passed, failed: failed)
            }
            if !broken.isEmpty { throw ExitStatus.scriptFailed }
            if failed > 0 { throw ExitStatus.invalid }
        }

        /// The check as one JSON object: `templates`, `fixtures`, `untested`, `passed`, `failed`, and
        /// when scripts do not load `scriptError` (the first) and `scriptErrors` (every one).
        private static func writeJSON(
            local: [TemplateInfo], outcomes: [FixtureRunner.Outcome], untested: [TemplateInfo], broken: [ScriptError], passed: Int, failed: Int
        ) {
            var object: JSONObject = [
                "templates": .array(local.map { template in
                    .object(["name": .string(template.name), "path": .string(template.path),
                             "platforms": .array(template.platforms.map { .string($0.name) })])
                }),
                "fixtures": .array(outcomes.map { outcome in
                    .object(["path": .string(outcome.path), "passed": .bool(outcome.passed),
                             "differences": .array(outcome.differences.map(JSONValue.string))])
                }),
                "untested": .array(untested.map { .object(["template": .string($0.name), "path": .string($0.path)]) }),
                "passed": .integer(Int64(passed)),
                "failed": .integer(Int64(failed)),
            ]
            if let first = broken.first {
                object["scriptError"] = DiagnosticReport.json(first)
                object["scriptErrors"] = .array(broken.map(DiagnosticReport.json))
            }
            var output = JSONWriter(style: .compact).write(.object(object))
            output.append(0x0A)
            try? StandardStream.output.write(output)
        }

        /// Where a template's fixtures go: `NAME.test` beside its script.
        static func testFolder(_ template: TemplateInfo) -> String {
            String(template.path.dropLast(".lua".count)) + ".test"
        }
    }
}
