internal import PushmapJSON

/// Shortens a rendered intent's texts until its payloads are within their platforms' limits.
///
/// Texts are cut in a fixed order (``order``): whole grapheme clusters (Swift `Character`s) go
/// from the end and "…" is added, so no cluster is split and the text stays valid UTF-8. The cut
/// is sized from the overflow the size check measured, counting each character as the payload
/// writes it (escapes included), so one cut and one translation to confirm it usually suffice.
enum PayloadFit {
    /// The texts cut, first to last: the long texts before the short, the notification's own
    /// before its expired and carousel variants.
    static let order: [[JSONPath.Component]] = [
        [.key("expandedBody")], [.key("body")], [.key("subtitle")], [.key("expandedTitle")], [.key("title")],
        [.key("expired"), .key("expandedBody")], [.key("expired"), .key("body")], [.key("expired"), .key("title")],
    ]

    static let ellipsis: Character = "…"

    /// The bytes each size finding says its payload is over, by rule and path (FCM's count and
    /// APNS's are apart, as a text may be in one payload only); nil when some other error stands
    /// (a cut would not mend it). Size warnings count: a campaign cuts to be sure (``oversize``).
    static func overflows(_ error: TranslationError) -> [String: Int]? {
        guard error.kind == .failedCheck else { return nil }
        var overflows: [String: Int] = [:]
        for diagnostic in error.diagnostics {
            guard let over = diagnostic.bytesOver else {
                if diagnostic.severity == .error { return nil }
                continue
            }
            overflows["\(diagnostic.rule) \(diagnostic.path)", default: 0] = max(overflows["\(diagnostic.rule) \(diagnostic.path)", default: 0], over)
        }
        return overflows
    }

    /// A translation's size warnings as the error a cut mends: nil when it has none.
    static func oversize(_ translation: Translation) -> TranslationError? {
        let sizes = translation.diagnostics.filter { $0.bytesOver != nil }
        guard !sizes.isEmpty else { return nil }
        return TranslationError(kind: .failedCheck, diagnostics: sizes.map { var error = $0; error.severity = .error; return error })
    }

    /// The texts of `intent` in cutting order: the fixed fields, then the carousel's captions
    /// from the last. Never a data value, a link or a label: a cut id or URL is a wrong one.
    static func fields(_ intent: JSONValue) -> [[JSONPath.Component]] {
        var fields = order
        if let items = intent["carousel"]?["items"]?.arrayValue {
            for index in items.indices.reversed() { fields.append([.key("carousel"), .key("items"), .index(index), .key("text")]) }
        }
        return fields
    }

    /// `error`, a fit's last, with each size finding naming the largest string of `intent` that
    /// no cut shortens (a data value, a link, a label), the one to make smaller; or a text cut
    /// as far as it goes that is still that large (a title of one cluster of 6,000 bytes: the
    /// thirty-seventh audit, F6, where the finding named nothing).
    static func namingUncut(_ error: TranslationError, _ intent: JSONValue) -> TranslationError {
        let cuttable = Set(fields(intent).map { JSONPath($0).description })
        let keepOne = Set([JSONPath([.key("title")]).description, JSONPath([.key("body")]).description])
        var largest: (path: String, bytes: Int, cut: Bool)?
        func walk(_ value: JSONValue, _ path: JSONPath) {
            switch value {
            case .string(let text):
                let described = path.description
                // A text cut keeps its ellipsis, and a title or a body its first character.
                let left = cuttable.contains(described)
                    ? cut(text, saving: .max, keepsOne: keepOne.contains(described))?.utf8.count ?? text.utf8.count
                    : text.utf8.count
                if left > largest?.bytes ?? 0 { largest = (described, left, cuttable.contains(described)) }
            case .object(let object):
                for (key, member) in object where !(path == .root && key == "locales") { walk(member, path.appending(key)) }
            case .array(let items):
                for (index, item) in items.enumerated() { walk(item, path.appending(index)) }
            default:
                break
            }
        }
        walk(intent, .root)
        guard let largest, largest.bytes >= 256 else { return error }
        var named = error
        for index in named.diagnostics.indices where named.diagnostics[index].bytesOver != nil {
            named.diagnostics[index].message += largest.cut
                ? "; the texts were shortened as far as they go, and \(largest.path) is still \(largest.bytes) bytes: its first character, which a cut keeps, is that long"
                : "; the texts were shortened as far as they go, and the largest value a campaign never cuts is \(largest.path), \(largest.bytes) bytes"
        }
        return named
    }

    /// The result of a fit: the translation, and each text cut.
    struct Fitted {
        var translation: Translation
        var cuts: [Cut]
    }

    /// A text cut: its path, and the text before and after.
    struct Cut {
        let path: String
        let before: String
        let after: String

        /// The truncation warning: the lengths in characters, and in bytes when the characters
        /// alone would read as no cut (one character of many bytes taken, the ellipsis added).
        var warning: Diagnostic {
            let (from, to) = (before.count, after.count)
            let lengths = from == to
                ? "from \(before.utf8.count) to \(after.utf8.count) bytes (\(from) character\(from == 1 ? "" : "s") either way: one of many bytes was taken)"
                : "from \(from) to \(to) character\(to == 1 ? "" : "s")"
            return .warning(path, "truncated", "shortened \(lengths) to fit the payload within its limit")
        }
    }

