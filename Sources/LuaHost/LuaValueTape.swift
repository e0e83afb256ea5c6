internal import CLuaHost
internal import PushmapJSON

/// JSON values flattened into the byte form the C side pushes in protected mode (pushing may
/// raise, which must happen in C, never across a Swift frame). Numbers in native byte order.
struct LuaValueTape {
    private(set) var bytes: [UInt8] = []
    private(set) var count: Int32 = 0
    let maxDepth: Int

    init(maxDepth: Int, capacity: Int = 256) {
        self.maxDepth = maxDepth
        bytes.reserveCapacity(capacity)
    }

    mutating func append(_ value: JSONValue) throws(LuaError) {
        var path: [LuaPathComponent] = []
        try append(value, depth: 1, path: &path)
        count += 1
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        count = 0
    }

    private mutating func append(_ value: JSONValue, depth: Int, path: inout [LuaPathComponent]) throws(LuaError) {
        switch value {
        case .null:
            bytes.append(UInt8(PMH_TAPE_NULL))
        case .bool(let flag):
            bytes.append(UInt8(flag ? PMH_TAPE_TRUE : PMH_TAPE_FALSE))
        case .integer(let number):
            bytes.append(UInt8(PMH_TAPE_INTEGER))
            withUnsafeBytes(of: number) { bytes.append(contentsOf: $0) }
        case .double(let number):
            guard number.isFinite else {
                throw LuaError(kind: .badValue, message: "\(number) is not a JSON number at \(LuaPathComponent.render(path))")
            }
            bytes.append(UInt8(PMH_TAPE_DOUBLE))
            withUnsafeBytes(of: number) { bytes.append(contentsOf: $0) }
        case .string(let text):
            try appendString(text, path: path)
        case .array(let items):
            try checkDepth(depth, path: path)
            try appendCount(UInt8(PMH_TAPE_ARRAY), items.count, path: path)
            for (index, item) in items.enumerated() {
                path.append(.index(index))
                try append(item, depth: depth + 1, path: &path)
                path.removeLast()
            }
        case .object(let object):
            try checkDepth(depth, path: path)
            try appendCount(UInt8(PMH_TAPE_OBJECT), object.count, path: path)
            for (key, item) in object.members {
                path.append(.key(key))
                try appendString(key, path: path)
                try append(item, depth: depth + 1, path: &path)
                path.removeLast()
            }
        }
    }

    /// Only arrays and objects count as levels, as for the JSON parser and for values read back
    /// from Lua: whatever a script may return, or an intent may hold, can be passed in.
    private func checkDepth(_ depth: Int, path: [LuaPathComponent]) throws(LuaError) {
        if depth > maxDepth {
            throw LuaError(kind: .badValue, message: "value nested deeper than \(maxDepth) levels at \(LuaPathComponent.render(path))")
        }
    }

    private mutating func appendString(_ text: String, path: [LuaPathComponent]) throws(LuaError) {
        var text = text
        let length = text.utf8.count
        try appendCount(UInt8(PMH_TAPE_STRING), length, path: path)
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    private mutating func appendCount(_ op: UInt8, _ count: Int, path: [LuaPathComponent]) throws(LuaError) {
        guard count <= Int(UInt32.max) else {
            throw LuaError(kind: .badValue, message: "value too large at \(LuaPathComponent.render(path))")
        }
        bytes.append(op)
        withUnsafeBytes(of: UInt32(count)) { bytes.append(contentsOf: $0) }
    }
}

/// A step of the path to a value, rendered only when an error names it.
enum LuaPathComponent {
    case key(String)
    case index(Int)

    static func render(_ path: [LuaPathComponent], root: String = "$") -> String {
        var text = root
        for component in path {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key):
                if isIdentifier(key) {
                    text += "." + key
                } else {
                    var quoted: [UInt8] = []
                    JSONWriter.escapeJSONString(key, into: &quoted)
                    text += "[" + String(decoding: quoted, as: UTF8.self) + "]"
                }
            }
        }
        return text
    }

    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.utf8.first, first == UInt8(ascii: "_") || (first | 0x20 >= UInt8(ascii: "a") && first | 0x20 <= UInt8(ascii: "z")) else {
            return false
        }
        return key.utf8.allSatisfy { byte in
            byte == UInt8(ascii: "_") || (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
        }
    }
}
