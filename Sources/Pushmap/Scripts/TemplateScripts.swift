internal import PushmapJSON

/// The template scripts a translator runs, in layers: the built-in scripts first, then each
/// added folder or string, later layers replacing earlier templates of the same name.
public struct TemplateScripts: Sendable, Hashable {
    /// Every script in load order; a later one with the same name wins.
    package private(set) var scripts: [TemplateScript]
    /// Each folder's `shared.lua`, in load order: the fields every template accepts or requires.
    package private(set) var shared: [TemplateScript] = []

    /// The name of the file that declares fields for every template, not a template itself.
    package static let sharedFile = "shared.lua"

    package init(scripts: [TemplateScript] = []) {
        self.scripts = scripts
    }

    /// The scripts that ship inside pushmap: plain, basic, carousel, timer, input, zb, cat, rate and icon.
    public static var builtin: TemplateScripts {
        TemplateScripts(scripts: BuiltinFiles.templates)
    }

    /// Adds every `NAME.lua` in `folder` as a layer, and its `shared.lua` (fields for every
    /// template) when it has one.
    public mutating func addDirectory(_ folder: String) throws(FileError) {
        guard FileSystem.isDirectory(folder) else {
            throw FileError(path: folder, reason: FileSystem.exists(folder) ? "is not a directory" : "no such directory")
        }
        let base = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        for file in try FileSystem.list(folder, ending: ".lua") {
            let path = base + "/" + file
            let bytes = try FileSystem.readFile(path, limit: 1 << 20)
            guard let source = String(validating: bytes, as: UTF8.self) else {
                throw FileError(path: path, reason: "is not valid UTF-8")
            }
            let script = TemplateScript(name: String(file.dropLast(4)), path: path, layer: base, source: source)
            if file == Self.sharedFile { shared.append(script) } else { scripts.append(script) }
        }
    }

    /// Adds one script given as a string, as its own layer.
    public mutating func add(name: String, source: String, path: String? = nil, layer: String = "inline") {
        scripts.append(TemplateScript(name: name, path: path ?? "\(layer)/\(name).lua", layer: layer, source: source))
    }

    /// These scripts without the template script at `path`, or nil when none is there: what
    /// `scripts check` goes on with once a script does not load.
    package func removing(path: String) -> TemplateScripts? {
        guard scripts.contains(where: { $0.path == path }) else { return nil }
        var rest = self
        rest.scripts.removeAll { $0.path == path }
        return rest
    }

    /// The winning script of each template, by name.
    package var winners: [String: TemplateScript] {
        var result: [String: TemplateScript] = [:]
        for script in scripts { result[script.name] = script }
        return result
    }
}

extension TemplateScripts {
    /// The templates whose every line of Lua is pushmap's own: the winning script is the embedded
    /// built-in one, and so is every script labelled built-in (`pushmap.builtin` calls those). Their
    /// work grows only with the intent, so they run without the instruction budget.
    var ownTemplates: Set<String> {
        var embedded: [String: String] = [:]
        for script in BuiltinFiles.templates { embedded[script.name] = script.source }
        func isEmbedded(_ script: TemplateScript) -> Bool {
            embedded[script.name].map { UTF8Bytes.equal($0, script.source) } ?? false
        }
        // The prelude takes both spellings as the built-in layer.
        let labelledBuiltin = scripts.filter { $0.layer == TemplateScript.builtinLayer || $0.layer == "builtin" }
        guard labelledBuiltin.allSatisfy(isEmbedded) else { return [] }
        return Set(winners.values.filter { $0.isBuiltin && isEmbedded($0) }.map(\.name))
    }
}

/// The files embedded by the EmbedScripts plugin, sorted into their roles.
package enum BuiltinFiles {
    static let preludePath = "Sources/Pushmap/Lua/prelude.lua"

    static let contractPath = "Sources/Pushmap/Lua/contract.lua"
    static let pathsPath = "Sources/Pushmap/Lua/paths.lua"
    static let intentPath = "Sources/Pushmap/Lua/intent.lua"
    static let apnsPath = "Sources/Pushmap/Lua/apns.lua"
    static let absentPath = "Sources/Pushmap/Lua/absent.lua"

    static var prelude: String { source(preludePath) }

    /// The embedded file at `path`, or nothing.
    static func source(_ path: String) -> String {
        BuiltinScripts.files.first { $0.path == path }?.source ?? ""
    }

    /// The host-only tracer that finds the line that wrote a payload key.
    static var tracer: String {
        BuiltinScripts.files.first { $0.path == "Sources/Pushmap/Lua/trace.lua" }?.source ?? ""
    }

    /// The Lua Language Server annotations of the API (see ``LuaAnnotations``).
    static var annotations: String {
        BuiltinScripts.files.first { $0.path == "Sources/Pushmap/Lua/annotations.lua" }?.source ?? ""
    }

    static var templates: [TemplateScript] {
        BuiltinScripts.files.compactMap { file in
            guard file.path.hasPrefix("templates/"), file.path.hasSuffix(".lua") else { return nil }
            let name = String(file.path.dropFirst("templates/".count).dropLast(4))
            guard !name.contains("/") else { return nil }
            return TemplateScript(name: name, path: file.path, layer: TemplateScript.builtinLayer, source: file.source)
        }
    }

    /// Everything under `templates/`, the built-in scripts and their fixtures, for
    /// `pushmap scripts export` (PushmapTooling).
    package static var templateFiles: [(path: String, source: String)] {
        BuiltinScripts.files.filter { $0.path.hasPrefix("templates/") }
    }
}
