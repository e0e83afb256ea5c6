/// A JSON object that keeps its members in insertion order.
///
/// Members live in one array: the objects of push payloads are small, and a linear
/// search over a few keys beats hashing them. Keys compare by their UTF-8 bytes.
/// Two objects are equal when they hold the same members, whatever their order.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One member: a key and its value.
    public typealias Member = (key: String, value: JSONValue)

    /// The members in insertion order.
    package private(set) var members: [Member] {
        didSet { keysSorted = false }
    }

    /// Whether the members are known to be in their keys' byte order, no key twice (as the Lua
    /// host reads them), so a writer need not sort them; any change forgets it.
    package private(set) var keysSorted = false

    /// An empty object.
    public init() { members = [] }

    /// An object with these members, in this order. Later duplicates are kept as they are.
    public init(_ members: [(String, JSONValue)]) {
        self.members = members.map { (key: $0.0, value: $0.1) }
    }

    /// Adopts a member array as is; the parser has already checked it.
    package init(members: [Member], sorted: Bool = false) {
        self.members = members
        keysSorted = sorted
    }

    /// An object from a literal, keeping the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }

    /// The number of members.
    public var count: Int { members.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { members.isEmpty }

    /// The keys in order.
    package var keys: [String] { members.map(\.key) }

    /// The value of the first member named `key`; setting `nil` removes every member of that name.
    public subscript(key: String) -> JSONValue? {
        get {
            for member in members where UTF8Bytes.equal(member.key, key) { return member.value }
            return nil
        }
        set {
            guard let newValue else {
                members.removeAll { UTF8Bytes.equal($0.key, key) }
                return
            }
            if let index = members.firstIndex(where: { UTF8Bytes.equal($0.key, key) }) {
                members[index].value = newValue
            } else {
                members.append((key: key, value: newValue))
            }
        }
    }

    /// Makes room for `count` members, for readers that know how many are coming.
    package mutating func reserveCapacity(_ count: Int) {
        members.reserveCapacity(count)
    }

    /// Appends a member without looking for an existing one of that name (parsers check themselves).
    public mutating func append(key: String, value: JSONValue) {
        members.append((key: key, value: value))
    }

    /// The same members sorted by the keys' UTF-8 bytes; members with equal keys keep their order.
    package func sortedByKey() -> JSONObject {
        JSONObject(members: Self.sortedIndices(members).map { members[$0] })
    }

    /// Iterates the members in order.
    public func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }

    /// The number of members, so `Array(object)` allocates once.
    public var underestimatedCount: Int { members.count }

    /// Equal when both hold the same members: order does not matter, except among
    /// members that share a key (only possible through ``append(key:value:)``).
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        let a = lhs.members, b = rhs.members
        guard a.count == b.count else { return false }
        // Most comparisons meet the same key order: compare in place, no sorting.
        var sameOrder = true
        for i in a.indices where !UTF8Bytes.equal(a[i].key, b[i].key) {
            sameOrder = false
            break
        }
        if sameOrder {
            for i in a.indices where a[i].value != b[i].value { return false }
            return true
        }
        let sa = sortedIndices(a), sb = sortedIndices(b)
        for (i, j) in zip(sa, sb) {
            guard UTF8Bytes.equal(a[i].key, b[j].key), a[i].value == b[j].value else { return false }
        }
        return true
    }

    /// Hashes independently of member order, matching ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        var sum: Int = 0
        for member in members {
            var memberHasher = Hasher()
            UTF8Bytes.hash(member.key, into: &memberHasher)
            memberHasher.combine(member.value)
            sum = sum &+ memberHasher.finalize()
        }
        hasher.combine(members.count)
        hasher.combine(sum)
    }

    /// Indices of `members` in key byte order, ties kept in their original order.
    static func sortedIndices(_ members: [Member]) -> [Int] {
        // Each key's first 16 bytes as two big-endian words compare like the bytes themselves,
        // so most comparisons are two integer compares; only keys that share 16 bytes (or
        // differ by trailing NULs) fall back to comparing the strings.
        var order = [(high: UInt64, low: UInt64, index: Int)]()
        order.reserveCapacity(members.count)
        for (index, member) in members.enumerated() {
            var key = member.key
            var words: (UInt64, UInt64) = (0, 0)
            key.withUTF8 { bytes in
                if let source = bytes.baseAddress {
                    withUnsafeMutableBytes(of: &words) { $0.baseAddress?.copyMemory(from: source, byteCount: Swift.min(bytes.count, 16)) }
                }
            }
            // Big-endian words compare like the bytes they hold.
            order.append((UInt64(bigEndian: words.0), UInt64(bigEndian: words.1), index))
        }
        order.sort { a, b in
            if a.high != b.high { return a.high < b.high }
            if a.low != b.low { return a.low < b.low }
            let ordered = UTF8Bytes.compare(members[a.index].key, members[b.index].key)
            return ordered < 0 || (ordered == 0 && a.index < b.index)
        }
        return order.map(\.index)
    }
}
