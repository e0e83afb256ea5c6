internal import CLua
internal import CLuaHost
internal import PushmapJSON

/// Reads Lua values into JSON values using only Lua API functions that never raise: no
/// conversion in place, no allocation but stack growth, which `lua_checkstack` reports.
///
/// Asked to, the quick walk also writes the value's compact JSON text as it goes, from the bytes
/// Lua holds: the text `JSONWriter` would write for the value read, without a second walk.
struct LuaValueReader: ~Copyable {
    let host: OpaquePointer
    let state: OpaquePointer
    let maxDepth: Int
    private var path: [LuaPathComponent] = []
    private var open: [UnsafeRawPointer] = []
    /// Entries of the host's member list in use by the objects being read.
    private var membersInUse = 0
    private var root = "$"

    /// Strings already made for this state (the memory of its cache, which outlives the
    /// reader); none by default.
    private let strings: LuaStringCache.Storage?
    /// Whether the quick walk writes `text` as it reads.
    private var writing = false
    private var text = OutputBuffer(capacity: 16)

    init(host: OpaquePointer, maxDepth: Int, strings: LuaStringCache? = nil) {
        self.host = host
        self.state = pmh_state(host)
        self.maxDepth = maxDepth
        self.strings = strings?.storage
    }

    /// Converts the value at `index`; `root` names it in error messages.
    ///
    /// A first walk keeps no path: it builds the value, or gives up at the first thing it cannot
    /// convert. Only then does a second walk, tracking the path, find that place and say why.
    mutating func read(at index: Int32, root: String = "$") throws(LuaError) -> JSONValue {
        writing = false
        return try readValue(at: index, root: root)
    }

    /// As ``read(at:root:)``, with the value's compact JSON text: what
    /// `JSONWriter(style: .compact)` writes for the value, keys in byte order. The quick walk
    /// writes it as it reads; a value only the explaining walk could read (a table whose members
    /// could not be collected in order) is written by the writer afterwards.
    mutating func readWithText(at index: Int32, root: String = "$") throws(LuaError) -> (value: JSONValue, text: [UInt8]) {
        writing = true
        text.truncate(to: 0)
        text.reserve(4096) // once per call: a payload fits, and growing by doubling copies
        defer { writing = false }
        let value = try readValue(at: index, root: root)
        return (value, writing ? text.array() : JSONWriter(style: .compact).write(value))
    }

    private mutating func readValue(at index: Int32, root: String) throws(LuaError) -> JSONValue {
        let absolute = lua_absindex(state, index)
        let top = lua_gettop(state)
        open.removeAll(keepingCapacity: true)
        membersInUse = 0
        if let value = quickValue(at: absolute) { return value }
        lua_settop(state, top) // a walk that gave up may have left a key and a value
        writing = false // the explaining walk writes no text
        path.removeAll(keepingCapacity: true)
        open.removeAll(keepingCapacity: true)
        membersInUse = 0
        self.root = root
        return try value(at: absolute)
    }

    // MARK: the quick walk

    private mutating func quickValue(at index: Int32) -> JSONValue? {
        switch lua_type(state, index) {
        case LUA_TNIL:
            if writing { text.append(ascii: "null") }
            return .null
        case LUA_TBOOLEAN:
            let bool = lua_toboolean(state, index) != 0
            if writing { text.append(ascii: bool ? "true" : "false") }
            return .bool(bool)
        case LUA_TNUMBER:
            if pmh_isinteger(state, index) != 0 {
                let integer = Int64(pmh_tointeger(state, index))
                if writing { JSONWriter.writeInteger(integer, into: &text) }
                return .integer(integer)
            }
            let number = pmh_tonumber(state, index)
            guard number.isFinite else { return nil }
            if writing { JSONWriter.writeDouble(number, into: &text) }
            return .double(number)
        case LUA_TSTRING:
            return quickString(at: index).map(JSONValue.string)
        case LUA_TTABLE:
            return quickTable(at: index)
        case LUA_TLIGHTUSERDATA where pmh_is_null(host, index) != 0:
            if writing { text.append(ascii: "null") }
            return .null
        default:
            return nil
        }
    }

    @inline(__always)
    private mutating func quickString(at index: Int32) -> String? {
        var length = 0
        guard let bytes = pmh_tolstring(state, index, &length), let string = keyString(bytes, length) else { return nil }
        if writing { writeString(bytes, length) }
        return string
    }

    /// Appends the bytes of a string already known to be UTF-8, quoted and escaped.
    @inline(__always)
    private mutating func writeString(_ bytes: UnsafePointer<CChar>, _ length: Int) {
        let buffer = UnsafeBufferPointer(start: UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: length)
        JSONWriter.escape(buffer, into: &text)
    }

