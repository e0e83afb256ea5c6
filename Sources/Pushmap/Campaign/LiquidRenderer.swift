internal import PushmapJSON

/// Walks a compiled template for one recipient, appending to one string and noting problems.
struct LiquidRenderer {
    /// The recipient's variables, with those the template assigns and its loops' items.
    private(set) var context: LiquidContext
    private(set) var output: String
    private(set) var problems: [LiquidProblem] = []
    /// Set once the output reached its limit, or the loops theirs: nothing more is rendered.
    private var full = false
    /// The capture being rendered, if any, and whether its text reached the limit, which stops
    /// that capture alone.
    private var capturing: String?
    private var captureFull = false
    /// The `break`s and `continue`s met and not yet taken by a loop, the latest last. As in
    /// Liquid a loop takes one after each pass, and while any is left no body renders past its
    /// next tag: two met in one pass (a second matching `when`) stop the next pass too, and one
    /// left after the last pass stops the rest of the text (the twenty-fourth audit, A1).
    private var interrupts: [LiquidInterrupt] = []
    /// The passes through loop bodies so far.
    private var passes = 0
    /// Where each loop name stopped, for `offset: continue`.
    private var offsets: [String: Int] = [:]
    /// The next turn of each cycle group.
    private var cycles: [String: Int] = [:]
    /// The names whose last `assign` failed (its problem noted): their uses note nothing more.
    private var failedAssignments: Set<String> = []
    /// For each open loop (as `context.loops`), the recipient's data its item is, when the loop
    /// goes over a list of `vars`: `items[2]`.
    private var itemSources: [String?] = []

    init(context: LiquidContext, capacity: Int) {
        self.context = context
        output = ""
        output.reserveCapacity(capacity + 64)
    }

    mutating func render(_ nodes: [LiquidNode]) {
        for node in nodes where !full {
            switch node {
            case .text(let text):
                append(text)
            case .output(let tag):
                render(tag)
            case .conditional(let branches, let otherwise):
                do throws(LiquidFailure) {
                    var chosen = otherwise
                    for branch in branches where try branch.condition.holds(context) != branch.negated {
                        chosen = branch.body
                        break
                    }
                    render(chosen)
                } catch {
                    // As Liquid, the block renders nothing and the rest goes on.
                    problems.append(.renderFailed(message: error.message))
                }
            case .choice(let subject, let whens, let otherwise):
                do throws(LiquidFailure) {
                    // As a condition, a subject the recipient lacks is nil, and no problem. As
                    // in Liquid, each value of a `when` that matches renders its body once.
                    var matched = false
                    for when in whens {
                        for choice in when.values where try LiquidComparison.equal(subject, choice, context) {
                            matched = true
                            render(when.body)
                        }
                    }
                    if !matched { render(otherwise) }
                } catch {
                    problems.append(.renderFailed(message: error.message))
                }
            case .loop(let loop):
                render(loop)
            case .interrupt(let kind):
                interrupts.append(kind)
            case .comment:
                break
            case .assign(let name, let tag):
                let assigned = value(of: tag)
                context.locals[name] = assigned ?? .null
                if assigned == nil { failedAssignments.insert(name) } else { failedAssignments.remove(name) }
            case .cycle(let group, let values):
                // A group is shared by every cycle naming it, whatever its values: a turn past this
                // cycle's values (a longer cycle of the group moved it) shows nothing and starts
                // over, as Liquid does.
                let turn = cycles[group, default: 0]
                cycles[group] = turn + 1 >= values.count ? 0 : turn + 1
                if turn < values.count { render(LiquidOutput(expression: values[turn], filters: [])) }
            case .counter(let name, let step):
                // Liquid keeps its counters among the variables given to the render: a
                // recipient's number of the name is where it starts.
                do throws(LiquidFailure) {
                    let (current, next) = try LiquidNumber.counted(context.counters[name] ?? context.variables[name], by: step, name: name)
                    context.counters[name] = next
                    var shown = ""
                    LiquidText.append(step > 0 ? current : next, to: &shown)
                    append(shown)
                } catch {
                    problems.append(.renderFailed(message: error.message))
                }
            case .capture(let name, let body):
                let outer = output, outerCapture = capturing
                output = ""
                capturing = name
                render(body)
                context.locals[name] = .string(output)
                output = outer
                capturing = outerCapture
                if captureFull {
                    // What follows the capture renders (with its text cut, when lenient).
                    captureFull = false
                    full = false
                }
            }
            // As Liquid, a `break` or `continue` stops a body after the tag or output that met
            // it, not before each node: a body entered with one already met (a second `when`
            // that matches) writes its text up to its first tag or output, and renders that one.
            if !interrupts.isEmpty, !node.isText { break }
        }
    }

