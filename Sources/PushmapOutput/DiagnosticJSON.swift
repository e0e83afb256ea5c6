@_spi(Tools) public import Pushmap
public import PushmapJSON

/// Diagnostics and script errors as JSON, the same for the command line and the server.
public enum DiagnosticJSON {
    /// One finding as an object: severity, path, rule, message, and platform and payload path
    /// when it has them.
    public static func json(_ diagnostic: Diagnostic) -> JSONValue {
        var object: JSONObject = [
            "severity": .string(diagnostic.severity.name), "path": .string(diagnostic.path),
            "rule": .string(diagnostic.rule), "message": .string(diagnostic.message),
        ]
        if let platform = diagnostic.platform { object["platform"] = .string(platform.name) }
        if let payloadPath = diagnostic.payloadPath { object["payloadPath"] = .string(payloadPath) }
        if let script = diagnostic.script { object["script"] = .string(script) }
        return .object(object)
    }

    /// Appends the diagnostics as ``json(_:)`` would be written compactly, without building the
    /// values: keys in the writer's byte order (message, path, payloadPath, platform, rule,
    /// script, severity). A batch writes one such list per line.
    package static func write(_ diagnostics: [Diagnostic], into buffer: inout OutputBuffer) {
        buffer.append(ascii: "[")
        // By index, each field read in place: binding each diagnostic copied all its strings.
        for index in diagnostics.indices {
            if index > 0 { buffer.append(ascii: ",") }
            buffer.append(ascii: #"{"message":"#)
            JSONWriter.escape(diagnostics[index].message, into: &buffer)
            buffer.append(ascii: #","path":"#)
            JSONWriter.escape(diagnostics[index].path, into: &buffer)
            if let payloadPath = diagnostics[index].payloadPath {
                buffer.append(ascii: #","payloadPath":"#)
                JSONWriter.escape(payloadPath, into: &buffer)
            }
            if let platform = diagnostics[index].platform {
                buffer.append(ascii: #","platform":"#)
                JSONWriter.escape(platform.name, into: &buffer)
            }
            buffer.append(ascii: #","rule":"#)
            JSONWriter.escape(diagnostics[index].rule, into: &buffer)
            if let script = diagnostics[index].script {
                buffer.append(ascii: #","script":"#)
                JSONWriter.escape(script, into: &buffer)
            }
            // The two severities as literals: escaping the word cost ~170 instructions a finding.
            switch diagnostics[index].severity {
            case .warning: buffer.append(ascii: #","severity":"warning"}"#)
            case .error: buffer.append(ascii: #","severity":"error"}"#)
            default:
                buffer.append(ascii: #","severity":"#)
                JSONWriter.escape(diagnostics[index].severity.name, into: &buffer)
                buffer.append(ascii: "}")
            }
        }
        buffer.append(ascii: "]")
    }

    /// A script error as an object: kind, message, and the script and line when known.
    package static func json(_ error: ScriptError) -> JSONValue {
        var object: JSONObject = ["kind": .string(error.kind.name), "message": .string(error.message)]
        if let script = error.script { object["script"] = .string(script) }
        if let line = error.line { object["line"] = .integer(Int64(line)) }
        return .object(object)
    }

    /// What went wrong with a translation: `{"kind": ..., "diagnostics": [...], "scriptError": ...}`.
    public static func json(kind: String, diagnostics: [Diagnostic], scriptError: ScriptError? = nil) -> JSONValue {
        var object: JSONObject = ["kind": .string(kind), "diagnostics": .array(diagnostics.map(json))]
        if let scriptError { object["scriptError"] = json(scriptError) }
        return .object(object)
    }
}