    private mutating func quickTable(at index: Int32) -> JSONValue? {
        // `open` holds the tables being read: one per level above this one.
        guard open.count < maxDepth, lua_checkstack(state, 4) != 0, let identity = lua_topointer(state, index),
              !open.contains(identity) else { return nil }
        open.append(identity)
        defer { open.removeLast() }
        let mark = pmh_mark(host, index)
        switch quickObject(at: index, mark: mark) {
        case .read(let object): return object
        case .refused: return nil // read again, it would fail again, at every level above
        case .notAnObject: break
        }
        // Not an object of string keys: an array, an empty table, or a table the explaining walk
        // refuses (mixed keys, or an object the collection above could not take).
        var integerKeys = 0
        var largestKey: lua_Integer = 0
        lua_pushnil(state)
        while lua_next(state, index) != 0 {
            guard lua_type(state, -2) == LUA_TNUMBER, pmh_isinteger(state, -2) != 0 else { return nil }
            let key = pmh_tointeger(state, -2)
            guard key >= 1 else { return nil }
            integerKeys += 1
            largestKey = max(largestKey, key)
            pmh_pop(state, 1)
        }
        if integerKeys == 0 {
            if writing { text.append(ascii: mark == 1 ? "[]" : "{}") }
            return mark == 1 ? .array([]) : .object(JSONObject())
        }
        guard mark != 2, largestKey == lua_Integer(integerKeys) else { return nil }
        var items: [JSONValue] = []
        items.reserveCapacity(integerKeys)
        if writing { text.append(UInt8(ascii: "[")) }
        for position in 1...integerKeys {
            if writing && position > 1 { text.append(UInt8(ascii: ",")) }
            lua_rawgeti(state, index, lua_Integer(position))
            guard let item = quickValue(at: lua_absindex(state, -1)) else { return nil }
            pmh_pop(state, 1)
            items.append(item)
        }
        if writing { text.append(UInt8(ascii: "]")) }
        return .array(items)
    }

    private enum QuickObject {
        case read(JSONValue)
        /// Something in it cannot be converted: the explaining walk will say what.
        case refused
        /// Not a table whose keys are all strings (an array, an empty or a mixed table).
        case notAnObject
    }

    /// The object at `index` with its members in key byte order, when every key is a string.
    /// Checks and writers see members in this order, the same in every state.
    private mutating func quickObject(at index: Int32, mark: Int32) -> QuickObject {
        let top = lua_gettop(state)
        let first = membersInUse
        let count = Int(pmh_collect_members(host, index, first))
        guard count > 0 else { return .notAnObject }
        defer {
            membersInUse = first
            lua_settop(state, top)
        }
        guard mark != 1 else { return .refused }
        membersInUse = first + count
        var members: [JSONObject.Member] = []
        members.reserveCapacity(count)
        if writing { text.append(UInt8(ascii: "{")) }
        for position in first..<(first + count) {
            // Re-read each time: a nested object may have moved the list.
            guard let entry = pmh_members(host)?[position] else { return .refused }
            guard let bytes = entry.key, let key = keyString(bytes, entry.length) else { return .refused }
            if writing {
                if position > first { text.append(UInt8(ascii: ",")) }
                writeString(bytes, entry.length)
                text.append(UInt8(ascii: ":"))
            }
            guard let item = quickValue(at: entry.slot) else { return .refused }
            members.append((key: key, value: item))
        }
        if writing { text.append(UInt8(ascii: "}")) }
        return .read(.object(JSONObject(members: members, sorted: true)))
    }

    /// A Lua string's bytes as a `String`, from the state's cache when there is one; nil when
    /// they are not UTF-8.
    private func keyString(_ bytes: UnsafePointer<CChar>, _ length: Int) -> String? {
        if let strings { return strings.string(UnsafeRawPointer(bytes), length) }
        return UTF8Text.string(UnsafeBufferPointer(start: UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: length))
    }

    // MARK: the explaining walk

    /// An error naming where the reader stands.
    private func failure(_ text: (String) -> String) -> LuaError {
        LuaError(kind: .badValue, message: text(LuaPathComponent.render(path, root: root)))
    }

    private mutating func value(at index: Int32) throws(LuaError) -> JSONValue {
        switch lua_type(state, index) {
        case LUA_TNIL:
            return .null
        case LUA_TBOOLEAN:
            return .bool(lua_toboolean(state, index) != 0)
        case LUA_TNUMBER:
            if pmh_isinteger(state, index) != 0 {
                return .integer(Int64(pmh_tointeger(state, index)))
            }
            let number = pmh_tonumber(state, index)
            guard number.isFinite else { throw failure { at in "\(number) at \(at) is not a JSON number" } }
            return .double(number)
        case LUA_TSTRING:
            return .string(try string(at: index))
        case LUA_TTABLE:
            return try table(at: index)
        case LUA_TLIGHTUSERDATA where pmh_is_null(host, index) != 0:
            return .null
        default:
            let type = String(cString: lua_typename(state, lua_type(state, index)))
            throw failure { at in "a \(type) value at \(at) cannot be converted to JSON" }
        }
    }

