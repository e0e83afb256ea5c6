/// What a loaded template script says of itself (its contract), and where it comes from.
public struct TemplateInfo: Sendable, Hashable {
    public var name: String
    /// The host API version the script needs.
    public var api: Int
    public var platforms: [Platform]
    /// Intent fields the template accepts beyond the common ones.
    package var fields: [IntentField]
    public var path: String
    public var layer: String
    /// Whether a script of the same name in an earlier layer is replaced by this one.
    public var overrides: Bool
}
