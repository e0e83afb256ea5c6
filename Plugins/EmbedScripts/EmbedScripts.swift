import Foundation
import PackagePlugin

/// Embeds the built-in Lua scripts (templates/*.lua, their fixtures, and the prelude) into the
/// Pushmap module as Swift source, so a copied binary carries them with no resource folder; and
/// the version of CHANGELOG.md's top entry, the one place a version is written.
@main
struct EmbedScripts: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let root = context.package.directoryURL
        var inputs: [URL] = []
        inputs += try files(in: root.appending(path: "Sources/Pushmap/Lua"), ending: ".lua")
        let templates = root.appending(path: "templates")
        inputs += try files(in: templates, ending: ".lua")
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: templates.path())) ?? []
        for folder in folders.sorted() where folder.hasSuffix(".test") {
            inputs += try files(in: templates.appending(path: folder), ending: ".json")
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "BuiltinScripts.swift")
        let changelog = root.appending(path: "CHANGELOG.md")
        let versionOutput = context.pluginWorkDirectoryURL.appending(path: "ChangelogVersion.swift")
        return [
            .buildCommand(
                displayName: "Reading the version from CHANGELOG.md",
                executable: try context.tool(named: "EmbedScriptsTool").url,
                arguments: ["--version", changelog.path(), versionOutput.path()],
                inputFiles: [changelog],
                outputFiles: [versionOutput]
            ),
            .buildCommand(
                displayName: "Embedding \(inputs.count) built-in script files",
                executable: try context.tool(named: "EmbedScriptsTool").url,
                arguments: [root.path(), output.path()] + inputs.map { $0.path() },
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }

    private func files(in folder: URL, ending: String) throws -> [URL] {
        guard FileManager.default.fileExists(atPath: folder.path()) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: folder.path())
            .filter { $0.hasSuffix(ending) }
            .sorted()
            .map { folder.appending(path: $0) }
    }
}
