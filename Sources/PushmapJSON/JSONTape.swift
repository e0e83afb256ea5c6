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
public final class JSONTape: @unchecked Sendable {
    /// The op bytes; the Lua host's C side reads the same letters.
    public enum Op {
        public static let null = UInt8(ascii: "n")
        public static let `true` = UInt8(ascii: "t")
        public static let `false` = UInt8(ascii: "f")
        public static let integer = UInt8(ascii: "i")
        public static let double = UInt8(ascii: "d")
        public static let string = UInt8(ascii: "s")
        public static let array = UInt8(ascii: "a")
        public static let object = UInt8(ascii: "o")
    }

    // @unchecked Sendable: the buffer is filled before the tape exists (the parser owns it until
    // then) and never changed after, so any thread may read it.
    private let base: UnsafeMutableRawPointer
    /// Bytes written.
    public let length: Int

    private init(adopting buffer: TapeBuffer) {
        base = buffer.base
        length = buffer.length
    }

    deinit { base.deallocate() }

    /// The bytes written, valid while the tape lives.
    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: length) }

    /// A reader positioned on the value.
    public var reader: JSONTapeReader { JSONTapeReader(base: UnsafeRawPointer(base), end: length) }

    /// Parses `input` into a new tape, or nil where ``JSONParser`` must decide (see the type).
    public static func parse(_ input: UnsafeBufferPointer<UInt8>, limits: JSONParser.Limits) -> JSONTape? {
        guard let start = input.baseAddress, !input.isEmpty else { return nil }
        var parser = TapeParser(input: input, base: UnsafeRawPointer(start), limits: limits)
        guard parser.run() else {
            parser.out.free()
            return nil
        }
        return JSONTape(adopting: parser.out)
    }
}

/// The growing buffer a parse writes into: a struct the parser owns, so writing costs no
/// exclusivity check, handed to the ``JSONTape`` it becomes.
private struct TapeBuffer {
    var base: UnsafeMutableRawPointer
    var capacity: Int
    var length = 0

    init(capacity: Int) {
        self.capacity = max(64, capacity)
        base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 8)
    }

    func free() { base.deallocate() }

    @inline(__always)
    mutating func reserve(_ bytes: Int) {
        if length + bytes > capacity { grow(to: length + bytes) }
    }

    private mutating func grow(to needed: Int) {
        var next = capacity * 2
        while next < needed { next *= 2 }
        let fresh = UnsafeMutableRawPointer.allocate(byteCount: next, alignment: 8)
        fresh.copyMemory(from: base, byteCount: length)
        base.deallocate()
        base = fresh
        capacity = next
    }

    @inline(__always)
    mutating func put(_ op: UInt8) {
        reserve(1)
        base.storeBytes(of: op, toByteOffset: length, as: UInt8.self)
        length += 1
    }

    @inline(__always)
    mutating func put<T: FixedWidthInteger>(_ op: UInt8, _ number: T) {
        reserve(1 + MemoryLayout<T>.size)
        base.storeBytes(of: op, toByteOffset: length, as: UInt8.self)
        base.storeBytes(of: number, toByteOffset: length + 1, as: T.self)
        length += 1 + MemoryLayout<T>.size
    }

    /// Writes a string op with room for `count` bytes and returns where they go.
    @inline(__always)
    mutating func putString(count: Int) -> Int {
        reserve(5 + count)
        base.storeBytes(of: JSONTape.Op.string, toByteOffset: length, as: UInt8.self)
        base.storeBytes(of: UInt32(truncatingIfNeeded: count), toByteOffset: length + 1, as: UInt32.self)
        length += 5 + count
        return length - count
    }

    mutating func append(_ source: UnsafeRawPointer, _ count: Int) {
        guard count > 0 else { return }
        reserve(count)
        (base + length).copyMemory(from: source, byteCount: count)
        length += count
    }

    mutating func appendByte(_ byte: UInt8) {
        reserve(1)
        base.storeBytes(of: byte, toByteOffset: length, as: UInt8.self)
        length += 1
    }

    func patchCount(at offset: Int, _ count: Int) {
        base.storeBytes(of: UInt32(truncatingIfNeeded: count), toByteOffset: offset, as: UInt32.self)
    }
}

