@_spi(Engine) internal import PushmapJSON

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
    /// exactly, an object of many keys, an error), ``JSONParser`` decides, and what it reads is
    /// written to a tape as well.
    static func withValue<Result>(_ text: UnsafeRawBufferPointer?, _ body: (Value) -> Result) -> Result {
        guard let text else { return body(.absent) }
        var result: Result?
        let parsed = text.withMemoryRebound(to: UInt8.self) { text in
            JSONTape.withParsed(text, limits: JSONParser.Limits()) { reader in result = body(.parsed(EncodedNode(at: reader))) }
        }
        if parsed, let result { return result }
        guard let tape = (try? JSONParser.parse(text)).map(JSONTape.init) else { return body(.malformed) }
        return withExtendedLifetime(tape) { body(.parsed(EncodedNode(at: tape.reader))) }
    }
}

/// One value of a JSON-encoded string, read in place on its tape through a reader positioned on
/// it (a copy of the reader looks, so the node never moves).
struct EncodedNode {
    let at: JSONTapeReader

    var op: UInt8 { at.op }

    var isObject: Bool { op == JSONTape.Op.object }

    /// The string's bytes when this is a string.
    var utf8: UnsafeRawBufferPointer? {
        guard op == JSONTape.Op.string else { return nil }
        var reader = at
        return reader.string()
    }

    /// The elements when this is an array.
    var elements: Elements? {
        guard op == JSONTape.Op.array else { return nil }
        var reader = at
        let count = reader.count()
        return Elements(first: reader, count: count)
    }

    /// The members when this is an object.
    var members: Members? {
        guard op == JSONTape.Op.object else { return nil }
        var reader = at
        let count = reader.count()
        return Members(first: reader, count: count)
    }

    /// The member named `key` when this is an object that has one.
    subscript(key: StaticString) -> EncodedNode? {
        guard let members else { return nil }
        for (name, value) in members where ValueFormat.equals(name, key) { return value }
        return nil
    }

    /// The kind's name for messages, as ``JSONValue/typeName`` says it.
    var typeName: String { at.typeName }

    struct Elements: Sequence {
        let first: JSONTapeReader
        let count: Int

        struct Iterator: IteratorProtocol {
            var reader: JSONTapeReader
            var left: Int

            mutating func next() -> EncodedNode? {
                guard left > 0 else { return nil }
                left -= 1
                let node = EncodedNode(at: reader)
                reader.skip()
                return node
            }
        }

        func makeIterator() -> Iterator { Iterator(reader: first, left: count) }
        var underestimatedCount: Int { count }
    }

    struct Members: Sequence {
        let first: JSONTapeReader
        let count: Int

        struct Iterator: IteratorProtocol {
            var reader: JSONTapeReader
            var left: Int

            mutating func next() -> (key: UnsafeRawBufferPointer, value: EncodedNode)? {
                guard left > 0 else { return nil }
                left -= 1
                let key = reader.string()
                let value = EncodedNode(at: reader)
                reader.skip()
                return (key, value)
            }
        }

        func makeIterator() -> Iterator { Iterator(reader: first, left: count) }
        var underestimatedCount: Int { count }
    }
}
