internal import Dispatch
internal import Logging
@_spi(Tools) internal import Pushmap
internal import Synchronization

/// The translator and the scripts it runs, reloaded from the script folders on demand.
final class ScriptStore: Sendable {
    let translator: Translator
    private let directories: [String]
    private let logger: Logger
    private let metrics: ServerMetrics
    /// The scripts of the last reload tried, good or bad: the watcher reloads only when the files
    /// differ from these, so a broken script is reported once, not at every poll.
    private let lastTried: Mutex<TemplateScripts>
    /// Whether that reload failed (a script that does not compile): the scripts in force are not
    /// the folders' then, though the files have not changed.
    private let lastTriedFailed = Mutex(false)
    /// The watcher's last failure to read the folders, and whether it was reported: a folder
    /// caught mid-change reads at the next poll, so the same failure at two polls in a row is
    /// reported, once (a folder taken away).
    private let unreadable = Mutex<(error: String, reported: Bool)?>(nil)

    /// Loads the folders over the built-in scripts; fails when they cannot be read or compiled.
    /// - Parameter now: a fixed time for scripts and checks, else the system clock.
    init(directories: [String], now: Int64?, logger: Logger, metrics: ServerMetrics) throws {
        let scripts = try Self.read(directories)
        var options = Translator.Options()
        if let now { options.clock = { now } }
        translator = try Translator(scripts: scripts, options: options, logger: logger)
        self.directories = directories
        self.logger = logger
        self.metrics = metrics
        lastTried = Mutex(scripts)
        metrics.scriptsInForce(templates: translator.templates.count, custom: Self.customCount(translator))
    }

    /// The built-in scripts with the folders layered on top.
    static func read(_ directories: [String]) throws(FileError) -> TemplateScripts {
        var scripts = TemplateScripts.builtin
        for directory in directories { try scripts.addDirectory(directory) }
        return scripts
    }

    /// Runs `body` (a translation, preview or import) where it may take its time. With teams'
    /// scripts loaded, on Dispatch's threads: a script may run up to the Lua time limit, and on
    /// the request's event loop it would stall every connection of that loop, the health probes
    /// among them (the twenty-first audit: /healthz waited 6 s behind two slow scripts). The
    /// built-in scripts, bounded by the body limit, run in place: no request pays the two thread
    /// switches a hop costs (issue 28's latency).
    func running<Success: Sendable, Failure: Error>(_ body: @escaping @Sendable () throws(Failure) -> Success) async throws(Failure) -> Success {
        guard !directories.isEmpty else { return try body() }
        let scope = RequestScope.current
        let outcome: Result<Success, Failure> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: Result { () throws(Failure) in try scope.bound(body) })
            }
        }
        return try outcome.get()
    }

    private static func customCount(_ translator: Translator) -> Int {
        translator.templates.values.filter { $0.layer != TemplateScript.builtinLayer }.count
    }

    /// Reads the folders again and puts their scripts in force; on failure the scripts in force
    /// stay, and the reason is logged and counted. `onlyIfChanged`: skip when the files are the
    /// ones last tried (the watcher's poll).
    func reload(reason: String, onlyIfChanged: Bool = false) {
        let scripts: TemplateScripts
        do {
            scripts = try Self.read(directories)
        } catch {
            if onlyIfChanged {
                let text = "\(error)"
                let persists = unreadable.withLock { last in
                    guard let seen = last, seen.error == text else {
                        last = (text, false)
                        return false
                    }
                    last = (text, true)
                    return !seen.reported
                }
                guard persists else { return }
            }
            metrics.reloadFailed()
            logger.error("script reload failed; the scripts before it stay in force", metadata: ["reason": "\(reason)", "error": "\(error)"])
            return
        }
        let changed = lastTried.withLock { last in
            if last == scripts { return false }
            last = scripts
            return true
        }
        let readAgain = unreadable.withLock { last in
            defer { last = nil }
            return last?.reported == true
        }
        if onlyIfChanged && !changed {
            // The folders are back as they were: the scripts in force are theirs again, unless
            // their last reload failed, which still holds (the twenty-second audit, N6: the
            // gauge was cleared over a script that did not compile).
            if readAgain {
                if lastTriedFailed.withLock({ $0 }) {
                    logger.error(
                        "the script folders can be read again, but their scripts still fail to load; the scripts before them stay in force",
                        metadata: ["reason": "\(reason)"])
                } else {
                    metrics.reloadFailureCleared()
                    logger.info("the script folders can be read again; the scripts in force are theirs", metadata: ["reason": "\(reason)"])
                }
            }
            return
        }
        do {
            try translator.reload(scripts)
            lastTriedFailed.withLock { $0 = false }
            metrics.reloaded(templates: translator.templates.count, custom: Self.customCount(translator))
            logger.info("scripts reloaded", metadata: ["reason": "\(reason)", "templates": "\(translator.templates.keys.sorted())"])
        } catch {
            lastTriedFailed.withLock { $0 = true }
            metrics.reloadFailed()
            logger.error("script reload failed; the scripts before it stay in force", metadata: ["reason": "\(reason)", "error": "\(error)"])
        }
    }
}
