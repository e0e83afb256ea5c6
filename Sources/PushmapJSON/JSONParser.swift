/// A strict RFC 8259 parser from UTF-8 bytes to ``JSONValue``.
///
/// It rejects comments, trailing commas, leading zeros, NaN and Infinity, single quotes,
/// raw control characters in strings, lone surrogates, invalid UTF-8, a byte order mark,
/// duplicate keys and anything after the value. Nesting is handled with an explicit stack,
/// so hostile input meets the depth limit (``Limits``) rather than the end of the thread's stack.
public enum JSONParser: Sendable {
    /// Bounds on what the parser accepts, so untrusted input costs bounded time and memory.
    public struct Limits: Sendable, Hashable {
        /// The most arrays and objects that may be open at once; 0 allows only scalars.
        package var maxDepth: Int
        /// The largest input, in bytes.
        package var maxBytes: Int
        /// The longest string (key or value), in UTF-8 bytes after unescaping.
        package var maxStringBytes: Int

        /// Limits with defaults of 64 levels, 64 MiB of input and 1 MiB per string.
        public init(maxDepth: Int = 64, maxBytes: Int = 64 << 20, maxStringBytes: Int = 1 << 20) {
            self.maxDepth = maxDepth
            self.maxBytes = maxBytes
            self.maxStringBytes = maxStringBytes
        }
    }

    /// Parses one JSON text held in an array of UTF-8 bytes.
    public static func parse(_ bytes: [UInt8], limits: Limits = .init()) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { parseResult($0, limits) }.get()
    }

    /// Parses one JSON text held in a `String`.
    package static func parse(_ text: String, limits: Limits = .init()) throws(JSONParseError) -> JSONValue {
        var text = text
        return try text.withUTF8 { parseResult($0, limits) }.get()
    }

    /// Parses one JSON text from raw memory holding UTF-8 bytes.
    package static func parse(_ bytes: UnsafeRawBufferPointer, limits: Limits = .init()) throws(JSONParseError) -> JSONValue {
        try bytes.withMemoryRebound(to: UInt8.self) { parseResult($0, limits) }.get()
    }

    /// Parses one JSON text from a buffer of UTF-8 bytes.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits = .init()) throws(JSONParseError) -> JSONValue {
        try parseResult(bytes, limits).get()
    }

    /// Parses one JSON text from any collection of UTF-8 bytes, such as an `ArraySlice`.
    package static func parse<Bytes: Collection<UInt8>>(_ bytes: Bytes, limits: Limits = .init()) throws(JSONParseError) -> JSONValue {
        if let result = bytes.withContiguousStorageIfAvailable({ parseResult($0, limits) }) {
            return try result.get()
        }
        return try parse(Array(bytes), limits: limits)
    }

    /// Parses one JSON text, and lists the numbers whose text holds more digits than the value
    /// they read as (``InexactNumber``), for a caller that warns about them.
    package static func parse(_ bytes: [UInt8], limits: Limits = .init(), inexact: inout [InexactNumber]) throws(JSONParseError) -> JSONValue {
        var noted: [InexactNumber] = []
        let result = bytes.withUnsafeBufferPointer { parseResult($0, limits, inexact: &noted) }
        inexact = noted
        return try result.get()
    }

    /// Parses one JSON text, reading a key an object gives more than once as its last value, in
    /// the first one's place, and listing each such key as the error a strict parse would have
    /// stopped at: for a caller that warns of them where the reader's choice is not known.
    package static func parse(_ bytes: [UInt8], limits: Limits = .init(), repeatedKeys: inout [JSONParseError]) throws(JSONParseError) -> JSONValue {
        var noted: [JSONParseError] = []
        let result = bytes.withUnsafeBufferPointer { parseResult($0, limits, repeated: &noted) }
        repeatedKeys = noted
        return try result.get()
    }

    /// Parses one JSON text noting both what ``parse(_:limits:inexact:)`` and
    /// ``parse(_:limits:repeatedKeys:)`` note.
    package static func parse(
        _ bytes: [UInt8], limits: Limits = .init(), inexact: inout [InexactNumber], repeatedKeys: inout [JSONParseError]
    ) throws(JSONParseError) -> JSONValue {
        var numbers: [InexactNumber] = [], keys: [JSONParseError] = []
        let result = bytes.withUnsafeBufferPointer { buffer in
            withUnsafeMutablePointer(to: &numbers) { numbers in
                withUnsafeMutablePointer(to: &keys) { parseResult(buffer, limits, inexact: numbers, repeated: $0) }
            }
        }
        inexact = numbers
        repeatedKeys = keys
        return try result.get()
    }

    /// A number whose digits do not all survive the parse: a whole number beyond 64 bits, or
    /// more significant digits than a double keeps (`12345678901234567890` reads as
    /// `1.2345678901234567e+19`). JSON sets no limit, so the text is valid; what reads it back
    /// gets another number.
    package struct InexactNumber: Sendable, Hashable {
        /// Where the number sits.
        package let path: JSONPath
        /// The number as written, cut to 40 characters.
        package let text: String
        /// What it reads as.
        package let value: Double
    }

    /// The closures of `withUnsafeBufferPointer` and friends are not typed-throws everywhere,
    /// so the error travels out as a `Result`.
    private static func parseResult(
        _ bytes: UnsafeBufferPointer<UInt8>, _ limits: Limits, inexact: UnsafeMutablePointer<[InexactNumber]>? = nil,
        repeated: UnsafeMutablePointer<[JSONParseError]>? = nil
    ) -> Result<JSONValue, JSONParseError> {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            return .failure(JSONParseError(offset: 0, line: 1, column: 1, path: .root, reason: "empty input"))
        }
        var engine = Engine(bytes: bytes, base: UnsafeRawPointer(base), limits: limits)
        if inexact != nil { engine.inexact = [] }
        if repeated != nil { engine.repeated = [] }
        defer {
            if let inexact, let noted = engine.inexact { inexact.pointee = noted }
            if let repeated, let noted = engine.repeated { repeated.pointee = noted }
        }
        do {
            return .success(try engine.run())
        } catch {
            return .failure(error)
        }
    }

    private static func parseResult(
        _ bytes: UnsafeBufferPointer<UInt8>, _ limits: Limits, inexact: inout [InexactNumber]
    ) -> Result<JSONValue, JSONParseError> {
        withUnsafeMutablePointer(to: &inexact) { parseResult(bytes, limits, inexact: $0) }
    }

    private static func parseResult(
        _ bytes: UnsafeBufferPointer<UInt8>, _ limits: Limits, repeated: inout [JSONParseError]
    ) -> Result<JSONValue, JSONParseError> {
        withUnsafeMutablePointer(to: &repeated) { parseResult(bytes, limits, repeated: $0) }
    }
}

