internal import PushmapJSON

/// What Adobe's Android notificationbuilder does with the templates only Android draws: input,
/// zb, cat, rate and icon (see `adobe-templates.md`). Run by ``AndroidClientChecks`` for a payload
/// of one of these types, after the rules every template shares (required title and body, link
/// type, colours...).
enum AndroidTemplateRules {
    /// The action types the library's `ActionType.valueOf` accepts.
    static let actionTypes: [StaticString] = ["DEEPLINK", "WEBURL", "DISMISS", "OPENAPP", "NONE"]
    static let catalogItemCount = 3
    static let catalogItemFields: [StaticString] = ["title", "body", "img", "price", "uri"]
    static let collapsedStyles: [StaticString] = ["img", "txt"]
    static let catalogDisplays: [StaticString] = ["vertical", "horizontal"]
    /// The action types that open their uri.
    static let uriActionTypes: [StaticString] = ["WEBURL", "DEEPLINK"]
    static let ratingActionCount = 3...5
    static let iconCount = 3...5

    /// What the rules read: the data keys, and the template's JSON-encoded list as parsed.
    struct Payload {
        let keys: CustomKeys
        let scope: RuleScope
        /// adb_items (cat, icon) or adb_rate_act (rate).
        let list: EncodedJSON.Value
    }

    /// Runs the rules of the payload's template.
    static func run(_ keys: CustomKeys, scope: RuleScope, into report: inout CheckReport) {
        let listKey: TemplateKey? = scope == .catalog ? .catalogItems : scope == .multiIcon ? .iconItems : scope == .rating ? .ratingActions : nil
        EncodedJSON.withValue(listKey?.text(in: keys)) { list in
            report.run(rules, on: Payload(keys: keys, scope: scope, list: list), scope: scope)
        }
    }

    @RuleListBuilder static var rules: some RuleList<Payload> {
        RequiredKey.self
        InternalKey.self
        ZeroBezelImage.self
        ZeroBezelStyle.self
        CatalogItems.self
        CatalogLayout.self
        CatalogButtonColour.self
        RatingActions.self
        RatingImage.self
        RatingIcons.self
        IconItems.self
        IgnoredKey.self
    }

    struct RequiredKey: CheckRule {
        static var name: StaticString { "android-template-required-key" }

