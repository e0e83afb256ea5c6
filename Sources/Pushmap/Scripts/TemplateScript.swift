/// The Lua source of one template and where it comes from.
public struct TemplateScript: Sendable, Hashable {
    /// The template's name: the file name without `.lua`.
    public var name: String
    /// The name in messages: `templates/basic.lua` for a built-in, the file's path otherwise.
    public var path: String
    /// `built-in`, or the folder the script was read from.
    public var layer: String
    public var source: String

    public init(name: String, path: String, layer: String, source: String) {
        self.name = name
        self.path = path
        self.layer = layer
        self.source = source
    }

    /// The layer name of the scripts that ship inside pushmap.
    public static let builtinLayer = "built-in"

    /// Whether this script ships inside pushmap.
    public var isBuiltin: Bool { layer == Self.builtinLayer }
}
