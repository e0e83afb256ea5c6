internal import PushmapJSON

/// A JSON-encoded string value (`adb_act`, `adb_items`), parsed once into a tape and read in
/// place: one parse and one reader for every such value.
enum EncodedJSON {
    /// What a JSON-encoded key holds.
    enum Value {
        /// The key is absent, or its value is not a string.
        case absent
        /// The string is not JSON: the phone reads nothing from it.
        case malformed
        case parsed(EncodedNode)

        var node: EncodedNode? {
            if case .parsed(let node) = self { node } else { nil }
        }
    }

    /// Runs `body` on what `text` holds (absent when `text` is nil); the nodes are valid only
    /// inside `body`.
    ///
    /// The tape parser decides almost every text; where it gives up (a number it cannot convert
    /// exactly, an object of many keys, an error), ``JSONParser`` decides, as for every tape, and
    /// what it reads is laid out as the same kind of tape.
    static func withValue<Result>(_ text: UnsafeRawBufferPointer?, _ body: (Value) -> Result) -> Result {
        guard let text else { return body(.absent) }
        let tape = text.withMemoryRebound(to: UInt8.self) { JSONTape.parse($0, limits: JSONParser.Limits()) }
        if let tape {
            return withExtendedLifetime(tape) {
                guard let start = tape.bytes.baseAddress else { return body(.malformed) }
                return body(.parsed(EncodedNode(tape: start, offset: 0)))
            }
        }
        guard let value = try? JSONParser.parse(text) else { return body(.malformed) }
        var bytes: [UInt8] = []
        write(value, to: &bytes)
        return bytes.withUnsafeBytes { tape in
            guard let start = tape.baseAddress else { return body(.malformed) }
            return body(.parsed(EncodedNode(tape: start, offset: 0)))
        }
    }

    /// Lays `value` out as ``JSONTape`` does (see ``EncodedNode``).
    private static func write(_ value: JSONValue, to tape: inout [UInt8]) {
        func put<T: FixedWidthInteger>(_ op: UInt8, _ number: T) {
            tape.append(op)
            withUnsafeBytes(of: number) { tape.append(contentsOf: $0) }
        }
        func put(_ string: String) {
            put(JSONTape.Op.string, UInt32(truncatingIfNeeded: string.utf8.count))
            tape.append(contentsOf: string.utf8)
        }
        switch value {
        case .null: tape.append(JSONTape.Op.null)
        case .bool(let flag): tape.append(flag ? JSONTape.Op.true : JSONTape.Op.false)
        case .integer(let number): put(JSONTape.Op.integer, number)
        case .double(let number): put(JSONTape.Op.double, number.bitPattern)
        case .string(let string): put(string)
        case .array(let elements):
            put(JSONTape.Op.array, UInt32(truncatingIfNeeded: elements.count))
            for element in elements { write(element, to: &tape) }
        case .object(let object):
            put(JSONTape.Op.object, UInt32(truncatingIfNeeded: object.count))
            for member in object {
                put(member.key)
                write(member.value, to: &tape)
            }
        }
    }
}

/// One value of a JSON-encoded string, read in place on its tape, laid out as ``JSONTape`` lays
/// it out (the Lua host's C side reads the same layout): an op byte; a 32-bit count after a
/// string, array or object op, then a string's bytes; 8 bytes after an integer or double op; an
/// object's members as key string, then value.
struct EncodedNode {
    let tape: UnsafeRawPointer
    let offset: Int

    var op: UInt8 { tape.load(fromByteOffset: offset, as: UInt8.self) }

    /// A string's bytes, an array's elements or an object's members.
    private var count: Int { Int(tape.loadUnaligned(fromByteOffset: offset + 1, as: UInt32.self)) }

    var isObject: Bool { op == JSONTape.Op.object }

    /// The string's bytes when this is a string.
    var utf8: UnsafeRawBufferPointer? {
        op == JSONTape.Op.string ? UnsafeRawBufferPointer(start: tape + offset + 5, count: count) : nil
    }

    /// The elements when this is an array.
    var elements: Elements? {
        op == JSONTape.Op.array ? Elements(tape: tape, first: offset + 5, count: count) : nil
    }

    /// The members when this is an object.
    var members: Members? {
        op == JSONTape.Op.object ? Members(tape: tape, first: offset + 5, count: count) : nil
    }

    /// The member named `key` when this is an object that has one.
    subscript(key: StaticString) -> EncodedNode? {
        guard let members else { return nil }
        for (name, value) in members where ValueFormat.equals(name, key) { return value }
        return nil
    }

    /// The offset just past this value.
    var end: Int {
        switch op {
        case JSONTape.Op.string: return offset + 5 + count
        case JSONTape.Op.integer, JSONTape.Op.double: return offset + 9
        case JSONTape.Op.array:
            var end = offset + 5
            for _ in 0..<count { end = EncodedNode(tape: tape, offset: end).end }
            return end
        case JSONTape.Op.object:
            var end = offset + 5
            for _ in 0..<2 * count { end = EncodedNode(tape: tape, offset: end).end }
            return end
        default:
            return offset + 1
        }
    }

    /// The kind's name for messages, as ``JSONValue/typeName`` says it.
    var typeName: String {
        switch op {
        case JSONTape.Op.null: "null"
        case JSONTape.Op.true, JSONTape.Op.false: "boolean"
        case JSONTape.Op.integer: "integer"
        case JSONTape.Op.double: "number"
        case JSONTape.Op.string: "string"
        case JSONTape.Op.array: "array"
        default: "object"
        }
    }

    struct Elements: Sequence {
        let tape: UnsafeRawPointer
        let first: Int
        let count: Int

        struct Iterator: IteratorProtocol {
            let tape: UnsafeRawPointer
            var offset: Int
            var left: Int

            mutating func next() -> EncodedNode? {
                guard left > 0 else { return nil }
                left -= 1
                let node = EncodedNode(tape: tape, offset: offset)
                offset = node.end
                return node
            }
        }

        func makeIterator() -> Iterator { Iterator(tape: tape, offset: first, left: count) }
        var underestimatedCount: Int { count }
    }

    struct Members: Sequence {
        let tape: UnsafeRawPointer
        let first: Int
        let count: Int

        struct Iterator: IteratorProtocol {
            let tape: UnsafeRawPointer
            var offset: Int
            var left: Int

            mutating func next() -> (key: UnsafeRawBufferPointer, value: EncodedNode)? {
                guard left > 0 else { return nil }
                left -= 1
                let key = EncodedNode(tape: tape, offset: offset)
                let value = EncodedNode(tape: tape, offset: key.end)
                offset = value.end
                // A key is always a string.
                return (key.utf8 ?? UnsafeRawBufferPointer(start: nil, count: 0), value)
            }
        }

        func makeIterator() -> Iterator { Iterator(tape: tape, offset: first, left: count) }
        var underestimatedCount: Int { count }
    }
}
