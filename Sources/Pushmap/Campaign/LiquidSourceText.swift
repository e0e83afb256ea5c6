/// A template's text as the compiler reads it: UTF-8 bytes, which it scans, and the string, whose
/// characters its errors count.
struct LiquidSourceText {
    let source: String
    let bytes: [UInt8]

    init(_ source: String) {
        self.source = source
        bytes = Array(source.utf8)
    }

    /// The column (characters from 1) of the character that holds byte `offset`.
    func column(ofByte offset: Int) -> Int {
        let clamped = min(max(0, offset), bytes.count)
        return String(decoding: bytes[..<clamped], as: UTF8.self).count + 1
    }

    /// A syntax error at byte `offset`.
    func error(at offset: Int, _ message: String) -> LiquidSyntaxError {
        LiquidSyntaxError(column: column(ofByte: offset), message: message)
    }

    /// The bytes in `range` as a string.
    func text(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// Whether the bytes at `offset` spell `word`.
    func has(_ word: StaticString, at offset: Int) -> Bool {
        let count = word.utf8CodeUnitCount
        guard offset >= 0, offset + count <= bytes.count else { return false }
        for i in 0..<count where bytes[offset + i] != word.utf8Start[i] { return false }
        return true
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }
}
