internal import PushmapJSON

/// One test of a condition: a value alone (true unless nil or false), or two values and an
/// operator. Values of different kinds are unequal; ordering a number against a string is an
/// error, as in Liquid (Ruby refuses the comparison); other kinds are unordered (false).
struct LiquidComparison: Sendable {
    enum Operator: String, Sendable, Equatable {
        case equal = "==", notEqual = "!=", less = "<", greater = ">", lessOrEqual = "<=", greaterOrEqual = ">="
        case contains
    }

    let left: LiquidExpression
    let test: (operator: Operator, right: LiquidExpression)?

    /// Whether the test holds; a missing variable is nil here, not a problem.
    func holds(_ context: LiquidContext) throws(LiquidFailure) -> Bool {
        guard let (operation, right) = test else {
            return Self.isTruthy(left.evaluate(context))
        }
        switch operation {
        case .equal: return try Self.equal(left, right, context)
        case .notEqual: return try !Self.equal(left, right, context)
        case .contains:
            // As Liquid: `empty` and `blank` are no element of a list or key of an object; a text
            // contains them (as their text, "") whatever it holds.
            let container = left.evaluate(context)
            if right.isSpecial {
                if case .string? = container { return true }
                return false
            }
            return try Self.contains(container, right.evaluate(context))
        case .less, .greater, .lessOrEqual, .greaterOrEqual:
            // As Liquid: `empty` and `blank` have no order.
            if left.isSpecial || right.isSpecial { return false }
            guard let order = try Self.order(left.evaluate(context), right.evaluate(context), operation) else { return false }
            switch operation {
            case .less: return order < 0
            case .greater: return order > 0
            case .lessOrEqual: return order <= 0
            default: return order >= 0
            }
        }
    }

    /// Liquid's truthiness: only nil and false are false; 0, "" and [] are true.
    static func isTruthy(_ value: JSONValue?) -> Bool {
        switch value {
        case nil, .null?, .bool(false)?: false
        default: true
        }
    }

    /// Equality, with `blank` and `empty` on either side meaning their tests (`==` and `when`).
    static func equal(_ left: LiquidExpression, _ right: LiquidExpression, _ context: LiquidContext) throws(LiquidFailure) -> Bool {
        switch (left, right) {
        // As Liquid 5.4, which compares the two special values themselves, not what they test.
        case (.empty, .empty), (.blank, .blank), (.empty, .blank), (.blank, .empty): return false
        case (.empty, let other), (let other, .empty): return isEmpty(other.evaluate(context))
        case (.blank, let other), (let other, .blank): return isBlank(other.evaluate(context))
        default: return try equal(left.evaluate(context), right.evaluate(context))
        }
    }

    /// Equal values: numbers by value (1 == 1.0), strings byte for byte, nil (a missing
    /// variable too) equal to nil, arrays and objects member by member; different kinds unequal.
    /// A whole number beyond 64 bits equals the same digits; against a fraction it is refused.
    static func equal(_ left: JSONValue?, _ right: JSONValue?) throws(LiquidFailure) -> Bool {
        let left = left ?? .null, right = right ?? .null
        if let number = LiquidWholeNumber(left) { return try number.order(against: right) == 0 }
        if let number = LiquidWholeNumber(right) { return try number.order(against: left) == 0 }
        if let order = numericOrder(left, right) { return order == 0 }
        return left == right
    }

    /// The order of two numbers, exactly, as Ruby compares an Integer with a Float: a whole number
    /// past 2^53 is not rounded to the nearest double first (9007199254740993 is more than
    /// 9007199254740992.0). nil when either is no number, or a double is NaN.
    static func numericOrder(_ left: JSONValue, _ right: JSONValue) -> Int? {
        switch (left, right) {
        case (.integer(let a), .integer(let b)): return a < b ? -1 : a > b ? 1 : 0
        case (.double(let a), .double(let b)):
            guard !a.isNaN, !b.isNaN else { return nil }
            return a < b ? -1 : a > b ? 1 : 0
        case (.integer(let a), .double(let b)): return order(a, b)
        case (.double(let a), .integer(let b)): return order(b, a).map { -$0 }
        default: return nil
        }
    }

