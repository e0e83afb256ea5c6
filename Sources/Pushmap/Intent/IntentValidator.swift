package import PushmapJSON

/// Checks an intent against ``IntentSchema`` (plus its template's own fields) and says what is
/// wrong, each finding at its JSON path, with a did-you-mean where a name is close to a known one.
package struct IntentValidator {
    /// Known template names, for `template` and its did-you-mean.
    let templates: [String]

    package init(templates: [String]) {
        self.templates = templates
    }

    /// The findings for `intent` whose template declares `extraFields`.
    package func validate(_ intent: JSONValue, extraFields: [IntentField]) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        guard case .object = intent else {
            findings.append(.error("$", "wrong-type", "an intent is a JSON object, got \(intent.typeName)"))
            return findings
        }
        var path = JSONPath.root
        path.components.reserveCapacity(8)
        check(intent, .object(IntentSchema.root(adding: extraFields)), path: &path, into: &findings)
        return findings
    }

    /// `path` is one stack of components shared by the whole walk, pushed and popped around
    /// each step, so a valid intent allocates no path at all.
    private func check(_ value: JSONValue, _ shape: IntentShape, path: inout JSONPath, into findings: inout [Diagnostic]) {
        switch shape {
        case .anything:
            return
        case .string:
            guard case .string = value else { return wrongType(value, "a string", path, &findings) }
        case .boolean:
            guard case .bool = value else { return wrongType(value, "true or false", path, &findings) }
        case .integer(let minimum, let maximum):
            guard case .integer(let number) = value else {
                if case .double(let number) = value, number.rounded() == number {
                    findings.append(.error(path.description, "wrong-type", "expected an integer, got \(number): write it without a fraction"))
                    return
                }
                return wrongType(value, "an integer", path, &findings)
            }
            if let minimum, number < minimum {
                findings.append(.error(path.description, "out-of-range", "\(number) is below the minimum of \(minimum)"))
            }
            if let maximum, number > maximum {
                findings.append(.error(path.description, "out-of-range", "\(number) is above the maximum of \(maximum)"))
            }
        case .number(let minimum, let maximum):
            guard let number = value.doubleValue, value.isNumber else { return wrongType(value, "a number", path, &findings) }
            if let minimum, number < minimum {
                findings.append(.error(path.description, "out-of-range", "\(number) is below the minimum of \(minimum)"))
            }
            if let maximum, number > maximum {
                findings.append(.error(path.description, "out-of-range", "\(number) is above the maximum of \(maximum)"))
            }
        case .choice(let choices):
            guard case .string(let text) = value else { return wrongType(value, "a string", path, &findings) }
            // Byte for byte, as the scripts and the phones compare ("DEEPLIN\u{212A}" is not "DEEPLINK").
            if !choices.contains(where: { UTF8Bytes.equal($0, text) }) {
                var message = "'\(text)' is not one of \(choices.joined(separator: ", "))"
                message += hint(text, among: choices)
                findings.append(.error(path.description, "bad-value", message))
            }
        case .template:
            guard case .string(let text) = value else { return wrongType(value, "a string", path, &findings) }
            if !templates.contains(where: { UTF8Bytes.equal($0, text) }) {
                var message = "unknown template '\(text)'"
                message += hint(text, among: templates)
                message += " (known: \(templates.sorted().joined(separator: ", ")))"
                findings.append(.error(path.description, "unknown-template", message))
            }
        case .array(let item, let maxItems):
            guard case .array(let items) = value else { return wrongType(value, "an array", path, &findings) }
            if let maxItems, items.count > maxItems {
                findings.append(.error(path.description, "too-many-items", "\(items.count) items, at most \(maxItems) allowed"))
            }
            for (index, element) in items.enumerated() {
                path.components.append(.index(index))
                check(element, item, path: &path, into: &findings)
                path.components.removeLast()
            }
        case .map(let item):
            guard case .object(let object) = value else { return wrongType(value, "an object", path, &findings) }
            if let item {
                for (key, element) in object {
                    path.components.append(.key(key))
                    check(element, item, path: &path, into: &findings)
                    path.components.removeLast()
                }
            }
        case .object(let shape):
            guard case .object(let object) = value else { return wrongType(value, "an object", path, &findings) }
            checkObject(object, shape, path: &path, into: &findings)
        }
    }

    private func checkObject(_ object: JSONObject, _ shape: IntentObject, path: inout JSONPath, into findings: inout [Diagnostic]) {
        // Indexes, not `for field in shape.fields`: each field copied out retains its strings.
        for member in object.members {
            let key = member.key
            if let index = shape.fieldIndex(named: key) {
                path.components.append(.key(key))
                check(member.value, shape.fields[index].shape, path: &path, into: &findings)
                path.components.removeLast()
            } else {
                var message = "unknown field '\(key)' at \(path)"
                let names = shape.fields.map(\.name).filter { $0 != "$schema" }
                message += hint(key, among: names)
                findings.append(.error(path.appending(key).description, "unknown-field", message))
            }
        }
        for index in shape.fields.indices where shape.fields[index].required && object[shape.fields[index].name] == nil {
            findings.append(.error(path.description, "missing-field", "missing required field '\(shape.fields[index].name)'"))
        }
        for group in shape.exclusive where group.count(where: { object[$0] != nil }) > 1 {
            let given = group.filter { object[$0] != nil }
            findings.append(.error(path.description, "exclusive-fields", "give only one of \(quoted(group)), not \(quoted(given))"))
        }
        for group in shape.oneRequired where !group.contains(where: { object[$0] != nil }) {
            findings.append(.error(path.description, "missing-field", "needs one of \(quoted(group))"))
        }
    }

    /// "Did you mean" for `text`; a name it only equals by canonical equivalence looks the same
    /// when printed, so that case is spelt out.
    private func hint(_ text: String, among names: [String]) -> String {
        if let twin = names.first(where: { $0 == text }) {
            return "; it looks like '\(twin)' but is written with other Unicode characters (such as a Kelvin sign for K)"
        }
        return Suggestion.nearest(to: text, among: names).map { "; did you mean '\($0)'?" } ?? ""
    }

    private func quoted(_ names: [String]) -> String {
        names.map { "'\($0)'" }.joined(separator: names.count == 2 ? " and " : ", ")
    }

    private func wrongType(_ value: JSONValue, _ expected: String, _ path: JSONPath, _ findings: inout [Diagnostic]) {
        findings.append(.error(path.description, "wrong-type", "expected \(expected), got \(value.typeName)"))
    }
}

extension JSONValue {
    var isNumber: Bool {
        switch self {
        case .integer, .double: true
        default: false
        }
    }
}
