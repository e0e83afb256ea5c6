internal import CLuaHost
internal import PushmapJSON

/// The item list of one `pmh_json_encode_items`: the value the C encoder wrote, in the order it
/// wrote it. Building the `JSONValue` from it takes no call into Lua: the C walk has already
/// read the tables, sorted each object's keys and checked every string's UTF-8.
///
/// Valid only until the state runs anything or the encoded value leaves the stack (the strings
/// are Lua's bytes) and until the encoder's next encode.
struct LuaJSONItems: ~Copyable {
    private let items: UnsafePointer<pmh_json_item>
    private let count: Int
    private let strings: LuaStringCache.Storage?
    private var position = 0

    init?(encoder: OpaquePointer, strings: LuaStringCache.Storage?) {
        var count = 0
        guard let items = pmh_json_encoder_items(encoder, &count), count > 0 else { return nil }
        self.items = items
        self.count = count
        self.strings = strings
    }

    /// The whole value, or nil if the list is not one value (which the encoder never makes).
    mutating func value() -> JSONValue? {
        position = 0
        guard let value = next(), position == count else { return nil }
        return value
    }

    private mutating func next() -> JSONValue? {
        guard position < count else { return nil }
        let item = items[position]
        position += 1
        switch Int(item.kind) {
        case PMH_TAPE_NULL: return .null
        case PMH_TAPE_TRUE: return .bool(true)
        case PMH_TAPE_FALSE: return .bool(false)
        case PMH_TAPE_INTEGER: return .integer(item.integer)
        case PMH_TAPE_DOUBLE: return .double(item.number)
        case PMH_TAPE_STRING: return string(item).map(JSONValue.string)
        case PMH_TAPE_ARRAY:
            guard item.length <= count - position else { return nil }
            var elements: [JSONValue] = []
            elements.reserveCapacity(item.length)
            for _ in 0..<item.length {
                guard let element = next() else { return nil }
                elements.append(element)
            }
            return .array(elements)
        case PMH_TAPE_OBJECT:
            guard item.length <= (count - position) / 2 else { return nil }
            var members: [JSONObject.Member] = []
            members.reserveCapacity(item.length)
            for _ in 0..<item.length {
                guard position < count, Int(items[position].kind) == PMH_TAPE_STRING,
                      let key = string(items[position]) else { return nil }
                position += 1
                guard let value = next() else { return nil }
                members.append((key: key, value: value))
            }
            return .object(JSONObject(members: members, sorted: true))
        default:
            return nil
        }
    }

    @inline(__always)
    private func string(_ item: pmh_json_item) -> String? {
        guard let bytes = item.bytes else { return item.length == 0 ? "" : nil }
        return LuaStringCache.string(UnsafeRawPointer(bytes), item.length, from: strings)
    }
}
