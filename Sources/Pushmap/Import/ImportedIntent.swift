public import PushmapJSON

extension Translator {
    /// The intent for an existing `payload` of `platform`, and what could not be kept.
    ///
    /// The template comes from `adb_template_type` (plain without one); each key the intent can say
    /// becomes its field, and custom keys go to `data`. The intent is then translated with this
    /// translator's scripts and the result compared with `payload`, key by key: each key that does
    /// not come back as it was (dropped, added or changed) is a warning at its payload path, so
    /// that what is not warned about comes back unchanged. The intent is nil, with an error saying
    /// why, when the payload cannot be read as one.
    public func importIntent(_ payload: JSONValue, platform: Platform) -> (intent: JSONValue?, diagnostics: [Diagnostic]) {
        PayloadImport(translator: self).run(payload, platform: platform)
    }
}
