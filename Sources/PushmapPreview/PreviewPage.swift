@_spi(Tools) internal import Pushmap
internal import PushmapJSON

/// Writes previews as one self-contained HTML page: inline CSS, no script, nothing fetched.
/// Every image is a framed placeholder naming its URL, unless `images` holds a data URI for it.
/// Each notification is drawn twice, in the light and the dark appearance; the page's own
/// chrome follows `prefers-color-scheme`. Elements carry `data-*` attributes for tests.
public struct PreviewPage: Sendable {
    /// The page's title.
    package var title: String
    /// Data URIs by image URL, for `--images`.
    package var images: [String: String]

    public init(title: String, images: [String: String] = [:]) {
        self.title = title
        self.images = images
    }

    /// The width the page is laid out for, in CSS pixels.
    package static let width = 1400
    /// The tallest picture drawn; a longer gallery is cut there (its HTML page holds it all).
    package static let maxPictureHeight = 16_000

    public func html(_ previews: [NotificationPreview], gallery: Bool = false) -> String {
        var html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        html += "<meta name=\"color-scheme\" content=\"light dark\">\n"
        // The page runs no script and fetches nothing (images are frames, or data URIs with
        // --images): the policy says so to the browser, a second line behind the escaping.
        html += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'\">\n"
        html += "<title>\(HTMLEscape.text(title))</title>\n<style>\n\(Self.css)</style>\n</head>\n"
        html += "<body data-page=\"\(gallery ? "gallery" : "preview")\">\n"
        html += "<header class=\"page-header\"><h1>\(HTMLEscape.text(title))</h1>"
        html += "<p class=\"legend\">Each notification is drawn in the light and the dark appearance. Text is cut where the platform's guideline cuts it; images are frames naming their URL. "
        html += "<span class=\"verdict shows\">shows</span> drawn · <span class=\"verdict uses\">uses</span> acted on, not drawn · "
        html += "<span class=\"verdict ignores\">ignores</span> not read · <span class=\"verdict service\">service</span> read by FCM or APNs</p></header>\n"
        if gallery {
            html += "<nav class=\"contents\" data-role=\"contents\"><ol>"
            for (index, preview) in previews.enumerated() {
                html += "<li><a href=\"#entry-\(index + 1)\">\(HTMLEscape.text(preview.name))</a>"
                if let failure = preview.failure { html += " <span class=\"failure-kind\">(\(HTMLEscape.text(failure.kind)))</span>" }
                html += "</li>"
            }
            html += "</ol></nav>\n"
        }
        for (index, preview) in previews.enumerated() {
            html += entry(preview, index: index + 1)
        }
        html += "</body>\n</html>\n"
        return html
    }

    /// A height that holds the whole page at ``width``, for a screenshot: an estimate from what
    /// is drawn, a little generous (the page's background fills the rest).
    package func estimatedHeight(_ previews: [NotificationPreview], gallery: Bool = false) -> Int {
        var height = 150 + (gallery ? 30 + 24 * previews.count : 0)
        for preview in previews {
            height += 90 + 30 * preview.diagnostics.count
            if let failure = preview.failure { height += 60 + 24 * failure.lines.count }
            for platform in preview.platforms {
                var views = 0
                for view in platform.views { views += Self.estimatedHeight(view) }
                if platform.views.isEmpty { views = 80 }
                height += 70 + 26 * platform.notes.count + max(views, 44 + 31 * platform.keys.count)
            }
        }
        return height + height / 10
    }

    private static func estimatedHeight(_ view: NotificationView) -> Int {
        var height = 110
        if let body = view.body { height += 20 * (body.shown.count / 38 + 1) }
        if view.subtitle != nil { height += 20 }
        if view.image != nil { height += 170 }
        if view.carousel != nil { height += 230 }
        if view.catalog != nil { height += 300 }
        if view.reply != nil || view.rating != nil { height += 60 }
        if view.iconRow != nil { height += 60 }
        if !view.buttons.isEmpty { height += 36 }
        if view.fallback != nil { height += 40 }
        return height
    }

    // MARK: - Parts