        /// Each template's required keys, from its description.
        static let required: [(scope: RuleScope, template: String, keys: [TemplateKey])] = BuiltinTemplates.all.compactMap { template in
            guard let type = template.type, !template.androidRequires.isEmpty else { return nil }
            return (template.scope, type, template.androidRequires.map { TemplateKey($0, of: template) })
        }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            for (scope, template, keys) in required where scope == payload.scope {
                for key in keys where key.value(in: payload.keys) == nil {
                    report.error(
                        key.location(in: payload.keys),
                        "\(key.name) is required by Android's \(template) template code: without it the notification is not shown")
                }
            }
        }
    }

    struct InternalKey: CheckRule {
        static var name: StaticString { "android-sdk-internal-key" }
        static var scope: RuleScope { .catalogOrRating }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            let key: TemplateKey = payload.scope == .catalog ? .catalogItemIndex : .ratingSelected
            guard let value = key.text(in: payload.keys) else { return }
            // The library takes it as the item or star already chosen; out of range, it throws an
            // exception Campaign Classic does not catch.
            let count = payload.scope == .catalog ? catalogItemCount : payload.list.node?.elements?.count ?? 0
            // (A negative star is "none chosen"; a negative item throws.)
            if let index = ValueFormat.integer(value), index >= count || (index < 0 && payload.scope == .catalog) {
                report.error(
                    key.location(in: payload.keys),
                    "\(key.name) \(ValueFormat.quoted(value)) is the SDK's own key and out of range (0 to \(count - 1)): the app crashes; never send it")
                return
            }
            report.warning(
                key.location(in: payload.keys),
                "\(key.name) is the SDK's own key, which it also reads from push data: it pre-selects what the user has not chosen; never send it")
        }
    }

    struct ZeroBezelImage: CheckRule {
        static var name: StaticString { "android-zero-bezel-image" }
        static var scope: RuleScope { .zeroBezel }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            let keys = payload.keys
            guard let image = keys.text(.image) else {
                report.warning(keys.location(.image), "a zero bezel notification without adb_image shows its text only")
                return
            }
            guard !isURL(image) else { return }
            report.warning(
                keys.location(.image),
                "adb_image \(ValueFormat.quoted(image)) is not a URL: the zb template only downloads images (no drawable names), so Android shows the text only")
        }
    }

    struct ZeroBezelStyle: CheckRule {
        static var name: StaticString { "android-zero-bezel-style" }
        static var scope: RuleScope { .zeroBezel }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            let key = TemplateKey.collapsedStyle
            guard let style = key.text(in: payload.keys), !ValueFormat.isOne(of: collapsedStyles, style) else { return }
            report.warning(key.location(in: payload.keys), "adb_col_style \(ValueFormat.quoted(style)) is not img or txt: Android uses txt")
        }
    }

    struct CatalogItems: CheckRule {
        static var name: StaticString { "android-catalog-items" }
        static var scope: RuleScope { .catalog }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            let location = TemplateKey.catalogItems.location(in: payload.keys)
            if case .absent = payload.list { return }
            guard let items = payload.list.node?.elements else {
                report.error(location, "adb_items is not a JSON-encoded array of {title, body, img, price, uri}: Android shows no catalog")
                return
            }
            guard items.count == catalogItemCount else {
                report.error(location, "the catalog has \(items.count) item(s); Android shows exactly \(catalogItemCount) and nothing otherwise")
                return
            }
            for (index, item) in items.enumerated() {
                let at = location.index(index)
                guard item.isObject else {
                    report.error(at, "catalog item \(index) is not an object {title, body, img, price, uri}: Android shows no catalog")
                    continue
                }
                for field in catalogItemFields where !isScalar(item[field]) {
                    report.error(
                        at.member(ValueFormat.text(field), intentKey: ValueFormat.equals(field, "img") ? "image" : nil),
                        "catalog item \(index) has no \(field): Android needs all five fields of every item and shows no catalog")
                }
                if let image = item["img"]?.utf8, !isURL(image) {
                    report.error(
                        at.member("img", intentKey: "image"),
                        "catalog item \(index)'s img \(ValueFormat.quoted(image)) is not a URL: Android must download all three images and shows no catalog otherwise")
                }
            }
        }
    }

    struct CatalogLayout: CheckRule {
        static var name: StaticString { "android-catalog-layout" }
        static var scope: RuleScope { .catalog }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            let key = TemplateKey.display
            guard let display = key.text(in: payload.keys), !ValueFormat.isOne(of: catalogDisplays, display) else { return }
            report.warning(key.location(in: payload.keys), "adb_display \(ValueFormat.quoted(display)) is not vertical or horizontal: Android uses horizontal")
        }
    }

    struct CatalogButtonColour: CheckRule {
        static var name: StaticString { "android-color" }
        static var scope: RuleScope { .catalog }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            for key in [TemplateKey.ctaColour, .ctaTextColour] {
                guard let colour = key.text(in: payload.keys), !ValueFormat.isHexColour(colour) else { continue }
                report.warning(
                    key.location(in: payload.keys),
                    "\(key.name) \(ValueFormat.quoted(colour)) is not 6 or 8 hex digits (RRGGBB or AARRGGBB, no #): the phone ignores the colour")
            }
        }
    }

    struct RatingActions: CheckRule {
        static var name: StaticString { "android-rating-actions" }
        static var scope: RuleScope { .rating }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            let location = TemplateKey.ratingActions.location(in: payload.keys)
            if case .absent = payload.list { return }
            guard let actions = payload.list.node?.elements, actions.count > 0 else {
                report.error(location, "adb_rate_act is not a JSON-encoded array of {type, uri}: Android shows no rating")
                return
            }
            // One bad action and Android drops them all.
            for (index, action) in actions.enumerated() {
                if let problem = actionProblem(action, uriRequired: true) {
                    report.error(location.index(index), "rating action \(index) \(problem): one bad action and Android shows no rating at all")
                }
            }
            if !ratingActionCount.contains(actions.count) {
                report.error(location, "the rating has \(actions.count) action(s); Android needs 3 to 5, one per star, and shows nothing otherwise")
            }
        }
    }

    struct RatingImage: CheckRule {
        static var name: StaticString { "android-rating-image" }
        static var scope: RuleScope { .rating }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            guard let image = payload.keys.text(.image), !isURL(image) else { return }
            report.warning(
                payload.keys.location(.image),
                "adb_image \(ValueFormat.quoted(image)) is not a URL: the rate template only downloads images (no drawable names), so Android hides it")
        }
    }

    /// A key the template's builder never reads (adobe-templates.md 3.4: only the basic and legacy
    /// builders add buttons and remind-later; a layout with no view for a key drops it): the
    /// notification shows without it, a warning. pushmap's own templates leave these keys out,
    /// with the intent's warning, so this finds them in a payload written otherwise (the
    /// thirty-fourth audit, F9: `validate` was silent where `translate` warned).
    struct IgnoredKey: CheckRule {
        static var name: StaticString { "android-template-ignored-key" }
        static var scope: RuleScope { .androidOnlyTemplate }

        /// No Android-only template has buttons or remind-later (its keys one fault, said at the
        /// first there).
        static let everywhere: [[AdobeKey]] = [[.actions], [.remindText, .remindAt, .remindAfter]]
        /// The keys a template's layout has no view for, by template.
        static let byTemplate: [(scope: RuleScope, keys: [AdobeKey])] = [
            (.zeroBezel, [.largeIcon]),
            (.catalog, [.bodyEx, .image]),
            (.multiIcon, [.bodyEx, .image, .largeIcon, .titleColour, .bodyColour]),
        ]

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            let template = BuiltinTemplates.all.first { $0.scope == payload.scope }
            let own = (byTemplate.first { $0.scope == payload.scope }?.keys ?? []).map { [$0] }
            for group in everywhere + own {
                guard let found = group.lazy.map({ TemplateKey(word: $0.name, intent: nil) }).first(where: { $0.index(in: payload.keys) != nil }) else { continue }
                let what = group.count > 1 ? "remind-later (\(found.name))" : found.name
                report.warning(
                    found.location(in: payload.keys),
                    "\(what) is not read by Android's \(template?.type ?? "") template code: the notification shows without it")
            }
        }
    }

    /// A star icon is a URL to download or a drawable's name: an empty one is neither. The
    /// unselected icon is set when the notification is built, which then fails; the selected one
    /// only once a star is tapped, whose rebuild then fails (adobe-templates.md 4.4; the
    /// thirty-fourth audit, F6).
    struct RatingIcons: CheckRule {
        static var name: StaticString { "android-rating-icon" }
        static var scope: RuleScope { .rating }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            if let icon = TemplateKey.unselectedIcon.text(in: payload.keys), icon.allSatisfy({ $0 == 0x20 }) {
                report.error(
                    TemplateKey.unselectedIcon.location(in: payload.keys),
                    "adb_rate_unselected_icon is empty, neither a URL nor a drawable name: Android cannot draw the stars and shows nothing")
            }
            if let icon = TemplateKey.selectedIcon.text(in: payload.keys), icon.allSatisfy({ $0 == 0x20 }) {
                report.warning(
                    TemplateKey.selectedIcon.location(in: payload.keys),
                    "adb_rate_selected_icon is empty, neither a URL nor a drawable name: the notification shows, but tapping a star rebuilds it with no icon and it fails")
            }
        }
    }

    struct IconItems: CheckRule {
        static var name: StaticString { "android-icon-items" }
        static var scope: RuleScope { .multiIcon }

        static func check(_ payload: Payload, _ report: inout CheckReport) {
            let location = TemplateKey.iconItems.location(in: payload.keys)
            if case .absent = payload.list { return }
            guard let items = payload.list.node?.elements, items.allSatisfy(\.isObject) else {
                report.error(location, "adb_items is not a JSON-encoded array of objects {img, type, uri}: Android shows no icons")
                return
            }
            // Android skips a bad icon and counts the rest: a warning at each skipped one while
            // enough remain, else the count's one error, naming them.
            var skipped: [(index: Int, problem: String)] = []
            for (index, item) in items.enumerated() {
                if let problem = isNonEmptyString(item["img"]) ? actionProblem(item, uriRequired: false, emptyTypeAllowed: true) : "has no img" {
                    skipped.append((index, problem))
                }
            }
            let kept = items.count - skipped.count
            guard iconCount.contains(kept) else {
                let named = skipped.isEmpty ? "" : " (\(skipped.map { "icon \($0.index) \($0.problem)" }.joined(separator: ", ")))"
                report.error(location, "\(kept) icon(s) are usable\(named); Android needs 3 to 5 and shows nothing otherwise")
                return
            }
            for (index, problem) in skipped {
                report.warning(location.index(index), "icon \(index) \(problem): Android leaves it out")
            }
        }
    }

    /// What is wrong with a {type, uri} action, as Android reads it, or nil. `uriRequired`: a
    /// WEBURL or DEEPLINK action needs the key, even empty (rating); otherwise a non-empty uri.
    private static func actionProblem(_ action: EncodedNode, uriRequired: Bool, emptyTypeAllowed: Bool = false) -> String? {
        guard action.isObject else { return "is not an object {type, uri}" }
        guard let type = action["type"]?.utf8 else { return "has no type" }
        if type.isEmpty && emptyTypeAllowed { return nil }
        guard ValueFormat.isOne(of: actionTypes, type) else {
            return "has type \(ValueFormat.quoted(type)), not exactly DEEPLINK, WEBURL, DISMISS, OPENAPP or NONE"
        }
        guard ValueFormat.isOne(of: uriActionTypes, type) else { return nil }
        let uri = action["uri"]
        let missing = uriRequired ? uri?.utf8 == nil : !isNonEmptyString(uri)
        return missing ? "is \(String(decoding: type, as: UTF8.self)) without a uri" : nil
    }

    /// A value `JSONObject.getString` reads: a string, number or Boolean.
    private static func isScalar(_ value: EncodedNode?) -> Bool {
        guard let value else { return false }
        return value.utf8 != nil || (!value.isObject && value.elements == nil && value.typeName != "null")
    }

    private static func isNonEmptyString(_ value: EncodedNode?) -> Bool {
        !(value?.utf8?.isEmpty ?? true)
    }

    /// A URL `java.net.URL` accepts, by its scheme: http, https, ftp, file or jar. A drawable name
    /// or an app scheme (`myapp://`) is not one.
    static func isURL(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let scheme = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<colon]), as: UTF8.self).lowercased()
        return ["http", "https", "ftp", "file", "jar"].contains(scheme)
    }
}

extension RuleScope {
    static let catalogOrRating: RuleScope = [.catalog, .rating]
}

/// The registration in ``AndroidClientChecks``'s list: the rules above, for the five templates.
struct AndroidOnlyTemplates: CheckRule {
    static var name: StaticString { "android-template" }
    static var scope: RuleScope { .androidOnlyTemplate }

    static func check(_ payload: AndroidClientChecks.Payload, _ report: inout CheckReport) {
        AndroidTemplateRules.run(payload.keys, scope: RuleScope.template(payload.template), into: &report)
    }
}
