@_spi(Engine) internal import PushmapJSON

/// A fixed list of words, found by a key's bytes: the intent's field names and choices
/// (``IntentCheck``) and the Adobe keys the payload checks know (``CustomKeys``).
///
/// Words are matched by their print (length and first and last eight bytes), which settles every
/// word of up to 16 bytes without touching its bytes. Byte for byte, as the scripts and the phones
/// compare: "DEEPLIN\u{212A}" (a Kelvin sign) is not "DEEPLINK". The prints sit in a small
/// open-addressed table: the intent's root object has dozens of fields, and a scan compared each
/// key of every intent with half of them.
final class WordTable: Sendable {
    let names: [String]
    private let prints: [KeyPrint]
    private let bytes: [[UInt8]]
    /// Word indices by the print's hash, -1 where empty; at least half empty, so a probe ends.
    private let slots: [Int32]
    private let mask: Int

    init(_ words: [String]) {
        names = words
        bytes = words.map { Array($0.utf8) }
        prints = words.map(KeyPrint.init)
        var size = 4
        while size < 2 * words.count { size *= 2 }
        var slots = [Int32](repeating: -1, count: size)
        // In order, each in the first empty slot from its hash: of two equal words, a probe
        // meets the first, as a scan would.
        for (index, print) in prints.enumerated() {
            var slot = Self.hash(print) & (size - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = Int32(index)
        }
        self.slots = slots
        mask = size - 1
    }

    private static func hash(_ print: KeyPrint) -> Int {
        // The high bits of a multiplicative hash mix every byte of the print.
        let mixed = (print.head ^ print.tail &* 0x2545_F491_4F6C_DD1D ^ UInt64(truncatingIfNeeded: print.length)) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> 40)
    }

    /// The index of the word whose bytes are `key`'s, or nil.
    func index(of key: UnsafeRawBufferPointer) -> Int? {
        index(of: key, print: KeyPrint(bytes: key))
    }

    /// As ``index(of:)``, with the key's print already made.
    func index(of key: UnsafeRawBufferPointer, print: KeyPrint) -> Int? {
        var slot = Self.hash(print) & mask
        while true {
            let index = Int(slots[slot])
            guard index >= 0 else { return nil }
            if prints[index] == print, print.isWhole || bytes[index].withUnsafeBytes({ JSONItems.same($0, key) }) { return index }
            slot = (slot + 1) & mask
        }
    }
}