    private func entry(_ preview: NotificationPreview, index: Int) -> String {
        var html = "<section class=\"entry\" id=\"entry-\(index)\" data-entry=\"\(HTMLEscape.text(preview.name))\" data-template=\"\(HTMLEscape.text(preview.template))\">\n"
        html += "<h2>\(HTMLEscape.text(preview.name))</h2>\n"
        html += "<p class=\"meta\">template <code data-role=\"template\">\(HTMLEscape.text(preview.template))</code> · arriving at \(HTMLEscape.text(UTCTime.text(preview.now)))</p>\n"
        if let failure = preview.failure {
            html += "<div class=\"failure\" data-role=\"failure\" data-expected=\"\(failure.expected)\"><p><strong>\(HTMLEscape.text(failure.kind))</strong>"
            html += failure.expected ? " — as the fixture expects; nothing to draw.</p>" : " — nothing to draw.</p>"
            html += "<ul>" + failure.lines.map { "<li data-role=\"failure-line\">\(HTMLEscape.text($0))</li>" }.joined() + "</ul></div>\n"
        }
        for platform in preview.platforms { html += self.platform(platform) }
        if preview.failure == nil {
            html += "<section class=\"diagnostics\" data-role=\"diagnostics\"><h3>Diagnostics</h3>"
            if preview.diagnostics.isEmpty {
                html += "<p data-role=\"no-diagnostics\">None: no warnings.</p>"
            } else {
                html += "<ul>"
                for diagnostic in preview.diagnostics {
                    html += "<li data-role=\"diagnostic\" data-severity=\"\(diagnostic.severity.name)\" data-rule=\"\(HTMLEscape.text(diagnostic.rule))\">"
                    // The badge says the severity; the line says the rest.
                    let line = diagnostic.description.hasPrefix("\(diagnostic.severity.name): ")
                        ? String(diagnostic.description.dropFirst(diagnostic.severity.name.count + 2)) : diagnostic.description
                    html += "<span class=\"severity \(diagnostic.severity.name)\">\(diagnostic.severity.name)</span> \(HTMLEscape.text(line))</li>"
                }
                html += "</ul>"
            }
            html += "</section>\n"
        }
        return html + "</section>\n"
    }

