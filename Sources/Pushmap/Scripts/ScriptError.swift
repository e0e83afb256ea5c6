internal import LuaHost

/// A mapping script that failed: it does not compile, breaks the template contract, raises, runs
/// over a limit, or returns what cannot be a payload. Reads like Lua's own messages:
/// `templates/basic.lua:42: attempt to index a nil value (field 'carousel')`.
public struct ScriptError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, compared by name.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public var description: String { name }
        public static let syntax = Kind(name: "syntax")
        public static let runtime = Kind(name: "runtime")
        public static let instructionLimit = Kind(name: "instruction limit")
        public static let memoryLimit = Kind(name: "memory limit")
        public static let badValue = Kind(name: "bad value")
        /// The script's returned table does not follow the template contract.
        public static let contract = Kind(name: "contract")
    }

    public var kind: Kind
    /// The script's path as messages name it, when known.
    public var script: String?
    public var line: Int?
    public var message: String
    public var traceback: String?

    package init(kind: Kind, script: String?, line: Int?, message: String, traceback: String? = nil) {
        self.kind = kind
        self.script = script
        self.line = line
        self.message = message
        self.traceback = traceback
    }

    init(_ error: LuaError, script: TemplateScript?, contract: Bool = false) {
        let kind: Kind = switch error.kind {
        case _ where contract || error.message.hasPrefix("template contract:"): .contract
        case .syntax: .syntax
        case .instructionLimit: .instructionLimit
        case .memoryLimit: .memoryLimit
        case .badValue: .badValue
        default: .runtime
        }
        self.init(kind: kind, script: error.script ?? script?.path, line: error.line, message: error.message, traceback: error.traceback)
    }

    public var description: String {
        switch (script, line) {
        case let (script?, line?): "\(script):\(line): \(message)"
        // The prelude's own messages already start with the script they blame.
        case let (script?, nil) where !message.hasPrefix(script + ": "): "\(script): \(message)"
        default: message
        }
    }
}
