/// A finding's message, written with string interpolation as any string is, but built as bytes
/// in one buffer: Swift's own interpolation grows a string piece by piece, several times the
/// cost for the messages that fire on every payload of a batch (a remind-later time past).
struct CheckMessage: ExpressibleByStringInterpolation {
    let text: String

    init(stringLiteral value: StaticString) {
        text = ValueFormat.text(value)
    }

    init(stringInterpolation: Interpolation) {
        text = String(decoding: stringInterpolation.bytes, as: UTF8.self)
    }

    struct Interpolation: StringInterpolationProtocol {
        var bytes: [UInt8] = []

        init(literalCapacity: Int, interpolationCount: Int) {
            bytes.reserveCapacity(literalCapacity + 24 * interpolationCount)
        }

        mutating func appendLiteral(_ literal: StaticString) {
            bytes.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
        }

        mutating func appendInterpolation(_ text: String) {
            bytes.append(contentsOf: text.utf8)
        }

        mutating func appendInterpolation(_ literal: StaticString) {
            appendLiteral(literal)
        }

        mutating func appendInterpolation(_ number: Int64) {
            ValueFormat.appendDecimal(number, to: &bytes)
        }

        mutating func appendInterpolation(_ number: Int) {
            ValueFormat.appendDecimal(Int64(number), to: &bytes)
        }

        mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            bytes.append(contentsOf: value.description.utf8)
        }
    }
}
