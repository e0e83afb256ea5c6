/// Where each phone cuts text: the "recommended max # of characters" of Adobe's template
/// pages. Android's templates all say about 35 for a one-line title and about 110 for the
/// description; iOS says 70 and 600, or 50 and 450 for the timer, whose countdown takes room.
/// The plain (messaging SDK) pages give no figure, so plain notifications are held to the same
/// figures as basic on each platform.
package struct TextGuideline: Sendable, Hashable {
    /// Characters of a title.
    package var title: Int
    /// Characters of a body, expanded body or caption.
    package var body: Int

    package static let android = TextGuideline(title: 35, body: 110)
    package static let iOS = TextGuideline(title: 70, body: 600)
    package static let iOSTimer = TextGuideline(title: 50, body: 450)

    package func title(_ text: String?) -> PreviewText? { text.map { PreviewText($0, limit: title) } }
    package func body(_ text: String?) -> PreviewText? { text.map { PreviewText($0, limit: body) } }
}
