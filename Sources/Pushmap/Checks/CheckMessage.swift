internal import PushmapJSON

/// A finding's message, written with string interpolation as any string is, but built as bytes
/// in one buffer: Swift's own interpolation grows a string piece by piece, several times the
/// cost for the messages that fire on every payload of a batch (a remind-later time past).
struct CheckMessage: ExpressibleByStringInterpolation {
    let text: String

    init(stringLiteral value: StaticString) {
        text = ValueFormat.text(value)
    }

    init(stringInterpolation: Interpolation) {
        text = stringInterpolation.text
    }

    struct Interpolation: StringInterpolationProtocol {
        /// The bytes while they fit in place, as nearly every message does: a message in an
        /// array of its own paid a heap block and its release (~500 instructions a finding; the
        /// basic seed has one a batch line).
        private var head = InlineArray<192, UInt8>(repeating: 0)
        private var count = 0
        /// All the bytes once they no longer fit in place.
        private var spilled: [UInt8] = []

        init(literalCapacity: Int, interpolationCount: Int) {}

        var text: String {
            guard spilled.isEmpty else { return String(decoding: spilled, as: UTF8.self) }
            var head = head
            return withUnsafeBytes(of: &head) { String(decoding: UnsafeRawBufferPointer(rebasing: $0[..<count]), as: UTF8.self) }
        }

        private mutating func append(_ bytes: UnsafeRawBufferPointer) {
            guard !bytes.isEmpty else { return }
            if spilled.isEmpty && count + bytes.count <= head.count {
                let range = count..<count + bytes.count
                withUnsafeMutableBytes(of: &head) { UnsafeMutableRawBufferPointer(rebasing: $0[range]).copyMemory(from: bytes) }
                count = range.upperBound
                return
            }
            if spilled.isEmpty {
                spilled.reserveCapacity(2 * head.count)
                let kept = count
                withUnsafeBytes(of: &head) { spilled.append(contentsOf: $0[..<kept]) }
            }
            spilled.append(contentsOf: bytes)
        }

        mutating func appendLiteral(_ literal: StaticString) {
            append(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
        }

        mutating func appendInterpolation(_ text: String) {
            UTF8Bytes.withBytes(of: text) { append(UnsafeRawBufferPointer($0)) }
        }

        mutating func appendInterpolation(_ literal: StaticString) {
            appendLiteral(literal)
        }

        mutating func appendInterpolation(_ number: Int64) {
            DecimalText.withDigits(of: number) { append($0) }
        }

        mutating func appendInterpolation(_ number: Int) {
            appendInterpolation(Int64(number))
        }

        mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            appendInterpolation(value.description)
        }
    }
}
