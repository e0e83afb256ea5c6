// An example of embedding pushmap in a Swift service: one translator, built once and shared by
// many concurrent tasks, with the service's own logger and a reload of custom scripts.
//
// Run: swift run pushmap-embedding-example [SCRIPTS_DIR] < templates.ndjson (the README's intents)
// Each stdin line is an intent; each output line is its FCM message, or its error.
import Logging
import Pushmap

@main
struct EmbeddingService {
    static func main() async throws {
        var logger = Logger(label: "example.notifications")
        logger.logLevel = .info

        // Built-in templates, with a team's folder on top when one is given.
        var scripts = TemplateScripts.builtin
        if CommandLine.arguments.count > 1 { try scripts.addDirectory(CommandLine.arguments[1]) }
        let translator = try Translator(scripts: scripts, logger: logger)

        var lines: [String] = []
        while let line = readLine() { lines.append(line) }

        // Any number of tasks may share the translator.
        let results = await withTaskGroup(of: (Int, String).self) { group in
            for (index, line) in lines.enumerated() {
                group.addTask {
                    do {
                        let translation = try translator.translate(Array(line.utf8), platforms: [.fcm])
                        return (index, String(decoding: translation.bytes(for: .fcm, style: .compact), as: UTF8.self))
                    } catch {
                        return (index, "error: \(error)")
                    }
                }
            }
            var ordered = [String](repeating: "", count: lines.count)
            for await (index, text) in group { ordered[index] = text }
            return ordered
        }
        for line in results { print(line) }

        // A long-running service picks up new mappings without a restart; a reload that fails
        // keeps the scripts in force and says why.
        do {
            try translator.reload(scripts)
        } catch {
            logger.error("reload failed, previous scripts kept: \(error)")
        }
    }
}
