internal import PushmapJSON

/// Liquid's list filters. As Liquid's, most read their value as a flat list: an array's items
/// with nested arrays opened, an object as a list of one, nil as none, anything else as itself.
enum LiquidListFilter {
    static func apply(_ filter: LiquidStandardFilter, to value: JSONValue, _ arguments: [JSONValue], name: String) throws(LiquidFailure) -> JSONValue {
        func argument(_ index: Int) -> JSONValue? { arguments.given(index) }
        // As Liquid: a property that is nil (written so, or a variable holding null) is none.
        func property(_ index: Int) -> JSONValue? {
            guard let given = argument(index), given != .null else { return .none }
            return .some(given)
        }
        switch filter {
        case .size:
            switch value {
            case .string(let string): return .integer(Int64(string.count))
            case .object(let object): return .integer(Int64(object.count))
            case .array(let items) where LiquidWholeNumber(value) == nil: return .integer(Int64(items.count))
            default: return .integer(0)
            }
        case .first, .last:
            switch value {
            case .array(let items) where LiquidWholeNumber(value) == nil:
                return (filter == .first ? items.first : items.last) ?? .null
            case .object(let object) where filter == .first:
                // As Ruby's Hash#first: the first member as [key, value].
                var members = object.makeIterator()
                guard let member = members.next() else { return .null }
                return .array([.string(member.key), member.value])
            case .string(let string):
                // As Liquid since 5.5: a text's first or last character.
                return .string((filter == .first ? string.first : string.last).map { String($0) } ?? "")
            default:
                return .null
            }
        case .slice:
            return try slice(value, argument(0), argument(1))
        case .join:
            let glue = argument(0).map(LiquidText.text(of:)) ?? " "
            let texts = flat(value).map(LiquidText.text(of:))
            // A long glue between many items is refused before it is built.
            let joined = texts.reduce(0) { $0 + $1.utf8.count } + max(texts.count - 1, 0) * glue.utf8.count
            try LiquidTextEdit.checkGrowth(to: joined, from: LiquidText.text(of: value).utf8.count)
            return .string(texts.joined(separator: glue))
        case .reverse:
            return .array(flat(value).reversed())
        case .compact:
            let property = property(0)
            if let property { try readable(flat(value), by: property, name: name) }
            return .array(flat(value).filter { item in
                let kept = property.map { member($0, of: item) } ?? item
                return kept != .null
            })
        case .uniq:
            let property = property(0)
            if let property { try readable(flat(value), by: property, name: name) }
            var seen: Set<JSONValue> = []
            var kept: [JSONValue] = []
            // Whole numbers beyond 64 bits by their digits: the same number twice is one.
            for item in flat(value) where seen.insert(LiquidWholeNumber.comparable(property.map { member($0, of: item) } ?? item)).inserted {
                kept.append(item)
            }
            return .array(kept)
        case .map:
            let property = argument(0) ?? .null
            return .array(flat(value).map { member(property, of: $0) })
        case .where:
            guard let property = property(0) else {
                throw LiquidFailure(message: "'where' needs the name of the member to test, not nil.")
            }
            try readable(flat(value), by: property, name: name)
            var kept: [JSONValue] = []
            for item in flat(value) {
                let found = member(property, of: item)
                // Without a value (or with nil), as Liquid: any item whose member is not false or nil.
                let wanted = argument(1) ?? .null
                if wanted == .null ? LiquidComparison.isTruthy(found) : try LiquidComparison.equal(found, wanted) { kept.append(item) }
            }
            return .array(kept)
        case .concat:
            guard case .array(let added)? = argument(0), let list = argument(0), LiquidWholeNumber(list) == nil else {
                throw LiquidFailure(message: "'concat' adds a list, not \(LiquidText.plain(argument(0) ?? .null)).")
            }
            return .array(flat(value) + added)
        case .sum:
            // As Liquid: each item, or its member, as a number (not one: 0), added exactly.
            let property = property(0)
            let values = flat(.array(flat(value).map { item in property.map { member($0, of: item) } ?? item }))
            return try LiquidNumber.sum(values, name: name)
        case .sort, .sortNatural:
            return .array(try sorted(flat(value), by: property(0), natural: filter == .sortNatural, name: name))
        default:
            return value
        }
    }

