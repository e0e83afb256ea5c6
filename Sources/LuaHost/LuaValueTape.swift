internal import CLuaHost
internal import PushmapJSON

/// JSON values flattened into the byte form the C side pushes in protected mode (pushing may
/// raise, which must happen in C, never across a Swift frame). Numbers in native byte order.
///
/// Values are written by a walk that stores straight into one raw buffer and keeps no path: a
/// refused value (too deep, not finite, too large) makes a second walk that tracks the path,
/// only to name the place in the error.
final class LuaValueTape {
    // Unchecked: a tape belongs to one state, used by one thread at a time, and the dynamic
    // exclusivity checks cost about 100 instructions an appended value (a few a translation).
    @exclusivity(unchecked) private var buffer: OutputBuffer
    /// Values written.
    @exclusivity(unchecked) private(set) var count: Int32 = 0
    let maxDepth: Int

    init(maxDepth: Int, capacity: Int = 4096) {
        self.maxDepth = maxDepth
        buffer = OutputBuffer(capacity: capacity)
    }

    /// The bytes written, valid until the next change.
    var bytes: UnsafePointer<UInt8> { buffer.start }

    /// Bytes written.
    var length: Int { buffer.count }

    func append(_ value: JSONValue) throws(LuaError) {
        let mark = buffer.count
        // One access to the buffer for the whole walk: each access to a class's stored property
        // is checked for exclusivity, which per byte cost more than the writing.
        if Self.write(value, depth: 1, maxDepth: maxDepth, into: &buffer) {
            count += 1
            return
        }
        buffer.truncate(to: mark)
        var path: [JSONPath.Component] = []
        try explain(value, depth: 1, path: &path)
        throw LuaError(kind: .badValue, message: "value cannot be passed at \(JSONPath(path).description)")
    }

    /// Appends one value already in tape form (a parsed ``JSONTape``), byte for byte: all the
    /// arguments of a call then go to Lua in one protected push.
    func append(tape bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        buffer.append(base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        count += 1
    }

    func removeAll() {
        buffer.truncate(to: 0)
        count = 0
    }

    // MARK: the fast walk

    /// Whether the C host reads the tape as ``JSONTape`` writes it: `append(tape:)` copies a
    /// parsed intent's bytes as they are, and the walk below writes with ``JSONTape/Op``.
    static var formatAgrees: Bool {
        let pairs: [(UInt8, Int)] = [
            (JSONTape.Op.null, PMH_TAPE_NULL), (JSONTape.Op.true, PMH_TAPE_TRUE), (JSONTape.Op.false, PMH_TAPE_FALSE),
            (JSONTape.Op.integer, PMH_TAPE_INTEGER), (JSONTape.Op.double, PMH_TAPE_DOUBLE), (JSONTape.Op.string, PMH_TAPE_STRING),
            (JSONTape.Op.array, PMH_TAPE_ARRAY), (JSONTape.Op.object, PMH_TAPE_OBJECT),
        ]
        return pairs.allSatisfy { Int($0.0) == $0.1 }
    }

    /// False when the value must be refused; what was written is then abandoned.
    private static func write(_ value: JSONValue, depth: Int, maxDepth: Int, into out: inout OutputBuffer) -> Bool {
        switch value {
        case .null:
            out.put(JSONTape.Op.null)
        case .bool(let flag):
            out.put(flag ? JSONTape.Op.true : JSONTape.Op.false)
        case .integer(let number):
            out.put(JSONTape.Op.integer, number)
        case .double(let number):
            guard number.isFinite else { return false }
            out.put(JSONTape.Op.double, number.bitPattern)
        case .string(let text):
            return writeString(text, into: &out)
        case .array(let items):
            guard depth <= maxDepth, items.count <= Int(UInt32.max) else { return false }
            out.put(JSONTape.Op.array, UInt32(items.count))
            for item in items where !write(item, depth: depth + 1, maxDepth: maxDepth, into: &out) { return false }
        case .object(let object):
            guard depth <= maxDepth, object.count <= Int(UInt32.max) else { return false }
            out.put(JSONTape.Op.object, UInt32(object.count))
            for member in object.members {
                guard writeString(member.key, into: &out), write(member.value, depth: depth + 1, maxDepth: maxDepth, into: &out) else { return false }
            }
        }
        return true
    }

    private static func writeString(_ text: String, into out: inout OutputBuffer) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            guard utf8.count <= Int(UInt32.max) else { return false }
            out.put(JSONTape.Op.string, UInt32(utf8.count))
            if let source = utf8.baseAddress { out.append(source, count: utf8.count) }
            return true
        }
    }

    // MARK: the explaining walk

    /// Throws naming the first place the fast walk refused, in the same order it walks.
    private func explain(_ value: JSONValue, depth: Int, path: inout [JSONPath.Component]) throws(LuaError) {
        switch value {
        case .null, .bool, .integer:
            return
        case .double(let number):
            guard number.isFinite else {
                throw LuaError(kind: .badValue, message: "\(number) is not a JSON number at \(JSONPath(path).description)")
            }
        case .string(let text):
            try checkCount(text.utf8.count, path: path)
        case .array(let items):
            try checkDepth(depth, path: path)
            try checkCount(items.count, path: path)
            for (index, item) in items.enumerated() {
                path.append(.index(index))
                try explain(item, depth: depth + 1, path: &path)
                path.removeLast()
            }
        case .object(let object):
            try checkDepth(depth, path: path)
            try checkCount(object.count, path: path)
            for (key, item) in object.members {
                path.append(.key(key))
                try checkCount(key.utf8.count, path: path)
                try explain(item, depth: depth + 1, path: &path)
                path.removeLast()
            }
        }
    }

    /// Only arrays and objects count as levels, as for the JSON parser and for values read back
    /// from Lua: whatever a script may return, or an intent may hold, can be passed in.
    private func checkDepth(_ depth: Int, path: [JSONPath.Component]) throws(LuaError) {
        if depth > maxDepth {
            throw LuaError(kind: .badValue, message: "value nested deeper than \(maxDepth) levels at \(JSONPath(path).description)")
        }
    }

    private func checkCount(_ count: Int, path: [JSONPath.Component]) throws(LuaError) {
        guard count <= Int(UInt32.max) else {
            throw LuaError(kind: .badValue, message: "value too large at \(JSONPath(path).description)")
        }
    }
}
