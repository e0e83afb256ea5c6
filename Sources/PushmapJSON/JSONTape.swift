#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A JSON value flattened into one buffer: an op byte per value; integers and doubles as 8
/// native-endian bytes; strings, arrays and objects with a 32-bit count first (bytes, items,
/// members); an object's members as key string then value. It is the form the Lua host pushes
/// into a state, so a parsed intent goes in without a ``JSONValue`` tree between.
///
/// ``parse(_:limits:)`` accepts exactly what ``JSONParser`` accepts, or gives up: on anything
/// unusual (an error, a number it cannot convert exactly, a huge object) it returns nil and the
/// caller asks ``JSONParser``, whose errors say where and why. It never accepts what
/// ``JSONParser`` refuses, and what it accepts reads back as the value ``JSONParser`` makes.
package final class JSONTape: @unchecked Sendable {
    /// The op bytes; the Lua host's C side reads the same letters.
    package enum Op {
        package static let null = UInt8(ascii: "n")
        package static let `true` = UInt8(ascii: "t")
        package static let `false` = UInt8(ascii: "f")
        package static let integer = UInt8(ascii: "i")
        package static let double = UInt8(ascii: "d")
        package static let string = UInt8(ascii: "s")
        package static let array = UInt8(ascii: "a")
        package static let object = UInt8(ascii: "o")
    }

    // @unchecked Sendable: the buffer is filled before the tape exists (the parser owns it until
    // then) and never changed after, so any thread may read it.
    private let base: UnsafeMutablePointer<UInt8>
    /// Bytes written.
    package let length: Int

    private init(adopting buffer: inout OutputBuffer) {
        length = buffer.count
        base = buffer.takeMemory()
    }

    deinit { base.deallocate() }

    /// The bytes written, valid while the tape lives.
    package var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: length) }

    /// A reader positioned on the value.
    package var reader: JSONTapeReader { JSONTapeReader(base: UnsafeRawPointer(base), end: length) }

    /// The tape of a value already parsed, for the intents that reach the translator as values,
    /// or that only ``JSONParser`` could read: every intent is then checked by one walk.
    package convenience init(_ value: JSONValue) {
        var out = OutputBuffer(capacity: 256)
        Self.write(value, into: &out)
        self.init(adopting: &out)
    }

    private static func write(_ value: JSONValue, into out: inout OutputBuffer) {
        switch value {
        case .null: out.put(Op.null)
        case .bool(let bool): out.put(bool ? Op.true : Op.false)
        case .integer(let integer): out.put(Op.integer, integer)
        case .double(let double): out.put(Op.double, double.bitPattern)
        case .string(let string): writeString(string, into: &out)
        case .array(let items):
            out.put(Op.array, UInt32(truncatingIfNeeded: items.count))
            for item in items { write(item, into: &out) }
        case .object(let object):
            out.put(Op.object, UInt32(truncatingIfNeeded: object.count))
            for member in object.members {
                writeString(member.key, into: &out)
                write(member.value, into: &out)
            }
        }
    }

    private static func writeString(_ string: String, into out: inout OutputBuffer) {
        var string = string
        string.withUTF8 { bytes in
            out.putString(count: bytes.count)
            if let start = bytes.baseAddress { out.append(start, count: bytes.count) }
        }
    }

    /// Parses `input` into a new tape, or nil where ``JSONParser`` must decide (see the type).
    package static func parse(_ input: UnsafeBufferPointer<UInt8>, limits: JSONParser.Limits) -> JSONTape? {
        var tape: JSONTape?
        _ = withParser(input, limits: limits, scratch: nil) { parser in tape = JSONTape(adopting: &parser.out) }
        return tape
    }

    /// Parses `input` as ``parse(_:limits:)`` does and runs `body` on a reader of the value, which
    /// is valid only inside `body`; false where ``JSONParser`` must decide. For a value read once
    /// and dropped (a JSON-encoded payload string): a short text's tape is written on this call's
    /// stack, where a tape object and its heap block cost ~600 instructions a batch line.
    package static func withParsed(_ input: UnsafeBufferPointer<UInt8>, limits: JSONParser.Limits, _ body: (JSONTapeReader) -> Void) -> Bool {
        withUnsafeTemporaryAllocation(byteCount: 512, alignment: 8) { scratch in
            withParser(input, limits: limits, scratch: scratch) { parser in
                body(JSONTapeReader(base: UnsafeRawPointer(parser.out.start), end: parser.out.count))
            }
        }
    }

    /// Runs the tape parser on `input`, writing into `scratch` while the tape fits there, and
    /// `done` on it when it accepts the text; false when it gives up.
    private static func withParser(
        _ input: UnsafeBufferPointer<UInt8>, limits: JSONParser.Limits, scratch: UnsafeMutableRawBufferPointer?,
        _ done: (inout TapeParser) -> Void
    ) -> Bool {
        guard let start = input.baseAddress, !input.isEmpty else { return false }
        // The parser's stacks start on this call's stack, and move to the heap only if a text
        // nests or keys more than that holds: their two heap blocks cost ~900 instructions a
        // batch line (two parses).
        return withUnsafeTemporaryAllocation(of: TapeParser.Frame.self, capacity: 8) { frames in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 32) { keyOffsets in
                // A tape outgrows its text by a few bytes a string: room for twice it, which an
                // intent rarely needs to grow.
                let capacity = 2 * input.count + 64
                let out = if let scratch { OutputBuffer(scratch: scratch, capacity: capacity) } else { OutputBuffer(capacity: capacity) }
                var parser = TapeParser(
                    input: input, base: UnsafeRawPointer(start), limits: limits, out: out,
                    frames: RawStack(scratch: frames), keyOffsets: RawStack(scratch: keyOffsets))
                guard parser.run() else { return false }
                done(&parser)
                return true
            }
        }
    }
}

