internal import PushmapJSON

/// Which script line wrote each key of a translation's payloads and APNS request headers, and the
/// intent path each value came from unchanged: what trace.lua's `trace` found, by part (a
/// platform's payload, or `headers`) and path. Made only for a run whose output failed a check, to
/// put the failure on the line that wrote the value.
struct PayloadBlame {
    struct Entry {
        /// `file.lua:LINE` of the line that wrote the key, when a script line did.
        var writer: String?
        /// The intent path whose value this is, unchanged.
        var origin: String?
        /// The line took the key out: a finding on its absence is that line's.
        var removed = false
    }

    /// By part: a platform's name, or `headers`.
    private var entries: [String: [String: Entry]] = [:]
    /// The intent paths where a table a script passed a built-in as the intent differs from the
    /// intent, with the script line that passed it (the trace's part `lent`).
    private var lentPaths: [(path: String, line: String)] = []
    /// `--fcm-apns` replaced what the fcm mapping wrote at `message.apns`: its writes there are not
    /// what was checked.
    var fcmAPNSReplaced = false

    /// Reads the trace's flat list: part, path, writer (or false), origin (or false; true for a
    /// key taken out).
    init(_ list: [JSONValue]) {
        var index = 0
        while index + 3 < list.count {
            if let part = list[index].stringValue, let path = list[index + 1].stringValue {
                if part == "lent" {
                    if let line = list[index + 2].stringValue { lentPaths.append((path, line)) }
                    index += 4
                    continue
                }
                entries[part, default: [:]][path] = Entry(
                    writer: list[index + 2].stringValue, origin: list[index + 3].stringValue, removed: list[index + 3].boolValue == true)
            }
            index += 4
        }
    }

    /// The entry of the deepest key of `part` at or above `path`, and that key's path: a value
    /// inside a JSON-encoded string (an item of `adb_act`) belongs to the key holding the string.
    private func entry(in part: String, path: String) -> (path: String, entry: Entry)? {
        guard let keys = entries[part] else { return nil }
        if let exact = keys[path] { return (path, exact) }
        var best: (path: String, entry: Entry)?
        for (key, entry) in keys where key.count > (best?.path.count ?? 0) && path.hasPrefix(key) {
            let next = path.utf8.dropFirst(key.utf8.count).first
            if next == UInt8(ascii: ".") || next == UInt8(ascii: "[") { best = (key, entry) }
        }
        return best
    }

    /// The parts of a send-ready APNS request, where they lie in the output: in the APNS request
    /// (`--request`), and in the FCM message with `--fcm-apns`.
    private static let requestParts: [(prefix: String, part: String, inFCM: Bool)] = [
        ("$.payload", "apns", false), ("$.headers", "headers", false),
        ("$.message.apns.payload", "apns", true), ("$.message.apns.headers", "headers", true),
    ]

    /// As ``entry(in:path:)`` in the platform's payload, also for a finding in a send-ready
    /// request, which lies at the apns mapping's payload or the headers it wrote inside it, where
    /// the trace knows them at `$…`; the key's path is given back in the request. Of the two, the
    /// deeper key wrote the value (the fcm mapping wrote `$.message`, the apns mapping what
    /// `--fcm-apns` put inside it); the platform's own on a tie.
    private func located(platform: Platform, path: String) -> (path: String, entry: Entry)? {
        let replaced = fcmAPNSReplaced && platform == .fcm && path.hasPrefix("$.message.apns")
        var best = replaced ? nil : entry(in: platform.name, path: path)
        for (prefix, part, inFCM) in Self.requestParts where path.hasPrefix(prefix) {
            // The fcm mapping's own message.apns is the fcm payload's unless --fcm-apns replaced it.
            if inFCM ? !fcmAPNSReplaced : platform != .apns { continue }
            let rest = path.dropFirst(prefix.count)
            guard rest.isEmpty || rest.first == "." || rest.first == "[",
                  let found = entry(in: part, path: "$" + rest) else { continue }
            let inRequest = prefix + found.path.dropFirst()
            if inRequest.count > best?.path.count ?? 0 { best = (inRequest, found.entry) }
        }
        return best
    }

