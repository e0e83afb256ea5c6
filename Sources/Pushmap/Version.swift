extension Translator {
    /// pushmap's version, as CHANGELOG.md's top entry gives it (`"0.2.0"`): the build reads it
    /// from there, so the library, `pushmap --version` and the changelog cannot disagree.
    public static var version: String { ChangelogVersion.current }
}
