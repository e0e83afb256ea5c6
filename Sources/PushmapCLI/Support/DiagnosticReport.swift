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
        out.append(UInt8(ascii: "["))
        for (index, diagnostic) in diagnostics.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"message":"#.utf8)
            JSONWriter.escapeJSONString(diagnostic.message, into: &out)
            out.append(contentsOf: #","path":"#.utf8)
            JSONWriter.escapeJSONString(diagnostic.path, into: &out)
            if let payloadPath = diagnostic.payloadPath {
                out.append(contentsOf: #","payloadPath":"#.utf8)
                JSONWriter.escapeJSONString(payloadPath, into: &out)
            }
            if let platform = diagnostic.platform {
                out.append(contentsOf: #","platform":"#.utf8)
                JSONWriter.escapeJSONString(platform.name, into: &out)
            }
            out.append(contentsOf: #","rule":"#.utf8)
            JSONWriter.escapeJSONString(diagnostic.rule, into: &out)
            out.append(contentsOf: #","severity":"#.utf8)
            JSONWriter.escapeJSONString(diagnostic.severity.name, into: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
    }

    static func json(_ error: ScriptError) -> JSONValue {
        var object: JSONObject = ["kind": .string(error.kind.name), "message": .string(error.message)]
        if let script = error.script { object["script"] = .string(script) }
        if let line = error.line { object["line"] = .integer(Int64(line)) }
        return .object(object)
    }
}
