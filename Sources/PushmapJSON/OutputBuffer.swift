/// The growing byte buffer the writer fills: raw memory with its own doubling, so that appending
/// a byte is a store and a bounds check rather than a call into `Array`'s growth path.
struct OutputBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count &+ extra > capacity { grow(count &+ extra) }
    }

    private mutating func grow(_ needed: Int) {
        var newCapacity = capacity &* 2
        while newCapacity < needed { newCapacity &*= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        appendUnchecked(byte)
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafePointer<UInt8>, count n: Int) {
        reserve(n)
        appendUnchecked(bytes, count: n)
    }

    /// Appends the bytes of an ASCII literal.
    @inline(__always)
    mutating func append(ascii text: StaticString) {
        append(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// Appends after ``reserve(_:)`` has made room.
    @inline(__always)
    mutating func appendUnchecked(_ byte: UInt8) {
        base[count] = byte
        count &+= 1
    }

    @inline(__always)
    mutating func appendUnchecked(_ bytes: UnsafePointer<UInt8>, count n: Int) {
        (base + count).update(from: bytes, count: n)
        count &+= n
    }

    /// The bytes as an array, in one copy.
    consuming func finish() -> [UInt8] {
        let n = count
        return [UInt8](unsafeUninitializedCapacity: n) { buffer, initialized in
            if let target = buffer.baseAddress { target.update(from: base, count: n) }
            initialized = n
        }
    }

    /// Appends the bytes to `array`.
    func append(to array: inout [UInt8]) {
        array.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
    }
}
