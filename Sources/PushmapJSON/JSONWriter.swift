/// Turns a ``JSONValue`` into UTF-8 JSON text.
///
/// Output is deterministic: keys are sorted by their UTF-8 bytes unless told otherwise,
/// and numbers have one spelling. Only `"`, `\`, U+0000–U+001F, U+2028 and U+2029 are escaped
/// (the last two end a line for some NDJSON readers); `/` and other non-ASCII characters are
/// written as they are. Writing recurses once per nesting level,
/// which is harmless for anything the parser's depth limit lets through.
public struct JSONWriter: Sendable {
    /// The layout of the text.
    public enum Style: Sendable, Hashable {
        /// Two-space indentation, one member or element per line, `": "` after keys,
        /// `[]` and `{}` for empty containers and no trailing newline.
        case pretty
        /// No whitespace at all.
        case compact
    }

    /// The layout.
    package var style: Style
    /// Whether object members are written in key byte order rather than their own.
    package var sortKeys: Bool

    /// A writer with this layout; keys are sorted unless `sortKeys` is false.
    public init(style: Style, sortKeys: Bool = true) {
        self.style = style
        self.sortKeys = sortKeys
    }

    /// The value as JSON text.
    public func write(_ value: JSONValue) -> [UInt8] {
        var out = OutputBuffer(capacity: 1024)
        emit(value, indent: 0, into: &out)
        return out.finish()
    }

    /// Appends the value's JSON text to `out`.
    public func write(_ value: JSONValue, into out: inout [UInt8]) {
        var buffer = OutputBuffer(capacity: 1024)
        emit(value, indent: 0, into: &buffer)
        buffer.append(to: &out)
    }

    /// Appends the value's JSON text to `out`.
    package func write(_ value: JSONValue, into out: inout OutputBuffer) {
        emit(value, indent: 0, into: &out)
    }

    /// The value as JSON text in a `String`.
    package func string(_ value: JSONValue) -> String {
        String(decoding: write(value), as: UTF8.self)
    }

    /// Appends `s` as a quoted JSON string literal, escaping only what JSON requires.
    package static func escapeJSONString(_ s: String, into out: inout [UInt8]) {
        var buffer = OutputBuffer(capacity: s.utf8.count + 16)
        escape(s, into: &buffer)
        buffer.append(to: &out)
    }

    /// The length in bytes of the value written compactly, computed without writing it: key
    /// order does not change the length, so nothing is sorted and nothing is allocated.
    package static func compactByteCount(_ value: JSONValue) -> Int {
        switch value {
        case .null: return 4
        case .bool(let bool): return bool ? 4 : 5
        case .integer(let integer): return integerByteCount(integer)
        case .double(let double): return doubleByteCount(double)
        case .string(let string):
            return escapedByteCount(string)
        case .array(let array):
            var count = 2 + max(0, array.count - 1)
            for element in array { count += compactByteCount(element) }
            return count
        case .object(let object):
            var count = 2 + max(0, object.count - 1)
            for member in object.members {
                count += escapedByteCount(member.key) + 1 + compactByteCount(member.value)
            }
            return count
        }
    }

