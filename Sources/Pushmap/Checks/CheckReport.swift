/// Collects the findings of one check run, placing each at the intent path or the payload path as
/// the checker was asked to.
struct CheckReport {
    let platform: Platform
    let intentPaths: Bool
    private(set) var diagnostics: [Diagnostic] = []

    init(platform: Platform, intentPaths: Bool) {
        self.platform = platform
        self.intentPaths = intentPaths
    }

    mutating func error(_ location: CheckLocation, _ rule: String, _ message: CheckMessage) {
        add(.error, location, rule, message.text)
    }

    mutating func warning(_ location: CheckLocation, _ rule: String, _ message: CheckMessage) {
        add(.warning, location, rule, message.text)
    }

    private mutating func add(_ severity: Diagnostic.Severity, _ location: CheckLocation, _ rule: String, _ message: String) {
        // Translating reports at the intent field the user wrote; validating a payload has no intent.
        let path = intentPaths ? (location.intent ?? location.payload) : location.payload
        diagnostics.append(Diagnostic(severity, path: path, rule: rule, message: message, platform: platform, payloadPath: location.payload))
    }
}
