internal import Pushmap
internal import PushmapJSON

/// Writes diagnostics and script errors for people (one line each) or as one JSON line.
struct DiagnosticReport {
    let format: OutputFormat
    /// The input's name, the first thing each human line says.
    let file: String

    /// One line per finding, `FILE: error: $.path: message [rule, platform]`.
    func lines(_ diagnostics: [Diagnostic], scriptError: ScriptError? = nil) -> [String] {
        var lines = diagnostics.map { "\(file): \($0)" }
        if let scriptError {
            lines.append("\(file): script error: \(scriptError) [\(scriptError.kind)]")
        }
        return lines
    }

    /// The same findings as a JSON object.
    func json(_ diagnostics: [Diagnostic], scriptError: ScriptError? = nil) -> JSONValue {
        var object: JSONObject = ["file": .string(file), "diagnostics": .array(diagnostics.map(Self.json))]
        if let scriptError { object["scriptError"] = Self.json(scriptError) }
        return .object(object)
    }

    /// Writes the findings to standard error in the chosen format.
    func emit(_ diagnostics: [Diagnostic], scriptError: ScriptError? = nil) {
        guard !diagnostics.isEmpty || scriptError != nil else { return }
        switch format {
        case .human:
            for line in lines(diagnostics, scriptError: scriptError) { StandardStream.note(line) }
        case .json:
            StandardStream.note(String(decoding: JSONWriter(style: .compact).write(json(diagnostics, scriptError: scriptError)), as: UTF8.self))
        }
    }

    static func json(_ diagnostic: Diagnostic) -> JSONValue {
        var object: JSONObject = [
            "severity": .string(diagnostic.severity.name), "path": .string(diagnostic.path),
            "rule": .string(diagnostic.rule), "message": .string(diagnostic.message),
        ]
        if let platform = diagnostic.platform { object["platform"] = .string(platform.name) }
        if let payloadPath = diagnostic.payloadPath { object["payloadPath"] = .string(payloadPath) }
        return .object(object)
    }

    /// Appends the diagnostics as ``json(_:)`` would be written compactly, without building the
    /// values: keys in the writer's byte order (message, path, payloadPath, platform, rule,
    /// severity). A batch writes one such list per line.
    static func write(_ diagnostics: [Diagnostic], into out: inout [UInt8]) {
        // One buffer for the whole list: a buffer per string cost a heap block each.
        var buffer = OutputBuffer(capacity: 2 + 320 * diagnostics.count)
        buffer.append(ascii: "[")
        for (index, diagnostic) in diagnostics.enumerated() {
            if index > 0 { buffer.append(ascii: ",") }
            buffer.append(ascii: #"{"message":"#)
            JSONWriter.escape(diagnostic.message, into: &buffer)
            buffer.append(ascii: #","path":"#)
            JSONWriter.escape(diagnostic.path, into: &buffer)
            if let payloadPath = diagnostic.payloadPath {
                buffer.append(ascii: #","payloadPath":"#)
                JSONWriter.escape(payloadPath, into: &buffer)
            }
            if let platform = diagnostic.platform {
                buffer.append(ascii: #","platform":"#)
                JSONWriter.escape(platform.name, into: &buffer)
            }
            buffer.append(ascii: #","rule":"#)
            JSONWriter.escape(diagnostic.rule, into: &buffer)
            buffer.append(ascii: #","severity":"#)
            JSONWriter.escape(diagnostic.severity.name, into: &buffer)
            buffer.append(ascii: "}")
        }
        buffer.append(ascii: "]")
        buffer.append(to: &out)
    }

    static func json(_ error: ScriptError) -> JSONValue {
        var object: JSONObject = ["kind": .string(error.kind.name), "message": .string(error.message)]
        if let script = error.script { object["script"] = .string(script) }
        if let line = error.line { object["line"] = .integer(Int64(line)) }
        return .object(object)
    }
}