    /// An integer against a double, exactly.
    private static func order(_ integer: Int64, _ double: Double) -> Int? {
        guard !double.isNaN else { return nil }
        // 2^63: every Int64 is below it, and above -2^63 - 1.
        if double >= 9_223_372_036_854_775_808.0 { return -1 }
        if double < -9_223_372_036_854_775_808.0 { return 1 }
        let whole = double.rounded(.towardZero)
        let part = Int64(whole)
        if integer != part { return integer < part ? -1 : 1 }
        return double > whole ? -1 : double < whole ? 1 : 0
    }

    /// An empty string, array or object.
    static func isEmpty(_ value: JSONValue?) -> Bool {
        switch value {
        case .string(let string)?: string.isEmpty
        case .array(let array)?: array.isEmpty
        case .object(let object)?: object.isEmpty
        default: false
        }
    }

    /// nil, false, empty, or a string of blanks only.
    static func isBlank(_ value: JSONValue?) -> Bool {
        switch value {
        case nil, .null?, .bool(false)?: true
        case .string(let string)?: string.utf8.allSatisfy(LiquidSourceText.isSpace)
        default: isEmpty(value)
        }
    }

    /// A substring of a string (a number looked for as its text), an element of an array, or a
    /// key of an object; false for anything else.
    private static func contains(_ container: JSONValue?, _ item: JSONValue?) throws(LiquidFailure) -> Bool {
        switch container {
        case .string(let string)?:
            guard let item, item != .null else { return false }
            let needle = LiquidText.text(of: item)
            return LiquidSubstring.contains(needle, in: string)
        case .array(let array)?:
            // As Liquid: nil is in no array, not even one holding null.
            guard let item, item != .null, LiquidWholeNumber(.array(array)) == nil else { return false }
            for element in array where try equal(element, item) { return true }
            return false
        case .object(let object)?:
            guard case .string(let key)? = item else { return false }
            return object[key] != nil
        default:
            return false
        }
    }

    /// The order of two numbers, or of two strings by their bytes; an error for a number and a
    /// string (Liquid's "comparison of String with 0 failed"); nil for anything else.
    private static func order(_ left: JSONValue?, _ right: JSONValue?, _ operation: Operator) throws(LiquidFailure) -> Int? {
        if let mixed = mixedKinds(left, right) {
            throw LiquidFailure(message: "'\(operation.rawValue)' orders \(mixed): Liquid refuses to compare a string with a number.")
        }
        guard let left, let right else { return nil }
        return try order(left, right)
    }

    /// The order of two numbers (whole numbers beyond 64 bits too), exactly, or of two strings
    /// by their bytes; nil for any other pair. A whole number beyond 64 bits against a fraction
    /// is refused, since it cannot be exact. The one ordering of conditions and `sort`.
    static func order(_ left: JSONValue, _ right: JSONValue) throws(LiquidFailure) -> Int? {
        if let number = LiquidWholeNumber(left) { return try number.order(against: right) }
        if let number = LiquidWholeNumber(right) { return try number.order(against: left).map { -$0 } }
        if let order = numericOrder(left, right) { return order }
        if case .string(let a) = left, case .string(let b) = right {
            return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : a.utf8.elementsEqual(b.utf8) ? 0 : 1
        }
        return nil
    }

    /// The two values as a message shows them, when one is a number and the other a string.
    private static func mixedKinds(_ left: JSONValue?, _ right: JSONValue?) -> String? {
        func isNumber(_ value: JSONValue?) -> Bool {
            switch value {
            case .integer?, .double?: true
            case let value?: LiquidWholeNumber(value) != nil
            case nil: false
            }
        }
        guard let left, let right else { return nil }
        let isString = { (value: JSONValue) in if case .string = value { true } else { false } }
        guard (isNumber(left) && isString(right)) || (isString(left) && isNumber(right)) else { return nil }
        // plain writes a whole number beyond 64 bits as its digits.
        return "\(LiquidText.plain(left)) and \(LiquidText.plain(right))"
    }
}