extension OutputBuffer {
    /// Writes an op byte.
    @inline(__always)
    package mutating func put(_ op: UInt8) { append(op) }

    /// Writes an op byte and a number after it.
    @inline(__always)
    package mutating func put<T: FixedWidthInteger>(_ op: UInt8, _ number: T) {
        append(op)
        append(raw: number)
    }

    /// Writes a string op and its count; the bytes follow.
    @inline(__always)
    mutating func putString(count: Int) {
        append(JSONTape.Op.string)
        append(raw: UInt32(truncatingIfNeeded: count))
    }

    /// Writes a whole string: op, count and bytes, with room made once.
    @inline(__always)
    mutating func putString(_ bytes: UnsafePointer<UInt8>, count: Int) {
        reserve(5 &+ count)
        appendUnchecked(JSONTape.Op.string)
        UnsafeMutableRawPointer(base + self.count).storeBytes(of: UInt32(truncatingIfNeeded: count), as: UInt32.self)
        self.count &+= 4
        appendUnchecked(bytes, count: count)
    }
}

/// Reads a ``JSONTape`` value by value. Every read assumes a well-formed tape, which is all
/// ``JSONTape`` makes; positions never pass `end`. A copy is a second reader at the same place,
/// which is how a caller looks at a value without moving past it. Inlinable, so that the checks'
/// reads of JSON-encoded values compile to plain loads: public only to the engine's own modules
/// (the `Engine` SPI), because this toolchain inlines across modules only public declarations
/// (as `package`, the reads of the intent check and the checks were calls, ~1,500 instructions
/// a batch line). The ops it tests are ``JSONTape/Op``'s letters, written in place for the same
/// reason.
@_spi(Engine)
public struct JSONTapeReader {
    @usableFromInline let base: UnsafeRawPointer
    @usableFromInline let end: Int
    /// The offset of the next op.
    public var position = 0

    init(base: UnsafeRawPointer, end: Int) {
        self.base = base
        self.end = end
    }

    /// The next value's op, without moving.
    @inlinable
    public var op: UInt8 { position < end ? base.load(fromByteOffset: position, as: UInt8.self) : 0 }

    /// Reads a count that follows an op (string, array, object).
    @inlinable
    public mutating func count() -> Int {
        let value = base.loadUnaligned(fromByteOffset: position + 1, as: UInt32.self)
        position += 5
        return Int(value)
    }

    /// Reads a string's bytes (the op must be ``JSONTape/Op/string``).
    @inlinable
    public mutating func string() -> UnsafeRawBufferPointer {
        let count = count()
        defer { position += count }
        return UnsafeRawBufferPointer(start: base + position, count: count)
    }

    /// Reads an integer (the op must be ``JSONTape/Op/integer``).
    @inlinable
    public mutating func integer() -> Int64 {
        defer { position += 9 }
        return base.loadUnaligned(fromByteOffset: position + 1, as: Int64.self)
    }

