internal import PushmapJSON
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Liquid tags in an intent that `translate` or `batch` reads: only `pushmap campaign` renders
/// them, so anywhere else `{{ first_name }}` would reach the phone as written. Each string that
/// holds one gets a `campaign-only` warning, as `locales` does.
enum LiquidLiterals {
    static let rule = "campaign-only"

    /// Whether the intent's JSON text holds `{{` or `{%`. JSON writes neither outside a string,
    /// so this is exact for what it lets through, and costs a look at each `{` (about ten an
    /// intent): the batch path pays that and nothing more.
    static func mayHold(_ text: [UInt8]) -> Bool {
        text.withUnsafeBytes { bytes in
            guard var at = bytes.baseAddress else { return false }
            let end = at + bytes.count
            // memchr from brace to brace: the C library's vector search, not a loop per byte.
            while at < end, let brace = memchr(at, Int32(UInt8(ascii: "{")), end - at) {
                let next = UnsafeRawPointer(brace) + 1
                guard next < end else { return false }
                let byte = next.load(as: UInt8.self)
                if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "%") { return true }
                at = next
            }
            return false
        }
    }

    /// A warning for each string of `intent` that holds a tag, at its path; `template` names a
    /// script and `locales` is warned of already.
    static func warnings(_ intent: JSONValue) -> [Diagnostic] {
        var found: [Diagnostic] = []
        walk(intent, path: .root, into: &found)
        return found
    }

    private static func walk(_ value: JSONValue, path: JSONPath, into found: inout [Diagnostic]) {
        switch value {
        case .string(let text) where LiquidLexer.hasMarkup(text):
            found.append(.warning(path.description, rule, "holds a Liquid tag, which only pushmap campaign renders: it is sent as written"))
        case .object(let object):
            for (key, member) in object where !(path == .root && (key == "template" || key == "locales")) {
                walk(member, path: path.appending(key), into: &found)
            }
        case .array(let items):
            for (index, item) in items.enumerated() { walk(item, path: path.appending(index), into: &found) }
        default:
            break
        }
    }
}
