public import PushmapJSON

extension Translator {
    /// The intent for an existing `payload` of `platform`, and what could not be kept.
    ///
    /// The template comes from `adb_template_type` (plain without one); each key the intent can say
    /// becomes its field, and custom keys go to `data`. The intent is then translated with this
    /// translator's scripts and the result compared with `payload`, key by key: each key that does
    /// not come back as it was (dropped, added or changed) is a warning at its payload path, so
    /// that what is not warned about comes back unchanged. The intent is nil, with an error saying
    /// why, when the payload cannot be read as one. Throws when a mapping script fails on the
    /// intent, as ``translate(_:platforms:forms:)`` does: the payload cannot be compared then.
    public func importIntent(_ payload: JSONValue, platform: Platform) throws(TranslationError) -> (intent: JSONValue?, diagnostics: [Diagnostic]) {
        try PayloadImport(translator: self).run(payload, platform: platform)
    }

    /// The payload `text` holds, and a warning for each of its numbers that loses digits as it
    /// is read (``importIntent(_:platform:read:)`` puts them first).
    @_spi(Tools) public static func readPayload(_ text: [UInt8]) throws(JSONParseError) -> (payload: JSONValue, read: [Diagnostic]) {
        var inexact: [JSONParser.InexactNumber] = []
        let payload = try JSONParser.parse(text, inexact: &inexact)
        return (payload, inexact.map(Diagnostic.inexactNumber))
    }

    /// As ``importIntent(_:platform:)``, with what reading the payload found first: the intent
    /// carries a number as it was read, and the comparison cannot see what was lost before.
    @_spi(Tools) public func importIntent(
        _ payload: JSONValue, platform: Platform, read: [Diagnostic]
    ) throws(TranslationError) -> (intent: JSONValue?, diagnostics: [Diagnostic]) {
        let imported = try importIntent(payload, platform: platform)
        // Said of the payload, as the import's own findings are.
        let read = read.map { diagnostic in
            var diagnostic = diagnostic
            diagnostic.platform = platform
            return diagnostic
        }
        return (imported.intent, read + imported.diagnostics)
    }
}
