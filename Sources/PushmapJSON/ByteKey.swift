/// A string that hashes and compares by its UTF-8 bytes, for sets of object keys.
struct ByteKey: Hashable {
    /// The key.
    let string: String

    static func == (lhs: ByteKey, rhs: ByteKey) -> Bool { UTF8Bytes.equal(lhs.string, rhs.string) }

    func hash(into hasher: inout Hasher) { UTF8Bytes.hash(string, into: &hasher) }
}
