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
    /// is read (``importIntent(_:platform:read:)`` puts them first). An APNS payload may repeat
    /// a key, as `validate` takes it: the last value is read, with the `apns-duplicate-key`
    /// warning (a repeated header, which APNs refuses, with `apns-header-key`); a request's own
    /// member given twice leaves no one request to read. FCM's reader refuses a repeated key.
    @_spi(Tools) public static func readPayload(_ text: [UInt8], platform: Platform) throws(JSONParseError) -> (payload: JSONValue, read: [Diagnostic]) {
        var inexact: [JSONParser.InexactNumber] = []
        guard platform == .apns else {
            let payload = try JSONParser.parse(text, inexact: &inexact)
            return (payload, inexact.map(Diagnostic.inexactNumber))
        }
        var repeated: [JSONParseError] = []
        let payload = try JSONParser.parse(text, inexact: &inexact, repeatedKeys: &repeated)
        let keys = try PayloadChecker.repeatedAPNSKeys(repeated, request: PayloadImport.request(payload) != nil).map { key, isHeader in
            isHeader
                ? .warning(key.path.description, "apns-header-key", "as given, \(key.line):\(key.column): \(key.reason): APNs refuses a repeated header (DuplicateHeaders); give it once")
                : Diagnostic.repeatedAPNSKey(key)
        }
        return (payload, inexact.map(Diagnostic.inexactNumber) + keys)
    }

    /// As ``importIntent(_:platform:)``, with what reading the payload found first: the intent
    /// carries a number as it was read, and the comparison cannot see what was lost before.
    /// `text`, the payload's JSON text when there is one, is what the payload as given is
    /// checked on, as `validate` checks it: its size is the text's (escapes, a repeated key's
    /// first value), not the value's (the forty-first audit, F1).
    @_spi(Tools) public func importIntent(
        _ payload: JSONValue, platform: Platform, read: [Diagnostic], text: [UInt8]? = nil
    ) throws(TranslationError) -> (intent: JSONValue?, diagnostics: [Diagnostic]) {
        let imported = try PayloadImport(translator: self).run(payload, platform: platform, text: text)
        // Said of the payload, as the import's own findings are.
        let read = read.map { diagnostic in
            var diagnostic = diagnostic
            diagnostic.platform = platform
            return diagnostic
        }
        // A repeated key is the fault at its path: the import says nothing more there (the
        // fortieth audit, F2).
        let paths = Set(read.map(\.path))
        return (imported.intent, read + imported.diagnostics.filter { !paths.contains($0.path) })
    }
}
