@_spi(Tools) internal import Pushmap
internal import PushmapJSON

/// Writes previews as text for a terminal: each view's texts as the phone cuts them, images as
/// their URLs, then what the phone does with each key.
public struct PreviewTextReport: Sendable {
    public init() {}

    /// The report, for a terminal: what an intent says may hold escape sequences, written
    /// escaped (``ShownText``); its line breaks stay, as the phone shows them.
    public func text(_ previews: [NotificationPreview]) -> String {
        ShownText.escaped(previews.map(entry).joined(separator: "\n"), keepingNewlines: true)
    }

    private func entry(_ preview: NotificationPreview) -> String {
        var text = "\(preview.name): template \(preview.template), arriving at \(UTCTime.text(preview.now))\n"
        if let failure = preview.failure {
            text += "  \(failure.kind)\(failure.expected ? " (as the fixture expects)" : ""): nothing to draw\n"
            for line in failure.lines { text += "    \(line)\n" }
            return text
        }
        for platform in preview.platforms {
            text += "\n== \(platform.heading): \(platform.drawnBy)\n"
            for note in platform.notes { text += "  note: \(note)\n" }
            if platform.views.isEmpty { text += "  (the phone shows nothing)\n" }
            for view in platform.views {
                text += "  [\(view.label)]\n"
                if let fallback = view.fallback { text += "    fallback (\(fallback)): \(view.fallbackReason ?? "")\n" }
                if let timer = view.timer { text += "    timer:    \(timer)\n" }
                if let title = view.title { text += line("title", title) }
                if let subtitle = view.subtitle { text += line("subtitle", subtitle) }
                if let body = view.body { text += line("body", body) }
                if let thumbnail = view.thumbnail { text += "    thumb:    [\(thumbnail)]\n" }
                if let image = view.image { text += "    image:    [\(image)]\(view.imageStyle == "zero-bezel" ? " edge to edge, the text over it" : "")\n" }
                if let carousel = view.carousel {
                    let item = carousel.items[carousel.current]
                    text += "    item:     \(item.image.map { "[\($0)]" } ?? "(no image)") \(carousel.current + 1)/\(carousel.items.count)\n"
                    if let caption = item.caption { text += line("caption", caption) }
                }
                text += parts(view)
                if !view.buttons.isEmpty { text += "    buttons:  " + view.buttons.map { "[\($0)]" }.joined(separator: " ") + "\n" }
            }
            text += "  keys:\n"
            let width = min(28, platform.keys.map(\.key.count).max() ?? 0)
            for reading in platform.keys {
                let verdict = reading.verdict.rawValue.padding(7)
                text += "    \(verdict) \(reading.key.padding(width))  \(reading.reason)\n"
            }
        }
        text += "\ndiagnostics: "
        if preview.diagnostics.isEmpty { return text + "none\n" }
        text += "\(preview.diagnostics.count)\n"
        for diagnostic in preview.diagnostics { text += "  \(diagnostic)\n" }
        return text
    }

    /// The template-specific parts: reply field, catalog, stars, icon row.
    private func parts(_ view: NotificationView) -> String {
        var text = ""
        if let reply = view.reply {
            text += "    reply:    [\(reply.hint)] button, then a field with the hint \"\(reply.hint)\" (the app gets the text as \"\(reply.receiver)\")\n"
        }
        if let catalog = view.catalog {
            let item = catalog.items[catalog.current]
            text += "    catalog:  \(catalog.display) display, item \(catalog.current + 1) of \(catalog.items.count) large: [\(item.image)]\n"
            if catalog.display == "vertical" {
                if let body = item.body { text += line("detail", body) }
                text += "    price:    \(item.price)\n"
            }
            text += "    thumbs:   " + catalog.items.enumerated().map { "[\($0.element.image)]\($0.offset == catalog.current ? "*" : "")" }.joined(separator: " ") + "\n"
            var colors: [String] = []
            if let color = catalog.buttonColor { colors.append("colour \(color.css)") }
            if let color = catalog.buttonTextColor { colors.append("text \(color.css)") }
            text += "    button:   [\(catalog.buttonLabel)]\(colors.isEmpty ? "" : " (" + colors.joined(separator: ", ") + ")")\n"
        }
        if let rating = view.rating {
            let stars = (0..<rating.count).map { index in rating.selected.map { index <= $0 } ?? false ? "★" : "☆" }
            text += "    stars:    \(stars.joined(separator: " "))  (\(rating.selected.map { "star \($0 + 1) tapped; " } ?? "")selected [\(rating.selectedIcon)], unselected [\(rating.unselectedIcon)])\n"
        }
        if let row = view.iconRow {
            text += "    icons:    " + row.icons.map { "[\($0.image)]" }.joined(separator: " ") + "\n"
            for (index, icon) in row.icons.enumerated() { text += "      \(index + 1): \(icon.action)\n" }
            text += "    close:    [\(row.close ?? "hidden")]\n"
        }
        return text
    }

    private func line(_ name: String, _ text: PreviewText) -> String {
        // A text's later lines under its first, not at the margin (the thirty-sixth audit, F12).
        // A CRLF is one Character: split on it as on a line feed (the thirty-eighth audit, F9).
        let shown = text.shown.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .joined(separator: "\n" + String(repeating: " ", count: 14))
        var line = "    " + "\(name):".padding(10) + shown
        if text.isCut, let limit = text.limit { line += "  (cut at \(limit) of \(text.full.count) characters)" }
        return line + "\n"
    }
}

extension String {
    /// The string with spaces after it up to `width` characters.
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
