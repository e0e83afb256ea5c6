/// One of notificationbuilder's templates beyond basic, carousel and timer: what it needs, what it
/// draws and what it does with each key. The common keys (title, body, colours, tap...) are read by
/// ``AndroidPreviewReader``; a layout answers for its own keys and for common ones it treats apart.
protocol AndroidTemplateLayout {
    /// Whether `adb_title` and `adb_body` are required (all but multi-icon).
    var needsText: Bool { get }
    /// What makes notificationbuilder throw for this template: nothing shows.
    func refusals(_ data: AndroidData) -> [String]
    /// The pictures, from the collapsed and expanded views the common keys give.
    func draw(_ data: AndroidData, collapsed: NotificationView, expanded: NotificationView, into preview: inout PlatformPreview)
    /// What the template does with a key; nil leaves it to the common rules.
    func verdict(_ key: String, _ text: String?, data: AndroidData) -> (KeyReading.Verdict, String)?
}

extension AndroidTemplateLayout {
    var needsText: Bool { true }
}

/// The layouts by `adb_template_type`.
enum AndroidTemplateLayouts {
    static func layout(_ type: String) -> (any AndroidTemplateLayout)? {
        switch type {
        case "input": InputBoxLayout()
        case "zb": ZeroBezelLayout()
        case "cat": ProductCatalogLayout()
        case "rate": ProductRatingLayout()
        case "icon": MultiIconLayout()
        default: nil
        }
    }
}

/// Why notificationbuilder throws on a template's key: the notification is not shown.
struct LayoutRefusal: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
