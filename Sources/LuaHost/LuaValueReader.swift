internal import CLua
internal import CLuaHost
internal import PushmapJSON

/// Reads a Lua value into a JSON value while keeping the path to where it stands, to word
/// what cannot be converted. Uses only Lua API functions that never raise: no conversion in
/// place, no allocation but stack growth, which `lua_checkstack` reports.
///
/// The C walk (`pmh_json_encode_items`, `pmh_json_encode`) reads results and `json()`'s values;
/// this reader runs only when C gives up: for every value that cannot be converted, whose
/// message it words, and for the few C is not sure of (nested deeper than C recurses, or memory
/// ran out in C), which it reads.
struct LuaValueReader: ~Copyable {
    let host: OpaquePointer
    let state: OpaquePointer
    let maxDepth: Int
    /// What the value may still take, counted as its JSON text would (a string its bytes, any
    /// other value a few): a table met many times is read each time, so this bounds the walk.
    private var remainingBytes: Int
    private let maxBytes: Int
    private var path: [JSONPath.Component] = []
    private var open: [UnsafeRawPointer] = []
    /// Entries of the host's member list in use by the objects being read.
    private var membersInUse = 0
    private var root = "$"

    init(host: OpaquePointer, maxDepth: Int, maxBytes: Int) {
        self.host = host
        self.state = pmh_state(host)
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes > 0 ? maxBytes : .max  // 0: no limit, as for the state
        self.remainingBytes = self.maxBytes
    }

    /// Converts the value at `index`; `root` names it in error messages.
    mutating func read(at index: Int32, root: String = "$") throws(LuaError) -> JSONValue {
        let absolute = lua_absindex(state, index)
        path.removeAll(keepingCapacity: true)
        open.removeAll(keepingCapacity: true)
        membersInUse = 0
        remainingBytes = maxBytes
        self.root = root
        return try value(at: absolute)
    }

    /// A Lua string's bytes as a `String`; nil when they are not UTF-8.
    private func text(_ bytes: UnsafePointer<CChar>, _ length: Int) -> String? {
        UTF8Text.string(UnsafeBufferPointer(start: UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: length))
    }

    // MARK: the walk

    /// An error naming where the reader stands.
    private func failure(_ text: (String) -> String) -> LuaError {
        let at = JSONPath(path).text(from: root)
        var error = LuaError(kind: .badValue, message: text(at))
        error.valuePath = at
        return error
    }

    private mutating func value(at index: Int32) throws(LuaError) -> JSONValue {
        let type = lua_type(state, index)
        var length = 0
        if type == LUA_TSTRING { _ = pmh_tolstring(state, index, &length) }
        remainingBytes -= 4 + length
        guard remainingBytes >= 0 else { throw LuaError.tooLargeAsJSON(at: root, limit: maxBytes) }
        switch type {
        case LUA_TNIL:
            return .null
        case LUA_TBOOLEAN:
            return .bool(lua_toboolean(state, index) != 0)
        case LUA_TNUMBER:
            if pmh_isinteger(state, index) != 0 {
                return .integer(Int64(pmh_tointeger(state, index)))
            }
            let number = pmh_tonumber(state, index)
            guard number.isFinite else {
                let name = number.isNaN ? "NaN" : number > 0 ? "infinity" : "-infinity"
                throw failure { at in "\(name) at \(at) is not a JSON number" }
            }
            return .double(number)
        case LUA_TSTRING:
            return .string(try string(at: index))
        case LUA_TTABLE:
            // A read-only view (pushmap.rules) is written as the table it shows.
            if pmh_push_viewed(host, index) != 0 {
                defer { pmh_pop(state, 1) }
                return try table(at: lua_gettop(state))
            }
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
        guard let string = text(bytes, length) else {
            throw failure { at in "the string at \(at) is not valid UTF-8" }
        }
        return string
    }

    private mutating func table(at index: Int32) throws(LuaError) -> JSONValue {
        guard path.count < maxDepth else { throw failure { at in "value nested deeper than \(maxDepth) levels at \(at)" } }
        guard lua_checkstack(state, 4) != 0 else { throw failure { at in "value nested too deeply at \(at)" } }
        guard let identity = lua_topointer(state, index) else { throw failure { at in "unreadable table at \(at)" } }
        if open.contains(identity) { throw failure { at in "the table at \(at) contains itself (a cycle)" } }
        open.append(identity)
        defer { open.removeLast() }

        let mark = pmh_mark(host, index)
        // Objects in key order, as the C walk reads them, so the first refusal met is the same
        // in every state.
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
                guard let key = text(bytes, entry.length) else {
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
        var firstIntegerKey: lua_Integer = 0
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
                if integerKeys == 0 { firstIntegerKey = key }
                integerKeys += 1
                largestKey = max(largestKey, key)
            } else {
                let described = describeKey(at: -2)
                pmh_pop(state, 2)
                if keyType == LUA_TSTRING || keyType == LUA_TNUMBER {
                    // Both kinds named, the one met first among them: Lua's order is the table's,
                    // so naming only the second made a string key look the stray one (the
                    // twenty-sixth audit, F16: 'adb_version' for a data map given [1]).
                    let other = integerKeys > 0 ? "\(firstIntegerKey)" : members.members.first.map { "'\($0.key)'" }
                    let keys = other.map { "\($0) and \(described)" } ?? "key \(described)"
                    throw failure { at in "the table at \(at) mixes array and object keys (\(keys))" }
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