    private func string(at index: Int32) throws(LuaError) -> String {
        var length = 0
        guard let bytes = pmh_tolstring(state, index, &length) else { return "" }
        let buffer = UnsafeBufferPointer(start: UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: length)
        guard let text = UTF8Text.string(buffer) else {
            throw failure { at in "the string at \(at) is not valid UTF-8" }
        }
        return text
    }

    private mutating func table(at index: Int32) throws(LuaError) -> JSONValue {
        guard path.count < maxDepth else { throw failure { at in "value nested deeper than \(maxDepth) levels at \(at)" } }
        guard lua_checkstack(state, 4) != 0 else { throw failure { at in "value nested too deeply at \(at)" } }
        guard let identity = lua_topointer(state, index) else { throw failure { at in "unreadable table at \(at)" } }
        if open.contains(identity) { throw failure { at in "the table at \(at) contains itself (a cycle)" } }
        open.append(identity)
        defer { open.removeLast() }

        let mark = pmh_mark(host, index)
        // Objects in key order, as the quick walk reads them, so the first refusal met is the
        // same in every state.
        let top = lua_gettop(state)
        let first = membersInUse
        let count = Int(pmh_collect_members(host, index, first))
        if count > 0 {
            defer {
                membersInUse = first
                lua_settop(state, top)
            }
            guard mark != 1 else { throw failure { at in "the table at \(at) is marked as an array but has string keys" } }
            membersInUse = first + count
            var members: [JSONObject.Member] = []
            for position in first..<(first + count) {
                guard let entry = pmh_members(host)?[position], let bytes = entry.key else { break }
                guard let key = keyString(bytes, entry.length) else {
                    throw failure { at in "a key of the table at \(at) is not valid UTF-8" }
                }
                path.append(.key(key))
                let item = try value(at: entry.slot)
                path.removeLast()
                members.append((key: key, value: item))
            }
            return .object(JSONObject(members: members, sorted: true))
        }
        // One pass: string keys are read as an object on the way; integer keys are counted and
        // read in order afterwards.
        var members = JSONObject()
        var integerKeys = 0
        var largestKey: lua_Integer = 0
        lua_pushnil(state)
        while lua_next(state, index) != 0 {
            let keyType = lua_type(state, -2)
            if keyType == LUA_TSTRING, integerKeys == 0 {
                let key = try string(at: -2)
                path.append(.key(key))
                let item = try value(at: lua_absindex(state, -1))
                path.removeLast()
                if members.isEmpty { members.reserveCapacity(8) }
                members.append(key: key, value: item)
            } else if keyType == LUA_TNUMBER, pmh_isinteger(state, -2) != 0, members.isEmpty {
                let key = pmh_tointeger(state, -2)
                guard key >= 1 else {
                    pmh_pop(state, 2)
                    throw failure { at in "the table at \(at) has the key \(key): an array's keys are 1...n" }
                }
                integerKeys += 1
                largestKey = max(largestKey, key)
            } else {
                let described = describeKey(at: -2)
                pmh_pop(state, 2)
                if keyType == LUA_TSTRING || keyType == LUA_TNUMBER {
                    throw failure { at in "the table at \(at) mixes array and object keys (key \(described))" }
                }
                throw failure { at in "the table at \(at) has a key of type \(described): object keys must be strings" }
            }
            pmh_pop(state, 1)
        }
        if integerKeys > 0 {
            guard mark != 2 else { throw failure { at in "the table at \(at) is marked as an object but has array keys" } }
            guard largestKey == lua_Integer(integerKeys) else {
                throw failure { at in "the array at \(at) has holes: \(integerKeys) items but a largest key of \(largestKey)" }
            }
            var items: [JSONValue] = []
            items.reserveCapacity(integerKeys)
            for position in 1...integerKeys {
                lua_rawgeti(state, index, lua_Integer(position))
                path.append(.index(position - 1))
                let item = try value(at: lua_absindex(state, -1))
                path.removeLast()
                pmh_pop(state, 1)
                items.append(item)
            }
            return .array(items)
        }
        if members.isEmpty {
            return mark == 1 ? .array([]) : .object(JSONObject())
        }
        guard mark != 1 else { throw failure { at in "the table at \(at) is marked as an array but has string keys" } }
        return .object(members)
    }

    private func describeKey(at index: Int32) -> String {
        switch lua_type(state, index) {
        case LUA_TSTRING:
            return (try? string(at: index)).map { "'\($0)'" } ?? "(string)"
        case LUA_TNUMBER:
            if pmh_isinteger(state, index) != 0 { return String(pmh_tointeger(state, index)) }
            return String(pmh_tonumber(state, index))
        default:
            return String(cString: lua_typename(state, lua_type(state, index)))
        }
    }
}
