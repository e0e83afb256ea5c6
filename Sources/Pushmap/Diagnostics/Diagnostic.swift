public import PushmapJSON

/// One finding about an intent or a payload: its severity, where it comes from, the rule it
/// applies and a one-line reason.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How bad a finding is. An error stops the translation; a warning is reported beside the payload.
    public struct Severity: Hashable, Sendable, Comparable, CustomStringConvertible {
        /// `warning` or `error`.
        package let name: String
        let rank: Int
        /// The phone shows the notification, with something ignored or degraded.
        public static let warning = Severity(name: "warning", rank: 0)
        /// The platform refuses the request, or the phone shows nothing or the wrong thing.
        public static let error = Severity(name: "error", rank: 1)
        public var description: String { name }
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// How bad the finding is.
    public var severity: Severity
    /// The JSON path the finding comes from: in the intent when translating (`$.carousel.items[1]`),
    /// in the payload when validating one.
    public var path: String
    /// A short, stable name of the rule, such as `unknown-field` or `fcm-data-string`.
    public var rule: String
    /// One line saying what is wrong and, where it helps, what the phone does about it.
    public var message: String
    /// The platform whose payload or client the finding concerns, if only one.
    public var platform: Platform?
    /// Where in the payload the finding lies, when it differs from `path`.
    public var payloadPath: String?
    /// The line of a team's script that wrote the value, `mappings/eta.lua:12`, when one did: the
    /// translation then fails as the script's (``TranslationError/Kind/scriptFailed``).
    public var script: String?
    /// For a size finding (`fcm-size`, `apns-size`): how many bytes the payload is over its
    /// platform's limit, which a campaign's cut must save; on a warning too (FCM's count,
    /// which Google does not spell out), since a campaign cuts to be sure.
    package var bytesOver: Int?

    package init(
        _ severity: Severity, path: String, rule: String, message: String,
        platform: Platform? = nil, payloadPath: String? = nil
    ) {
        self.severity = severity
        self.path = path
        self.rule = rule
        self.message = message
        self.platform = platform
        self.payloadPath = payloadPath
    }

    package static func error(_ path: String, _ rule: String, _ message: String, platform: Platform? = nil, payloadPath: String? = nil) -> Diagnostic {
        Diagnostic(.error, path: path, rule: rule, message: message, platform: platform, payloadPath: payloadPath)
    }

    package static func warning(_ path: String, _ rule: String, _ message: String, platform: Platform? = nil, payloadPath: String? = nil) -> Diagnostic {
        Diagnostic(.warning, path: path, rule: rule, message: message, platform: platform, payloadPath: payloadPath)
    }

    /// A number whose digits do not all survive reading it: a warning, since the text is valid
    /// JSON and the platforms take it, but what is sent is the number it reads as.
    package static func inexactNumber(_ number: JSONParser.InexactNumber) -> Diagnostic {
        .warning(number.path.description, "inexact-number", """
            \(number.text) has more digits than a number keeps (a 64-bit integer, or a double's 15 to 17): \
            it is read as \(number.value); write it as a string to keep every digit
            """)
    }

    /// A key an APNS payload's object gives twice (`error`, the strict parse's): no Apple page
    /// says whether APNs refuses it or which value the device reads, so a warning, and the last
    /// value is the one checked, as most JSON readers keep it.
    package static func repeatedAPNSKey(_ error: JSONParseError) -> Diagnostic {
        .warning(error.path.description, "apns-duplicate-key", """
            \(error.line):\(error.column): \(error.reason): Apple does not say whether APNs refuses the payload \
            or which value the device reads (the last is checked here); give each key once
            """, platform: .apns)
    }

    /// Text that is not JSON: where (`line:column` and the JSON path) and why.
    @_spi(Tools) public static func jsonSyntax(_ error: JSONParseError) -> Diagnostic {
        .error(error.path.description, "json-syntax", "\(error.line):\(error.column): \(error.reason)")
    }

    /// `error: $.title: message [rule]`, with the platform and payload location when known.
    public var description: String {
        var text = "\(severity): \(path): \(message) [\(rule)"
        if let platform { text += ", \(platform)" }
        if let payloadPath, payloadPath != path { text += " at \(payloadPath)" }
        if let script { text += ", written by \(script)" }
        return text + "]"
    }
}

extension Array where Element == Diagnostic {
    /// Whether any finding is an error.
    public var hasErrors: Bool { contains { $0.severity == .error } }

    /// Appends `findings`, or takes their list as it is when this one is empty: a translation's
    /// lists are joined without a new list or a copy when only one has anything (~800
    /// instructions a batch line, where the basic seed has one script and one check finding).
    mutating func join(_ findings: consuming [Diagnostic]) {
        if isEmpty { self = findings } else { self += findings }
    }

    /// One finding for one fault: a finding made the same for each platform (a template's
    /// warning about the intent, said by both platforms' runs) is kept once, with no platform,
    /// where the first one was (the twenty-fifth audit, F4: 23 messages came twice).
    mutating func mergePlatforms() {
        guard count > 1 else { return }
        var index = 1
        while index < count {
            let finding = self[index]
            if let platform = finding.platform,
                let first = self[..<index].firstIndex(where: { $0.platform != nil && $0.platform != platform && $0.samePlatformless(as: finding) })
            {
                self[first].platform = nil
                remove(at: index)
            } else {
                index += 1
            }
        }
    }

    /// The findings a rule makes in one translation past which the rest are counted, not said.
    static var repeatsSaid: Int { 20 }

    /// One fault, one finding: a rule that fails on more than ``repeatsSaid`` values of one
    /// platform's payload (a loop that wrote 3,000 numbers into a data map gave 3,001 lines: the
    /// twenty-sixth audit, F22) says the first of them, then one finding with how many more.
    /// Scripts' own findings (rule `script`) each say something of their own, and are all said.
    mutating func collapseRepeats() {
        guard count > Self.repeatsSaid else { return }
        // Per severity, platform and rule: how many were met, and where the count of the rest is.
        var said: [String: (count: Int, more: Int?)] = [:]
        var more: [(finding: Diagnostic, count: Int)] = []
        var kept: [Diagnostic] = []
        kept.reserveCapacity(count)
        for finding in self {
            if finding.rule == "script" {
                kept.append(finding)
                continue
            }
            let key = "\(finding.severity)|\(finding.platform?.name ?? "")|\(finding.rule)"
            var group = said[key, default: (0, nil)]
            group.count += 1
            if group.count <= Self.repeatsSaid {
                kept.append(finding)
            } else if let index = group.more {
                more[index].count += 1
            } else {
                group.more = more.count
                more.append((finding, 1))
            }
            said[key] = group
        }
        guard !more.isEmpty else { return }
        for (finding, count) in more {
            kept.append(
                Diagnostic(
                    finding.severity, path: "$", rule: finding.rule,
                    message: "and \(count) more finding\(count == 1 ? "" : "s") of this rule like those above, each on a value of its own",
                    platform: finding.platform))
        }
        self = kept
    }
}

extension Diagnostic {
    /// Whether the two say the same but for their platform.
    fileprivate func samePlatformless(as other: Diagnostic) -> Bool {
        severity == other.severity && path == other.path && rule == other.rule && message == other.message
            && payloadPath == other.payloadPath && script == other.script && bytesOver == other.bytesOver
    }
}
