internal import LuaHost

/// A mapping script that failed: it does not compile, breaks the template contract, raises, runs
/// over a limit, or returns what cannot be a payload. Reads like Lua's own messages:
/// `templates/basic.lua:42: attempt to index a nil value (field 'carousel')`.
public struct ScriptError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, compared by name.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// The kind's name, as messages show it.
        package let name: String
        public var description: String { name }
        /// The script does not compile.
        public static let syntax = Kind(name: "syntax")
        /// The script raised an error while it ran.
        public static let runtime = Kind(name: "runtime")
        /// The script ran more instructions than ``ScriptLimits/instructions``.
        public static let instructionLimit = Kind(name: "instruction limit")
        /// The script ran longer than ``ScriptLimits/timeMilliseconds``.
        public static let timeLimit = Kind(name: "time limit")
        /// The script's state grew past ``ScriptLimits/memoryBytes``.
        public static let memoryLimit = Kind(name: "memory limit")
        /// The script returned a value that cannot be a payload (a function, a cycle, a key that is
        /// not a string), or wrote a value that fails a payload check (named with its line).
        public static let badValue = Kind(name: "bad value")
        /// The script's returned table does not follow the template contract.
        public static let contract = Kind(name: "contract")
    }

    /// What went wrong.
    public var kind: Kind
    /// The script's path as messages name it, when known.
    public var script: String?
    /// The line in the script, when known.
    public var line: Int?
    /// What Lua or the host said, in one line.
    public var message: String
    /// Lua's stack traceback, for a runtime error.
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
        case .timeLimit: .timeLimit
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