    private func platform(_ platform: PlatformPreview) -> String {
        let os = platform.platform == .apns ? "ios" : "android"
        var html = "<section class=\"platform\" data-platform=\"\(HTMLEscape.text(platform.platform.name))\" data-layout=\"\(HTMLEscape.text(platform.layout))\">\n"
        html += "<h3>\(HTMLEscape.text(platform.heading)) <small>\(HTMLEscape.text(platform.drawnBy))</small></h3>\n"
        for note in platform.notes { html += "<p class=\"note\" data-role=\"note\">\(HTMLEscape.text(note))</p>\n" }
        html += "<div class=\"columns\">\n<div class=\"views\">\n"
        if platform.views.isEmpty {
            html += "<div class=\"not-shown\" data-role=\"not-shown\">The phone shows nothing.</div>\n"
        }
        for view in platform.views {
            html += "<figure class=\"view\" data-view=\"\(HTMLEscape.text(view.id))\"\(view.fallback.map { " data-fallback=\"\(HTMLEscape.text($0))\"" } ?? "")>"
            html += "<figcaption>\(HTMLEscape.text(view.label))</figcaption>\n<div class=\"pair\">"
            for appearance in ["light", "dark"] {
                html += "<div class=\"screen \(os) \(appearance)\" data-appearance=\"\(appearance)\">\(card(view, os: os, platform: platform))</div>"
            }
            html += "</div></figure>\n"
        }
        html += "</div>\n" + keyTable(platform.keys) + "</div>\n</section>\n"
        return html
    }

    private func card(_ view: NotificationView, os: String, platform: PlatformPreview) -> String {
        var style: [String] = []
        if let background = view.colors.background { style.append("background:\(background.css)") }
        let zeroBezel = view.imageStyle == "zero-bezel" && view.image != nil
        var html = "<div class=\"card\(view.carousel != nil ? " has-carousel" : "")\(zeroBezel ? " zero-bezel" : "")\"\(style.isEmpty ? "" : " style=\"\(style.joined(separator: ";"))\"")>"
        // The header: app icon, app name, time.
        let iconStyle = view.colors.icon.map { " style=\"background:\($0.css)\"" } ?? ""
        html += "<div class=\"app\"><span class=\"app-icon\"\(iconStyle)></span><span class=\"app-name\">\(os == "ios" ? "YOUR APP" : "Your app")</span><span class=\"when\">now</span>"
        if let timer = view.timer {
            let timerStyle = view.colors.timer.map { " style=\"color:\($0.css)\"" } ?? ""
            html += "<span class=\"timer\" data-role=\"timer\"\(timerStyle)>⏱ \(HTMLEscape.text(timer))</span>"
        }
        html += "</div>"
        if let fallback = view.fallback {
            html += "<p class=\"fallback\" data-role=\"fallback-note\" data-fallback=\"\(HTMLEscape.text(fallback))\">Fallback (\(fallback == "basic" ? "basic template" : "iOS default view")): \(HTMLEscape.text(view.fallbackReason ?? ""))</p>"
        }
        // iOS's content extension puts the image above the text; everything else below.
        // So does a zero-bezel image, which fills the card behind the text.
        let imageFirst = (os == "ios" && view.id != "collapsed") || view.imageStyle != nil
        if imageFirst, let image = view.image { html += imageFrame(image, role: "image", attributes: view.imageStyle.map { " data-style=\"\(HTMLEscape.text($0))\"" } ?? "") }
        if let carousel = view.carousel, os == "ios" { html += carouselFrames(carousel) }
        html += "<div class=\"text-row\"><div class=\"texts\">"
        if let title = view.title { html += text(title, role: "title", color: view.colors.title) }
        if let subtitle = view.subtitle { html += text(subtitle, role: "subtitle", color: view.colors.title) }
        if let body = view.body { html += text(body, role: "body", color: view.colors.body) }
        html += "</div>"
        if let thumbnail = view.thumbnail { html += imageFrame(thumbnail, role: "thumbnail") }
        html += "</div>"
        if !imageFirst, let image = view.image { html += imageFrame(image, role: "image") }
        // Android draws the carousel below the text; iOS draws the item's caption below the title.
        if let carousel = view.carousel {
            if os != "ios" { html += carouselFrames(carousel) }
            html += carouselCaption(carousel)
        }
        html += parts(view)
        if !view.buttons.isEmpty {
            html += "<div class=\"buttons\">" + view.buttons.map { "<span class=\"button\" data-role=\"button\">\(HTMLEscape.text($0))</span>" }.joined() + "</div>"
        }
        return html + "</div>"
    }

    private func text(_ text: PreviewText, role: String, color: PreviewColor?) -> String {
        var attributes = " class=\"\(role)\" data-role=\"\(role)\""
        if text.isCut { attributes += " data-cut=\"true\" title=\"\(HTMLEscape.text(text.full))\"" }
        if let color { attributes += " style=\"color:\(color.css)\"" }
        var html = "<div\(attributes)>\(HTMLEscape.text(text.shown))</div>"
        if text.isCut, let limit = text.limit {
            html += "<div class=\"cut-note\" data-role=\"cut-note\">\(role) cut at \(limit) of \(text.full.count) characters</div>"
        }
        return html
    }

    /// The carousel's pictures: the item in front, and its neighbours in the filmstrip layout.
    private func carouselFrames(_ carousel: NotificationView.Carousel) -> String {
        var html = "<div class=\"carousel \(HTMLEscape.text(carousel.layout))\" data-role=\"carousel\" data-mode=\"\(HTMLEscape.text(carousel.mode))\" data-layout=\"\(HTMLEscape.text(carousel.layout))\">"
        let current = carousel.items[carousel.current]
        if carousel.layout == "filmstrip", carousel.items.count > 1 {
            let count = carousel.items.count
            let left = carousel.items[(carousel.current + count - 1) % count]
            let right = carousel.items[(carousel.current + 1) % count]
            html += "<div class=\"strip\">\(imageFrame(left.image, role: "side-image"))\(imageFrame(current.image, role: "image"))\(imageFrame(right.image, role: "side-image"))</div>"
        } else {
            html += imageFrame(current.image, role: "image")
        }
        return html + "</div>"
    }

    /// The front item's caption and where it stands among the items.
    private func carouselCaption(_ carousel: NotificationView.Carousel) -> String {
        var html = carousel.items[carousel.current].caption.map { text($0, role: "caption", color: nil) } ?? ""
        html += "<div class=\"dots\">"
        for index in carousel.items.indices { html += index == carousel.current ? "●" : "○" }
        html += carousel.mode == "manual" ? " ‹ ›" : ""
        return html + "</div>"
    }

    /// The template-specific parts: the reply field, the catalog, the stars, the row of icons.
    private func parts(_ view: NotificationView) -> String {
        var html = ""
        if let reply = view.reply {
            html += "<div class=\"reply\" data-role=\"reply\" data-receiver=\"\(HTMLEscape.text(reply.receiver))\">"
            html += "<span class=\"button\" data-role=\"reply-button\">\(HTMLEscape.text(reply.hint))</span>"
            html += "<div class=\"reply-field\"><span data-role=\"reply-hint\">\(HTMLEscape.text(reply.hint))</span><span class=\"send\">➤</span></div></div>"
        }
        if let catalog = view.catalog {
            let item = catalog.items[catalog.current]
            html += "<div class=\"catalog \(HTMLEscape.text(catalog.display))\" data-role=\"catalog\" data-display=\"\(HTMLEscape.text(catalog.display))\" data-current=\"\(catalog.current + 1)\">"
            html += imageFrame(item.image, role: "image")
            if catalog.display == "vertical" {
                if let body = item.body { html += text(body, role: "item-body", color: nil) }
                html += "<div class=\"price\" data-role=\"price\">\(HTMLEscape.text(item.price))</div>"
            }
            html += "<div class=\"thumbs\">"
            for (index, thumb) in catalog.items.enumerated() {
                html += imageFrame(thumb.image, role: "thumb", attributes: index == catalog.current ? " data-current=\"true\"" : "")
            }
            var style: [String] = []
            if let color = catalog.buttonColor { style.append("background:\(color.css)") }
            if let color = catalog.buttonTextColor { style.append("color:\(color.css)") }
            html += "</div><span class=\"cta\" data-role=\"cta\"\(style.isEmpty ? "" : " style=\"\(style.joined(separator: ";"))\"")>\(HTMLEscape.text(catalog.buttonLabel))</span></div>"
        }
        if let rating = view.rating {
            html += "<div class=\"rating\" data-role=\"rating\" data-selected=\"\(rating.selected.map { String($0 + 1) } ?? "none")\">"
            for index in 0..<rating.count {
                let selected = rating.selected.map { index <= $0 } ?? false
                html += "<span class=\"star\" data-role=\"star\" data-state=\"\(selected ? "selected" : "unselected")\" data-icon=\"\(HTMLEscape.text(rating.icon(index)))\" title=\"\(HTMLEscape.text(rating.actions[index]))\">\(selected ? "★" : "☆")<small>\(HTMLEscape.text(rating.icon(index)))</small></span>"
            }
            html += "</div>"
        }
        if let row = view.iconRow {
            html += "<div class=\"icon-row\" data-role=\"icons\">"
            for icon in row.icons {
                html += "<span class=\"icon-item\" data-role=\"icon\" data-icon=\"\(HTMLEscape.text(icon.image))\" data-action=\"\(HTMLEscape.text(icon.action))\">\(imageFrame(icon.image, role: "icon-image"))</span>"
            }
            if let close = row.close { html += "<span class=\"close\" data-role=\"close\" data-icon=\"\(HTMLEscape.text(close))\">✕</span>" }
            html += "</div>"
        }
        return html
    }

    /// An image, or a frame naming its URL. `attributes` go on the frame as they are (already escaped).
    private func imageFrame(_ url: String?, role: String, attributes: String = "") -> String {
        // An image the phone does not load (an http one on iOS): an empty frame.
        guard let url else { return "<div class=\"frame placeholder \(role)\" data-role=\"\(role)\"\(attributes)><span class=\"frame-label\">no image</span></div>" }
        let escaped = HTMLEscape.text(url)
        if let data = images[url] {
            return "<div class=\"frame \(role)\" data-role=\"\(role)\" data-url=\"\(escaped)\"\(attributes)><img src=\"\(HTMLEscape.text(data))\" alt=\"\(escaped)\"></div>"
        }
        return "<div class=\"frame placeholder \(role)\" data-role=\"\(role)\" data-url=\"\(escaped)\"\(attributes)><span class=\"frame-label\">image</span><span class=\"frame-url\">\(escaped)</span></div>"
    }

    /// The keys and values as sent: a control character or a bidirectional override shows as its
    /// escape (`\u202E`), so that a reviewer reads what is sent, not one turned around (a key is
    /// sent too: the twenty-second audit, N14).
    private func keyTable(_ keys: [KeyReading]) -> String {
        var html = "<table class=\"keys\" data-role=\"keys\"><thead><tr><th>payload key</th><th>value</th><th>phone</th><th>why</th></tr></thead><tbody>\n"
        for reading in keys {
            let key = HTMLEscape.text(ShownText.escaped(reading.key))
            html += "<tr data-key=\"\(key)\" data-verdict=\"\(reading.verdict.rawValue)\">"
            html += "<td><code>\(key)</code></td><td class=\"value\">\(HTMLEscape.text(ShownText.escaped(reading.value)))</td>"
            html += "<td><span class=\"verdict \(reading.verdict.rawValue)\">\(reading.verdict.rawValue)</span></td><td>\(HTMLEscape.text(reading.reason))</td></tr>\n"
        }
        return html + "</tbody></table>\n"
    }

    // MARK: - Style

    static let css = """
    :root { color-scheme: light dark; --page: #f4f4f6; --ink: #1d1d1f; --muted: #5f6368; --rule: #d9d9de; --panel: #ffffff; }
    @media (prefers-color-scheme: dark) { :root { --page: #161618; --ink: #ececef; --muted: #a0a0a8; --rule: #3a3a40; --panel: #1f1f22; } }
    * { box-sizing: border-box; }
    body { margin: 0; padding: 20px 28px; width: 1400px; background: var(--page); color: var(--ink); font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", Arial, sans-serif; }
    h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 0 0 2px; word-break: break-all; } h3 { font-size: 16px; margin: 0 0 6px; }
    h3 small { font-weight: normal; color: var(--muted); margin-left: 8px; }
    .legend, .meta { color: var(--muted); margin: 0 0 10px; }
    .entry { background: var(--panel); border: 1px solid var(--rule); border-radius: 12px; padding: 16px 18px; margin: 0 0 20px; }
    .platform { border-top: 1px solid var(--rule); padding: 12px 0 4px; }
    .note { margin: 0 0 6px; padding: 6px 10px; border-left: 3px solid #c58a00; background: rgba(197, 138, 0, 0.08); }
    .columns { display: flex; gap: 20px; align-items: flex-start; }
    .views { flex: 0 0 664px; }
    .view { margin: 0 0 14px; }
    figcaption { font-weight: 600; margin: 0 0 4px; }
    .pair { display: flex; gap: 12px; }
    .screen { width: 326px; padding: 10px; border-radius: 18px; }
    .screen.light { background: #dfe3ea; } .screen.dark { background: #0b0b0c; }
    .card { border-radius: 16px; padding: 10px 12px 12px; overflow: hidden; }
    .android.light .card { background: #ffffff; color: #1f1f1f; --body: #444746; }
    .android.dark .card { background: #2b2c2f; color: #e3e3e3; --body: #c4c7c5; }
    .ios .card { border-radius: 14px; }
    .ios.light .card { background: rgba(246, 246, 248, 0.96); color: #000000; --body: #000000; }
    .ios.dark .card { background: rgba(44, 44, 46, 0.96); color: #ffffff; --body: #ffffff; }
    [data-view^="expanded"] .ios.light .card, [data-view^="expired"] .ios.light .card { background: #ffffff; --body: rgba(60, 60, 67, 0.8); }
    [data-view^="expanded"] .ios.dark .card, [data-view^="expired"] .ios.dark .card { background: #000000; --body: rgba(235, 235, 245, 0.8); }
    .app { display: flex; align-items: center; gap: 6px; font-size: 12px; opacity: 0.85; margin: 0 0 6px; }
    .app-icon { width: 16px; height: 16px; border-radius: 50%; background: #1a73e8; display: inline-block; }
    .ios .app-icon { border-radius: 4px; background: #34c759; width: 20px; height: 20px; }
    .ios .app-name { letter-spacing: 0.04em; }
    .when { margin-left: auto; }
    .timer { font-weight: 700; font-variant-numeric: tabular-nums; margin-left: 8px; }
    .text-row { display: flex; gap: 10px; align-items: flex-start; }
    .texts { flex: 1; min-width: 0; }
    .title { font-weight: 600; font-size: 14px; }
    .android .title { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
    .ios .title { font-size: 15px; }
    .subtitle { font-weight: 500; }
    .body, .caption { color: var(--body); white-space: pre-wrap; overflow-wrap: anywhere; }
    .caption { margin-top: 4px; font-size: 13px; }
    .cut-note { font-size: 11px; color: #b3261e; }
    .dark .cut-note { color: #f2b8b5; }
    .frame { margin-top: 8px; border: 2px dashed #8e8e93; border-radius: 10px; height: 150px; display: flex; flex-direction: column; align-items: center; justify-content: center; padding: 6px;
      background: repeating-linear-gradient(45deg, rgba(142, 142, 147, 0.16) 0 10px, rgba(142, 142, 147, 0.05) 10px 20px); overflow: hidden; }
    .light .frame { background-color: #eceef2; color: #303034; } .dark .frame { background-color: #3a3b3f; color: #e6e6ea; }
    .ios .frame.image { margin: 0 0 8px; }
    .frame img { max-width: 100%; max-height: 100%; }
    .frame-label { font-weight: 600; text-transform: uppercase; font-size: 11px; letter-spacing: 0.08em; }
    .frame-url { font-family: ui-monospace, "Liberation Mono", monospace; font-size: 11px; word-break: break-all; text-align: center; }
    .frame.thumbnail { width: 56px; height: 56px; margin: 0; flex: 0 0 56px; }
    .frame.thumbnail .frame-url { display: none; }
    .strip { display: flex; gap: 6px; align-items: center; }
    .strip .frame.image { flex: 1.6; } .strip .frame.side-image { flex: 1; height: 110px; opacity: 0.7; }
    .strip .side-image .frame-url { display: none; }
    .dots { text-align: center; font-size: 12px; margin-top: 4px; letter-spacing: 3px; }
    .buttons { display: flex; gap: 16px; margin-top: 10px; }
    .button { font-weight: 600; font-size: 13px; color: #0b57d0; }
    .dark .button { color: #a8c7fa; }
    .ios .button { color: #007aff; }
    .fallback { margin: 0 0 6px; font-size: 12px; padding: 4px 8px; border-radius: 6px; background: rgba(179, 38, 30, 0.12); }
    .not-shown, .failure { padding: 12px; border: 2px solid #b3261e; border-radius: 10px; }
    table.keys { flex: 1; border-collapse: collapse; font-size: 12.5px; }
    .keys th { text-align: left; border-bottom: 2px solid var(--rule); padding: 4px 6px; }
    .keys td { border-bottom: 1px solid var(--rule); padding: 4px 6px; vertical-align: top; }
    .keys td.value { max-width: 210px; word-break: break-all; color: var(--muted); }
    .keys code { font-family: ui-monospace, "Liberation Mono", monospace; }
    .verdict { display: inline-block; padding: 0 6px; border-radius: 8px; font-weight: 600; font-size: 11.5px; }
    .verdict.shows { background: #c4eed0; color: #0d5223; } .verdict.uses { background: #d3e3fd; color: #0842a0; }
    .verdict.ignores { background: #f9dedc; color: #8c1d18; } .verdict.service { background: #e6e6ea; color: #45454d; }
    .diagnostics ul { margin: 4px 0; padding-left: 20px; }
    .severity { font-weight: 700; } .severity.warning { color: #c58a00; } .severity.error { color: #b3261e; }
    .contents ol { columns: 2; }
    .frame[data-style="zero-bezel"] { margin: 0 -12px 8px; border-radius: 0; height: 170px; }
    .card.zero-bezel { position: relative; } .card.zero-bezel .frame-url { margin-bottom: 40px; }
    .card.zero-bezel .text-row { position: absolute; left: 12px; right: 12px; bottom: 16px; color: #ffffff; --body: #ffffff; text-shadow: 0 1px 3px rgba(0, 0, 0, 0.8); }
    .reply { margin-top: 10px; } .reply-field { margin-top: 6px; display: flex; justify-content: space-between; border-bottom: 2px solid #0b57d0; padding: 4px 2px; opacity: 0.7; }
    .catalog .thumbs { display: flex; gap: 6px; } .catalog .frame.thumb { flex: 1; height: 56px; } .catalog .thumb .frame-url { display: none; }
    .catalog .frame.thumb[data-current] { border-style: solid; border-color: #0b57d0; }
    .catalog.horizontal .frame.image { height: 110px; } .price { font-weight: 700; }
    .cta { display: block; margin-top: 8px; text-align: center; padding: 6px; border-radius: 8px; background: #0b57d0; color: #ffffff; font-weight: 600; }
    .rating { display: flex; gap: 10px; justify-content: center; margin-top: 10px; font-size: 24px; }
    .star { display: flex; flex-direction: column; align-items: center; color: #c58a00; } .star small { font-size: 9px; color: var(--body); }
    .icon-row { display: flex; gap: 8px; align-items: center; } .icon-item { flex: 1; } .frame.icon-image { height: 48px; margin: 0; }
    .icon-item .frame-url { font-size: 9px; } .frame.icon-image .frame-label { display: none; }
    .close { font-size: 18px; padding: 0 4px; }

    """
}
