#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif
package import CJSONItem

/// One value of a ``JSONItems`` list. A container is followed by its elements (an object by
/// key, value, key, value...), each followed by theirs: the list is the value written out in
/// order, one item per value. Its fields: `kind` (the value's op, as ``JSONTape/Op`` spells it),
/// `sorted` (an object's keys are in byte order, each once), `count` (a string's bytes, an
/// array's elements or an object's members), `end` (the index just past the value and what is
/// inside it), `bytes` (a string's) and `bits` (an integer, or a double's bit pattern).
///
/// It is the C type the Lua host's result walk writes (CJSONItem.h), so a list from C is read
/// where it lies: one definition, whose layout the compiler fixes for both languages.
package typealias JSONItem = pmh_json_item

/// A JSON value as a flat list of ``JSONItem``s, read in place: what the payload checks walk.
/// Reading it takes no reference counting and builds no ``JSONValue``; a string becomes a
/// `String` only when asked for one.
///
/// The list and the string bytes belong to whoever made it (the Lua host, for a translated
/// payload; ``JSONItemStorage`` for a ``JSONValue``) and are valid only while they keep them.
package struct JSONNode {
    @usableFromInline let items: UnsafePointer<JSONItem>
    @usableFromInline let index: Int

    /// The root of `items`, which holds one value.
    package init(root items: UnsafePointer<JSONItem>) {
        self.items = items
        index = 0
    }

    @usableFromInline init(_ items: UnsafePointer<JSONItem>, _ index: Int) {
        self.items = items
        self.index = index
    }

    @inlinable var item: JSONItem { items[index] }

    @inlinable package var kind: UInt8 { items[index].kind }

    @inlinable package var isString: Bool { items[index].kind == JSONTape.Op.string }

    /// The string's bytes when this is a string.
    @inlinable package var utf8: UnsafeRawBufferPointer? {
        let item = items[index]
        guard item.kind == JSONTape.Op.string else { return nil }
        return UnsafeRawBufferPointer(start: item.bytes, count: item.count)
    }

    /// The string when this is a string (made anew: for messages and rare paths).
    package var stringValue: String? {
        utf8.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The integer when this is an integer; doubles are not narrowed.
    @inlinable package var integerValue: Int64? {
        let item = items[index]
        return item.kind == JSONTape.Op.integer ? Int64(bitPattern: item.bits) : nil
    }

    /// The double when this is a number that is not an integer.
    package var doubleValue: Double? {
        let item = items[index]
        return item.kind == JSONTape.Op.double ? Double(bitPattern: item.bits) : nil
    }

    /// The Boolean when this is `true` or `false`.
    package var boolValue: Bool? {
        switch items[index].kind {
        case JSONTape.Op.true: true
        case JSONTape.Op.false: false
        default: nil
        }
    }

    package var isNull: Bool { items[index].kind == JSONTape.Op.null }

    /// The members when this is an object.
    @inlinable package var objectValue: JSONObjectNode? {
        items[index].kind == JSONTape.Op.object ? JSONObjectNode(items, index) : nil
    }

    /// The elements when this is an array.
    @inlinable package var arrayValue: JSONArrayNode? {
        items[index].kind == JSONTape.Op.array ? JSONArrayNode(items, index) : nil
    }

    /// The member named `key` when this is an object that has one.
    @inlinable package subscript(key: StaticString) -> JSONNode? { objectValue?[key] }

    /// The kind's name for messages, as ``JSONValue/typeName`` says it.
    package var typeName: String {
        switch items[index].kind {
        case JSONTape.Op.null: "null"
        case JSONTape.Op.true, JSONTape.Op.false: "boolean"
        case JSONTape.Op.integer: "integer"
        case JSONTape.Op.double: "number"
        case JSONTape.Op.string: "string"
        case JSONTape.Op.array: "array"
        default: "object"
        }
    }

    /// Whether the string's bytes are exactly `word`'s.
    package func equals(_ word: StaticString) -> Bool {
        guard let bytes = utf8 else { return false }
        return JSONItems.same(bytes, word)
    }

    /// The value as a ``JSONValue``, for the paths that need one.
    package func value() -> JSONValue {
        value { String(decoding: $0, as: UTF8.self) }
    }

    /// As ``value()``, with each string (keys too) made by `string`: a cache of the strings made
    /// before, say.
    package func value(strings string: (UnsafeRawBufferPointer) -> String) -> JSONValue {
        let item = items[index]
        switch item.kind {
        case JSONTape.Op.null: return .null
        case JSONTape.Op.true: return .bool(true)
        case JSONTape.Op.false: return .bool(false)
        case JSONTape.Op.integer: return .integer(Int64(bitPattern: item.bits))
        case JSONTape.Op.double: return .double(Double(bitPattern: item.bits))
        case JSONTape.Op.string: return .string(string(UnsafeRawBufferPointer(start: item.bytes, count: item.count)))
        case JSONTape.Op.array:
            var elements: [JSONValue] = []
            elements.reserveCapacity(item.count)
            for element in JSONArrayNode(items, index) { elements.append(element.value(strings: string)) }
            return .array(elements)
        default:
            var members: [JSONObject.Member] = []
            members.reserveCapacity(item.count)
            for member in JSONObjectNode(items, index) {
                // A key is always a string.
                let key = member.key.utf8 ?? UnsafeRawBufferPointer(start: nil, count: 0)
                members.append((key: string(key), value: member.value.value(strings: string)))
            }
            return .object(JSONObject(members: members, sorted: item.sorted))
        }
    }
}

/// An object of a ``JSONItems`` list: its members in order, each a key string and a value.
package struct JSONObjectNode: Sequence {
    @usableFromInline let items: UnsafePointer<JSONItem>
    @usableFromInline let index: Int

    @usableFromInline init(_ items: UnsafePointer<JSONItem>, _ index: Int) {
        self.items = items
        self.index = index
    }

    @inlinable package var count: Int { items[index].count }

    /// Whether the keys are in byte order, each once.
    @inlinable package var keysSorted: Bool { items[index].sorted }

    /// The value of the first member named `key`.
    @inlinable package subscript(key: StaticString) -> JSONNode? {
        var position = index + 1
        let end = items[index].end
        while position < end {
            let keyItem = items[position]
            if keyItem.count == key.utf8CodeUnitCount,
               JSONItems.same(UnsafeRawBufferPointer(start: keyItem.bytes, count: keyItem.count), key) {
                return JSONNode(items, position + 1)
            }
            position = items[position + 1].end
        }
        return nil
    }

    package struct Iterator: IteratorProtocol {
        @usableFromInline let items: UnsafePointer<JSONItem>
        @usableFromInline var position: Int
        @usableFromInline let end: Int

        @inlinable init(items: UnsafePointer<JSONItem>, position: Int, end: Int) {
            self.items = items
            self.position = position
            self.end = end
        }

        @inlinable package mutating func next() -> (key: JSONNode, value: JSONNode)? {
            guard position < end else { return nil }
            let member = (key: JSONNode(items, position), value: JSONNode(items, position + 1))
            position = items[position + 1].end
            return member
        }
    }

    @inlinable package func makeIterator() -> Iterator { Iterator(items: items, position: index + 1, end: items[index].end) }

    @inlinable package var underestimatedCount: Int { count }
}

/// An array of a ``JSONItems`` list.
package struct JSONArrayNode: Sequence {
    @usableFromInline let items: UnsafePointer<JSONItem>
    @usableFromInline let index: Int

    @usableFromInline init(_ items: UnsafePointer<JSONItem>, _ index: Int) {
        self.items = items
        self.index = index
    }

    @inlinable package var count: Int { items[index].count }

    package struct Iterator: IteratorProtocol {
        @usableFromInline let items: UnsafePointer<JSONItem>
        @usableFromInline var position: Int
        @usableFromInline let end: Int

        @inlinable init(items: UnsafePointer<JSONItem>, position: Int, end: Int) {
            self.items = items
            self.position = position
            self.end = end
        }

        @inlinable package mutating func next() -> JSONNode? {
            guard position < end else { return nil }
            defer { position = items[position].end }
            return JSONNode(items, position)
        }
    }

    @inlinable package func makeIterator() -> Iterator { Iterator(items: items, position: index + 1, end: items[index].end) }

    @inlinable package var underestimatedCount: Int { count }
}

/// Byte comparisons the nodes share.
package enum JSONItems {
    @inlinable
    package static func same(_ bytes: UnsafeRawBufferPointer, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        guard let base = bytes.baseAddress else { return bytes.isEmpty }
        return equalBytes(base, UnsafeRawPointer(word.utf8Start), bytes.count)
    }

    @inlinable
    package static func same(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        guard let x = a.baseAddress, let y = b.baseAddress else { return a.isEmpty }
        return equalBytes(x, y, a.count)
    }

    /// Whether `count` bytes at `a` and `b` are equal: keys and words of up to 16 bytes, most of
    /// what the checks compare, as two overlapping loads each instead of a call to `memcmp`.
    @inlinable
    package static func equalBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
        if count >= 8 && count <= 16 {
            return a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
                && a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        }
        if count >= 4 && count < 8 {
            return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
                && a.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self) == b.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        }
        if count < 4 {
            for i in 0..<count where a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) { return false }
            return true
        }
        return memcmp(a, b, count) == 0
    }
}

