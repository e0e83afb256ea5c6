#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif
internal import PushmapJSON

/// Swift strings for the Lua strings a state hands back again and again: payload keys
/// (`adb_title`, `message`), and words like `"basic"` or `"WEBURL"`. Lua keeps one copy of each
/// short string, at one address while it lives, so a slot is found by that address; the bytes
/// are then compared with the copy the slot keeps, so a string that has since died and whose
/// address was reused is never mistaken for another. Making a `String` validates and copies its
/// bytes; a hit costs a comparison of at most ``maxBytes``.
///
/// The slots live in raw memory the cache owns, and a value being built from the C walk's items
/// holds that memory's address, not the cache: a hit is on the path of every string it makes,
/// and a Swift array in a class property would cost an exclusivity check and a retain each.
final class LuaStringCache {
    /// Longest string kept: Lua's short strings, the ones it keeps a single copy of.
    static let maxBytes = 40
    private static let slotCount = 512

    fileprivate struct Slot {
        var address: UnsafeRawPointer?
        var length: Int
        var string: String
    }

    /// The cache's memory, to use while the cache lives: plain pointers, so that
    /// using it costs no reference counting.
    struct Storage {
        fileprivate let slots: UnsafeMutablePointer<Slot>
        /// `maxBytes` bytes a slot: the bytes of the string it holds.
        fileprivate let bytes: UnsafeMutableRawPointer

        /// The string for `length` bytes at `address`, or nil when they are not valid UTF-8.
        @inline(__always)
        func string(_ address: UnsafeRawPointer, _ length: Int) -> String? {
            guard length <= LuaStringCache.maxBytes else { return LuaStringCache.make(address, length) }
            let bits = UInt(bitPattern: address)
            let index = Int((bits >> 4 ^ bits >> 13) & UInt(LuaStringCache.slotCount - 1))
            let stored = bytes + index * LuaStringCache.maxBytes
            let slot = slots + index
            if slot.pointee.address == address, slot.pointee.length == length, memcmp(stored, address, length) == 0 {
                return slot.pointee.string
            }
            guard let made = LuaStringCache.make(address, length) else { return nil }
            stored.copyMemory(from: address, byteCount: length)
            slot.pointee = Slot(address: address, length: length, string: made)
            return made
        }
    }

    let storage: Storage

    init() {
        let slots = UnsafeMutablePointer<Slot>.allocate(capacity: Self.slotCount)
        slots.initialize(repeating: Slot(address: nil, length: 0, string: ""), count: Self.slotCount)
        storage = Storage(slots: slots, bytes: UnsafeMutableRawPointer.allocate(byteCount: Self.slotCount * Self.maxBytes, alignment: 8))
    }

    deinit {
        storage.slots.deinitialize(count: Self.slotCount)
        storage.slots.deallocate()
        storage.bytes.deallocate()
    }

    fileprivate static func make(_ address: UnsafeRawPointer, _ length: Int) -> String? {
        UTF8Text.string(UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: length))
    }
}
