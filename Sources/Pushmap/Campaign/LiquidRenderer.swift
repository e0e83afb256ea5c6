internal import PushmapJSON

/// Walks a compiled template for one recipient, appending to one string and noting problems.
struct LiquidRenderer {
    let context: LiquidContext
    private(set) var output: String
    private(set) var problems: [LiquidProblem] = []
    /// Set once the output reached its limit: nothing more is rendered.
    private var full = false

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
            }
        }
    }

    private mutating func render(_ tag: LiquidOutput) {
        var value: JSONValue
        if let found = tag.expression.evaluate(context) {
            value = found
        } else {
            if !tag.hasDefault, case .variable(let path) = tag.expression {
                problems.append(.missingVariable(path.written))
            }
            value = .null
        }
        // A variable given to a filter is as needed as the one filtered: `date: fmt` without
        // `fmt` would write the value unformatted, `default: fallback` nothing. The tag then
        // renders nothing, with that one finding.
        var missing = false
        for filter in tag.filters {
            for path in filter.argumentVariables where path.resolve(context) == nil {
                problems.append(.missingVariable(path.written))
                missing = true
            }
        }
        if missing { return }
        for filter in tag.filters {
            do throws(LiquidFilter.Failure) {
                value = try filter.apply(to: value, context)
            } catch {
                problems.append(.filterFailed(filter: filter.name, message: error.message))
                return
            }
        }
        switch value {
        case .string(let string): append(string)
        case .null: break
        default:
            var text = ""
            LiquidText.append(value, to: &text)
            append(text)
        }
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
        problems.append(.outputTooLong(limit: limit))
    }
}