    /// The value as Liquid's filters iterate it: nested arrays opened, an object as one item,
    /// nil as none. A whole number beyond 64 bits is one item, whatever its mark is made of.
    /// Liquid reads a member with Ruby's `item[name]`, which a number refuses (TypeError), and
    /// the filter raises: a member read of a number fails here too, rather than finding nothing
    /// (standard_filter_test.rb, test_uniq_invalid_property, test_compact_invalid_property,
    /// test_where_indexable_but_non_map_value; the thirty-fifth audit, F6). A text's member is
    /// nil in Ruby, as here.
    private static func readable(_ items: [JSONValue], by property: JSONValue, name: String) throws(LiquidFailure) {
        for item in items {
            switch item {
            case .integer, .double:
                break
            case .array where LiquidWholeNumber(item) != nil:
                break
            default:
                continue
            }
            throw LiquidFailure(message: "'\(name)' by '\(LiquidText.text(of: property))' needs a list of objects, not numbers.")
        }
    }

    static func flat(_ value: JSONValue) -> [JSONValue] {
        var items: [JSONValue] = []
        func add(_ value: JSONValue) {
            if case .array(let elements) = value, LiquidWholeNumber(value) == nil {
                for element in elements { add(element) }
            } else {
                items.append(value)
            }
        }
        switch value {
        case .null: return []
        case .array: add(value)
        default: items.append(value)
        }
        return items
    }

    /// An item's member named by `property` (its text), or nil (`.null`) for an item with none.
    private static func member(_ property: JSONValue, of item: JSONValue) -> JSONValue {
        guard case .object(let object) = item else { return .null }
        return object[LiquidText.text(of: property)] ?? .null
    }

    /// Ruby's `slice(start, length)`, on an array's items or a text's characters: a negative
    /// start counts from the end, and a start past the end or a negative length gives nothing.
    private static func slice(_ value: JSONValue, _ start: JSONValue?, _ length: JSONValue?) throws(LiquidFailure) -> JSONValue {
        guard let offset = LiquidFilter.integer(start) else {
            throw LiquidFailure(message: "Where 'slice' starts must be a whole number.")
        }
        guard let count = length.map({ LiquidFilter.integer($0) }) ?? 1 else {
            throw LiquidFailure(message: "How many items 'slice' takes must be a whole number.")
        }
        func range(in total: Int) -> Range<Int>? {
            let first = offset < 0 ? total.addingReportingOverflow(offset).partialValue : offset
            guard first >= 0, first <= total, count >= 0 else { return nil }
            return first..<(first + min(count, total - first))
        }
        if case .array(let items) = value, LiquidWholeNumber(value) == nil {
            return .array(range(in: items.count).map { Array(items[$0]) } ?? [])
        }
        let characters = Array(LiquidText.text(of: value))
        return .string(range(in: characters.count).map { String(characters[$0]) } ?? "")
    }

    /// The items in order, nil last, by Liquid's `<=>` (numbers with numbers, texts with texts)
    /// or, for `sort_natural`, by their texts without regard to ASCII case.
    private static func sorted(_ items: [JSONValue], by property: JSONValue?, natural: Bool, name: String) throws(LiquidFailure) -> [JSONValue] {
        if let property {
            guard items.allSatisfy({ if case .object = $0 { true } else { false } }) else {
                throw LiquidFailure(message: "'\(name)' by '\(LiquidText.text(of: property))' needs a list of objects.")
            }
        }
        let keys = items.map { item in property.map { member($0, of: item) } ?? item }
        var failure: LiquidFailure?
        let order = keys.indices.sorted { left, right in
            if failure != nil { return left < right }
            do throws(LiquidFailure) {
                let result = try compare(keys[left], keys[right], natural: natural)
                return result != 0 ? result < 0 : left < right
            } catch {
                failure = error
                return left < right
            }
        }
        if let failure { throw failure }
        return order.map { items[$0] }
    }

    private static func compare(_ left: JSONValue, _ right: JSONValue, natural: Bool) throws(LiquidFailure) -> Int {
        switch (left, right) {
        case (.null, .null): return 0
        case (.null, _): return 1
        case (_, .null): return -1
        default: break
        }
        if natural {
            let a = LiquidText.text(of: left).utf8.map(lowered), b = LiquidText.text(of: right).utf8.map(lowered)
            return a.elementsEqual(b) ? 0 : a.lexicographicallyPrecedes(b) ? -1 : 1
        }
        // Numbers (beyond 64 bits too) and strings as conditions order them.
        if let order = try LiquidComparison.order(left, right) { return order }
        if left == right { return 0 }
        throw LiquidFailure(message: "Cannot sort \(LiquidText.plain(left)) and \(LiquidText.plain(right)) together: they are not both numbers or both texts.")
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
}