    /// Reads a double (the op must be ``JSONTape/Op/double``).
    @inlinable
    public mutating func double() -> Double {
        defer { position += 9 }
        return Double(bitPattern: base.loadUnaligned(fromByteOffset: position + 1, as: UInt64.self))
    }

    /// The name ``JSONValue/typeName`` gives the next value, for messages.
    package var typeName: String {
        switch op {
        case JSONTape.Op.true, JSONTape.Op.false: "boolean"
        case JSONTape.Op.integer: "integer"
        case JSONTape.Op.double: "number"
        case JSONTape.Op.string: "string"
        case JSONTape.Op.array: "array"
        case JSONTape.Op.object: "object"
        default: "null"
        }
    }

    /// Reads the next value as a ``JSONValue``.
    package mutating func value() -> JSONValue {
        switch op {
        case JSONTape.Op.null: position += 1; return .null
        case JSONTape.Op.true: position += 1; return .bool(true)
        case JSONTape.Op.false: position += 1; return .bool(false)
        case JSONTape.Op.integer: return .integer(integer())
        case JSONTape.Op.double: return .double(double())
        case JSONTape.Op.string: return .string(String(decoding: string(), as: UTF8.self))
        case JSONTape.Op.array:
            let count = count()
            var items: [JSONValue] = []
            items.reserveCapacity(count)
            for _ in 0..<count { items.append(value()) }
            return .array(items)
        case JSONTape.Op.object:
            let count = count()
            var members: [JSONObject.Member] = []
            members.reserveCapacity(count)
            for _ in 0..<count {
                let key = String(decoding: string(), as: UTF8.self)
                members.append((key: key, value: value()))
            }
            return .object(JSONObject(members: members))
        default:
            position = end
            return .null
        }
    }

    /// Steps over the next value, whatever it is.
    @inlinable
    public mutating func skip() {
        switch op {
        case UInt8(ascii: "i"), UInt8(ascii: "d"):
            position += 9
        case UInt8(ascii: "s"):
            _ = string()
        case UInt8(ascii: "a"):
            for _ in 0..<count() { skip() }
        case UInt8(ascii: "o"):
            for _ in 0..<count() {
                _ = string()
                skip()
            }
        default:
            position += 1
        }
    }
}

