/// The growing byte buffer the writer and the tape parsers fill: raw memory with its own doubling,
/// so that appending a byte is a store and a bounds check rather than a call into `Array`'s growth
/// path. A struct the writer owns, so writing costs no exclusivity check.
package struct OutputBuffer: ~Copyable {
    // Usable from inlined code: the tape writers in other modules append byte by byte.
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline package internal(set) var count = 0
    /// Whether `base` is this buffer's heap memory rather than the caller's scratch.
    @usableFromInline var owned = true

    package init(capacity: Int) {
        self.capacity = Swift.max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    /// A buffer in `scratch` (which must outlive it) when `capacity` fits there, else on the
    /// heap; it moves to the heap when it outgrows the scratch.
    package init(scratch: UnsafeMutableRawBufferPointer, capacity: Int) {
        if let memory = scratch.baseAddress, scratch.count >= Swift.max(capacity, 16) {
            base = memory.bindMemory(to: UInt8.self, capacity: scratch.count)
            self.capacity = scratch.count
            owned = false
        } else {
            self.capacity = Swift.max(capacity, 16)
            base = .allocate(capacity: self.capacity)
        }
    }

    deinit { if owned { base.deallocate() } }

    /// Whether the bytes are still in the scratch the buffer was made with.
    package var isInScratch: Bool { !owned }

    /// Makes room for `extra` more bytes.
    @inlinable
    package mutating func reserve(_ extra: Int) {
        if count &+ extra > capacity { grow(count &+ extra) }
    }

    @usableFromInline
    mutating func grow(_ needed: Int) {
        var newCapacity = capacity &* 2
        while newCapacity < needed { newCapacity &*= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        if owned { base.deallocate() }
        owned = true
        base = newBase
        capacity = newCapacity
    }

    @inlinable
    package mutating func append(_ byte: UInt8) {
        reserve(1)
        appendUnchecked(byte)
    }

    @inlinable
    package mutating func append(_ bytes: UnsafePointer<UInt8>, count n: Int) {
        reserve(n)
        appendUnchecked(bytes, count: n)
    }

    /// Appends the bytes of an ASCII literal.
    @inline(__always)
    package mutating func append(ascii text: StaticString) {
        append(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// Appends the bytes as they are.
    package mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
        if let start = bytes.baseAddress { append(start.assumingMemoryBound(to: UInt8.self), count: bytes.count) }
    }

    package mutating func append(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBytes { append(contentsOf: $0) }
    }

    /// Appends the string's UTF-8 bytes as they are, not escaped.
    package mutating func append(contentsOf text: String) {
        UTF8Bytes.withBytes(of: text) { append(contentsOf: UnsafeRawBufferPointer($0)) }
    }

    /// Appends after ``reserve(_:)`` has made room.
    @inlinable
    mutating func appendUnchecked(_ byte: UInt8) {
        base[count] = byte
        count &+= 1
    }

    /// Always inlined: the optimiser left it a call per string of the tape parser and the
    /// writer, about 600 instructions a batch line (callgrind, self costs of the callers).
    @inlinable @inline(__always)
    mutating func appendUnchecked(_ bytes: UnsafePointer<UInt8>, count n: Int) {
        let target = UnsafeMutableRawPointer(base + count)
        let source = UnsafeRawPointer(bytes)
        // Keys and short values, most of what is appended: two overlapping words, inline, where
        // a call to memmove costs more than the copy.
        if n >= 8 && n <= 16 {
            let head = source.loadUnaligned(as: UInt64.self)
            let tail = source.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
            target.storeBytes(of: head, as: UInt64.self)
            target.storeBytes(of: tail, toByteOffset: n &- 8, as: UInt64.self)
        } else if n >= 4 && n < 8 {
            let head = source.loadUnaligned(as: UInt32.self)
            let tail = source.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
            target.storeBytes(of: head, as: UInt32.self)
            target.storeBytes(of: tail, toByteOffset: n &- 4, as: UInt32.self)
        } else {
            (base + count).update(from: bytes, count: n)
        }
        count &+= n
    }

    /// Appends `value`'s bytes in native order, unaligned.
    @inlinable
    package mutating func append<T: FixedWidthInteger>(raw value: T) {
        reserve(MemoryLayout<T>.size)
        UnsafeMutableRawPointer(base + count).storeBytes(of: value, as: T.self)
        count &+= MemoryLayout<T>.size
    }

    /// Overwrites 4 bytes at `offset` (written before) with `value`, as a count written last.
    func patch(_ value: UInt32, at offset: Int) {
        UnsafeMutableRawPointer(base + offset).storeBytes(of: value, as: UInt32.self)
    }

    /// The bytes written so far, valid until the next append.
    package var start: UnsafePointer<UInt8> { UnsafePointer(base) }

    /// Hands the memory to the caller, who deallocates it (the bytes are moved to the heap first
    /// when they are in scratch); the buffer is left without memory, not to be written again.
    mutating func takeMemory() -> UnsafeMutablePointer<UInt8> {
        if !owned { grow(capacity) }
        owned = false
        count = 0
        capacity = 0
        return base
    }

    /// Forgets what was written after the first `count` bytes, keeping the memory.
    package mutating func truncate(to count: Int) { self.count = Swift.min(self.count, Swift.max(0, count)) }

    /// The bytes as an array, in one copy.
    package consuming func finish() -> [UInt8] { array() }

    /// A copy of the bytes written so far, as an array.
    func array() -> [UInt8] {
        let n = count
        return [UInt8](unsafeUninitializedCapacity: n) { buffer, initialized in
            if let target = buffer.baseAddress { target.update(from: base, count: n) }
            initialized = n
        }
    }

    /// Appends the bytes to `array`.
    package func append(to array: inout [UInt8]) {
        array.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
    }
}