    /// Cuts `intent` (whose payloads are over their limits by `overflows`, ``overflows(_:)``'s)
    /// until it fits.
    /// - Throws: the last translation's error when no cut makes it fit, or when a cut brings up
    ///   an error other than size.
    static func fit(
        _ intent: JSONValue, overflows: [String: Int], firstError: TranslationError,
        translate: ([UInt8]) throws(TranslationError) -> Translation
    ) throws(TranslationError) -> Fitted {
        var intent = intent
        var overflows = overflows
        var lastError = firstError
        var cuts: [Cut] = []
        for field in fields(intent) {
            guard case .string(let original)? = value(intent, at: field[...]), !original.isEmpty else { continue }
            var text = original
            // FCM carries the carousel's captions in adb_items, JSON text inside a JSON string:
            // escaped twice, a quote there costs 4 bytes. Counted so, a cut never takes more
            // than it must; where it is less (APNS's items), the next try takes the rest.
            let nested = field.contains(.key("carousel"))
            // The notification's own title and body keep a character: the ellipsis alone says nothing.
            let keepsOne = field == [.key("title")] || field == [.key("body")]
            // The limits the text counts toward: those the first cut brings down. A text in one
            // platform's payload (a subtitle is APNS's) is cut for that one's overflow, not for a
            // larger one of the other platform's, which it cannot mend (the thirty-seventh audit,
            // F1: both platforms asked for, a cut that one needed was thrown away).
            var counts: Set<String>?
            // A text written twice in a payload, or escaped otherwise than counted (a caption
            // counted as FCM's adb_items escape it, in an APNS payload, which escapes it once),
            // needs more cuts. Each that saves something goes on with the same text, so that the
            // texts go in their order; the first that saves nothing moves on. Each saves at least
            // half of what is left (nothing escapes more than twice as FCM counts it), so a few
            // dozen are the most even 64 KiB needs.
            for _ in 0..<64 {
                let need = overflows.filter { counts?.contains($0.key) ?? true }.values.max() ?? 0
                guard need > 0, let shorter = cut(text, saving: need, nested: nested, keepsOne: keepsOne) else { break }
                let candidate = set(intent, at: field[...], to: .string(shorter))
                do {
                    let translation = try translate(JSONWriter(style: .compact).write(candidate))
                    cuts.append(Cut(path: JSONPath(field).description, before: original, after: shorter))
                    return Fitted(translation: translation, cuts: cuts)
                } catch {
                    guard let left = Self.overflows(error) else { throw error }
                    let lowered = Set(overflows.filter { left[$0.key, default: 0] < $0.value }.keys)
                    // The text is not in the payloads: leave it as it was.
                    if lowered.isEmpty { break }
                    if counts == nil {
                        counts = lowered
                        // Cut for the largest overflow of a limit the text does not count toward:
                        // cut again from the same text, for those it does.
                        if overflows.filter({ lowered.contains($0.key) }).values.max() ?? 0 < need { continue }
                    }
                    intent = candidate
                    text = shorter
                    overflows = left
                    lastError = error
                }
            }
            if text != original { cuts.append(Cut(path: JSONPath(field).description, before: original, after: text)) }
        }
        throw lastError
    }

    /// `text` with whole characters taken from the end, and "…" added, so that it is `saving`
    /// bytes shorter as JSON text (`nested`: as JSON text inside a JSON string), or as much
    /// shorter as it goes when it cannot save that much alone, the next text in the order
    /// saving the rest (the thirty-fifth audit, F1: a title and a body that each had to lose
    /// some were both left whole, and the recipient failed). Nil when it saves nothing. With
    /// `keepsOne`, one character stays before the ellipsis: a title or a body that says nothing
    /// is a blank notification (the twenty-eighth audit, F10: a title of one cluster of 6,000
    /// bytes went out as "…").
    static func cut(_ text: String, saving: Int, nested: Bool = false, keepsOne: Bool = false) -> String? {
        var characters = Array(text)
        // A text cut before ends in the ellipsis, which goes and comes back.
        if characters.last == ellipsis { characters.removeLast() }
        let ellipsisLength = escapedLength(ellipsis, nested: nested)
        var saved = -ellipsisLength + (text.last == ellipsis ? ellipsisLength : 0)
        let kept = keepsOne ? 1 : 0
        while saved < saving, characters.count > kept, let last = characters.popLast() {
            saved += escapedLength(last, nested: nested)
        }
        guard saved > 0 else { return nil }
        return String(characters) + String(ellipsis)
    }

    /// A character's length as JSON text, escapes included; `nested`, as JSON text written
    /// again into a JSON string (`"` is `\\\"`, 4 bytes).
    static func escapedLength(_ character: Character, nested: Bool = false) -> Int {
        let once = JSONWriter(style: .compact).write(.string(String(character)))
        guard nested else { return once.count - 2 }
        return JSONWriter.compactByteCount(.string(String(decoding: once.dropFirst().dropLast(), as: UTF8.self))) - 2
    }

    static func value(_ value: JSONValue, at path: ArraySlice<JSONPath.Component>) -> JSONValue? {
        guard let first = path.first else { return value }
        switch first {
        case .key(let key): return value[key].flatMap { Self.value($0, at: path.dropFirst()) }
        case .index(let index): return value[index].flatMap { Self.value($0, at: path.dropFirst()) }
        }
    }

    static func set(_ value: JSONValue, at path: ArraySlice<JSONPath.Component>, to new: JSONValue) -> JSONValue {
        guard let first = path.first else { return new }
        switch (first, value) {
        case (.key(let key), .object(var object)):
            guard let inner = object[key] else { return value }
            object[key] = set(inner, at: path.dropFirst(), to: new)
            return .object(object)
        case (.index(let index), .array(var items)):
            guard items.indices.contains(index) else { return value }
            items[index] = set(items[index], at: path.dropFirst(), to: new)
            return .array(items)
        default:
            return value
        }
    }
}
