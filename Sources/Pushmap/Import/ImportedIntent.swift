public import PushmapJSON

/// What `import` makes of an existing payload: the intent that translates back to it, and a
/// warning for each key the intent cannot give back unchanged.
public struct ImportedIntent: Sendable, Hashable {
    /// The intent, or nil when the payload cannot be read as one (an error in ``diagnostics`` says why).
    public let intent: JSONValue?
    /// Warnings naming each payload key that translating ``intent`` does not give back as it was
    /// (dropped, added or changed), at its payload path; errors when there is no intent.
    public let diagnostics: [Diagnostic]
}

extension Translator {
    /// The intent for an existing `payload` of `platform`: its template from `adb_template_type`
    /// (plain without one), each key the intent can say as its field, and custom keys in `data`.
    /// The intent is then translated with this translator's scripts and the result compared with
    /// `payload`, key by key: every difference is a warning naming the key, so that what is not
    /// warned about comes back as it was.
    public func importIntent(_ payload: JSONValue, platform: Platform) -> ImportedIntent {
        PayloadImport(translator: self).run(payload, platform: platform)
    }
}
