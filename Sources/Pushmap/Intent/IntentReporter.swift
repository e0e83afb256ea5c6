internal import PushmapJSON

/// What ``IntentCheck``'s walk does with a problem: stop at once, or note it and go on.
///
/// The walk tells the reporter where it is (``enter(_:)-(UnsafeRawBufferPointer)``, ``leave()``)
/// so that one that explains can name the JSON path; one that stops ignores it at no cost.
package protocol IntentReporter {
    /// Whether the walk goes on past a problem to say what it is. False: the first problem ends
    /// the walk, and no message is built.
    static var explains: Bool { get }
    /// The JSON path of the value being walked, as text; read only when ``explains``.
    var path: String { get }
    mutating func enter(_ key: UnsafeRawBufferPointer)
    mutating func enter(_ index: Int)
    mutating func leave()
    /// Notes a problem; called only when ``explains``.
    mutating func add(_ diagnostic: Diagnostic)
    /// Notes where the message's id (a string) lies on the tape.
    mutating func messageID(at position: Int)
}

extension IntentReporter {
    @inline(__always) package mutating func messageID(at position: Int) {}
}

/// The hot path's reporter: a valid intent or not, with no message and no path.
package struct FirstProblem: IntentReporter {
    /// A byte nobody reads, so that each walk's reporter has a stack slot of its own. Empty, the
    /// type had no storage and every `inout` of it one shared placeholder address; ThreadSanitizer,
    /// which instruments `inout` accesses, then reported two threads' checks as a race on that
    /// address. No byte was shared, so no race was real; this silences the report, not a bug.
    private var slot: UInt8 = 0
    /// Where the root's `id` string lies on the tape, once passed.
    package private(set) var messageIDPosition: Int?
    package static var explains: Bool { false }
    package var path: String { "" }
    package init() {}
    @inline(__always) package mutating func enter(_ key: UnsafeRawBufferPointer) {}
    @inline(__always) package mutating func enter(_ index: Int) {}
    @inline(__always) package mutating func leave() {}
    package mutating func add(_ diagnostic: Diagnostic) {}
    package mutating func messageID(at position: Int) { messageIDPosition = position }
}

/// The explaining reporter: every problem, at its JSON path, in the intent's order.
package struct IntentFindings: IntentReporter {
    package static var explains: Bool { true }
    package private(set) var diagnostics: [Diagnostic] = []
    private var at = JSONPath.root
    package init() {}
    package var path: String { at.description }
    package mutating func enter(_ key: UnsafeRawBufferPointer) { at.components.append(.key(String(decoding: key, as: UTF8.self))) }
    package mutating func enter(_ index: Int) { at.components.append(.index(index)) }
    package mutating func leave() { at.components.removeLast() }
    package mutating func add(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }
}
