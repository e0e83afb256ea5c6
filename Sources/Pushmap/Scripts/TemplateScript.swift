/// The Lua source of one template and where it comes from.
@_spi(Tools) public struct TemplateScript: Sendable, Hashable {
    /// The template's name: the file name without `.lua`.
    package var name: String
    /// The name in messages: `templates/basic.lua` for a built-in, the file's path otherwise.
    package var path: String
    /// `built-in`, or the folder the script was read from.
    package var layer: String
    package var source: String

    package init(name: String, path: String, layer: String, source: String) {
        self.name = name
        self.path = path
        self.layer = layer
        // A UTF-8 byte order mark, as some editors save files: Lua's own loadfile skips it, and
        // so does this (the loader takes text, where Lua would see a stray symbol).
        self.source = source.hasPrefix("\u{FEFF}") ? String(source.dropFirst()) : source
    }

    /// The layer name of the scripts that ship inside pushmap.
    @_spi(Tools) public static let builtinLayer = "built-in"

    /// Whether this script ships inside pushmap.
    package var isBuiltin: Bool { layer == Self.builtinLayer }
}
