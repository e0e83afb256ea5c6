internal import Pushmap
internal import PushmapJSON

/// notificationbuilder's `icon` (multi-icon) template: one row of 3 to 5 tappable icons and a close
/// button; no title or body. Items it cannot use are skipped, not fatal.
struct MultiIconLayout: AndroidTemplateLayout {
    var needsText: Bool { false }

    /// The usable icons and why the others are skipped; a failure when `adb_items` is no array of objects.
    private func icons(_ data: AndroidData) -> Result<(icons: [NotificationView.IconRow.Icon], skipped: [String]), LayoutRefusal> {
        guard let text = data.text(AdobeKey.items.name), let array = PayloadValues.decodedArray(text), array.allSatisfy({ $0.objectValue != nil }) else {
            return .failure(.init("adb_items is not a JSON array of objects"))
        }
        var icons: [NotificationView.IconRow.Icon] = [], skipped: [String] = []
        for (index, item) in array.enumerated() {
            // Counted from 0, as the JSON paths of the warnings beside it (the thirty-sixth audit, F10).
            let number = index
            guard let image = item["img"]?.stringValue, !image.isEmpty else { skipped.append("item \(number) has no img"); continue }
            guard let rawType = item["type"]?.stringValue else { skipped.append("item \(number) has no type"); continue }
            let type = rawType.isEmpty ? "NONE" : rawType
            guard AndroidData.actionTypes.contains(type) else { skipped.append("item \(number)'s type \"\(rawType)\" is unknown"); continue }
            let uri = item["uri"]?.stringValue
            if type == "WEBURL" || type == "DEEPLINK", uri?.isEmpty ?? true { skipped.append("item \(number) is \(type) without a uri"); continue }
            icons.append(.init(image: image, action: AndroidData.action(type: type, uri: uri)))
        }
        return .success((icons, skipped))
    }

    /// The close button's image: the library's cross when absent or empty.
    private func close(_ data: AndroidData) -> String {
        guard let image = data.text(AdobeKey.cancelImage.name), !image.isEmpty else { return "cross" }
        return image
    }

    func refusals(_ data: AndroidData) -> [String] {
        guard data.has(AdobeKey.items.name) else { return ["adb_items is missing"] }
        switch icons(data) {
        case .failure(let refusal): return [refusal.reason]
        case .success(let row):
            return (3...5).contains(row.icons.count) ? [] : ["\(row.icons.count) usable icons after skipping, not 3 to 5"]
        }
    }

    func draw(_ data: AndroidData, collapsed: NotificationView, expanded: NotificationView, into preview: inout PlatformPreview) {
        guard case .success(let row) = icons(data) else { return }
        var view = NotificationView(id: "icons", label: "Collapsed and expanded: one row of icons")
        // Only the background colour and the header's icon colour apply; the layout has no text.
        view.colors.background = collapsed.colors.background
        view.colors.icon = collapsed.colors.icon
        view.iconRow = .init(icons: row.icons, close: close(data))
        preview.views = [view]
        for reason in row.skipped { preview.notes.append("Skipped: \(reason).") }
        preview.notes.append("A tap on an icon does its action; the close button dismisses the notification.")
    }

    func verdict(_ key: String, _ text: String?, data: AndroidData) -> (KeyReading.Verdict, String)? {
        switch key {
        case AdobeKey.items.name:
            switch icons(data) {
            case .success(let row) where (3...5).contains(row.icons.count):
                return (.shows, "\(row.icons.count) icons in a row" + (row.skipped.isEmpty ? "" : " (\(row.skipped.count) skipped)"))
            case .success(let row): return (.uses, "\(row.icons.count) usable icons, not 3 to 5: Android shows nothing")
            case .failure(let refusal): return (.uses, refusal.reason + ": Android shows nothing")
            }
        case AdobeKey.cancelImage.name:
            return text?.isEmpty == false ? (.shows, "the close button's image (a URL or a drawable name)") : (.ignores, "empty: the library's cross shows")
        case AdobeKey.title.name, AdobeKey.body.name, AdobeKey.bodyEx.name: return (.ignores, "the multi-icon template shows no text")
        case AdobeKey.image.name, AdobeKey.largeIcon.name: return (.ignores, "the multi-icon template shows only its icons")
        case AdobeKey.titleColour.name, AdobeKey.bodyColour.name: return (.ignores, "the multi-icon template shows no text to colour")
        default: return nil
        }
    }
}
