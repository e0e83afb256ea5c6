@_spi(Tools) package import Pushmap

/// The preview of one intent (or fixture): each platform's pictures and the translation's
/// findings; or, for an entry of a gallery that does not translate, why.
public struct NotificationPreview: Sendable, Hashable {
    /// Why an entry has no pictures.
    package struct Failure: Sendable, Hashable {
        /// "invalid intent", "failed check", "script failed", "unreadable".
        package var kind: String
        /// One line per finding.
        package var lines: [String]
        /// A fixture that expects this error: the failure is what it tests.
        package var expected: Bool
    }

    /// The file it comes from, or `<stdin>`.
    package var name: String
    /// The template the intent asks for.
    package var template: String
    /// The time the translation and the timers see, in epoch seconds.
    package var now: Int64
    package var platforms: [PlatformPreview]
    /// The translation's warnings.
    package var diagnostics: [Diagnostic]
    package var failure: Failure?

    package init(name: String, template: String, now: Int64, platforms: [PlatformPreview], diagnostics: [Diagnostic], failure: Failure? = nil) {
        self.name = name
        self.template = template
        self.now = now
        self.platforms = platforms
        self.diagnostics = diagnostics
        self.failure = failure
    }
}

extension NotificationPreview {
    /// An entry with nothing to draw: `error`'s findings, one line each.
    package static func failed(_ name: String, _ error: TranslationError, expected: Bool, template: String?, now: Int64) -> NotificationPreview {
        var lines = error.diagnostics.map(\.description)
        if let scriptError = error.scriptError { lines.append("script error: \(scriptError)") }
        return NotificationPreview(
            name: name, template: template ?? "?", now: now, platforms: [], diagnostics: [],
            failure: Failure(kind: error.kind.name, lines: lines, expected: expected))
    }

    /// Every image URL drawn, for embedding local files.
    package var imageURLs: Set<String> {
        var urls: Set<String> = []
        for platform in platforms {
            for view in platform.views {
                if let image = view.image { urls.insert(image) }
                if let thumbnail = view.thumbnail { urls.insert(thumbnail) }
                for item in view.carousel?.items ?? [] { if let image = item.image { urls.insert(image) } }
                for item in view.catalog?.items ?? [] { urls.insert(item.image) }
                for icon in view.iconRow?.icons ?? [] { urls.insert(icon.image) }
            }
        }
        return urls
    }
}
