/// A failure of the Lua host: a script that does not compile, raises, runs over a limit, or gives
/// or receives a value that cannot cross the boundary.
///
/// Its description reads like Lua's own messages, `templates/basic.lua:42: attempt to index a nil
/// value (field 'carousel')`, and ``snippet(in:)`` shows the offending line.
package struct LuaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong. An open set of kinds, compared by name.
    package struct Kind: Hashable, Sendable, CustomStringConvertible {
        package let name: String
        package var description: String { name }

        /// The script does not compile.
        package static let syntax = Kind(name: "syntax")
        /// The script raised an error while running.
        package static let runtime = Kind(name: "runtime")
        /// The script ran past its instruction budget.
        package static let instructionLimit = Kind(name: "instruction limit")
        /// The script ran past its wall-clock time.
        package static let timeLimit = Kind(name: "time limit")
        /// The script wanted more memory than the state may hold.
        package static let memoryLimit = Kind(name: "memory limit")
        /// A value could not be converted between Swift and Lua.
        package static let badValue = Kind(name: "bad value")
    }

    package var kind: Kind
    /// The script's name as its chunk was named (`templates/basic.lua`), when known.
    package var script: String?
    /// The line in the script, when known.
    package var line: Int?
    /// The message without the location.
    package var message: String
    /// Lua's stack traceback, when one could be taken.
    package var traceback: String?
    /// For a value the host could not read (a bad value), its JSON path from the root the reader
    /// named (`$result2.message.data.cb`): the place a trace of the run can put on a line.
    package var valuePath: String?

    package init(kind: Kind, script: String? = nil, line: Int? = nil, message: String, traceback: String? = nil) {
        self.kind = kind
        self.script = script
        self.line = line
        self.message = message
        self.traceback = traceback
    }

    /// A value whose JSON text would take more than the state's memory limit, `limit`: a table
    /// used in many places is written in each, so a few kilobytes in Lua can be gigabytes of text.
    /// The C encoder's `json()` says the same in its own words (values.c).
    static func tooLargeAsJSON(at root: String, limit: Int) -> LuaError {
        LuaError(
            kind: .memoryLimit,
            message: "the value at \(root) takes more than \(limit) bytes, the memory limit, as JSON: its text, or the list of its values the checks read, a few dozen bytes a value (a table used in many places is written in each)")
    }

    /// `script:line: message`, or as much of it as is known.
    package var description: String {
        switch (script, line) {
        case let (script?, line?): "\(script):\(line): \(message)"
        case let (script?, nil): "\(script): \(message)"
        default: message
        }
    }

    /// The offending line of `source` with a marker under it, for a reader's terminal.
    package func snippet(in source: String) -> String? {
        guard let line, line > 0 else { return nil }
        var number = 1
        for text in source.split(separator: "\n", omittingEmptySubsequences: false) {
            if number == line {
                let trimmed = text.prefix(160)
                let indent = trimmed.prefix { $0 == " " || $0 == "\t" }
                let width = max(1, trimmed.count - indent.count)
                return "\(line) | \(trimmed)\n\(String(repeating: " ", count: String(line).count)) | \(indent)\(String(repeating: "^", count: width))"
            }
            number += 1
        }
        return nil
    }
}

extension LuaError {
    /// Splits a Lua message `chunk:line: text` into its parts; `chunks` maps Lua's shortened
    /// names (`...ates/basic.lua`) back to the full ones.
    init(kind: Kind, luaMessage: String, chunks: [String]) {
        var text = luaMessage
        var traceback: String?
        let marker = Array("\nstack traceback:\n".utf8)
        let bytes = Array(text.utf8)
        if bytes.count >= marker.count,
           let start = (0...(bytes.count - marker.count)).first(where: { bytes[$0..<($0 + marker.count)].elementsEqual(marker) }) {
            traceback = String(decoding: bytes[(start + marker.count)...], as: UTF8.self)
            text = String(decoding: bytes[..<start], as: UTF8.self)
        }
        var script: String?
        var line: Int?
        if let (name, number, rest) = Self.location(in: text) {
            script = Self.fullName(name, chunks: chunks)
            line = number
            text = rest
        }
        // A script chose the text: one line, of bounded length, as every message is.
        self.init(kind: kind, script: script, line: line, message: LogLine(text).description, traceback: traceback)
    }

    private static func location(in text: String) -> (String, Int, String)? {
        // The first ":<digits>: " is the end of the location Lua prefixes.
        let utf8 = Array(text.utf8)
        var i = 0
        while i < utf8.count {
            if utf8[i] == UInt8(ascii: ":") {
                var j = i + 1
                var number = 0
                while j < utf8.count, utf8[j] >= 0x30, utf8[j] <= 0x39, number < 100_000_000 {
                    number = number * 10 + Int(utf8[j] - 0x30)
                    j += 1
                }
                if j > i + 1, j + 1 < utf8.count, utf8[j] == UInt8(ascii: ":"), utf8[j + 1] == UInt8(ascii: " "), i > 0 {
                    let name = String(decoding: utf8[0..<i], as: UTF8.self)
                    let rest = String(decoding: utf8[(j + 2)...], as: UTF8.self)
                    if name.contains("\n") { return nil }
                    return (name, number, rest)
                }
            }
            i += 1
        }
        return nil
    }

    private static func fullName(_ name: String, chunks: [String]) -> String {
        if name.hasPrefix("[string ") { return name }
        if name.hasPrefix("...") {
            let tail = name.dropFirst(3)
            if let full = chunks.last(where: { $0.hasSuffix(tail) }) { return full }
        }
        return name
    }
}
