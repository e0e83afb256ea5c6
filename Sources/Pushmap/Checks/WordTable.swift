@_spi(Engine) internal import PushmapJSON

/// A fixed list of words, found by a key's bytes: the intent's field names and choices
/// (``IntentCheck``) and the Adobe keys the payload checks know (``CustomKeys``).
///
/// Words are matched by their print (length and first and last eight bytes), which settles every
/// word of up to 16 bytes without touching its bytes. Byte for byte, as the scripts and the phones
/// compare: "DEEPLIN\u{212A}" (a Kelvin sign) is not "DEEPLINK". The prints sit in a small
/// open-addressed table: the intent's root object has dozens of fields, and a scan compared each
/// key of every intent with half of them.
///
/// The table is one block of slots, each holding its word's print and index, read through a
/// pointer: a lookup (69 a batch line) is a hash, a load and a compare, inlined where it is
/// called, with no bounds check, no reference count and no word's bytes unless it is longer than
/// 16. Against arrays of prints and slots: 242,817 to 239,066 instructions a batch line (four
/// seeds). Written once in `init` and only read after, so it is safe to share between threads.
final class WordTable: @unchecked Sendable {
    let names: [String]
    private let bytes: [[UInt8]]
    /// One slot of the table: a word's print, and its index (-1 for an empty slot).
    private struct Slot {
        var head: UInt64 = 0
        var tail: UInt64 = 0
        var length: Int32 = 0
        var index: Int32 = -1
    }
    /// At least three quarters empty: a probe ends, most at the first slot.
    private let slots: UnsafeMutablePointer<Slot>
    private let mask: Int

    init(_ words: [String]) {
        names = words
        bytes = words.map { Array($0.utf8) }
        var size = 4
        while size < 4 * words.count { size *= 2 }
        slots = .allocate(capacity: size)
        slots.initialize(repeating: Slot(), count: size)
        mask = size - 1
        // In order, each in the first empty slot from its hash: of two equal words, a probe
        // meets the first, as a scan would.
        for (index, word) in words.enumerated() {
            let print = KeyPrint(word)
            var slot = Self.hash(print) & mask
            while slots[slot].index >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Slot(head: print.head, tail: print.tail, length: Int32(truncatingIfNeeded: print.length), index: Int32(index))
        }
    }

    deinit {
        slots.deallocate()
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
        // Longer than any word a table holds (and than 32 bits count): no word.
        guard print.length <= Int(Int32.max) else { return nil }
        let length = Int32(truncatingIfNeeded: print.length)
        var slot = Self.hash(print) & mask
        while true {
            let entry = slots[slot]
            guard entry.index >= 0 else { return nil }
            if entry.head == print.head, entry.tail == print.tail, entry.length == length,
               print.isWhole || isWord(Int(entry.index), key) {
                return Int(entry.index)
            }
            slot = (slot + 1) & mask
        }
    }

    /// Whether word `index` is `key`, byte for byte: for words of over 16 bytes only, whose
    /// print leaves bytes out. Out of line, so that the lookup saves no registers for it.
    @inline(never)
    private func isWord(_ index: Int, _ key: UnsafeRawBufferPointer) -> Bool {
        bytes[index].withUnsafeBytes { JSONItems.same($0, key) }
    }
}