/// Reads a ``JSONTape`` value by value. Every read assumes a well-formed tape, which is all
/// ``JSONTape`` makes; positions never pass `end`.
public struct JSONTapeReader {
    let base: UnsafeRawPointer
    let end: Int
    /// The offset of the next op.
    public private(set) var position = 0

    init(base: UnsafeRawPointer, end: Int) {
        self.base = base
        self.end = end
    }

    /// The next value's op, without moving.
    public var op: UInt8 { position < end ? base.load(fromByteOffset: position, as: UInt8.self) : 0 }

    /// Reads a count that follows an op (string, array, object).
    public mutating func count() -> Int {
        let value = base.loadUnaligned(fromByteOffset: position + 1, as: UInt32.self)
        position += 5
        return Int(value)
    }

    /// Reads a string's bytes (the op must be ``JSONTape/Op/string``).
    public mutating func string() -> UnsafeRawBufferPointer {
        let count = count()
        defer { position += count }
        return UnsafeRawBufferPointer(start: base + position, count: count)
    }

    /// Reads an integer (the op must be ``JSONTape/Op/integer``).
    public mutating func integer() -> Int64 {
        defer { position += 9 }
        return base.loadUnaligned(fromByteOffset: position + 1, as: Int64.self)
    }

    /// Reads a double (the op must be ``JSONTape/Op/double``).
    public mutating func double() -> Double {
        defer { position += 9 }
        return Double(bitPattern: base.loadUnaligned(fromByteOffset: position + 1, as: UInt64.self))
    }