    /// The rules of a payload's shape, by their names as findings carry them.
    private static let shapeRules: Set<String> = [
        ValueFormat.text(FCMPayloadChecks.MessageObject.name), ValueFormat.text(APNSPayloadChecks.ApsObject.name),
    ]

    /// The checks' findings with the team's lines that wrote their values (`teamScripts`: the
    /// paths of the scripts that are not pushmap's own), placed at the payload path unless the
    /// value is the intent's unchanged; and, when such a line wrote a value an error is about,
    /// the script failure the run ends with.
    /// - Parameter returner: the team's template whose mappings returned the payloads: a finding
    ///   in a payload no line wrote a key of (a mapping returned `{}`, so the key lacking is the
    ///   root's) is that script's, with no line to name.
    /// - Parameter present: whether the payload checked for a platform has a value at a path.
    func attribute(
        _ findings: [Diagnostic], teamScripts: Set<String>, returner: String? = nil, present: (Platform, String) -> Bool = { _, _ in false }
    ) -> (findings: [Diagnostic], scriptError: ScriptError?) {
        var scriptError: ScriptError?
        let attributed = findings.map { finding -> Diagnostic in
            guard let platform = finding.platform, let payloadPath = finding.payloadPath else { return finding }
            guard let (key, entry) = located(platform: platform, path: payloadPath) else {
                // A payload's shape (no object `message`, no object `aps`) is what the mapping
                // returned, whatever lines wrote inside it: an array, a table without `message`.
                // So is a finding on the whole payload (an APNS payload over its size), at its
                // root or where a send-ready request holds it.
                let whole = payloadPath == "$" || Self.requestParts.contains { $0.part == "apns" && $0.prefix == payloadPath }
                let shape = Self.shapeRules.contains(finding.rule) || whole
                guard let returner, finding.severity == .error, shape || (entries[platform.name]?.isEmpty ?? true) else { return finding }
                var finding = finding
                finding.script = returner
                finding.path = payloadPath
                if scriptError == nil {
                    scriptError = ScriptError(
                        kind: .badValue, script: returner, line: nil,
                        message: "returned an \(platform) payload that fails the check \(finding.rule) at \(payloadPath)")
                }
                return finding
            }
            if key != payloadPath, let returner, finding.severity == .error, entries[platform.name]?[key] != nil,
                hasMembers(platform.name, key), present(platform, payloadPath)
            {
                // The value is in the payload checked, and its key is missing from the object that
                // holds it in the traced run, the same run again: a script that keeps state between
                // calls wrote it the first time only (the twenty-sixth audit, F8).
                var finding = finding
                finding.script = returner
                finding.path = payloadPath
                finding.message += " (which line wrote it is not named: the same run again, traced, did not write it; does the script keep state between calls?)"
                if scriptError == nil {
                    scriptError = ScriptError(
                        kind: .badValue, script: returner, line: nil,
                        message: "wrote a value that fails the \(platform) check \(finding.rule) at \(payloadPath), which the same run again did not write")
                }
                return finding
            }
            guard let writer = entry.writer else {
                // No line wrote it (code the script loaded with `load` has none), and it is not
                // the intent's value: a team's run put it there, at no line the trace can name
                // (the twenty-sixth audit, F8, where it fell to an intent field the intent lacked).
                guard let returner, key == payloadPath, entry.origin == nil, !entry.removed else { return finding }
                var finding = finding
                finding.script = returner
                finding.path = payloadPath
                finding.message += " (written where no line of the script can be named: code it loaded with load, say)"
                if finding.severity == .error, scriptError == nil {
                    scriptError = ScriptError(
                        kind: .badValue, script: returner, line: nil,
                        message: "wrote a value that fails the \(platform) check \(finding.rule) at \(payloadPath), at no line that can be named")
                }
                return finding
            }
            if writer.hasPrefix("!") {
                // A built-in wrote it from a table the script passed as the intent: the script's
                // fault when the finding's field is one the script changed in that table, else
                // the sender's, as for the built-in's run on the intent (the twenty-sixth audit, F7).
                // A tail call (`return pushmap.builtin(...)`) leaves the script's file, no line.
                guard let lent = lentLine(for: finding.path, passedAt: String(writer.dropFirst())),
                      let line = Self.teamLine(lent.line, teamScripts: teamScripts).map({ (script: $0.script, line: Optional($0.line)) })
                        ?? (teamScripts.contains(lent.line) ? (script: lent.line, line: nil) : nil)
                else { return finding }
                var finding = finding
                finding.script = lent.line
                finding.path = payloadPath
                if finding.severity == .error, scriptError == nil {
                    scriptError = ScriptError(
                        kind: .badValue, script: line.script, line: line.line,
                        message: "passed the built-in template a table as the intent whose \(lent.path) differs from the intent's; the value written from it fails the \(platform) check \(finding.rule) at \(payloadPath)")
                }
                return finding
            }
            guard let line = Self.teamLine(writer, teamScripts: teamScripts) else { return finding }
            var finding = finding
            if key == payloadPath, let origin = entry.origin, origin.hasPrefix("=") {
                // The sender's number written as its text ("=" marks it, trace.lua), as a data
                // value must be: what fails is what the sender said, and the fix is in the intent,
                // as when pushmap's own script wrote it (the twenty-sixth audit, F14: an exported
                // copy of the built-ins made a past endsAt a script failure at a payload path). A
                // value copied as it was stays the line's: where it went, not what it says, may
                // be the fault (a number in an FCM data map).
                finding.path = String(origin.dropFirst())
                return finding
            }
            finding.script = writer
            finding.path = key == payloadPath ? entry.origin ?? payloadPath : payloadPath
            if finding.severity == .error, scriptError == nil {
                scriptError = ScriptError(
                    kind: .badValue, script: line.script, line: line.line,
                    message: entry.removed && key == payloadPath
                        ? "took out the key at \(payloadPath), which the \(platform) check \(finding.rule) needs"
                        : "wrote a value that fails the \(platform) check \(finding.rule) at \(payloadPath)")
            }
            return finding
        }
        return (attributed, scriptError)
    }

