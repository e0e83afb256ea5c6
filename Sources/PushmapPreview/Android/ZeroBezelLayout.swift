internal import Pushmap

/// notificationbuilder's `zb` (zero bezel) template: the image fills the card edge to edge, the
/// text over it; collapsed it shows the image too with `adb_col_style` "img", else text only.
struct ZeroBezelLayout: AndroidTemplateLayout {
    func refusals(_ data: AndroidData) -> [String] { [] }

    /// "img" exactly, or the text style.
    private func style(_ data: AndroidData) -> String { data.text(AdobeKey.collapsedStyle.name) == "img" ? "img" : "txt" }

    func draw(_ data: AndroidData, collapsed: NotificationView, expanded: NotificationView, into preview: inout PlatformPreview) {
        var collapsed = collapsed, expanded = expanded
        // No large icon in its layout; the collapsed container does not take the background colour.
        collapsed.thumbnail = nil
        expanded.thumbnail = nil
        collapsed.colors.background = nil
        let image = data.text(AdobeKey.image.name)
        let style = style(data)
        collapsed.label = "Collapsed (\(style == "img" ? "image" : "text") style)"
        if AndroidData.isURL(image) {
            expanded.image = image
            expanded.imageStyle = "zero-bezel"
            if style == "img" {
                collapsed.image = image
                collapsed.imageStyle = "zero-bezel"
            }
        } else {
            preview.notes.append(image == nil
                ? "No adb_image: a text-only notification."
                : "adb_image is not a URL (zb downloads its image; a drawable name does not work): a text-only notification.")
        }
        preview.views = [collapsed, expanded]
    }

    func verdict(_ key: String, _ text: String?, data: AndroidData) -> (KeyReading.Verdict, String)? {
        switch key {
        case AdobeKey.collapsedStyle.name:
            return (.uses, style(data) == "img" ? "collapsed style: the image shows collapsed too" : text == "txt" ? "collapsed style: text only" : "not \"img\": the text style, collapsed text only")
        case AdobeKey.image.name:
            guard AndroidData.isURL(text) else { return (.ignores, "not a URL: zb downloads its image, a drawable name does not work; text only") }
            return (.shows, style(data) == "img" ? "edge-to-edge image, collapsed and expanded" : "edge-to-edge image when expanded")
        case AdobeKey.largeIcon.name: return (.ignores, "the zero-bezel layout has no large icon")
        case AdobeKey.backgroundColour.name:
            let (verdict, reason) = AndroidPreviewReader.colorVerdict(text, what: "background colour")
            return (verdict, verdict == .shows ? reason + ", expanded view only" : reason)
        default: return nil
        }
    }
}