    /// Reads the next value as a ``JSONValue``.
    public mutating func value() -> JSONValue {
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
    public mutating func skip() {
        switch op {
        case JSONTape.Op.integer, JSONTape.Op.double:
            position += 9
        case JSONTape.Op.string:
            _ = string()
        case JSONTape.Op.array:
            for _ in 0..<count() { skip() }
        case JSONTape.Op.object:
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
private struct TapeParser {
    let input: UnsafeBufferPointer<UInt8>
    let base: UnsafeRawPointer
    let end: Int
    var out: TapeBuffer
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

    var frames: [Frame] = []
    /// Tape offsets of the keys of the open objects, for the duplicate check.
    var keyOffsets: [Int] = []

    /// Objects with more keys than this go to ``JSONParser``, which keeps a set for them.
    static let maxKeys = 48

    init(input: UnsafeBufferPointer<UInt8>, base: UnsafeRawPointer, limits: JSONParser.Limits) {
        self.input = input
        self.base = base
        self.end = input.count
        self.out = TapeBuffer(capacity: input.count + 64)
        self.limits = limits
        frames.reserveCapacity(8)
        keyOffsets.reserveCapacity(32)
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
                frames.append(Frame(countOffset: out.length - 4, count: 0, isObject: isObject, keyStart: keyOffsets.count, bloom: 0))
                pos += 1
                skipWhitespace()
                if pos < end && input[pos] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    pos += 1
                    frames.removeLast()
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
                frames[frames.count - 1].count += 1
                skipWhitespace()
                guard pos < end else { return false }
                let isObject = frames[frames.count - 1].isObject
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
                let frame = frames.removeLast()
                out.patchCount(at: frame.countOffset, frame.count)
                if isObject { keyOffsets.removeLast(keyOffsets.count - frame.keyStart) }
            }
        }
    }

    /// `"key" :`, refusing a key its object already has.
    private mutating func key() -> Bool {
        guard pos < end, input[pos] == UInt8(ascii: "\""), string() else { return false }
        let top = frames.count - 1
        let start = frames[top].keyStart
        guard keyOffsets.count - start < Self.maxKeys else { return false }
        // The key just written: its count, then its bytes.
        let offset = lastStringOffset
        let length = Int(out.base.loadUnaligned(fromByteOffset: offset + 1, as: UInt32.self))
        let keyBytes = out.base + offset + 5
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for i in 0..<length { hash = (hash ^ UInt64(keyBytes.load(fromByteOffset: i, as: UInt8.self))) &* 0x100_0000_01B3 }
        let bit: UInt64 = 1 << ((hash ^ hash >> 32) & 63)
        if frames[top].bloom & bit != 0 {
            for other in keyOffsets[start...] {
                let otherLength = Int(out.base.loadUnaligned(fromByteOffset: other + 1, as: UInt32.self))
                if otherLength == length && memcmp(out.base + other + 5, keyBytes, length) == 0 { return false }
            }
        }
        frames[top].bloom |= bit
        keyOffsets.append(offset)
        skipWhitespace()
        guard pos < end, input[pos] == UInt8(ascii: ":") else { return false }
        pos += 1
        return true
    }

    /// The tape offset of the last string written, set by `string()`.
    private var lastStringOffset = 0

    /// A string whose opening quote is at `pos`, unescaped into the tape.
    private mutating func string() -> Bool {
        pos += 1
        let start = pos
        var high: UInt64 = 0
        pos = scan(from: pos, high: &high)
        guard pos < end else { return false }
        lastStringOffset = out.length
        if input[pos] == UInt8(ascii: "\"") {
            let count = pos - start
            guard count <= limits.maxStringBytes else { return false }
            if high & 0x8080_8080_8080_8080 != 0,
               UTF8Validation.firstInvalid(input, from: start, to: pos, skippingEscapes: false) != nil { return false }
            let at = out.putString(count: count)
            if count > 0 { (out.base + at).copyMemory(from: base + start, byteCount: count) }
            pos += 1
            return true
        }
        guard input[pos] == UInt8(ascii: "\\") else { return false }
        // Escapes: the bytes so far, then each escape and run, counted at the end.
        let at = out.putString(count: pos - start)
        if pos > start { (out.base + at).copyMemory(from: base + start, byteCount: pos - start) }
        while true {
            guard unescape() else { return false }
            let run = pos
            pos = scan(from: pos, high: &high)
            append(from: run, to: pos)
            guard out.length - at <= limits.maxStringBytes, pos < end else { return false }
            if input[pos] == UInt8(ascii: "\"") { break }
            guard input[pos] == UInt8(ascii: "\\") else { return false }
        }
        if high & 0x8080_8080_8080_8080 != 0,
           UTF8Validation.firstInvalid(input, from: start, to: pos, skippingEscapes: true) != nil { return false }
        out.patchCount(at: at - 4, out.length - at)
        pos += 1
        return true
    }

    private mutating func append(from: Int, to: Int) {
        if to > from { out.append(base + from, to - from) }
    }

    private mutating func appendByte(_ byte: UInt8) { out.appendByte(byte) }

    /// One escape at `pos` (a backslash); false for anything ``JSONParser`` refuses.
    private mutating func unescape() -> Bool {
        guard pos + 1 < end else { return false }
        let byte = input[pos + 1]
        pos += 2
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): appendByte(byte)
        case UInt8(ascii: "b"): appendByte(0x08)
        case UInt8(ascii: "f"): appendByte(0x0C)
        case UInt8(ascii: "n"): appendByte(0x0A)
        case UInt8(ascii: "r"): appendByte(0x0D)
        case UInt8(ascii: "t"): appendByte(0x09)
        case UInt8(ascii: "u"):
            guard var scalar = hex4(), !(0xDC00...0xDFFF).contains(scalar) else { return false }
            if (0xD800...0xDBFF).contains(scalar) {
                guard pos + 1 < end, input[pos] == UInt8(ascii: "\\"), input[pos + 1] == UInt8(ascii: "u") else { return false }
                pos += 2
                guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return false }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            appendUTF8(scalar)
        default:
            return false
        }
        return true
    }

