internal import ArgumentParser
internal import Pushmap
internal import PushmapJSON

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
            abstract: "Write the built-in template scripts and their fixtures into a folder."
        )

        @Flag(name: .long, help: "Replace files that already exist.")
        var force = false

        @Argument(help: ArgumentHelp("The folder to write into (made if missing).", valueName: "dir"))
        var directory: String

        func run() throws {
            let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
            do {
                try FileSystem.makeDirectory(base)
                for file in FixtureRunner.builtinFiles {
                    let path = base + "/" + file.path
                    if FileSystem.exists(path), !force {
                        StandardStream.note("pushmap: \(path): already exists (use --force to replace it)")
                        throw ExitStatus.invalid
                    }
                    if let slash = path.lastIndex(of: "/") { try FileSystem.makeDirectory(String(path[..<slash])) }
                    try FileSystem.writeFile(Array(file.source.utf8), to: path)
                    try? StandardStream.output.write("wrote \(path)\n")
                }
            } catch let failure as FileError {
                StandardStream.note("pushmap: \(failure)")
                throw ExitStatus.invalid
            }
        }
    }

    /// `pushmap scripts check DIR`.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compile every script in a folder, check its contract, and run the fixtures beside it (NAME.test/*.json).",
            discussion: "One PASS or FAIL line per fixture, with the differences. Exit 1 when a fixture fails, 2 when a script does not load."
        )

        @Option(name: .long, help: "Diagnostics as human lines or as JSON.")
        var format: OutputFormat = .human

        @Flag(name: .long, help: "Show what scripts print.")
        var verbose = false

        @OptionGroup var clock: ClockOption

        @Argument(help: ArgumentHelp("The folder of scripts and fixtures.", valueName: "dir"))
        var directory: String

        func run() throws {
            var options = ScriptOptions()
            options.directories = [directory]
            options.verbose = verbose
            let translator = try options.translator(format: format)
            let local = translator.templates.values.filter { $0.layer != TemplateScript.builtinLayer }
            for template in local.sorted(by: { $0.name < $1.name }) {
                try? StandardStream.output.write("ok   \(template.path): template \(template.name) (\(template.platforms.map(\.name).joined(separator: ", ")))\n")
            }
            let fixtures: [Fixture]
            do {
                fixtures = try FixtureRunner.fixtures(in: directory, defaultNow: clock.now ?? Fixture.defaultNow)
            } catch {
                StandardStream.note("pushmap: \(error)")
                throw ExitStatus.invalid
            }
            let runner = FixtureRunner(translator: translator)
            var failed = 0
            for fixture in fixtures {
                let outcome = runner.run(fixture)
                var text = (outcome.passed ? "PASS " : "FAIL ") + outcome.path + "\n"
                for line in outcome.differences { text += "     " + line + "\n" }
                if !outcome.passed { failed += 1 }
                try? StandardStream.output.write(text)
            }
            try? StandardStream.output.write("\(fixtures.count - failed) passed, \(failed) failed\n")
            if failed > 0 { throw ExitStatus.invalid }
        }
    }
}