/// The strict parser behind ``JSONTape/parse(_:limits:)``: the grammar and limits of
/// ``JSONParser``, writing into the tape as it goes. Any doubt returns false.
fileprivate struct TapeParser: ~Copyable {
    let input: UnsafeBufferPointer<UInt8>
    let base: UnsafeRawPointer
    let end: Int
    var out: OutputBuffer
    let limits: JSONParser.Limits
    var pos = 0

    /// One open container: where its count goes, how many children so far, and (objects) the
    /// first of its keys on `keyOffsets` and a one-bit-per-hash filter of them.
    struct Frame {
        var countOffset: Int
        var count: Int
        var isObject: Bool
        var keyStart: Int
        var bloom: UInt64
    }

    var frames: RawStack<Frame>
    /// Tape offsets of the keys of the open objects, for the duplicate check.
    var keyOffsets: RawStack<Int>

    /// Objects with more keys than this go to ``JSONParser``, which keeps a set for them.
    static let maxKeys = 48

    init(
        input: UnsafeBufferPointer<UInt8>, base: UnsafeRawPointer, limits: JSONParser.Limits, out: consuming OutputBuffer,
        frames: consuming RawStack<Frame>, keyOffsets: consuming RawStack<Int>
    ) {
        self.frames = frames
        self.keyOffsets = keyOffsets
        self.input = input
        self.base = base
        self.end = input.count
        self.out = out
        self.limits = limits
    }

    mutating func run() -> Bool {
        guard end <= limits.maxBytes else { return false }
        if end >= 3 && input[0] == 0xEF { return false } // a byte order mark, or not JSON at all
        while true {
            skipWhitespace()
            guard pos < end else { return false }
            // One value, or a container opened and gone round for its first child.
            switch input[pos] {
            case UInt8(ascii: "\""):
                guard string() else { return false }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = input[pos] == UInt8(ascii: "{")
                guard frames.count < limits.maxDepth else { return false }
                out.put(isObject ? JSONTape.Op.object : JSONTape.Op.array, UInt32(0))
                frames.push(Frame(countOffset: out.count - 4, count: 0, isObject: isObject, keyStart: keyOffsets.count, bloom: 0))
                pos += 1
                skipWhitespace()
                if pos < end && input[pos] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    pos += 1
                    _ = frames.pop()
                } else {
                    if isObject { guard key() else { return false } }
                    continue
                }
            case UInt8(ascii: "t"):
                guard word(0x6575_7274, 4) else { return false } // "true"
                out.put(JSONTape.Op.true)
            case UInt8(ascii: "f"):
                guard pos + 5 <= end, input[pos + 4] == UInt8(ascii: "e"), word(0x736C_6166, 4) else { return false } // "false"
                pos += 1
                out.put(JSONTape.Op.false)
            case UInt8(ascii: "n"):
                guard word(0x6C6C_756E, 4) else { return false } // "null"
                out.put(JSONTape.Op.null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard number() else { return false }
            default:
                return false
            }
            // A value is done: count it in its container, and close those that end here.
            while true {
                guard !frames.isEmpty else {
                    skipWhitespace()
                    return pos == end
                }
                frames.top.pointee.count += 1
                skipWhitespace()
                guard pos < end else { return false }
                let isObject = frames.top.pointee.isObject
                if input[pos] == UInt8(ascii: ",") {
                    pos += 1
                    if isObject {
                        skipWhitespace()
                        guard key() else { return false }
                    }
                    break
                }
                guard input[pos] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return false }
                pos += 1
                let frame = frames.pop()
                out.patch(UInt32(truncatingIfNeeded: frame.count), at: frame.countOffset)
                if isObject { keyOffsets.drop(to: frame.keyStart) }
            }
        }
    }

    /// `"key" :`, refusing a key its object already has.
    private mutating func key() -> Bool {
        guard pos < end, input[pos] == UInt8(ascii: "\""), string() else { return false }
        let top = frames.top
        let start = top.pointee.keyStart
        guard keyOffsets.count - start < Self.maxKeys else { return false }
        // The key just written: its count, then its bytes.
        let offset = lastStringOffset
        let written = UnsafeRawPointer(out.start)
        let length = Int(written.loadUnaligned(fromByteOffset: offset + 1, as: UInt32.self))
        let keyBytes = written + offset + 5
        let bit = JSONLexing.keyFilterBit(bytes: UnsafeRawBufferPointer(start: keyBytes, count: length))
        if top.pointee.bloom & bit != 0 {
            for index in start..<keyOffsets.count {
                let other = keyOffsets[index]
                let otherLength = Int(written.loadUnaligned(fromByteOffset: other + 1, as: UInt32.self))
                if otherLength == length && memcmp(written + other + 5, keyBytes, length) == 0 { return false }
            }
        }
        top.pointee.bloom |= bit
        keyOffsets.push(offset)
        skipWhitespace()
        guard pos < end, input[pos] == UInt8(ascii: ":") else { return false }
        pos += 1
        return true
    }

    /// The tape offset of the last string written, set by `string()`.
    private var lastStringOffset = 0

    /// A string whose opening quote is at `pos`, unescaped into the tape. The plain case is
    /// inlined into the value loop and `key()`, the escaped one is not: the call cost about 1,000
    /// instructions a batch line (two parses of ~35 strings each).
    @inline(__always)
    private mutating func string() -> Bool {
        pos += 1
        let start = pos
        var high: UInt64 = 0
        pos = scan(from: pos, high: &high)
        guard pos < end else { return false }
        lastStringOffset = out.count
        guard input[pos] == UInt8(ascii: "\"") else { return escapedString(from: start, high: high) }
        let count = pos - start
        guard count <= limits.maxStringBytes else { return false }
        if high & 0x8080_8080_8080_8080 != 0, !validUTF8(from: start, to: pos, skippingEscapes: false) { return false }
        out.putString(base.assumingMemoryBound(to: UInt8.self) + start, count: count)
        pos += 1
        return true
    }

    /// The rest of a string from `start` whose run ends at `pos` on something other than its
    /// closing quote: a backslash starts its escapes, anything else is refused.
    @inline(never)
    private mutating func escapedString(from start: Int, high: UInt64) -> Bool {
        guard input[pos] == UInt8(ascii: "\\") else { return false }
        var high = high
        // Escapes: the bytes so far, then each escape and run, counted at the end.
        out.putString(count: 0)
        let at = out.count
        append(from: start, to: pos)
        while true {
            guard unescape() else { return false }
            let run = pos
            pos = scan(from: pos, high: &high)
            append(from: run, to: pos)
            guard out.count - at <= limits.maxStringBytes, pos < end else { return false }
            if input[pos] == UInt8(ascii: "\"") { break }
            guard input[pos] == UInt8(ascii: "\\") else { return false }
        }
        if high & 0x8080_8080_8080_8080 != 0, !validUTF8(from: start, to: pos, skippingEscapes: true) { return false }
        out.patch(UInt32(truncatingIfNeeded: out.count - at), at: at - 4)
        pos += 1
        return true
    }

    /// Whether the string bytes from `from` to `to` are valid UTF-8; out of line, as few strings
    /// have a byte over 0x7F.
    @inline(never)
    private func validUTF8(from: Int, to: Int, skippingEscapes: Bool) -> Bool {
        UTF8Validation.firstInvalid(input, from: from, to: to, skippingEscapes: skippingEscapes) == nil
    }

    private mutating func append(from: Int, to: Int) {
        if to > from { out.append(base.assumingMemoryBound(to: UInt8.self) + from, count: to - from) }
    }

    /// One escape at `pos` (a backslash), unescaped into the tape; false for anything
    /// ``JSONParser`` refuses.
    private mutating func unescape() -> Bool {
        guard case .bytes(let packed, let count, let next) = JSONLexing.escape(input, at: pos) else { return false }
        for i in 0..<count { out.append(UInt8(truncatingIfNeeded: packed >> (8 * i))) }
        pos = next
        return true
    }

    @inline(__always)
    private func scan(from: Int, high: inout UInt64) -> Int {
        JSONLexing.stringRunEnd(input, base, from: from, high: &high)
    }

    /// `true` or `null` (little-endian `word` of 4 bytes), or the last 4 bytes of `false`.
    @inline(__always)
    private mutating func word(_ expected: UInt32, _ length: Int) -> Bool {
        guard pos + length <= end, base.loadUnaligned(fromByteOffset: pos, as: UInt32.self) == expected else { return false }
        pos += length
        return true
    }

    /// A number, where ``JSONParser`` converts it the same way without its slow path.
    private mutating func number() -> Bool {
        guard case .success(let number) = JSONLexing.number(input, at: pos), let value = number.exactValue else { return false }
        switch value {
        case .integer(let integer): out.put(JSONTape.Op.integer, integer)
        case .double(let double): out.put(JSONTape.Op.double, double.bitPattern)
        default: return false
        }
        pos = number.end
        return true
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        pos = JSONLexing.whitespaceEnd(input, from: pos)
    }
}