    /// The paths of a range's ends the recipient lacks, first then last.
    private func lacking(_ first: LiquidExpression, _ last: LiquidExpression) -> [String] {
        [first.missingPath(context), last.missingPath(context)].compactMap { $0 }
    }

    /// A `for` loop: its items sliced by `offset` and `limit`, then reversed if asked, each
    /// rendered with the loop's variable and `forloop` in a scope of their own.
    private mutating func render(_ loop: LiquidLoop) {
        let header = loop.header
        // Every name the header lacks is said, not the first alone (the forty-fifth audit,
        // campaign L1: `for i in x limit: n` named n, and x only on the next run).
        let sliceLacking = [header.limit?.missingPath(context), header.offset?.missingPath(context)].compactMap { $0 }
        if !sliceLacking.isEmpty {
            for path in sliceLacking { if let problem = missing(path) { problems.append(problem) } }
            switch header.source {
            case .collection(let expression):
                if let path = expression.missingPath(context), let problem = missing(path) { problems.append(problem) }
            case .range(let first, let last):
                for path in lacking(first, last) { problems.append(.missingVariable(path)) }
            }
            return
        }
        let items: LiquidLoopItems
        var sliced = true
        // The list's path in the recipient's data, for a missing member of an item.
        var source: String?
        switch header.source {
        case .collection(let expression):
            guard let value = expression.evaluate(context) else {
                if let path = expression.missingPath(context), let problem = missing(path) { problems.append(problem) }
                // As Liquid, a list that is not there is nil, and the loop renders its `else`:
                // what `--lenient` then sends (the thirty-fifth audit, F7).
                render(loop.otherwise)
                return
            }
            if case .array = value, case .variable(let path) = expression { source = dataPath(path.written) }
            items = .list(LiquidLoopItems.items(of: value))
            // As Liquid: a text is one item, whatever the offset and limit say.
            if case .string = value { sliced = false }
        case .range(let first, let last):
            let ends = lacking(first, last)
            if !ends.isEmpty {
                for path in ends { problems.append(.missingVariable(path)) }
                return
            }
            do throws(LiquidFailure) {
                items = .range(from: try LiquidLoopItems.end(first.evaluate(context), of: first), to: try LiquidLoopItems.end(last.evaluate(context), of: last))
            } catch {
                problems.append(.renderFailed(message: error.message))
                return
            }
        }
        let window: Range<Int>
        do throws(LiquidFailure) {
            let offset = header.continues ? offsets[header.name, default: 0] : try LiquidLoopItems.whole(header.offset?.evaluate(context), "offset") ?? 0
            let limit = try LiquidLoopItems.whole(header.limit?.evaluate(context), "limit")
            window = sliced ? items.window(offset: offset, limit: limit) : 0..<items.count
        } catch {
            problems.append(.renderFailed(message: error.message))
            return
        }
        // As Liquid: every loop notes where it stopped, for a later one with `offset: continue`.
        offsets[header.name] = window.upperBound
        if window.isEmpty {
            render(loop.otherwise)
            return
        }
        let length = window.count
        let parent = context.loops.last?.forloop
        context.loops.append((header.variable, .null, .null))
        itemSources.append(nil)
        defer {
            context.loops.removeLast()
            itemSources.removeLast()
        }
        for position in 0..<length where !full {
            let index = header.reversed ? window.upperBound - 1 - position : window.lowerBound + position
            passes += 1
            if passes > LiquidTemplate.maxLoopPasses {
                problems.append(.renderFailed(message: "The loops ran more than \(LiquidTemplate.maxLoopPasses) times; the rest is not rendered."))
                full = true
                return
            }
            var forloop: JSONObject = [
                "index": .integer(Int64(position + 1)), "index0": .integer(Int64(position)),
                "rindex": .integer(Int64(length - position)), "rindex0": .integer(Int64(length - position - 1)),
                "first": .bool(position == 0), "last": .bool(position == length - 1), "length": .integer(Int64(length)),
                "name": .string(header.name),
            ]
            forloop["parentloop"] = parent ?? .null
            context.loops[context.loops.count - 1] = (header.variable, items[index], .object(forloop))
            itemSources[itemSources.count - 1] = source.map { "\($0)[\(index)]" }
            render(loop.body)
            if interrupts.popLast() == .break { break }
        }
    }

