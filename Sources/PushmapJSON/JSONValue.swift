/// One JSON value, as parsed by ``JSONParser`` and written by ``JSONWriter``.
///
/// Integers and other numbers stay apart so that `3` and `3.0` survive a round trip
/// unchanged. Strings compare by their UTF-8 bytes, as JSON compares them, not by
/// Swift's canonical equivalence: `"é"` and `"e\u{301}"` are different values.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written with no `.`, `e` or `E` that fits in `Int64`.
    case integer(Int64)
    /// Any other number. Never NaN or infinite when it comes from the parser;
    /// the writer writes such a value as `null`.
    case double(Double)
    /// A string; it may contain NUL characters.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object whose members keep their order.
    case object(JSONObject)

    /// The member named `key` when this is an object that has one, else `nil`.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The element at `index` when this is an array and the index is in range, else `nil`.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let array) = self, array.indices.contains(index) { return array[index] }
        return nil
    }

    /// The string when this is a string.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The integer when this is an integer; doubles are not narrowed.
    public var integerValue: Int64? {
        if case .integer(let integer) = self { return integer }
        return nil
    }

    /// The number when this is a double or an integer (widened, so it may round above 2^53).
    public var doubleValue: Double? {
        switch self {
        case .integer(let integer): Double(integer)
        case .double(let double): double
        default: nil
        }
    }

    /// The Boolean when this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// The elements when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    /// The object when this is an object.
    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// Whether this is `null`.
    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The kind's name for messages: "null", "boolean", "integer", "number", "string", "array" or "object".
    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer: "integer"
        case .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// Equal when of the same kind with equal payloads; strings compare byte by byte,
    /// objects regardless of member order, and `.integer(3)` never equals `.double(3)`.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.string(let a), .string(let b)): UTF8Bytes.equal(a, b)
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }

    /// Hashes consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0 as UInt8)
        case .bool(let bool):
            hasher.combine(1 as UInt8)
            hasher.combine(bool)
        case .integer(let integer):
            hasher.combine(2 as UInt8)
            hasher.combine(integer)
        case .double(let double):
            hasher.combine(3 as UInt8)
            hasher.combine(double)
        case .string(let string):
            hasher.combine(4 as UInt8)
            UTF8Bytes.hash(string, into: &hasher)
        case .array(let array):
            hasher.combine(5 as UInt8)
            hasher.combine(array)
        case .object(let object):
            hasher.combine(6 as UInt8)
            hasher.combine(object)
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// A string value from a literal.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// An integer value from a literal.
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// A double value from a literal.
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// A Boolean value from a literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// An array value from a literal.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// An object value from a literal, keeping the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
}

extension JSONValue: ExpressibleByNilLiteral {
    /// `null` from `nil`.
    public init(nilLiteral: ()) { self = .null }
}
