internal import HTTPTypes
@_spi(Engine) internal import PushmapJSON

/// The request's query parameters, read here rather than by the generated routes.
///
/// Hand-written for a measured reason: swift-openapi-generator's code decodes each declared
/// parameter through OpenAPIRuntime's URI decoder, which parsed the whole query again for every
/// parameter. For `POST /v1/translate?platform=both` that was about 91,000 instructions of a
/// request's 764,000 (callgrind over 4,354 requests), more than a third of the translation
/// itself. It also answered a query with a pair that has no `=` (`?a&platform=fcm`) with 500.
/// scripts/openapi-generate leaves the query parameters out of the view the generator reads;
/// openapi.yaml still documents them.
///
/// The query is read as HTML forms send one (`application/x-www-form-urlencoded`): pairs apart
/// at `&`, empty pairs skipped, a name apart from its value at the first `=` (no `=`: the value
/// is empty), `+` a space, `%XX` a byte (a `%` with no two hex digits after it stays as it is).
/// A name given twice takes its first value, as the generated code did.
struct RequestQuery: Sendable {
    private let items: [(name: String, value: String)]

    /// The query of `target`, the request's path with its query (`/v1/translate?platform=fcm`).
    init(target: String?) {
        guard let target, let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else {
            items = []
            return
        }
        var items: [(name: String, value: String)] = []
        for pair in target.utf8[target.utf8.index(after: mark)...].split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            if let equals = pair.firstIndex(of: UInt8(ascii: "=")) {
                items.append((Self.decoded(pair[..<equals]), Self.decoded(pair[pair.index(after: equals)...])))
            } else {
                items.append((Self.decoded(pair), ""))
            }
        }
        self.items = items
    }

    /// The query of the request being answered.
    static var current: RequestQuery { RequestQuery(target: RequestScope.current.head.path) }

    /// The first value given for `name`, or nil when the query does not name it.
    subscript(name: String) -> String? {
        items.first { $0.name == name }?.value
    }

    private static func decoded(_ bytes: Substring.UTF8View) -> String {
        // Most names and values need no decoding at all.
        guard bytes.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            index = bytes.index(after: index)
            if byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), index != bytes.endIndex, let high = bytes[index].hexDigitValue,
                bytes.index(after: index) != bytes.endIndex, let low = bytes[bytes.index(after: index)].hexDigitValue
            {
                out.append(high << 4 | low)
                index = bytes.index(index, offsetBy: 2)
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