extension JSONParser {
    /// One open array or object. Its values (and keys) sit at the ends of the engine's
    /// shared stacks, from `valueStart` (and `keyStart`) on, until it closes.
    private struct Frame {
        var isObject: Bool
        var valueStart: Int
        var keyStart: Int
        /// One bit per key hash: a key whose bit is clear is new without looking further.
        var bloom: UInt64
        /// The object's keys as a set, once it has too many for the filter and a linear check.
        var seen: Set<ByteKey>?
        /// A key came twice, and the caller takes that (``Engine/repeated``).
        var repeats = false
    }

    /// The parsing state. Containers collect their children on two flat stacks and become
    /// exactly-sized arrays once, when they close.
    private struct Engine {
        let bytes: UnsafeBufferPointer<UInt8>
        let base: UnsafeRawPointer
        let end: Int
        let limits: Limits
        var pos = 0
        var values: [JSONValue] = []
        var keys: [String] = []
        var frames: [Frame] = []
        /// Reused buffer for strings with escapes.
        var scratch: [UInt8] = []
        /// The numbers that lose digits, when the caller asked for them.
        var inexact: [InexactNumber]?
        /// The keys an object repeats, when the caller takes them rather than refusing the text.
        var repeated: [JSONParseError]?

        /// Objects with more keys than this check duplicates with a set; below it a 64-bit
        /// filter settles most keys at once and a linear search the rest.
        static let linearKeyLimit = 48

        init(bytes: UnsafeBufferPointer<UInt8>, base: UnsafeRawPointer, limits: Limits) {
            self.bytes = bytes
            self.base = base
            self.end = bytes.count
            self.limits = limits
            // Room for a typical payload up front, instead of growing from one element.
            if end > 64 {
                values.reserveCapacity(32)
                keys.reserveCapacity(32)
                frames.reserveCapacity(8)
            }
        }

        // MARK: Structure

