/// A key's length with its first and last eight bytes: equal prints mean equal bytes for keys
/// of up to 16 bytes, and unequal prints always mean unequal bytes. The one form of this trick
/// in Swift: the intent check's words, the checks' known keys, the parsers' duplicate-key filter.
/// Public only to the engine's own modules (the `Engine` SPI), because this toolchain inlines
/// across modules only public declarations, and the checks and the intent check compute prints
/// on their hot paths: as `package`, the calls cost 16k instructions a translation (measured).
@_spi(Engine)
public struct KeyPrint: Equatable, Sendable {
    public let length: Int
    public let head: UInt64
    public let tail: UInt64

    /// Written out rather than synthesised, so that other modules inline it.
    @inlinable
    public static func == (lhs: KeyPrint, rhs: KeyPrint) -> Bool {
        lhs.length == rhs.length && lhs.head == rhs.head && lhs.tail == rhs.tail
    }

    @inlinable
    public init(length: Int, head: UInt64, tail: UInt64) {
        self.length = length
        self.head = head
        self.tail = tail
    }

    public init(_ key: String) {
        var key = key
        self = key.withUTF8 { KeyPrint(bytes: UnsafeRawBufferPointer($0)) }
    }

    @inlinable
    public init(bytes: UnsafeRawBufferPointer) {
        let n = bytes.count
        guard let raw = bytes.baseAddress else {
            (length, head, tail) = (0, 0, 0)
            return
        }
        length = n
        if n >= 8 {
            head = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            tail = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self))
            return
        }
        // Little-endian, as above: the first byte is the lowest, zeros past the end.
        var word: UInt64 = 0
        if n >= 4 {
            // Two overlapping four-byte reads: the shared bytes are the same, so OR joins them.
            let low = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
            let high = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)))
            word = low | high << (8 * UInt64(n - 4))
        } else {
            for i in 0..<n { word |= UInt64(raw.load(fromByteOffset: i, as: UInt8.self)) << (8 * UInt64(i)) }
        }
        (head, tail) = (word, word)
    }

    /// Whether the print covers every byte of the key.
    @inlinable
    public var isWhole: Bool { length <= 16 }

    /// Whether the key's first `length` bytes (at most 8) are `prefix`'s, packed as ``head`` is.
    @inlinable
    public func hasPrefix(_ prefix: UInt64, length prefixLength: Int) -> Bool {
        guard length >= prefixLength else { return false }
        let mask: UInt64 = prefixLength >= 8 ? ~0 : (1 << (8 * UInt64(prefixLength))) - 1
        return head & mask == prefix
    }
}
