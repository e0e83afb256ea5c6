internal import ArgumentParser
internal import Logging
@_spi(Tools) internal import Pushmap

/// Options shared by every command that runs scripts.
struct ScriptOptions: ParsableArguments {
    @Option(name: .customLong("scripts"), help: ArgumentHelp(
        "A folder of NAME.lua template scripts that replace or add templates; repeat it to add layers, later ones winning. PUSHMAP_SCRIPTS=DIR[:DIR...] gives folders beneath these.",
        valueName: "dir"), completion: .directory)
    var directories: [String] = []

    /// Whether the folders of `PUSHMAP_SCRIPTS` come first; `scripts check DIR` checks DIR alone.
    var usesEnvironment = true

    @Flag(name: .long, help: "Show what scripts print.")
    var verbose = false

    /// The logger scripts' print() and warn() go to: standard error.
    var logger: Logger {
        var logger = Logger(label: "pushmap", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = verbose ? .debug : .warning
        return logger
    }

    /// The built-in scripts with the folders layered on top: those of `PUSHMAP_SCRIPTS`, then
    /// each `--scripts`.
    func scripts() throws(FileError) -> TemplateScripts {
        var scripts = TemplateScripts.builtin
        for directory in (usesEnvironment ? TemplateScripts.environmentFolders : []) + directories { try scripts.addDirectory(directory) }
        return scripts
    }

    /// ``scripts()``, or the reason they cannot be read said and the exit status set.
    func readScripts() throws -> TemplateScripts {
        do {
            return try scripts()
        } catch {
            StandardStream.note("pushmap: \(error)")
            throw ExitStatus.invalid
        }
    }

    /// A translator over those scripts; on failure the reason is printed and the exit status set.
    /// - Parameters:
    ///   - now: a fixed time for the scripts and checks (`--now`), else the system clock.
    ///   - blameWarnings: whether warnings alone name the script line (for commands that translate
    ///     one intent a person reads).
    func translator(format: OutputFormat, now: Int64? = nil, blameWarnings: Bool = false) throws -> Translator {
        let scripts = try readScripts()
        do {
            return try translator(scripts, now: now, blameWarnings: blameWarnings)
        } catch {
            DiagnosticReport(format: format, file: error.script ?? "scripts").emit([], scriptError: error)
            throw ExitStatus.scriptFailed
        }
    }

    /// A translator over `scripts`, with these options' logger.
    func translator(_ scripts: TemplateScripts, now: Int64? = nil, blameWarnings: Bool = false) throws(ScriptError) -> Translator {
        var options = Translator.Options()
        if let now { options.clock = { now } }
        options.blameWarnings = blameWarnings
        return try Translator(scripts: scripts, options: options, logger: logger)
    }
}
