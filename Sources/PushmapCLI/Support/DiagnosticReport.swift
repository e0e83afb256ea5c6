@_spi(Tools) internal import Pushmap
internal import PushmapJSON
@_spi(Tools) internal import PushmapOutput

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

    /// The JSON value `input` holds. Text that is not JSON is reported as a `json-syntax`
    /// finding, an input that cannot be read in one line; either is exit status 1.
    func readJSON(_ input: InputFile, limit: Int = 1 << 20, limits: JSONParser.Limits = .init()) throws -> JSONValue {
        try read(input, limit: limit) { bytes throws(JSONParseError) in try JSONParser.parse(bytes, limits: limits) }
    }

    /// A payload as `readJSON(_:limit:)` reads it, and a warning for each number that loses digits.
    func readPayload(_ input: InputFile, platform: Platform, limit: Int = 1 << 20) throws -> (payload: JSONValue, read: [Diagnostic], text: [UInt8]) {
        try read(input, limit: limit) { bytes throws(JSONParseError) in
            let (payload, read) = try Translator.readPayload(bytes, platform: platform)
            return (payload, read, bytes)
        }
    }

    private func read<Value>(_ input: InputFile, limit: Int, _ parse: ([UInt8]) throws(JSONParseError) -> Value) throws -> Value {
        do {
            return try parse(try input.read(limit: limit))
        } catch let error as JSONParseError {
            emit([.jsonSyntax(error)])
            throw ExitStatus.invalid
        } catch {
            StandardStream.note("pushmap: \(error)")
            throw ExitStatus.invalid
        }
    }

    static func json(_ diagnostic: Diagnostic) -> JSONValue { DiagnosticJSON.json(diagnostic) }

    static func json(_ error: ScriptError) -> JSONValue { DiagnosticJSON.json(error) }
}
