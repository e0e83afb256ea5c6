internal import PushmapJSON

/// A filter of an output tag, checked when the template compiles (its name and how many
/// arguments it takes) and applied when it renders.
struct LiquidFilter: Sendable {
    enum Kind: Sendable {
        /// The argument when the value is nil, false (unless `allow_false: true`) or empty.
        case `default`(LiquidExpression, allowFalse: Bool)
        case upcase, downcase, capitalize
        /// Cut to `length` characters, the ellipsis (by default `...`) counted inside them.
        case truncate(length: LiquidExpression, ellipsis: LiquidExpression?)
        /// A time written with a strftime format, in its own offset (UTC without one).
        case date(format: LiquidExpression)
        /// The rest of Liquid's standard filters, with their arguments.
        case standard(LiquidStandardFilter, [LiquidExpression])
    }

    let kind: Kind
    let name: String

    /// The filters there are, for `did you mean`.
    static let names = (["capitalize", "date", "default", "downcase", "truncate", "upcase"]
        + LiquidStandardFilter.allCases.map(\.rawValue)).sorted()

    /// Why a filter could not use its value or an argument.
    typealias Failure = LiquidFailure

    var isDefault: Bool {
        if case .default = kind { true } else { false }
    }

    /// The variables among the filter's arguments (`fmt` in `date: fmt`).
    var argumentVariables: [LiquidPath] {
        let arguments: [LiquidExpression?]
        switch kind {
        case .default(let fallback, _): arguments = [fallback]
        case .upcase, .downcase, .capitalize: arguments = []
        case .truncate(let length, let ellipsis): arguments = [length, ellipsis]
        case .date(let format): arguments = [format]
        case .standard(_, let given): arguments = given
        }
        return arguments.compactMap { argument in
            if case .variable(let path)? = argument { path } else { nil }
        }
    }

    /// The filter `name` with these arguments, or a sentence saying why not.
    static func make(_ name: String, arguments: [LiquidExpression], keywords: [(name: String, value: LiquidExpression)]) -> Result<LiquidFilter, LiquidFilterMistake> {
        func arity(_ allowed: ClosedRange<Int>, _ shape: String) -> LiquidFilterMistake? {
            allowed.contains(arguments.count) ? nil : .arguments("Filter '\(name)' takes \(shape), not \(arguments.count).")
        }
        let allowedKeywords = name == "default" ? ["allow_false"] : []
        if let keyword = keywords.first(where: { !allowedKeywords.contains($0.name) }) {
            return .failure(.arguments("Filter '\(name)' has no argument named '\(keyword.name)'."))
        }
        let kind: Kind
        switch name {
        case "default":
            // As Liquid: with no argument the value to show instead is "".
            if let mistake = arity(0...1, "at most 1 argument (the value to show instead)") { return .failure(mistake) }
            var allowFalse = false
            if let keyword = keywords.first {
                guard case .literal(.bool(let flag)) = keyword.value else {
                    return .failure(.arguments("Filter 'default' takes 'allow_false: true' or 'allow_false: false'."))
                }
                allowFalse = flag
            }
            kind = .default(arguments.first ?? .literal(.string("")), allowFalse: allowFalse)
        case "upcase", "downcase", "capitalize":
            if let mistake = arity(0...0, "no argument") { return .failure(mistake) }
            kind = name == "upcase" ? .upcase : name == "downcase" ? .downcase : .capitalize
        case "truncate":
            // As Liquid: the length is 50 when none is given.
            if let mistake = arity(0...2, "at most 2 arguments (a length, 50 by default, and an ellipsis)") { return .failure(mistake) }
            kind = .truncate(length: arguments.first ?? .literal(.integer(50)), ellipsis: arguments.count > 1 ? arguments[1] : nil)
        case "date":
            if let mistake = arity(1...1, "1 argument (a strftime format such as \"%Y-%m-%d\")") { return .failure(mistake) }
            kind = .date(format: arguments[0])
        default:
            // `h` is Liquid's other name for `escape` (the thirty-fifth audit, F11).
            guard let standard = LiquidStandardFilter(rawValue: name == "h" ? "escape" : name) else { return .failure(.unknown) }
            let (allowed, shape) = standard.arity
            if let mistake = arity(allowed, shape) { return .failure(mistake) }
            kind = .standard(standard, arguments)
        }
        return .success(LiquidFilter(kind: kind, name: name))
    }