    /// The changed path, at, above or inside the intent path `path` (or the general field it
    /// falls back to: `$.ttl` for `$.android.ttl`), of the table the script line `line` passed as
    /// the intent (each platform's mapping may pass its own), and that line.
    private func lentLine(for path: String, passedAt line: String) -> (path: String, line: String)? {
        let general = IntentOrigin.androidFallbacks[path]
        return lentPaths.first { lent in
            lent.line == line && [path, general].contains { $0.map { Self.nested($0, in: lent.path) || Self.nested(lent.path, in: $0) } ?? false }
        }
    }

    /// Whether `path` is `outer` or a path inside it.
    private static func nested(_ path: String, in outer: String) -> Bool {
        guard path.hasPrefix(outer) else { return false }
        let next = path.utf8.dropFirst(outer.utf8.count).first
        return next == nil || next == UInt8(ascii: ".") || next == UInt8(ascii: "[")
    }

    /// Whether the traced `part` has keys inside `key`: an object or an array there, not a
    /// JSON-encoded string, whose values the trace cannot see.
    private func hasMembers(_ part: String, _ key: String) -> Bool {
        entries[part]?.keys.contains { other in
            other.utf8.count > key.utf8.count && other.hasPrefix(key)
                && [UInt8(ascii: "."), UInt8(ascii: "[")].contains(other.utf8[other.utf8.index(other.utf8.startIndex, offsetBy: key.utf8.count)])
        } ?? false
    }

    /// The line of a team's script that wrote the key holding `path` in `platform`'s payload (a
    /// value JSON cannot hold, which fails before any check); nil when no such line did.
    func writer(platform: Platform, path: String, teamScripts: Set<String>) -> (script: String, line: Int)? {
        located(platform: platform, path: path)?.entry.writer.flatMap { Self.teamLine($0, teamScripts: teamScripts) }
    }

    /// `file.lua:LINE` split, when the file is one of `teamScripts`.
    private static func teamLine(_ writer: String, teamScripts: Set<String>) -> (script: String, line: Int)? {
        guard let colon = writer.lastIndex(of: ":"), let line = Int(writer[writer.index(after: colon)...]) else { return nil }
        let script = String(writer[..<colon])
        return teamScripts.contains(script) ? (script, line) : nil
    }
}
