@_spi(Engine) internal import PushmapJSON

/// One kind of finding: the name its diagnostics carry (`android-color`), the cases it applies
/// to, and the function that looks for it. Each platform's checks are a list of these, declared
/// once with ``RuleListBuilder`` and walked in order by ``CheckReport/run(_:on:scope:)``: the
/// list's order is the order of the findings.
///
/// A rule is a type, and a list is a chain of generic values built from the types (as
/// Hummingbird builds its middleware): walking one compiles to the rules' calls in order, with
/// no array, closure or reference count between them.
protocol CheckRule<Subject> {
    associatedtype Subject
    static var name: StaticString { get }
    /// The cases the rule applies to; ``RuleScope/always`` unless it says otherwise.
    static var scope: RuleScope { get }
    static func check(_ subject: Subject, _ report: inout CheckReport)
}

extension CheckRule {
    static var scope: RuleScope { .always }
}

/// Rules in order, all about one kind of subject.
protocol RuleList<Subject> {
    associatedtype Subject
    func run(_ subject: Subject, scope: RuleScope, _ report: inout CheckReport)
}

/// A list of one rule.
struct SingleRule<Rule: CheckRule>: RuleList {
    @inline(__always)
    func run(_ subject: Rule.Subject, scope: RuleScope, _ report: inout CheckReport) {
        report.apply(Rule.self, to: subject, scope: scope)
    }
}

/// A list followed by one more.
struct RuleSequence<First: RuleList, Second: RuleList>: RuleList where First.Subject == Second.Subject {
    let first: First
    let second: Second

    @inline(__always)
    func run(_ subject: First.Subject, scope: RuleScope, _ report: inout CheckReport) {
        first.run(subject, scope: scope, &report)
        second.run(subject, scope: scope, &report)
    }
}

/// Builds a list from rule types written one a line: `LinkType.self`.
@resultBuilder
enum RuleListBuilder {
    static func buildPartialBlock<Rule: CheckRule>(first: Rule.Type) -> SingleRule<Rule> {
        SingleRule()
    }

    static func buildPartialBlock<Rules: RuleList, Rule: CheckRule>(accumulated: Rules, next: Rule.Type) -> RuleSequence<Rules, SingleRule<Rule>>
    where Rules.Subject == Rule.Subject {
        RuleSequence(first: accumulated, second: SingleRule())
    }
}

/// The cases a rule applies to, as bits: a rule runs when the case's bits and its own meet, and
/// is skipped otherwise. The client rules use the template bits; the `aps` and data-map member
/// rules, the bits of what the member holds.
struct RuleScope: OptionSet, Sendable {
    let rawValue: UInt32

    static let always = RuleScope(rawValue: .max)

    // The template a client reads the payload as.
    static let plain = RuleScope(rawValue: 1 << 0)
    static let basic = RuleScope(rawValue: 1 << 1)
    static let carousel = RuleScope(rawValue: 1 << 2)
    static let timer = RuleScope(rawValue: 1 << 3)
    /// A template type none of Adobe's SDKs draws.
    static let otherTemplate = RuleScope(rawValue: 1 << 4)
    // The templates only Android draws.
    static let inputBox = RuleScope(rawValue: 1 << 20)
    static let zeroBezel = RuleScope(rawValue: 1 << 21)
    static let catalog = RuleScope(rawValue: 1 << 22)
    static let rating = RuleScope(rawValue: 1 << 23)
    static let multiIcon = RuleScope(rawValue: 1 << 24)
    static let androidOnlyTemplate: RuleScope = [.inputBox, .zeroBezel, .catalog, .rating, .multiIcon]
    /// The templates iOS does not draw.
    static let notIOSTemplate: RuleScope = [.otherTemplate, .androidOnlyTemplate]
    static let anyTemplate: RuleScope = [.basic, .carousel, .timer, .otherTemplate, .androidOnlyTemplate]
    /// The templates iOS renders.
    static let iOSTemplate: RuleScope = [.basic, .carousel, .timer]

    /// The scope of a payload whose `adb_template_type` is `template` (nil: none), as the
    /// template descriptions give it.
    static func template(_ template: UnsafeRawBufferPointer?) -> RuleScope {
        guard let template else { return .plain }
        let print = KeyPrint(bytes: template)
        for entry in BuiltinTemplates.scopesByType where entry.print == print { return entry.scope }
        return .otherTemplate
    }
}