/// A stack of plain values in raw memory: a push or a pop is a store and a count, without the
/// uniqueness check an array pays at each change inside a mutating method.
private struct RawStack<Element: BitwiseCopyable>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0
    /// Whether `base` is this stack's heap memory rather than the caller's scratch.
    private var owned = false

    /// A stack in `scratch`, which must outlive it; it moves to the heap when it outgrows it.
    init(scratch: UnsafeMutableBufferPointer<Element>) {
        if let start = scratch.baseAddress, !scratch.isEmpty {
            base = start
            capacity = scratch.count
        } else {
            // No scratch to start in: a heap block of its own, as a grown stack has.
            capacity = 4
            base = .allocate(capacity: capacity)
            owned = true
        }
    }

    deinit { if owned { base.deallocate() } }

    var isEmpty: Bool { count == 0 }

    /// The last element pushed; the stack must not be empty.
    var top: UnsafeMutablePointer<Element> { base + (count - 1) }

    subscript(index: Int) -> Element { base[index] }

    /// Inlined, its growth not: a call per key cost ~700 instructions a batch line.
    @inline(__always)
    mutating func push(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    @inline(never)
    private mutating func grow() {
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        grown.update(from: base, count: count)
        if owned { base.deallocate() }
        base = grown
        owned = true
        capacity *= 2
    }

    mutating func pop() -> Element {
        count -= 1
        return base[count]
    }

    /// Forgets every element from `newCount` on.
    mutating func drop(to newCount: Int) { count = newCount }
}
