@_spi(Tools) public import Pushmap
package import PushmapJSON

/// Translates an intent and reads each payload as the phone does. It calls the translator as
/// any caller would, so the translation's hot path knows nothing of previews.
public struct Previewer: Sendable {
    package let translator: Translator

    public init(translator: Translator) {
        self.translator = translator
    }

    /// The preview of an intent given as JSON text, at the translator's clock. With
    /// `failedChecks`, payloads that fail a check are drawn too, as the phone takes them (a
    /// fallback, or nothing), their errors among the preview's diagnostics: only an intent that
    /// gives no payload throws (the thirty-sixth audit, F6).
    public func preview(_ intent: [UInt8], name: String, platforms: [Platform], failedChecks: Bool = false) throws(TranslationError) -> NotificationPreview {
        let now = translator.options.clock()
        let translation = try Self.drawable(failedChecks) { () throws(TranslationError) in try translator.translate(intent, platforms: platforms) }
        return preview(translation, name: name, platforms: platforms, now: now)
    }

    /// The preview of an intent given as a value, at `now` (a fixture's time); `failedChecks`
    /// as above.
    package func preview(_ intent: JSONValue, name: String, platforms: [Platform], now: Int64, failedChecks: Bool = false) throws(TranslationError) -> NotificationPreview {
        let translation = try Self.drawable(failedChecks) { () throws(TranslationError) in try translator.translate(intent, platforms: platforms, now: now) }
        return preview(translation, name: name, platforms: platforms, now: now)
    }

    /// What `translate` gives, or with `failedChecks` the payloads of a translation whose checks
    /// failed, its findings with them.
    private static func drawable(
        _ failedChecks: Bool, _ translate: () throws(TranslationError) -> Translation
    ) throws(TranslationError) -> Translation {
        do {
            return try translate()
        } catch {
            guard failedChecks, let unchecked = error.unchecked else { throw error }
            return unchecked
        }
    }

    /// Reads a translation's payloads.
    package func preview(_ translation: Translation, name: String, platforms: [Platform], now: Int64) -> NotificationPreview {
        var drawn: [PlatformPreview] = []
        for platform in platforms {
            guard let payload = translation.payloads[platform] else { continue }
            switch platform {
            case .fcm: drawn.append(AndroidPreviewReader(now: now).read(payload))
            case .apns:
                var iOS = IOSPreviewReader(now: now).read(payload)
                // The templates only Android has: say what iOS is sent instead, drawn below as iOS shows it.
                // (A payload that asks for it anyway gets the fallback, whose note says why.)
                let sent = payload[AdobeKey.templateType.name]?.stringValue
                if AndroidPreviewReader.templates.contains(translation.template), !IOSPreviewReader.templates.contains(translation.template), sent != translation.template {
                    let what = sent.map { "the \($0) template" } ?? "a plain notification"
                    iOS.notes.insert("iOS has no \(translation.template) template: the mapping sends \(what), drawn here as iOS shows it.", at: 0)
                }
                drawn.append(iOS)
            default: continue
            }
            // A payload over its limit never reaches the phone: the push service refuses it (the
            // fortieth audit, F4: it was drawn as shown).
            let size = platform == .fcm ? "fcm-size" : "apns-size"
            if let refused = translation.diagnostics.first(where: { $0.severity == .error && $0.rule == size && $0.platform == platform }) {
                drawn[drawn.count - 1].notShown("\(platform == .fcm ? "FCM" : "APNs") refuses it, so the phone shows nothing: \(refused.message).")
            }
        }
        return NotificationPreview(name: name, template: translation.template, now: now, platforms: drawn, diagnostics: translation.diagnostics)
    }
}