    /// The ends of a range expression as Liquid reads them; nil for another expression, or an
    /// end that is missing or no number (the range's own evaluation says why).
    private func rangeEnds(_ expression: LiquidExpression) -> (start: Int, end: Int)? {
        guard case .range(let first, let last) = expression, let from = first.evaluate(context), let to = last.evaluate(context),
              let start = try? LiquidLoopItems.end(from, of: first), let end = try? LiquidLoopItems.end(to, of: last) else { return nil }
        return (start, end)
    }

    /// The problem of a path as written that finds nothing: the recipient's missing variable,
    /// unless its name is one the text assigned, which hides the recipient's: then what was
    /// assigned lacks the rest, a fault of the text (the thirty-fifth audit, F9: "order.id is
    /// not in this recipient's vars" for a recipient who has it, counted as missing data).
    private func missing(_ written: String) -> LiquidProblem? {
        let root = String(written.prefix { $0 != "." && $0 != "[" })
        guard context.locals[root] != nil, !context.loops.contains(where: { $0.item == root || root == "forloop" }) else {
            return .missingVariable(dataPath(written))
        }
        // An assignment that failed said so once; its name's uses add nothing.
        if failedAssignments.contains(root) { return nil }
        return .renderFailed(message: "\(written): \(root) is assigned in this text, and what it holds has no \(written.dropFirst(root.count)); a name the text assigns is not read from the recipient's vars")
    }

    /// A missing path as the recipient's data names it: inside a loop over a list of `vars`, the
    /// loop's variable is the item it is at (`i.price` is `items[2].price`), which is what the
    /// audience file lacks (the twenty-eighth audit, F5). Anything else, as written.
    private func dataPath(_ written: String) -> String {
        for (loop, source) in zip(context.loops, itemSources).reversed() {
            guard written.hasPrefix(loop.item) else { continue }
            let rest = written.dropFirst(loop.item.count)
            guard rest.isEmpty || rest.first == "." || rest.first == "[" else { continue }
            return source.map { $0 + rest } ?? written
        }
        return written
    }

    private mutating func render(_ tag: LiquidOutput) {
        // A range written out as it is shows as Liquid writes one, `3..4`, not its numbers run
        // together (Shopify/liquid expression_test.rb, test_range; the thirty-fifth audit).
        // Kept in a variable (`assign`), it is a list of its numbers here.
        if tag.filters.isEmpty, let (start, end) = rangeEnds(tag.expression) {
            append("\(start)..\(end)")
            return
        }
        guard let value = value(of: tag) else { return }
        switch value {
        case .string(let string): append(string)
        case .null: break
        default:
            var text = ""
            LiquidText.append(value, to: &text)
            append(text)
        }
    }

    /// An output's or an assignment's value through its filters; nil, with its problem noted,
    /// when a variable is missing or a filter fails.
    private mutating func value(of tag: LiquidOutput) -> JSONValue? {
        // A range is made a list of its numbers only up to the loops' limit: past it, its size,
        // last number or sum would be wrong, so it fails (the thirty-fifth audit, F2). A loop
        // over it counts its numbers without making the list.
        if let (start, end) = rangeEnds(tag.expression), LiquidLoopItems.range(from: start, to: end).count > LiquidTemplate.maxLoopPasses + 1 {
            problems.append(.renderFailed(message: "The range (\(start)..\(end)) holds more than \(LiquidTemplate.maxLoopPasses + 1) numbers, more than a value may; loop over it with 'for' instead."))
            return nil
        }
        var value: JSONValue
        if let found = tag.expression.evaluate(context) {
            value = found
        } else {
            if !tag.hasDefault, case .variable(let path) = tag.expression {
                if let problem = missing(path.written) { problems.append(problem) }
            }
            value = .null
        }
        // A variable given to a filter is as needed as the one filtered: `date: fmt` without
        // `fmt` would write the value unformatted, `default: fallback` nothing. The tag then
        // renders nothing, with that one finding.
        var lacking = false
        for filter in tag.filters {
            for path in filter.argumentVariables where path.resolve(context) == nil {
                if let problem = missing(path.written) { problems.append(problem) }
                lacking = true
            }
        }
        if lacking { return nil }
        for filter in tag.filters {
            do throws(LiquidFilter.Failure) {
                value = try filter.apply(to: value, context)
            } catch {
                problems.append(.filterFailed(filter: filter.name, message: error.message))
                return nil
            }
        }
        return value
    }