    private mutating func hex4() -> UInt32? {
        guard pos + 4 <= end else { return nil }
        var value: UInt32 = 0
        for i in pos..<(pos + 4) {
            let byte = input[i]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        pos += 4
        return value
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            appendByte(UInt8(truncatingIfNeeded: scalar))
        case 0x80..<0x800:
            appendByte(UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6))
            appendByte(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            appendByte(UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12))
            appendByte(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
            appendByte(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        default:
            appendByte(UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18))
            appendByte(UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F))
            appendByte(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
            appendByte(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        }
    }

    /// The end of the run of plain string bytes from `from`: the first quote, backslash or
    /// control byte. `high` collects the bytes, so a run with no byte over 0x7F skips the UTF-8
    /// check. The same word-at-a-time scan as ``JSONParser``'s.
    @inline(__always)
    private func scan(from: Int, high: inout UInt64) -> Int {
        var i = from
        let ones: UInt64 = 0x0101_0101_0101_0101
        let tops: UInt64 = 0x8080_8080_8080_8080
        while i + 8 <= end {
            let word = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let control = (word &- ones &* 0x20) & ~word & tops
            let q = word ^ (ones &* 0x22)
            let quote = (q &- ones) & ~q & tops
            let b = word ^ (ones &* 0x5C)
            let backslash = (b &- ones) & ~b & tops
            if control | quote | backslash != 0 { break }
            high |= word
            i += 8
        }
        while i < end {
            let byte = input[i]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            high |= UInt64(byte)
            i += 1
        }
        return i
    }

    /// `true` or `null` (little-endian `word` of 4 bytes), or the last 4 bytes of `false`.
    @inline(__always)
    private mutating func word(_ expected: UInt32, _ length: Int) -> Bool {
        guard pos + length <= end, base.loadUnaligned(fromByteOffset: pos, as: UInt32.self) == expected else { return false }
        pos += length
        return true
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// A number, where ``JSONParser`` converts it the same way without its slow path: integers of
    /// up to 19 digits that fit in Int64, and doubles exact by Clinger's fast path.
    private mutating func number() -> Bool {
        let negative = input[pos] == UInt8(ascii: "-")
        if negative { pos += 1 }
        guard pos < end, isDigit(input[pos]) else { return false }
        var mantissa: UInt64 = 0
        var digits = 0
        if input[pos] == UInt8(ascii: "0") {
            pos += 1
            if pos < end && isDigit(input[pos]) { return false }
        } else {
            while pos < end && isDigit(input[pos]) {
                mantissa = mantissa &* 10 &+ UInt64(input[pos] &- UInt8(ascii: "0"))
                digits += 1
                pos += 1
            }
        }
        var fractionDigits = 0
        var exponent = 0
        var isInteger = true
        if pos < end && input[pos] == UInt8(ascii: ".") {
            isInteger = false
            pos += 1
            guard pos < end, isDigit(input[pos]) else { return false }
            while pos < end && isDigit(input[pos]) {
                if mantissa != 0 || input[pos] != UInt8(ascii: "0") { digits += 1 }
                mantissa = mantissa &* 10 &+ UInt64(input[pos] &- UInt8(ascii: "0"))
                fractionDigits += 1
                pos += 1
            }
        }
        if pos < end && (input[pos] | 0x20) == UInt8(ascii: "e") {
            isInteger = false
            pos += 1
            var exponentNegative = false
            if pos < end && (input[pos] == UInt8(ascii: "+") || input[pos] == UInt8(ascii: "-")) {
                exponentNegative = input[pos] == UInt8(ascii: "-")
                pos += 1
            }
            guard pos < end, isDigit(input[pos]) else { return false }
            while pos < end && isDigit(input[pos]) {
                if exponent < 100_000 { exponent = exponent * 10 + Int(input[pos] &- UInt8(ascii: "0")) }
                pos += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        if isInteger && digits <= 19 {
            if negative {
                if mantissa <= UInt64(Int64.max) + 1 {
                    out.put(JSONTape.Op.integer, Int64(truncatingIfNeeded: 0 &- mantissa))
                    return true
                }
            } else if mantissa <= UInt64(Int64.max) {
                out.put(JSONTape.Op.integer, Int64(mantissa))
                return true
            }
        }
        let power = exponent - fractionDigits
        guard digits <= 19 && mantissa <= 1 << 53 && power >= -22 && power <= 22 else { return false }
        let magnitude = Double(mantissa)
        let scaled = power < 0 ? magnitude / Self.powersOfTen[-power] : magnitude * Self.powersOfTen[power]
        out.put(JSONTape.Op.double, (negative ? -scaled : scaled).bitPattern)
        return true
    }

    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while pos < end {
            let byte = input[pos]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            pos += 1
        }
    }
}
