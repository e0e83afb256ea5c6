#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif
package import PushmapJSON

/// ``IntentSchema`` compiled for a yes-or-no check of a parsed intent's tape: field names as
/// bytes, the fields an object has as bits. Validation finds nothing in almost every intent a
/// service sends, and then no message is needed; when this check says no, ``IntentValidator``
/// walks the intent again and says why. The two must agree: the tests hold them to each other.
package struct IntentTapeCheck: Sendable {
    /// The templates' names, in the order of ``acceptedTemplateIndex(_:)``.
    package let templateNames: [String]
    /// One schema per template, by index: the common fields and the template's own.
    private let roots: [Shape?]
    private let templates: Words
    private let plainIndex: Int?

    /// Only the cases that hold a shape are boxed: a string or an integer field is matched
    /// without a reference count.
    enum Shape: Sendable {
        case anything, string, boolean, template
        case integer(Int64?, Int64?)
        case number(Double?, Double?)
        case choice(Words)
        case object(Object)
        indirect case array(Shape, maxItems: Int?)
        indirect case map(Shape?)
    }

    /// A class, so that matching a shape takes one reference rather than copying five arrays.
    final class Object: Sendable {
        let names: Words
        let shapes: [Shape]
        let required: UInt64
        let exclusive: [UInt64]
        let oneRequired: [UInt64]

        init(names: Words, shapes: [Shape], required: UInt64, exclusive: [UInt64], oneRequired: [UInt64]) {
            self.names = names
            self.shapes = shapes
            self.required = required
            self.exclusive = exclusive
            self.oneRequired = oneRequired
        }
    }

    /// Words matched by their print (length and first and last eight bytes), which settles
    /// every word of up to 16 bytes without touching its bytes.
    final class Words: Sendable {
        let prints: [KeyPrint]
        let bytes: [[UInt8]]

        init(_ words: [String]) {
            bytes = words.map { Array($0.utf8) }
            prints = words.map(KeyPrint.init)
        }

        /// The index of the word whose bytes are `key`'s, or nil.
        func index(of key: UnsafeRawBufferPointer) -> Int? {
            let print = KeyPrint(bytes: key)
            for index in prints.indices where prints[index] == print {
                if print.isWhole || bytes[index].withUnsafeBytes({ JSONItems.same($0, key) }) { return index }
            }
            return nil
        }
    }

    /// - Parameter templates: each template's name and its own fields. A template whose schema
    ///   has an object of more than 64 fields gets no compiled schema: its intents always take
    ///   the validator.
    package init(templates: [String: [IntentField]]) {
        let names = templates.keys.sorted()
        templateNames = names
        roots = names.map { Self.compile(.object(IntentSchema.root(adding: templates[$0] ?? []))) }
        self.templates = Words(names)
        plainIndex = names.firstIndex(of: "plain")
    }

    private static func compile(_ shape: IntentShape) -> Shape? {
        switch shape {
        case .anything: return .anything
        case .string: return .string
        case .boolean: return .boolean
        case .template: return .template
        case .integer(let minimum, let maximum): return .integer(minimum, maximum)
        case .number(let minimum, let maximum): return .number(minimum, maximum)
        case .choice(let choices): return .choice(Words(choices))
        case .array(let item, let maxItems): return compile(item).map { .array($0, maxItems: maxItems) }
        case .map(let item):
            guard let item else { return .map(nil) }
            return compile(item).map { .map($0) }
        case .object(let object):
            guard object.fields.count <= 64 else { return nil }
            var names: [String] = [], shapes: [Shape] = [], required: UInt64 = 0
            var exclusive: [UInt64] = [], oneRequired: [UInt64] = []
            for (index, field) in object.fields.enumerated() {
                guard let shape = compile(field.shape) else { return nil }
                names.append(field.name)
                shapes.append(shape)
                if field.required { required |= 1 << index }
            }
            func mask(_ group: [String]) -> UInt64? {
                var bits: UInt64 = 0
                for name in group {
                    guard let index = object.fieldIndex(named: name) else { return nil }
                    bits |= 1 << index
                }
                return bits
            }
            for group in object.exclusive {
                guard let bits = mask(group) else { return nil }
                exclusive.append(bits)
            }
            for group in object.oneRequired {
                guard let bits = mask(group) else { return nil }
                oneRequired.append(bits)
            }
            return .object(Object(names: Words(names), shapes: shapes, required: required, exclusive: exclusive, oneRequired: oneRequired))
        }
    }

    /// The intent's template when the intent is valid for it, else nil (invalid, or not sure).
    package func acceptedTemplate(_ tape: JSONTape) -> String? {
        acceptedTemplateIndex(tape).map { templateNames[$0] }
    }

    /// As ``acceptedTemplate(_:)``, the template's index in ``templateNames``: no string is made
    /// and none hashed.
    package func acceptedTemplateIndex(_ tape: JSONTape) -> Int? {
        var reader = tape.reader
        guard reader.op == JSONTape.Op.object, let index = templateIndex(reader),
              let root = roots[index], accepts(&reader, root), reader.position == tape.length else { return nil }
        return index
    }

    /// The index of the root object's `template`: plain's when it has none (or it is not a
    /// string: the check refuses that anyway), nil when it names no template.
    private func templateIndex(_ start: JSONTapeReader) -> Int? {
        var reader = start
        let count = reader.count()
        for _ in 0..<count {
            let key = reader.string()
            if key.count == 8, let bytes = key.baseAddress, memcmp(bytes, "template", 8) == 0 {
                guard reader.op == JSONTape.Op.string else { return plainIndex }
                return templates.index(of: reader.string())
            }
            reader.skip()
        }
        return plainIndex
    }

    private func accepts(_ reader: inout JSONTapeReader, _ shape: Shape) -> Bool {
        let op = reader.op
        switch shape {
        case .anything:
            reader.skip()
            return true
        case .string:
            guard op == JSONTape.Op.string else { return false }
            reader.skip()
            return true
        case .boolean:
            guard op == JSONTape.Op.true || op == JSONTape.Op.false else { return false }
            reader.skip()
            return true
        case .integer(let minimum, let maximum):
            guard op == JSONTape.Op.integer else { return false }
            let number = reader.integer()
            return (minimum.map { number >= $0 } ?? true) && (maximum.map { number <= $0 } ?? true)
        case .number(let minimum, let maximum):
            let number: Double
            if op == JSONTape.Op.integer {
                number = Double(reader.integer())
            } else if op == JSONTape.Op.double {
                number = reader.double()
            } else {
                return false
            }
            return (minimum.map { !(number < $0) } ?? true) && (maximum.map { !(number > $0) } ?? true)
        case .choice(let choices):
            guard op == JSONTape.Op.string else { return false }
            return choices.index(of: reader.string()) != nil
        case .template:
            guard op == JSONTape.Op.string else { return false }
            return templates.index(of: reader.string()) != nil
        case .array(let item, let maxItems):
            guard op == JSONTape.Op.array else { return false }
            let count = reader.count()
            if let maxItems, count > maxItems { return false }
            for _ in 0..<count where !accepts(&reader, item) { return false }
            return true
        case .map(let item):
            guard op == JSONTape.Op.object else { return false }
            guard let item else {
                reader.skip()
                return true
            }
            for _ in 0..<reader.count() {
                _ = reader.string()
                guard accepts(&reader, item) else { return false }
            }
            return true
        case .object(let object):
            guard op == JSONTape.Op.object else { return false }
            var present: UInt64 = 0
            for _ in 0..<reader.count() {
                guard let index = object.names.index(of: reader.string()), accepts(&reader, object.shapes[index]) else {
                    return false
                }
                present |= 1 << index
            }
            guard present & object.required == object.required else { return false }
            for group in object.exclusive where (present & group).nonzeroBitCount > 1 { return false }
            for group in object.oneRequired where present & group == 0 { return false }
            return true
        }
    }

}