    /// Appends `text`, or as much of it as fits in the limit, cut after a whole character.
    private mutating func append(_ text: String) {
        let limit = LiquidTemplate.maxOutputBytes
        if output.utf8.count + text.utf8.count <= limit {
            output += text
            return
        }
        var room = limit - output.utf8.count
        for character in text {
            let size = character.utf8.count
            if size > room { break }
            output.append(character)
            room -= size
        }
        full = true
        if let capturing {
            // A captured text is a value, as a filter's is: past the limit it fails the
            // recipient, as a filter's does, rather than cut what it is used for.
            captureFull = true
            let problem = LiquidProblem.renderFailed(message: "the text captured in '\(capturing)' passed \(limit) bytes")
            // Once, however often a loop comes back to the capture.
            if !problems.contains(problem) { problems.append(problem) }
        } else {
            problems.append(.outputTooLong(limit: limit))
        }
    }
}

/// What a loop runs over: a list's items, or a range's numbers made one at a time (a range may
/// be far longer than any loop is let run).
enum LiquidLoopItems {
    case list([JSONValue])
    case range(from: Int, to: Int)

    /// A value as Liquid loops over it: an array's items, an object's `[key, value]` pairs, a
    /// text as one item (none when empty), and nil, a number or a boolean as none.
    static func items(of value: JSONValue) -> [JSONValue] {
        switch value {
        case .array(let items) where LiquidWholeNumber(value) == nil: items
        case .object(let object): object.map { .array([.string($0.key), $0.value]) }
        case .string(let text): text.isEmpty ? [] : [value]
        default: []
        }
    }

    /// A range's end as Liquid reads one: an integer, nil as 0, a text's leading integer, a
    /// fraction cut to its whole part.
    static func end(_ value: JSONValue?, of expression: LiquidExpression) throws(LiquidFailure) -> Int {
        switch value {
        case nil, .null?: return 0
        case .integer(let integer)?: return Int(integer)
        // A fraction written in the template is cut to its whole part (Ruby's to_i, at parse);
        // one from the vars goes through Liquid's Integer(), which refuses it (the forty-third
        // audit, F2: `(a..3)` with a 1.5 rendered 123).
        case .double(let double)? where double.isFinite && Swift.abs(double) < 9e18 && expression.isLiteral:
            return Int(double.rounded(.towardZero))
        case .string(let text)?:
            if case .integer(let integer) = try LiquidNumber.leadingInteger(text) { return Int(integer) }
            return 0
        case let other?:
            if let number = LiquidWholeNumber(other) { throw LiquidFailure(message: number.refusal("a range")) }
            throw LiquidFailure(message: "A range's ends must be whole numbers, as in (1..5), not \(LiquidText.plain(other)).")
        }
    }

    /// A loop's `limit` or `offset`: nil when not given or nil, else a whole number (an integer
    /// or a text of one), as Liquid's `Integer()` reads it.
    static func whole(_ value: JSONValue?, _ name: String) throws(LiquidFailure) -> Int? {
        switch value {
        case nil, .null?: return nil
        case .integer(let integer)?: return Int(integer)
        case .string(let text)?:
            if let integer = Int(text.trimmingBlanks()) { return integer }
        default: break
        }
        throw LiquidFailure(message: "The loop's '\(name)' must be a whole number, not \(LiquidText.plain(value ?? .null)).")
    }

    var count: Int {
        switch self {
        case .list(let items): return items.count
        case .range(let from, let to):
            guard to >= from else { return 0 }
            let (span, overflow) = to.subtractingReportingOverflow(from)
            return overflow || span == .max ? .max : span + 1
        }
    }

    subscript(index: Int) -> JSONValue {
        switch self {
        case .list(let items): items[index]
        case .range(let from, _): .integer(Int64(from + index))
        }
    }

    /// The places the loop visits, as Liquid slices: from `offset`, at most `limit` of them.
    func window(offset: Int, limit: Int?) -> Range<Int> {
        let lower = min(max(offset, 0), count)
        var upper = count
        if let limit {
            // As Liquid, the window ends at offset + limit from the offset as given: a negative
            // offset starts at the first item but still counts toward the end.
            let (end, overflow) = offset.addingReportingOverflow(limit)
            upper = min(overflow ? (limit < 0 ? lower : count) : max(end, lower), count)
        }
        return lower..<max(upper, lower)
    }
}