        mutating func run() throws(JSONParseError) -> JSONValue {
            guard end <= limits.maxBytes else {
                throw fail("input larger than \(limits.maxBytes) bytes", at: Swift.max(0, limits.maxBytes))
            }
            if end >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
                throw fail("byte order mark not allowed: write the UTF-8 without one", at: 0)
            }
            skipWhitespace()
            guard pos < end else { throw fail("empty input", at: pos) }

            var value: JSONValue
            parsing: while true {
                // Read one value, or open a container and go round for its first child.
                skipWhitespace()
                guard pos < end else { throw fail("unexpected end of input", at: pos) }
                switch bytes[pos] {
                case UInt8(ascii: "\""):
                    value = .string(try parseString())
                case UInt8(ascii: "{"):
                    try open(isObject: true)
                    skipWhitespace()
                    if pos < end && bytes[pos] == UInt8(ascii: "}") {
                        pos += 1
                        frames.removeLast()
                        value = .object(JSONObject())
                    } else {
                        try parseKey()
                        continue parsing
                    }
                case UInt8(ascii: "["):
                    try open(isObject: false)
                    skipWhitespace()
                    if pos < end && bytes[pos] == UInt8(ascii: "]") {
                        pos += 1
                        frames.removeLast()
                        value = .array([])
                    } else {
                        continue parsing
                    }
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    value = try parseNumber()
                case UInt8(ascii: "t"):
                    try literal("true")
                    value = .bool(true)
                case UInt8(ascii: "f"):
                    try literal("false")
                    value = .bool(false)
                case UInt8(ascii: "n"):
                    try literal("null")
                    value = .null
                default:
                    throw unexpectedValue()
                }

                // Hand the value to its container; close containers as long as they end here.
                while true {
                    guard !frames.isEmpty else {
                        skipWhitespace()
                        if pos < end { throw unexpected { "unexpected \($0) after the JSON value" } }
                        return value
                    }
                    values.append(value)
                    let isObject = frames[frames.count - 1].isObject
                    skipWhitespace()
                    guard pos < end else { throw fail("unexpected end of input", at: pos, afterValue: true) }
                    let byte = bytes[pos]
                    if byte == UInt8(ascii: ",") {
                        pos += 1
                        if isObject {
                            skipWhitespace()
                            try parseKey()
                        }
                        continue parsing
                    }
                    if byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        pos += 1
                        value = close()
                        continue
                    }
                    throw isObject
                        ? unexpected(afterValue: true) { "expected ',' or '}' after object member but found \($0)" }
                        : unexpected(afterValue: true) { "expected ',' or ']' after array element but found \($0)" }
                }
            }
        }

        /// Pushes a container whose opening bracket is at `pos`.
        private mutating func open(isObject: Bool) throws(JSONParseError) {
            guard frames.count < limits.maxDepth else {
                throw fail("nesting deeper than \(limits.maxDepth) levels", at: pos)
            }
            frames.append(Frame(isObject: isObject, valueStart: values.count, keyStart: keys.count, bloom: 0, seen: nil, repeats: false))
            pos += 1
        }

        /// Each key once, in its first place, with its last value.
        private static func lastValues(_ members: [JSONObject.Member]) -> [JSONObject.Member] {
            var kept: [JSONObject.Member] = []
            var place: [ByteKey: Int] = [:] // bytes, as the keys were compared, not Unicode's equivalence
            for member in members {
                let key = ByteKey(string: member.key)
                if let index = place[key] {
                    kept[index].value = member.value
                } else {
                    place[key] = kept.count
                    kept.append(member)
                }
            }
            return kept
        }

        /// Pops the innermost container and builds its value from the stacks.
        private mutating func close() -> JSONValue {
            let frame = frames.removeLast()
            let valueCount = values.count - frame.valueStart
            if frame.isObject {
                var members: [JSONObject.Member] = []
                members.reserveCapacity(valueCount)
                for i in 0..<valueCount {
                    members.append((key: keys[frame.keyStart + i], value: values[frame.valueStart + i]))
                }
                keys.removeLast(valueCount)
                values.removeLast(valueCount)
                if frame.repeats { members = Self.lastValues(members) }
                return .object(JSONObject(members: members))
            }
            let elements = Array(values[frame.valueStart...])
            values.removeLast(valueCount)
            return .array(elements)
        }

        /// Reads `"key" :` inside an object, rejecting a key the object already has.
        private mutating func parseKey() throws(JSONParseError) {
            guard pos < end else { throw fail("unexpected end of input", at: pos) }
            guard bytes[pos] == UInt8(ascii: "\"") else {
                if bytes[pos] == UInt8(ascii: "}") { throw fail("trailing comma not allowed", at: pos) }
                if bytes[pos] == UInt8(ascii: "'") { throw fail("single quotes not allowed", at: pos) }
                throw unexpected { "expected string key but found \($0)" }
            }
            let keyOffset = pos
            let key = try parseString()
            let top = frames.count - 1
            let start = frames[top].keyStart
            var duplicate = false
            if keys.count - start < Self.linearKeyLimit {
                var bytes = key
                let bit = bytes.withUTF8 { JSONLexing.keyFilterBit(bytes: UnsafeRawBufferPointer($0)) }
                if frames[top].bloom & bit != 0 {
                    for i in start..<keys.count where UTF8Bytes.equal(keys[i], key) {
                        duplicate = true
                        break
                    }
                }
                frames[top].bloom |= bit
            } else {
                if frames[top].seen == nil {
                    frames[top].seen = Set(keys[start...].map(ByteKey.init(string:)))
                }
                duplicate = frames[top].seen?.insert(ByteKey(string: key)).inserted == false
            }
            keys.append(key)
            if duplicate {
                let error = fail("duplicate key '\(Self.shortened(key))'", at: keyOffset)
                guard repeated != nil else { throw error }
                repeated?.append(error)
                frames[top].repeats = true
            }
            skipWhitespace()
            guard pos < end, bytes[pos] == UInt8(ascii: ":") else {
                if pos < end && bytes[pos] == UInt8(ascii: "/") { throw fail("comments not allowed", at: pos) }
                throw fail("expected ':' after object key", at: pos)
            }
            pos += 1
        }

        @inline(__always)
        private mutating func skipWhitespace() {
            pos = JSONLexing.whitespaceEnd(bytes, from: pos)
        }

        private mutating func literal(_ word: StaticString) throws(JSONParseError) {
            let length = word.utf8CodeUnitCount
            let expected = UnsafeBufferPointer(start: word.utf8Start, count: length)
            guard pos + length <= end, UnsafeBufferPointer(rebasing: bytes[pos..<(pos + length)]).elementsEqual(expected) else {
                // A cut-off literal ("nul") is what it looks like; another word is not JSON at all.
                var wordEnd = pos
                while wordEnd < end, (bytes[wordEnd] | 0x20) >= UInt8(ascii: "a"), (bytes[wordEnd] | 0x20) <= UInt8(ascii: "z") { wordEnd += 1 }
                let run = UnsafeBufferPointer(rebasing: bytes[pos..<wordEnd])
                if run.count < length, expected.starts(with: run) { throw fail("expected '\(word)'", at: pos) }
                throw notJSON() ?? fail("expected a value but found '\(text(pos, wordEnd - pos))'", at: pos)
            }
            pos += length
        }

        // MARK: Strings

        /// Reads a string whose opening quote is at `pos`.
        private mutating func parseString() throws(JSONParseError) -> String {
            pos += 1
            let start = pos
            var high: UInt64 = 0
            pos = scan(from: pos, high: &high)
            guard pos < end else { throw fail("unterminated string", at: end) }
            let byte = bytes[pos]
            if byte == UInt8(ascii: "\"") {
                // The common case: no escapes, so the input bytes are the string.
                guard pos - start <= limits.maxStringBytes else {
                    throw fail("string longer than \(limits.maxStringBytes) bytes", at: start - 1)
                }
                let run = UnsafeBufferPointer(rebasing: bytes[start..<pos])
                let string: String
                // `String(validating:)` is generic and unspecialised, several times slower here.
                if high & 0x8080_8080_8080_8080 != 0, let offset = UTF8Validation.firstInvalid(bytes, from: start, to: pos, skippingEscapes: false) {
                    throw invalidUTF8(at: offset)
                }
                string = String(decoding: run, as: UTF8.self)
                pos += 1
                return string
            }
            if byte != UInt8(ascii: "\\") { throw controlCharacter(byte) }
            return try parseEscapedString(start: start, high: high)
        }

        /// The slow path, from the first backslash on: unescape into `scratch`.
        private mutating func parseEscapedString(start: Int, high: UInt64) throws(JSONParseError) -> String {
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<pos]))
            var high = high
            while true {
                // `pos` is at a backslash.
                try unescape()
                let runStart = pos
                pos = scan(from: pos, high: &high)
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<pos]))
                guard scratch.count <= limits.maxStringBytes else {
                    throw fail("string longer than \(limits.maxStringBytes) bytes", at: start - 1)
                }
                guard pos < end else { throw fail("unterminated string", at: end) }
                let byte = bytes[pos]
                if byte == UInt8(ascii: "\"") { break }
                if byte != UInt8(ascii: "\\") { throw controlCharacter(byte) }
            }
            // Escapes only ever add whole sequences, so checking the raw input is enough.
            if high & 0x8080_8080_8080_8080 != 0, let offset = UTF8Validation.firstInvalid(bytes, from: start, to: pos, skippingEscapes: true) {
                throw invalidUTF8(at: offset)
            }
            pos += 1
            return String(decoding: scratch, as: UTF8.self)
        }

        /// Decodes the escape at `pos` onto `scratch`.
        /// One escape at `pos` (a backslash), unescaped into `scratch`.
        private mutating func unescape() throws(JSONParseError) {
            let escape = pos
            switch JSONLexing.escape(bytes, at: escape) {
            case .bytes(let packed, let count, let next):
                for i in 0..<count { scratch.append(UInt8(truncatingIfNeeded: packed >> (8 * i))) }
                pos = next
            case .unterminated:
                throw fail("unterminated string", at: end)
            case .badHex(let at):
                throw fail("invalid \\u escape, expected 4 hex digits", at: at)
            case .loneSurrogate:
                throw fail("lone surrogate \(text(escape, 6)) in string", at: escape)
            case .invalid(let byte):
                // Quote the escape only when it is printable, so the message stays one clean line.
                let shown = byte >= 0x21 && byte <= 0x7E ? text(escape, 2) : "\\ followed by byte 0x\(byte.upperHex)"
                throw fail("invalid escape \(shown) in string", at: escape)
            }
        }

        @inline(__always)
        private func scan(from: Int, high: inout UInt64) -> Int {
            JSONLexing.stringRunEnd(bytes, base, from: from, high: &high)
        }

        // MARK: Numbers

        /// Reads a number starting at `pos`: an integer when it has no fraction or exponent and
        /// fits in Int64, else a correctly rounded Double.
        private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
            let start = pos
            switch JSONLexing.number(bytes, at: start) {
            case .failure(.infinity): throw fail("Infinity not allowed", at: start)
            case .failure(.digitAfterMinus(let at)): throw fail("expected digit after '-'", at: at)
            case .failure(.leadingZero(let at)): throw fail("leading zeros not allowed", at: at)
            case .failure(.digitAfterPoint(let at)): throw fail("expected digit after '.'", at: at)
            case .failure(.exponentDigit(let at)): throw fail("expected digit in exponent", at: at)
            case .success(let number):
                pos = number.end
                if let value = number.exactValue { return value }
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<pos]), as: UTF8.self)
                guard let double = Double(text), double.isFinite else { throw fail("number out of range", at: start) }
                if inexact != nil, Self.significantDigits(text) != Self.significantDigits(double.description) {
                    let shown = text.utf8.count > 40 ? String(text.prefix(40)) + "..." : text
                    let number = InexactNumber(path: path(afterValue: false), text: shown, value: double)
                    inexact?.append(number)
                }
                return .double(double)
            }
        }

        /// The digits of a number's text without sign, point, exponent, or zeros at either end:
        /// `-0.0120e5` and `12` give the same. A double's shortest text (its `description`) has
        /// the same digits as a text that reads as it exactly.
        private static func significantDigits(_ text: String) -> Substring {
            let mantissa = text.utf8.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
            let digits = String(decoding: mantissa.filter { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }, as: UTF8.self)
            let trimmed = digits.drop { $0 == "0" }
            var end = trimmed.endIndex
            while end > trimmed.startIndex, trimmed[trimmed.index(before: end)] == "0" { end = trimmed.index(before: end) }
            return trimmed[..<end]
        }

        private func startsWith(_ word: String, at offset: Int) -> Bool {
            let utf8 = word.utf8
            guard offset + utf8.count <= end else { return false }
            return UnsafeBufferPointer(rebasing: bytes[offset..<(offset + utf8.count)]).elementsEqual(utf8)
        }

        // MARK: Errors

        /// An error at `offset`, with the path worked out from the open containers. With
        /// `afterValue`, the innermost container's last child is named, not the next one.
        @inline(never)
        private func fail(_ reason: String, at offset: Int, afterValue: Bool = false) -> JSONParseError {
            JSONParseError(offset: offset, in: bytes, path: path(afterValue: afterValue), reason: reason)
        }

        /// The path of the value being read, from the open containers; with `afterValue`, of the
        /// innermost container's last child.
        private func path(afterValue: Bool) -> JSONPath {
            var components: [JSONPath.Component] = []
            for (index, frame) in frames.enumerated() {
                let isTop = index == frames.count - 1
                let valueEnd = isTop ? values.count : frames[index + 1].valueStart
                let keyEnd = isTop ? keys.count : frames[index + 1].keyStart
                let valueCount = valueEnd - frame.valueStart
                let keyCount = keyEnd - frame.keyStart
                if frame.isObject {
                    // A key without its value yet is the member being read.
                    if keyCount > valueCount || (isTop && afterValue && keyCount > 0) {
                        components.append(.key(keys[keyEnd - 1]))
                    }
                } else {
                    components.append(.index(isTop && afterValue ? valueCount - 1 : valueCount))
                }
            }
            return JSONPath(components)
        }

        /// An error for the byte at `pos` where a value should start.
        private func unexpectedValue() -> JSONParseError {
            switch bytes[pos] {
            case UInt8(ascii: "'"): return fail("single quotes not allowed", at: pos)
            case UInt8(ascii: "+"): return fail("leading '+' not allowed", at: pos)
            case UInt8(ascii: "N") where startsWith("NaN", at: pos): return fail("NaN not allowed", at: pos)
            case UInt8(ascii: "I") where startsWith("Infinity", at: pos): return fail("Infinity not allowed", at: pos)
            case UInt8(ascii: "]") where frames.last?.isObject == false: return fail("trailing comma not allowed", at: pos)
            default: return notJSON() ?? unexpected { "expected a value but found \($0)" }
            }
        }

        /// For text that starts with a word that is not JSON (`not json`), an error that says so
        /// and quotes its start, rather than naming the first byte; nil inside a value.
        private func notJSON() -> JSONParseError? {
            let letter = (bytes[pos] | 0x20) >= UInt8(ascii: "a") && (bytes[pos] | 0x20) <= UInt8(ascii: "z")
            guard letter, frames.isEmpty, JSONLexing.whitespaceEnd(bytes, from: 0) == pos else { return nil }
            var lineEnd = pos
            while lineEnd < end, lineEnd - pos < 24, bytes[lineEnd] != 0x0A, bytes[lineEnd] != 0x0D { lineEnd += 1 }
            let start = String(String(decoding: UnsafeBufferPointer(rebasing: bytes[pos..<lineEnd]), as: UTF8.self).unicodeScalars
                .map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
            let more = lineEnd < end && bytes[lineEnd] != 0x0A && bytes[lineEnd] != 0x0D ? "..." : ""
            return fail("not JSON: it starts with '\(start)\(more)'; a JSON object starts with {", at: pos)
        }

        /// An error naming the byte at `pos` through `phrase`, or one about comments when it is `/`.
        private func unexpected(afterValue: Bool = false, _ phrase: (String) -> String) -> JSONParseError {
            let byte = bytes[pos]
            if byte == UInt8(ascii: "/") { return fail("comments not allowed", at: pos, afterValue: afterValue) }
            let shown = byte >= 0x21 && byte <= 0x7E ? "'\(Character(UnicodeScalar(byte)))'" : "byte 0x\(byte.upperHex)"
            return fail(phrase(shown), at: pos, afterValue: afterValue)
        }

        private func controlCharacter(_ byte: UInt8) -> JSONParseError {
            fail("unescaped control character U+00\(byte.upperHex) in string", at: pos)
        }

        private func invalidUTF8(at offset: Int) -> JSONParseError {
            fail("invalid UTF-8 byte 0x\(bytes[offset].upperHex) in string", at: offset)
        }

        /// Up to `count` input bytes from `offset`, for quoting in messages.
        private func text(_ offset: Int, _ count: Int) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<Swift.min(end, offset + count)]), as: UTF8.self)
        }

        /// A key as quoted in a message: at most 40 characters, control characters as `?`.
        private static func shortened(_ key: String) -> String {
            var shown = String(String.UnicodeScalarView(key.unicodeScalars.prefix(40).map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
            if key.unicodeScalars.count > 40 { shown += "..." }
            return shown
        }
    }
}
