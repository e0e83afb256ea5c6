import Foundation
import PackagePlugin

/// Embeds pushmap-server's OpenAPI document into the server as Swift source, so the binary serves
/// the very file in the repository at `GET /openapi.yaml` with no resource folder beside it.
@main
struct EmbedServerFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let root = context.package.directoryURL
        let document = root.appending(path: "Sources/PushmapServer/openapi.yaml")
        let output = context.pluginWorkDirectoryURL.appending(path: "ServerFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding the server's OpenAPI document",
                executable: try context.tool(named: "EmbedScriptsTool").url,
                arguments: ["--enum", "ServerFiles", root.path(), output.path(), document.path()],
                inputFiles: [document],
                outputFiles: [output]
            )
        ]
    }
}