/// A ``JSONValue`` laid out as a ``JSONItems`` list in memory this storage owns: items and
/// string bytes copied once, for code that reads payloads as nodes (the checks) to read one it
/// was given as a value.
package final class JSONItemStorage {
    private let items: UnsafeMutablePointer<JSONItem>
    private let itemCount: Int
    private let text: UnsafeMutableRawPointer

    package init(_ value: JSONValue) {
        var counts = (items: 0, bytes: 0)
        Self.measure(value, &counts)
        itemCount = counts.items
        items = .allocate(capacity: max(1, counts.items))
        text = .allocate(byteCount: max(1, counts.bytes), alignment: 1)
        var position = 0
        var offset = 0
        fill(value, &position, &offset)
    }

    deinit {
        items.deinitialize(count: itemCount)
        items.deallocate()
        text.deallocate()
    }

    /// Runs `body` on the root node; the node is valid only inside it.
    package func withRoot<Result>(_ body: (JSONNode) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(self) { try body(JSONNode(root: UnsafePointer(items))) }
    }

    private static func measure(_ value: JSONValue, _ counts: inout (items: Int, bytes: Int)) {
        counts.items += 1
        switch value {
        case .string(let string): counts.bytes += string.utf8.count
        case .array(let elements): for element in elements { measure(element, &counts) }
        case .object(let object):
            for member in object {
                counts.items += 1
                counts.bytes += member.key.utf8.count
                measure(member.value, &counts)
            }
        default: break
        }
    }

    private func fill(_ value: JSONValue, _ position: inout Int, _ offset: inout Int) {
        let at = position
        position += 1
        switch value {
        case .null: (items + at).initialize(to: Self.item(JSONTape.Op.null, end: position))
        case .bool(let flag): (items + at).initialize(to: Self.item(flag ? JSONTape.Op.true : JSONTape.Op.false, end: position))
        case .integer(let number): (items + at).initialize(to: Self.item(JSONTape.Op.integer, end: position, bits: UInt64(bitPattern: number)))
        case .double(let number): (items + at).initialize(to: Self.item(JSONTape.Op.double, end: position, bits: number.bitPattern))
        case .string(let string): (items + at).initialize(to: stringItem(string, end: position, &offset))
        case .array(let elements):
            for element in elements { fill(element, &position, &offset) }
            (items + at).initialize(to: Self.item(JSONTape.Op.array, count: elements.count, end: position))
        case .object(let object):
            for member in object {
                let keyAt = position
                position += 1
                (items + keyAt).initialize(to: stringItem(member.key, end: position, &offset))
                fill(member.value, &position, &offset)
            }
            (items + at).initialize(to: Self.item(JSONTape.Op.object, sorted: object.keysSorted, count: object.count, end: position))
        }
    }

    private static func item(
        _ kind: UInt8, sorted: Bool = false, count: Int = 0, end: Int, bytes: UnsafeRawPointer? = nil, bits: UInt64 = 0
    ) -> JSONItem {
        JSONItem(kind: kind, sorted: sorted, count: count, end: end, bytes: bytes, bits: bits)
    }

    private func stringItem(_ string: String, end: Int, _ offset: inout Int) -> JSONItem {
        var string = string
        let start = text + offset
        let count = string.withUTF8 { bytes -> Int in
            if let base = bytes.baseAddress { start.copyMemory(from: base, byteCount: bytes.count) }
            return bytes.count
        }
        offset += count
        return Self.item(JSONTape.Op.string, count: count, end: end, bytes: UnsafeRawPointer(start))
    }
}
