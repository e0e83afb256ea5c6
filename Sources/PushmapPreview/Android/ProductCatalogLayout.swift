internal import Pushmap
internal import PushmapJSON

/// notificationbuilder's `cat` (product catalog) template: collapsed, the title and body; expanded,
/// one of three items large (its image, title and, in the vertical display, body and price), the
/// three as thumbnails (a tap shows that one large), and a call-to-action button.
struct ProductCatalogLayout: AndroidTemplateLayout {
    let guideline = TextGuideline.android
    static let required = [AdobeKey.ctaText.name, AdobeKey.ctaColour.name, AdobeKey.ctaTextColour.name, AdobeKey.ctaURI.name, AdobeKey.display.name, AdobeKey.items.name]

    /// The three items, or why notificationbuilder refuses them.
    private func items(_ data: AndroidData) -> Result<[NotificationView.ProductCatalog.Item], LayoutRefusal> {
        guard let array = PayloadValues.decodedArray(data.text(AdobeKey.items.name)) else {
            return .failure(LayoutRefusal("adb_items is not a JSON array"))
        }
        var items: [NotificationView.ProductCatalog.Item] = []
        for value in array {
            // org.json's getString: every field present, numbers and booleans read as their text.
            func field(_ name: String) -> String? {
                guard let field = value[name], !field.isNull, field.arrayValue == nil, field.objectValue == nil else { return nil }
                return field.stringValue ?? PayloadValues.display(field)
            }
            guard let title = field("title"), let body = field("body"), let image = field("img"), let price = field("price"), let uri = field("uri") else {
                return .failure(LayoutRefusal("3 catalog items, each with title, body, img, price and uri, are required"))
            }
            items.append(.init(title: guideline.title(title), body: guideline.body(body), price: price, image: image, uri: uri))
        }
        guard items.count == 3 else { return .failure(LayoutRefusal("3 catalog items are required, not \(items.count)")) }
        if let bad = items.first(where: { !AndroidData.isURL($0.image) }) {
            return .failure(LayoutRefusal("catalog image \"\(bad.image)\" is not a URL: every image must download"))
        }
        return .success(items)
    }

    /// `catalogItemIndex`, the SDK's own key for the item shown large: nil when absent or not a number (the first shows).
    private func chosenIndex(_ data: AndroidData) -> Int64? {
        PayloadValues.integer(data.text("catalogItemIndex"))
    }

    func refusals(_ data: AndroidData) -> [String] {
        var refusals = Self.required.filter { !data.has($0) }.map { "\($0) is missing" }
        if data.has(AdobeKey.items.name), case .failure(let refusal) = items(data) { refusals.append(refusal.reason) }
        if let index = chosenIndex(data), !(0...2).contains(index) {
            refusals.append("catalogItemIndex \(index) is outside 0 to 2: the app crashes (an uncaught IndexOutOfBoundsException)")
        }
        return refusals
    }

    func draw(_ data: AndroidData, collapsed: NotificationView, expanded: NotificationView, into preview: inout PlatformPreview) {
        guard case .success(let items) = items(data) else { return }
        let display = data.text(AdobeKey.display.name) == "vertical" ? "vertical" : "horizontal"
        var base = expanded
        // Expanded, the item's title replaces adb_title; the title and body colours are the collapsed view's only.
        base.body = nil
        base.thumbnail = nil
        base.colors.title = nil
        base.colors.body = nil
        let catalog = NotificationView.ProductCatalog(
            items: items, current: 0, display: display, buttonLabel: data.text(AdobeKey.ctaText.name) ?? "",
            buttonColor: data.text(AdobeKey.ctaColour.name).flatMap(PreviewColor.android),
            buttonTextColor: data.text(AdobeKey.ctaTextColour.name).flatMap(PreviewColor.android))
        let first = Int(chosenIndex(data) ?? 0)
        preview.views = [collapsed]
        // The item shown first, then the others as a thumbnail tap shows them.
        for index in [first] + items.indices.filter({ $0 != first }) {
            var view = base
            view.id = "expanded-item-\(index + 1)"
            view.label = index == first
                ? "Expanded, item \(index + 1) of 3 large (\(display) display)"
                : "Expanded, after a tap on thumbnail \(index + 1) (\(display) display)"
            view.title = items[index].title
            view.catalog = catalog
            view.catalog?.current = index
            preview.views.append(view)
        }
        if display == "horizontal" { preview.notes.append("Horizontal display: an item's body and price are not shown.") }
    }

    func verdict(_ key: String, _ text: String?, data: AndroidData) -> (KeyReading.Verdict, String)? {
        switch key {
        case AdobeKey.ctaText.name: return (.shows, "the call-to-action button's label")
        case AdobeKey.ctaColour.name:
            let (verdict, reason) = AndroidPreviewReader.colorVerdict(text, what: "button colour")
            return (verdict, verdict == .shows ? reason : reason + " (still required)")
        case AdobeKey.ctaTextColour.name:
            let (verdict, reason) = AndroidPreviewReader.colorVerdict(text, what: "button text colour")
            return (verdict, verdict == .shows ? reason : reason + " (still required)")
        case AdobeKey.ctaURI.name: return (.uses, "opened when the button is tapped")
        case AdobeKey.display.name:
            return (.uses, text == "vertical" ? "vertical display: item image, title, body and price" : "not \"vertical\": horizontal display, no item body or price")
        case AdobeKey.items.name:
            switch items(data) {
            case .success:
                let shown = data.text(AdobeKey.display.name) == "vertical" ? "image, title, body, price" : "image and title (horizontal display)"
                return (.shows, "3 catalog items: \(shown); a tap on the large image opens the item's uri")
            case .failure(let refusal): return (.uses, refusal.reason + ": Android shows nothing")
            }
        case AdobeKey.title.name: return (.shows, "title when collapsed (expanded shows the item's title)")
        case AdobeKey.body.name: return (.shows, "body when collapsed")
        case AdobeKey.bodyEx.name: return (.ignores, "the catalog shows no expanded body")
        case AdobeKey.image.name: return (.ignores, "the catalog shows its items' images")
        case AdobeKey.largeIcon.name: return (.shows, "large icon when collapsed")
        case AdobeKey.titleColour.name:
            let (verdict, reason) = AndroidPreviewReader.colorVerdict(text, what: "title colour")
            return (verdict, verdict == .shows ? reason + ", collapsed only" : reason)
        case AdobeKey.bodyColour.name:
            let (verdict, reason) = AndroidPreviewReader.colorVerdict(text, what: "body colour")
            return (verdict, verdict == .shows ? reason + ", collapsed only" : reason)
        case "catalogItemIndex":
            guard let index = chosenIndex(data) else { return (.ignores, "not a whole number: the first item shows") }
            return (0...2).contains(index)
                ? (.uses, "an SDK key (never send it): item \(index + 1) shows first")
                : (.uses, "an SDK key (never send it): outside 0 to 2, the app crashes")
        default: return nil
        }
    }
}
