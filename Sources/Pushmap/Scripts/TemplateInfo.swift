/// What a loaded template script says of itself (its contract), and where it comes from.
public struct TemplateInfo: Sendable, Hashable {
    /// The template's name, as intents give it in `template`.
    public var name: String
    /// The host API version the script needs.
    package var api: Int
    /// The platforms the script maps.
    public var platforms: [Platform]
    /// Intent fields the template accepts beyond the common ones.
    @_spi(Tools) public var fields: [IntentField]
    /// The script's file as messages name it (`templates/basic.lua` for a built-in one).
    public var path: String
    /// Where the script comes from: `built-in`, or the folder given with `--scripts`.
    public var layer: String
    /// The script of the same name in an earlier layer this one replaces (its path), if any,
    /// and whether that one is pushmap's own.
    package var replaces: String?
    package var replacesBuiltIn = false
    /// Whether a script of the same name in an earlier layer is replaced by this one.
    package var overrides: Bool { replaces != nil }
}
