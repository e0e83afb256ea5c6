/// Where a value sits inside a JSON document, written like `$.buttons[1].label`.
///
/// Keys that look like identifiers (`[A-Za-z_][A-Za-z0-9_]*`) use the dot form; any
/// other key uses the bracket form with the key JSON-quoted, as in `$["key with space"]`.
package struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step down from a container.
    package enum Component: Sendable, Hashable {
        /// A member of an object.
        case key(String)
        /// An element of an array.
        case index(Int)
    }

    /// The steps from the root, outermost first.
    package var components: [Component]

    /// A path made of these steps.
    package init(_ components: [Component] = []) { self.components = components }

    /// The document itself: `$`.
    package static let root = JSONPath()

    /// This path followed by an object member.
    package func appending(_ key: String) -> JSONPath {
        var path = self
        path.components.append(.key(key))
        return path
    }

    /// This path followed by an array element.
    package func appending(_ index: Int) -> JSONPath {
        var path = self
        path.components.append(.index(index))
        return path
    }

    /// The path as text, such as `$`, `$.a[0]` or `$["b c"]`.
    package var description: String { text(from: "$") }

    /// The path as text from another root than `$`, such as a script's `result[2].title`.
    package func text(from root: String) -> String {
        var text = root
        for component in components {
            switch component {
            case .key(let key): text = Self.member(text, key)
            case .index(let index): text = Self.element(text, index)
            }
        }
        return text
    }

    /// The path written as `base` followed by the member `key`: `base.key`, or `base["key"]` with
    /// the key JSON-quoted. The one renderer of a member step, for this type and for the payload
    /// checks, which build their paths as text.
    package static func member(_ base: String, _ key: String) -> String {
        var key = ShownText.clipped(key)
        let dotted: String? = key.withUTF8 { key in
            guard isIdentifier(key) else { return nil }
            // Written once into a string of the final length: appending to a copy of `base`
            // copied it and grew it, for every finding's path.
            var base = base
            return base.withUTF8 { base in
                String(unsafeUninitializedCapacity: base.count + 1 + key.count) { text in
                    let raw = UnsafeMutableRawBufferPointer(text)
                    raw.copyMemory(from: UnsafeRawBufferPointer(base))
                    raw[base.count] = UInt8(ascii: ".")
                    UnsafeMutableRawBufferPointer(rebasing: raw[(base.count + 1)...]).copyMemory(from: UnsafeRawBufferPointer(key))
                    return raw.count
                }
            }
        }
        if let dotted { return dotted }
        var text = base
        var quoted: [UInt8] = [UInt8(ascii: "[")]
        JSONWriter.escapeJSONString(key, into: &quoted)
        quoted.append(UInt8(ascii: "]"))
        text += String(decoding: quoted, as: UTF8.self)
        return text
    }

    /// The path written as `base` followed by the element `index`: `base[index]`.
    package static func element(_ base: String, _ index: Int) -> String {
        base + "[" + String(index) + "]"
    }

    /// Whether `key` can use the dot form. On the key's bytes in place: stepping through a `String`'s UTF-8 view cost ten times more.
    static func isIdentifier(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
        var first = true
        for byte in key {
            let letter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            let digit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            guard letter || byte == UInt8(ascii: "_") || (digit && !first) else { return false }
            first = false
        }
        return !first
    }
}

extension JSONPath {
    /// Reads a path as ``description`` writes it (`$.a[0]["b c"]`); nil for text it does not write.
    package init?(parsing text: String) {
        let bytes = Array(text.utf8)
        guard bytes.first == UInt8(ascii: "$") else { return nil }
        var index = 1
        var components: [Component] = []
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: ".") {
                let start = index + 1
                index = start
                while index < bytes.count, bytes[index] != UInt8(ascii: "."), bytes[index] != UInt8(ascii: "[") { index += 1 }
                guard index > start else { return nil }
                components.append(.key(String(decoding: bytes[start..<index], as: UTF8.self)))
            } else if bytes[index] == UInt8(ascii: "["), index + 1 < bytes.count {
                if bytes[index + 1] == UInt8(ascii: "\"") {
                    // A JSON string, then `]`: its end is the first quote no backslash escapes.
                    var end = index + 2
                    while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
                    guard end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: "]"),
                          case .string(let key)? = try? JSONParser.parse(Array(bytes[(index + 1)...end])) else { return nil }
                    components.append(.key(key))
                    index = end + 2
                } else {
                    var end = index + 1
                    while end < bytes.count, bytes[end] != UInt8(ascii: "]") { end += 1 }
                    guard end < bytes.count, let number = Int(String(decoding: bytes[(index + 1)..<end], as: UTF8.self)) else { return nil }
                    components.append(.index(number))
                    index = end + 1
                }
            } else {
                return nil
            }
        }
        self.init(components)
    }
}

extension JSONValue {
    /// The value at `path`, if there is one.
    package subscript(path path: JSONPath) -> JSONValue? {
        var value: JSONValue? = self
        for component in path.components {
            switch (component, value) {
            case (.key(let key), .object(let object)?): value = object[key]
            case (.index(let index), .array(let items)?): value = items.indices.contains(index) ? items[index] : nil
            default: return nil
            }
        }
        return value
    }
}
