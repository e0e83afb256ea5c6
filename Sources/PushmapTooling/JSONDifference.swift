package import PushmapJSON

/// The differences between an expected and an actual JSON value, one readable line each,
/// naming the path: `$.message.data.adb_title: expected "A", got "B"`.
package enum JSONDifference {
    package static func lines(expected: JSONValue, actual: JSONValue, path: JSONPath = .root) -> [String] {
        var lines: [String] = []
        compare(expected, actual, path, &lines)
        return lines
    }

    private static func compare(_ expected: JSONValue, _ actual: JSONValue, _ path: JSONPath, _ lines: inout [String]) {
        switch (expected, actual) {
        case let (.object(left), .object(right)):
            for (key, value) in left {
                if let other = right[key] {
                    compare(value, other, path.appending(key), &lines)
                } else {
                    lines.append("\(path.appending(key)): missing (expected \(show(value)))")
                }
            }
            for (key, value) in right where left[key] == nil {
                lines.append("\(path.appending(key)): unexpected \(show(value))")
            }
        case let (.array(left), .array(right)):
            for index in 0..<max(left.count, right.count) {
                if index >= right.count {
                    lines.append("\(path.appending(index)): missing (expected \(show(left[index])))")
                } else if index >= left.count {
                    lines.append("\(path.appending(index)): unexpected \(show(right[index]))")
                } else {
                    compare(left[index], right[index], path.appending(index), &lines)
                }
            }
        default:
            if expected != actual { lines.append("\(path): expected \(show(expected)), got \(show(actual))") }
        }
    }

    private static func show(_ value: JSONValue) -> String {
        let text = String(decoding: JSONWriter(style: .compact).write(value), as: UTF8.self)
        return text.count > 120 ? String(text.prefix(117)) + "..." : text
    }
}
