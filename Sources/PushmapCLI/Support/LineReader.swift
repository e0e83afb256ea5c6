#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Reads newline-separated lines from a file descriptor in big blocks, with a cap on a line's
/// length: a longer line is skipped as it streams past (its length is still reported), so memory
/// stays flat whatever the input.
struct LineReader {
    /// One input line: its bytes (without the newline or a trailing CR), or its length when it
    /// was too long to keep.
    struct Line {
        var number: Int
        var bytes: [UInt8]
        var overlongLength: Int?
    }

    private let descriptor: Int32
    private let maxLineBytes: Int
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var finished = false
    private(set) var lineNumber = 0

    init(descriptor: Int32, maxLineBytes: Int, blockSize: Int = 1 << 20) {
        self.descriptor = descriptor
        self.maxLineBytes = maxLineBytes
        buffer = [UInt8](repeating: 0, count: max(blockSize, 4096))
    }

    /// A newline found by ``hasLineReady`` and not yet taken, so `next` need not search again.
    private var readyNewline: Int?

    /// Whether `next` answers without waiting for the writer: a whole line is buffered, the input
    /// has ended, or a read would not block (a file always; a pipe when its writer has sent more).
    /// A batch fed a line at a time by a process that waits for the answer (a coprocess, `tail
    /// -f`) translates what it has rather than wait for a whole window (the forty-sixth audit,
    /// cli F1).
    mutating func hasLineReady() -> Bool {
        if finished { return true }
        if let newline = firstNewline() {
            readyNewline = newline
            return true
        }
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&ready, 1, 0) != 0
    }

    /// The next line, or nil at the end of the input. Throws the errno text of a failed read.
    mutating func next() throws(ReadFailure) -> Line? {
        var overlong = 0  // bytes of the current line already skipped
        while true {
            if let newline = readyNewline ?? firstNewline() {
                readyNewline = nil
                lineNumber += 1
                defer { start = newline + 1 }
                return line(upTo: newline, skipped: overlong)
            }
            if finished {
                guard end > start || overlong > 0 else { return nil }
                lineNumber += 1
                defer { start = end }
                return line(upTo: end, skipped: overlong)
            }
            // No newline in what is buffered: drop an overlong line's bytes, or make room. One
            // byte over the limit is kept: it may be the CR of a line of just the limit.
            if end - start > maxLineBytes + 1 {
                overlong += end - start
                start = 0
                end = 0
            } else if start > 0 {
                buffer.withUnsafeMutableBufferPointer { pointer in
                    guard let base = pointer.baseAddress else { return }
                    memmove(base, base + start, end - start)
                }
                end -= start
                start = 0
            }
            if end == buffer.count {
                // A kept line may need up to maxLineBytes plus a block.
                buffer.append(contentsOf: [UInt8](repeating: 0, count: buffer.count))
            }
            try fill()
        }
    }

    /// The line from `start` to `end` (the newline or the input's end) without a trailing CR,
    /// which does not count toward the limit (the thirty-third audit, F8).
    private func line(upTo end: Int, skipped: Int) -> Line {
        let carriageReturn = end > start && buffer[end - 1] == 0x0D ? 1 : 0
        let length = skipped + end - start - carriageReturn
        if skipped > 0 || length > maxLineBytes {
            return Line(number: lineNumber, bytes: [], overlongLength: length)
        }
        return Line(number: lineNumber, bytes: Array(buffer[start..<(end - carriageReturn)]), overlongLength: nil)
    }

    private func firstNewline() -> Int? {
        guard end > start else { return nil }
        return buffer.withUnsafeBufferPointer { pointer -> Int? in
            guard let base = pointer.baseAddress, let found = memchr(base + start, 0x0A, end - start) else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    private mutating func fill() throws(ReadFailure) {
        let capacity = buffer.count - end
        let count = buffer.withUnsafeMutableBufferPointer { pointer -> Int in
            guard let base = pointer.baseAddress else { return 0 }
            while true {
                let read = systemRead(descriptor, base + end, capacity)
                if read < 0, errno == EINTR { continue }
                return read
            }
        }
        if count < 0 { throw ReadFailure(reason: String(cString: strerror(errno))) }
        if count == 0 { finished = true }
        end += max(0, count)
    }

    struct ReadFailure: Error {
        var reason: String
    }
}

private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