    /// The filtered value, or the problem that stops it.
    func apply(to value: JSONValue, _ context: LiquidContext) throws(Failure) -> JSONValue {
        switch kind {
        case .default(let fallback, let allowFalse):
            let keep: Bool
            switch value {
            case .null: keep = false
            case .bool(let bool): keep = bool || allowFalse
            default: keep = !LiquidComparison.isEmpty(value)
            }
            return keep ? value : fallback.evaluate(context) ?? .null
        case .upcase:
            return .string(LiquidText.text(of: value).uppercased())
        case .downcase:
            return .string(LiquidText.text(of: value).lowercased())
        case .capitalize:
            // As Ruby's String#capitalize: the first letter in title case ('ß' is 'Ss', 'ǆ' is 'ǅ'), the rest in lower case.
            let text = LiquidText.text(of: value)
            guard let first = text.unicodeScalars.first else { return .string("") }
            return .string(first.properties.titlecaseMapping + String(text.unicodeScalars.dropFirst()).lowercased())
        case .truncate(let length, let ellipsis):
            return try truncate(value, length, ellipsis, context)
        case .date(let format):
            return try date(value, format, context)
        case .standard(let filter, let arguments):
            let result = try filter.apply(to: value, arguments.map { $0.evaluate(context) ?? .null }, name: name)
            if case .string(let text) = result, text.utf8.count > LiquidTemplate.maxOutputBytes {
                try LiquidTextEdit.checkGrowth(to: text.utf8.count, from: LiquidText.text(of: value).utf8.count)
            }
            return result
        }
    }

    private func truncate(_ value: JSONValue, _ length: LiquidExpression, _ ellipsis: LiquidExpression?, _ context: LiquidContext) throws(Failure) -> JSONValue {
        guard let count = Self.integer(length.evaluate(context)) else {
            throw Failure(message: "The length of 'truncate' must be a whole number.")
        }
        if value == .null { return value }
        let ending = ellipsis.map { LiquidText.text(of: $0.evaluate(context) ?? .null) } ?? "..."
        let text = LiquidText.text(of: value)
        // Characters, not bytes or scalars: a flag, a family emoji or an accented letter is one
        // character, kept or cut whole. As Liquid, a text no longer than the length stays whole,
        // and a longer one keeps length minus the ellipsis's length, then the ellipsis.
        if count >= 0 {
            let cut = text.index(text.startIndex, offsetBy: count, limitedBy: text.endIndex)
            guard let cut, cut < text.endIndex else { return .string(text) }
        }
        let kept = count <= ending.count ? 0 : count - ending.count
        return .string(String(text.prefix(kept)) + ending)
    }

    private func date(_ value: JSONValue, _ format: LiquidExpression, _ context: LiquidContext) throws(Failure) -> JSONValue {
        // As Liquid: nothing and an empty string stay as they are.
        if value == .null || value == .string("") { return value }
        // As Liquid: no format (nil or "") gives the value back unchanged.
        let pattern: String
        switch format.evaluate(context) {
        case nil, .null?, .string("")?: return value
        case .string(let text)?: pattern = text
        default:
            throw Failure(message: "The format of 'date' must be a string such as \"%Y-%m-%d\".")
        }
        if let number = LiquidWholeNumber(value) { throw Failure(message: number.refusal("'date'")) }
        let instant = try LiquidTime.instant(of: value, now: context.now)
        return .string(Strftime.format(instant, pattern))
    }

    /// A whole number from an integer, a whole double or a string of digits; one beyond 64 bits
    /// is the nearest Int (a length that long cuts nothing, or everything).
    static func integer(_ value: JSONValue?) -> Int? {
        if let value, let number = LiquidWholeNumber(value) { return number.digits.hasPrefix("-") ? Int.min : Int.max }
        switch value {
        case .integer(let integer)?: return Int(exactly: integer)
        case .double(let double)?: return double.rounded(.towardZero) == double ? Int(exactly: double) : nil
        case .string(let string)?: return Int(string.trimmingBlanks())
        default: return nil
        }
    }
}

/// Why a filter does not compile.
enum LiquidFilterMistake: Error {
    case unknown
    case arguments(String)
}

extension String {
    /// Without its leading and trailing ASCII blanks.
    func trimmingBlanks() -> Substring {
        let bytes = utf8
        guard let first = bytes.firstIndex(where: { !LiquidSourceText.isSpace($0) }),
              let last = bytes.lastIndex(where: { !LiquidSourceText.isSpace($0) }) else { return "" }
        return self[first...last]
    }
}