    /// The length in bytes of JSON `text` as written, without the whitespace between its tokens:
    /// what a sender that strips only that whitespace sends, escapes kept as written (Go's
    /// encoder writes `&` as `\u0026`, six bytes where the value has one).
    package static func compactByteCount(asWritten text: ArraySlice<UInt8>) -> Int {
        var count = 0
        var inString = false
        var escaped = false
        for byte in text {
            if inString {
                count += 1
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte != 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D {
                count += 1
                if byte == UInt8(ascii: "\"") { inString = true }
            }
        }
        return count
    }

    /// As ``compactByteCount(asWritten:)``, for the value of the member `key` of the object
    /// `text` holds; nil when it has none, or the key is written with escapes.
    package static func compactByteCount(asWritten text: [UInt8], member key: String) -> Int? {
        let wanted = Array(key.utf8)
        var depth = 0
        var index = 0
        var valueStart: Int?
        var lastString: Range<Int>?
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "\"") {
                let start = index + 1
                index += 1
                while index < text.count, text[index] != UInt8(ascii: "\"") {
                    index += text[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                lastString = start..<min(index, text.count)
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: ",") {
                // The value ends at the comma or brace that follows it in the top object.
                if let start = valueStart, depth == 1 { return compactByteCount(asWritten: text[start..<index]) }
                if byte != UInt8(ascii: ",") { depth -= 1 }
            } else if byte == UInt8(ascii: ":"), depth == 1, valueStart == nil, let name = lastString, text[name].elementsEqual(wanted) {
                valueStart = index + 1
            }
            index += 1
        }
        return nil
    }

    /// As ``compactByteCount(_:)-(JSONValue)``, for a value read in place.
    package static func compactByteCount(_ node: JSONNode) -> Int {
        if let bytes = node.utf8 { return escapedByteCount(bytes: bytes) }
        if let integer = node.integerValue { return integerByteCount(integer) }
        if let double = node.doubleValue { return doubleByteCount(double) }
        if let array = node.arrayValue {
            var count = 2 + max(0, array.count - 1)
            for element in array { count += compactByteCount(element) }
            return count
        }
        if let object = node.objectValue {
            var count = 2 + max(0, object.count - 1)
            for member in object { count += compactByteCount(member.key) + 1 + compactByteCount(member.value) }
            return count
        }
        return node.boolValue == false ? 5 : 4  // null, true, false
    }

    private static func integerByteCount(_ integer: Int64) -> Int {
        var count = integer < 0 ? 2 : 1
        var magnitude = integer.magnitude / 10
        while magnitude > 0 {
            count += 1
            magnitude /= 10
        }
        return count
    }

    private static func doubleByteCount(_ double: Double) -> Int {
        var out = OutputBuffer(capacity: 32)
        writeDouble(double, into: &out)
        return out.count
    }

    /// The length of `s` as a quoted, escaped JSON string.
    static func escapedByteCount(_ s: String) -> Int {
        var s = s
        return s.withUTF8 { escapedByteCount(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// The length of UTF-8 `bytes` as a quoted, escaped JSON string.
    static func escapedByteCount(bytes: UnsafeRawBufferPointer) -> Int {
        bytes.withMemoryRebound(to: UInt8.self) { bytes in
            var count = bytes.count + 2
            guard let base = bytes.baseAddress else { return count }
            let raw = UnsafeRawPointer(base)
            let n = bytes.count
            var i = 0
            while i < n {
                i = skipPlainWords(raw, from: i, count: n)
                if i >= n { break }
                let byte = base[i]
                i &+= 1
                if byte == 0xE2 {
                    if isLineSeparator(base, at: i &- 1, count: n) {
                        count += 3
                        i &+= 2
                    }
                    continue
                }
                if !JSONLexing.isSpecial(byte) { continue }
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"), 0x08, 0x0C:
                    count += 1
                default:
                    count += 5
                }
            }
            return count
        }
    }

    // MARK: - Values

    private func emit(_ value: JSONValue, indent: Int, into out: inout OutputBuffer) {
        switch value {
        case .null:
            out.append(ascii: "null")
        case .bool(let bool):
            out.append(ascii: bool ? "true" : "false")
        case .integer(let integer):
            Self.writeInteger(integer, into: &out)
        case .double(let double):
            Self.writeDouble(double, into: &out)
        case .string(let string):
            Self.escape(string, into: &out)
        case .array(let array):
            emitArray(array, indent: indent, into: &out)
        case .object(let object):
            emitObject(object, indent: indent, into: &out)
        }
    }

    private func emitArray(_ array: [JSONValue], indent: Int, into out: inout OutputBuffer) {
        out.append(UInt8(ascii: "["))
        guard !array.isEmpty else {
            out.append(UInt8(ascii: "]"))
            return
        }
        let pretty = style == .pretty
        for (i, element) in array.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            if pretty { Self.newline(indent + 1, into: &out) }
            emit(element, indent: indent + 1, into: &out)
        }
        if pretty { Self.newline(indent, into: &out) }
        out.append(UInt8(ascii: "]"))
    }

    private func emitObject(_ object: JSONObject, indent: Int, into out: inout OutputBuffer) {
        out.append(UInt8(ascii: "{"))
        let members = object.members
        guard !members.isEmpty else {
            out.append(UInt8(ascii: "}"))
            return
        }
        let pretty = style == .pretty
        // Payloads written back are often sorted already; skip the sort then.
        var order: [Int]? = nil
        if sortKeys && !object.keysSorted {
            for i in members.indices.dropFirst() where !UTF8Bytes.less(members[i - 1].key, members[i].key) {
                order = JSONObject.sortedIndices(members)
                break
            }
        }
        for n in members.indices {
            let member = members[order?[n] ?? n]
            if n > 0 { out.append(UInt8(ascii: ",")) }
            if pretty { Self.newline(indent + 1, into: &out) }
            Self.escape(member.key, into: &out)
            out.append(UInt8(ascii: ":"))
            if pretty { out.append(UInt8(ascii: " ")) }
            emit(member.value, indent: indent + 1, into: &out)
        }
        if pretty { Self.newline(indent, into: &out) }
        out.append(UInt8(ascii: "}"))
    }

    private static func newline(_ indent: Int, into out: inout OutputBuffer) {
        out.append(UInt8(ascii: "\n"))
        for _ in 0..<indent {
            out.append(UInt8(ascii: " "))
            out.append(UInt8(ascii: " "))
        }
    }

    // MARK: - Scalars

    private static let hexDigits: StaticString = "0123456789abcdef"

    /// Decimal digits without going through `String`.
    static func writeInteger(_ value: Int64, into out: inout OutputBuffer) {
        DecimalText.withDigits(of: value) { digits in
            if let base = digits.baseAddress { out.append(base.assumingMemoryBound(to: UInt8.self), count: digits.count) }
        }
    }

    /// The shortest text that reads back as the same Double, with a `.` or an exponent
    /// so it reads back as a double, not an integer. NaN and infinities, which a parsed
    /// value never holds, become `null`.
    static func writeDouble(_ value: Double, into out: inout OutputBuffer) {
        guard value.isFinite else {
            out.append(ascii: "null")
            return
        }
        // Swift's description is the shortest round-trip form: "3.0", "1e-07", "5e+20",
        // "-0.0", all valid JSON numbers.
        let text = value.description
        var floaty = false
        for byte in text.utf8 {
            out.append(byte)
            if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { floaty = true }
        }
        if !floaty {
            out.append(UInt8(ascii: "."))
            out.append(UInt8(ascii: "0"))
        }
    }

    /// The offset of the first eight-byte word from `i` on that holds a quote, a backslash or a
    /// control character (or of the last partial word): the bytes before it need no escaping.
    @inline(__always)
    private static func skipPlainWords(_ raw: UnsafeRawPointer, from start: Int, count n: Int) -> Int {
        var i = start
        while i &+ 8 <= n, !hasLook(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) {
            i &+= 8
        }
        return i
    }

    /// Whether none of the `n` bytes at `raw` needs escaping: whole words, then the last
    /// (overlapping) word, or the bytes one by one for a string shorter than a word.
    @inline(__always)
    private static func isPlain(_ raw: UnsafeRawPointer, count n: Int) -> Bool {
        if n < 8 {
            for i in 0..<n {
                if needsLook(raw.load(fromByteOffset: i, as: UInt8.self)) { return false }
            }
            return true
        }
        let words = skipPlainWords(raw, from: 0, count: n)
        if words &+ 8 <= n { return false } // a whole word held a byte to escape
        return words == n || !hasLook(raw.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self))
    }

    /// Whether the byte needs a look when writing: one to escape, or 0xE2, the first byte of
    /// U+2028 and U+2029.
    @inline(__always)
    private static func needsLook(_ byte: UInt8) -> Bool {
        JSONLexing.isSpecial(byte) || byte == 0xE2
    }

    /// Whether any of the eight bytes of `word` ``needsLook(_:)``, tested at once.
    @inline(__always)
    private static func hasLook(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let x = word ^ (ones &* 0xE2)
        return JSONLexing.specialMask(word) | ((x &- ones) & ~x & 0x8080_8080_8080_8080) != 0
    }

    /// Whether U+2028 or U+2029 (E2 80 A8, E2 80 A9) starts at `i`.
    @inline(__always)
    private static func isLineSeparator(_ base: UnsafePointer<UInt8>, at i: Int, count n: Int) -> Bool {
        i &+ 2 < n && base[i] == 0xE2 && base[i &+ 1] == 0x80 && (base[i &+ 2] == 0xA8 || base[i &+ 2] == 0xA9)
    }

    /// Appends `s` quoted and escaped, its bytes read in place where they can be.
    @inline(__always)
    package static func escape(_ s: String, into out: inout OutputBuffer) {
        UTF8Bytes.withBytes(of: s) { escape($0, into: &out) }
    }

    /// Appends `bytes` (UTF-8) quoted and escaped, as a string of them is written: copies runs
    /// that need no escaping in bulk, escaping the bytes in between.
    static func escape(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout OutputBuffer) {
        let n = bytes.count
        guard let base = bytes.baseAddress else {
            out.append(ascii: "\"\"")
            return
        }
        // Most strings (keys, words, URLs) need no escape at all: test them whole, then copy
        // once, with room for just them (the worst case's room grew a batch line's buffer).
        if isPlain(UnsafeRawPointer(base), count: n) {
            out.reserve(n &+ 2)
            out.appendUnchecked(UInt8(ascii: "\""))
            out.appendUnchecked(base, count: n)
            out.appendUnchecked(UInt8(ascii: "\""))
            return
        }
        // Room for the worst case (every byte as \u00XX) once, so the loop never checks.
        out.reserve(n &* 6 &+ 2)
        out.appendUnchecked(UInt8(ascii: "\""))
        var runStart = 0
        var i = 0
        let raw = UnsafeRawPointer(base)
        while i < n {
            i = skipPlainWords(raw, from: i, count: n)
            if i >= n { break }
            let byte = base[i]
            if byte == 0xE2, isLineSeparator(base, at: i, count: n) {
                if runStart < i { out.appendUnchecked(base + runStart, count: i &- runStart) }
                let last: UInt8 = base[i &+ 2] == 0xA8 ? UInt8(ascii: "8") : UInt8(ascii: "9")
                for byte in [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "2"), UInt8(ascii: "0"), UInt8(ascii: "2"), last] {
                    out.appendUnchecked(byte)
                }
                i &+= 3
                runStart = i
                continue
            }
            if !JSONLexing.isSpecial(byte) {
                i &+= 1
                continue
            }
            if runStart < i { out.appendUnchecked(base + runStart, count: i &- runStart) }
            out.appendUnchecked(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""): out.appendUnchecked(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): out.appendUnchecked(UInt8(ascii: "\\"))
            case UInt8(ascii: "\n"): out.appendUnchecked(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): out.appendUnchecked(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"): out.appendUnchecked(UInt8(ascii: "t"))
            case 0x08: out.appendUnchecked(UInt8(ascii: "b"))
            case 0x0C: out.appendUnchecked(UInt8(ascii: "f"))
            default:
                hexDigits.withUTF8Buffer { hex in
                    out.appendUnchecked(UInt8(ascii: "u"))
                    out.appendUnchecked(UInt8(ascii: "0"))
                    out.appendUnchecked(UInt8(ascii: "0"))
                    out.appendUnchecked(hex[Int(byte >> 4)])
                    out.appendUnchecked(hex[Int(byte & 0xF)])
                }
            }
            i &+= 1
            runStart = i
        }
        if runStart < n { out.appendUnchecked(base + runStart, count: n &- runStart) }
        out.appendUnchecked(UInt8(ascii: "\""))
    }
}
