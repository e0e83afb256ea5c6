import Foundation
import Logging
@_spi(Tools) @testable import Pushmap
import PushmapJSON

let quietLogger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

/// The repository root, from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A translator over the built-in scripts, at a fixed time (2024-01-01).
func builtinTranslator() throws -> Translator {
    try Translator(options: Translator.Options(clock: { 1_704_067_200 }), logger: quietLogger)
}

/// Parses JSON text written in a test.
func json(_ text: String) throws -> JSONValue {
    try JSONParser.parse(Array(text.utf8))
}

/// The built-in scripts plus `extra` scripts given as strings.
func scripts(_ extra: [String: String]) -> TemplateScripts {
    var scripts = TemplateScripts.builtin
    for (name, source) in extra.sorted(by: { $0.key < $1.key }) { scripts.add(name: name, source: source, layer: "custom") }
    return scripts
}

/// The translation error `body` throws.
func translationError(_ body: () throws -> Void) -> TranslationError? {
    do {
        try body()
        return nil
    } catch let error as TranslationError {
        return error
    } catch {
        return nil
    }
}

/// The FCM data map of a payload.
func data(_ payload: JSONValue?) -> JSONValue? { payload?["message"]?["data"] }
