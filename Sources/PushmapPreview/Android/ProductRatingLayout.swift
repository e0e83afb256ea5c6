internal import Pushmap
internal import PushmapJSON

/// notificationbuilder's `rate` (product rating) template: expanded, a row of 3 to 5 stars drawn
/// with the unselected icon; a tap on star i draws stars 1 to i with the selected icon and adds
/// a confirm button, which does star i's action.
struct ProductRatingLayout: AndroidTemplateLayout {
    /// The stars' actions, or why `adb_rate_act` is refused (one bad entry spoils them all).
    private func actions(_ data: AndroidData) -> Result<[String], LayoutRefusal> {
        guard let text = data.text(AdobeKey.ratingActions.name), !text.isEmpty, let array = PayloadValues.decodedArray(text) else {
            return .failure(.init("adb_rate_act is not a JSON array"))
        }
        var actions: [String] = []
        for (index, entry) in array.enumerated() {
            guard entry.objectValue != nil, let type = entry["type"]?.stringValue, AndroidData.actionTypes.contains(type) else {
                return .failure(.init("adb_rate_act entry \(index + 1) has no type DEEPLINK, WEBURL, DISMISS, OPENAPP or NONE"))
            }
            let uri = entry["uri"]?.stringValue
            if type == "WEBURL" || type == "DEEPLINK", uri == nil {
                return .failure(.init("adb_rate_act entry \(index + 1) is \(type) without a uri"))
            }
            actions.append(AndroidData.action(type: type, uri: uri))
        }
        guard (3...5).contains(actions.count) else { return .failure(.init("adb_rate_act has \(actions.count) ratings, not 3 to 5")) }
        return .success(actions)
    }

    /// `ratingSelected`, the SDK's own key for a star already tapped.
    private func preselected(_ data: AndroidData) -> Int64? { PayloadValues.integer(data.text("ratingSelected")) }

    func refusals(_ data: AndroidData) -> [String] {
        var refusals = [AdobeKey.unselectedIcon.name, AdobeKey.selectedIcon.name, AdobeKey.ratingActions.name].filter { !data.has($0) }.map { "\($0) is missing" }
        if data.has(AdobeKey.ratingActions.name) {
            switch actions(data) {
            case .failure(let refusal): refusals.append(refusal.reason)
            case .success(let actions):
                if let selected = preselected(data), selected >= actions.count || selected < 0 {
                    refusals.append("ratingSelected \(selected) is not a star: the app crashes (an uncaught IndexOutOfBoundsException)")
                }
            }
        }
        return refusals
    }

    func draw(_ data: AndroidData, collapsed: NotificationView, expanded: NotificationView, into preview: inout PlatformPreview) {
        guard case .success(let actions) = actions(data) else { return }
        var expanded = expanded
        let image = data.text(AdobeKey.image.name)
        if AndroidData.isURL(image) { expanded.image = image }
        let rating = NotificationView.StarRating(
            count: actions.count, selected: nil, selectedIcon: data.text(AdobeKey.selectedIcon.name) ?? "",
            unselectedIcon: data.text(AdobeKey.unselectedIcon.name) ?? "", actions: actions)
        expanded.rating = rating
        // A preselected star (the SDK's key) shows from the start; else the top star shows what a tap does.
        let tapped = preselected(data).map(Int.init) ?? actions.count - 1
        var after = expanded
        after.id = "expanded-rated"
        after.label = "Expanded, after a tap on star \(tapped + 1) of \(actions.count)"
        after.rating?.selected = tapped
        // The confirm button's text takes the title colour.
        after.buttons = ["Confirm: \(actions[tapped])"]
        if preselected(data) != nil {
            expanded = after
            expanded.id = "expanded"
            expanded.label = "Expanded, star \(tapped + 1) already selected (ratingSelected)"
            preview.views = [collapsed, expanded]
        } else {
            expanded.label = "Expanded, before a tap"
            preview.views = [collapsed, expanded, after]
        }
        preview.notes.append("A tap on a star draws it and those before it selected and shows a confirm button, which does that star's action.")
    }

    func verdict(_ key: String, _ text: String?, data: AndroidData) -> (KeyReading.Verdict, String)? {
        switch key {
        case AdobeKey.unselectedIcon.name:
            return (.shows, "the stars' icon before a tap (a URL or a drawable name; if neither resolves nothing shows)")
        case AdobeKey.selectedIcon.name:
            return (.shows, "the selected stars' icon after a tap (a URL or a drawable name)")
        case AdobeKey.ratingActions.name:
            switch actions(data) {
            case .success(let actions): return (.shows, "\(actions.count) stars, one action each: " + actions.enumerated().map { "\($0.offset + 1) \($0.element)" }.joined(separator: "; "))
            case .failure(let refusal): return (.uses, refusal.reason + ": Android shows nothing")
            }
        case AdobeKey.image.name:
            return AndroidData.isURL(text) ? (.shows, "image when expanded") : (.ignores, "not a URL: the rating template downloads its image, a drawable name does not work")
        case AdobeKey.titleColour.name:
            let (verdict, reason) = AndroidPreviewReader.colorVerdict(text, what: "title colour")
            return (verdict, verdict == .shows ? reason + ", and the confirm button's text" : reason)
        case "ratingSelected":
            guard let selected = preselected(data) else { return (.ignores, "not a whole number: no star is selected") }
            let count = (try? actions(data).get())?.count ?? 0
            return (0..<Int64(count)).contains(selected)
                ? (.uses, "an SDK key (never send it): star \(selected + 1) shows selected")
                : (.uses, "an SDK key (never send it): not a star, the app crashes")
        default: return nil
        }
    }
}
