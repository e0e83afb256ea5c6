/// Collects the findings of one check run, placing each at the intent path or the payload path as
/// the checker was asked to, under the name of the rule that is running.
struct CheckReport {
    let platform: Platform
    let intentPaths: Bool
    /// Epoch seconds that "already past" is measured against, for rules run inside other rules
    /// (an APNS request inside an FCM message).
    var now: Int64 = 0
    private(set) var diagnostics: [Diagnostic] = []
    /// The rule whose findings are being reported (see ``run(_:on:scope:)``).
    private var rule: StaticString = ""
    /// Where the checked part lies in the whole document (`$.payload` for an APNS request's
    /// payload): the rules write paths from `$`, and this is put in front of them.
    private var base: String?

    init(platform: Platform, intentPaths: Bool) {
        self.platform = platform
        self.intentPaths = intentPaths
    }

    /// Runs each rule of `rules` that applies to `scope` on `subject`, in order.
    mutating func run<Rules: RuleList>(_ rules: Rules, on subject: Rules.Subject, scope: RuleScope = .always) {
        rules.run(subject, scope: scope, &self)
    }

    /// Runs `rule` on `subject` when it applies to `scope`, its findings under its name. A rule
    /// may run a list of its own (on each element of a value): the name in force comes back after.
    @inline(__always)
    mutating func apply<Rule: CheckRule>(_ rule: Rule.Type, to subject: Rule.Subject, scope: RuleScope) {
        guard !Rule.scope.isDisjoint(with: scope) else { return }
        let outer = self.rule
        self.rule = Rule.name
        Rule.check(subject, &self)
        self.rule = outer
    }

    /// Runs `body` with the payload paths of its findings placed under `base` (a JSON path).
    mutating func within(_ base: String, _ body: (inout CheckReport) -> Void) {
        let outer = self.base
        self.base = outer.map { $0 + base.dropFirst() } ?? base
        body(&self)
        self.base = outer
    }

    /// A finding under the rule `rule`, for checks whose rules are data (``APNSModel``) rather
    /// than types.
    mutating func add(_ severity: Diagnostic.Severity, rule: StaticString, _ location: CheckLocation, _ message: CheckMessage) {
        let outer = self.rule
        self.rule = rule
        add(severity, location, message.text)
        self.rule = outer
    }

    /// A finding whose severity the rule works out (a key another makes unread only warns).
    mutating func add(_ severity: Diagnostic.Severity, _ location: CheckLocation, _ message: CheckMessage) {
        add(severity, location, message.text)
    }

    mutating func error(_ location: CheckLocation, _ message: CheckMessage) {
        add(.error, location, message.text)
    }

    mutating func warning(_ location: CheckLocation, _ message: CheckMessage) {
        add(.warning, location, message.text)
    }

    /// A payload over its platform's limit by `bytesOver` bytes: an error that says by how much.
    mutating func oversize(_ location: CheckLocation, _ message: CheckMessage, bytesOver: Int) {
        add(.error, location, message.text)
        diagnostics[diagnostics.count - 1].bytesOver = bytesOver
    }

    /// A payload over a limit the platform may not hold it to: a warning, with the bytes to save
    /// to be sure, which a campaign cuts as it does for an error.
    mutating func oversizeWarning(_ location: CheckLocation, _ message: CheckMessage, bytesOver: Int) {
        add(.warning, location, message.text)
        diagnostics[diagnostics.count - 1].bytesOver = bytesOver
    }

    /// An error under a rule name of its own: for a walk whose findings are of several kinds
    /// (``FCMFieldWalk``).
    mutating func error(_ location: CheckLocation, _ message: CheckMessage, rule: StaticString) {
        let outer = self.rule
        self.rule = rule
        add(.error, location, message.text)
        self.rule = outer
    }

    /// An error that says more of a fault an earlier, general rule found at the same payload path
    /// (a template's category of the wrong type, which the APNS walk only warns of): it takes that
    /// finding's place, so the fault has one finding, the one that tells its whole effect.
    mutating func errorInstead(_ location: CheckLocation, _ message: CheckMessage) {
        let payload = base.map { $0 + location.payload.dropFirst() } ?? location.payload
        diagnostics.removeAll { $0.payloadPath == payload }
        add(.error, location, message.text)
    }

    private mutating func add(_ severity: Diagnostic.Severity, _ location: CheckLocation, _ message: String) {
        // Translating reports at the intent field the user wrote; validating a payload has no intent.
        let payload = base.map { $0 + location.payload.dropFirst() } ?? location.payload
        let path = intentPaths ? (location.intent ?? payload) : payload
        diagnostics.append(
            Diagnostic(severity, path: path, rule: ValueFormat.text(rule), message: message, platform: platform, payloadPath: payload))
    }
}
