/// Integers in decimal, without going through `String`: the one integer formatter, for JSON text
/// and for the checks' messages.
package enum DecimalText {
    /// Calls `body` with the digits of `value`, a `-` first when it is negative. The digits are
    /// written backwards into 24 bytes of scratch on the stack, so nothing is allocated; the
    /// magnitude taken as unsigned also covers the most negative value.
    /// Not generic and not inlined: other modules call it, and this toolchain inlines nothing of
    /// a package declaration across modules, so a generic body ran unspecialised there (~250
    /// instructions a number more, three numbers a batch line).
    package static func withDigits(of value: Int64, _ body: (UnsafeRawBufferPointer) -> Void) {
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var magnitude = UInt64(truncatingIfNeeded: value.magnitude)
        withUnsafeMutableBytes(of: &scratch) { buffer in
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                index -= 1
                buffer[index] = UInt8(ascii: "-")
            }
            body(UnsafeRawBufferPointer(rebasing: buffer[index...]))
        }
    }
}
