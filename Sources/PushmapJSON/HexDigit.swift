extension UInt8 {
    /// The byte's value as a hexadecimal digit (`0`-`9`, `a`-`f`, `A`-`F`), or nil: the one
    /// reading of hex digits for JSON's `\u` escapes, colours, ids and the server's `%XX` escapes.
    @_spi(Engine) @inlinable
    public var hexDigitValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension UInt8 {
    /// The upper-case hexadecimal digit for the low four bits (`0`-`9`, `A`-`F`): the one
    /// writing of upper-case hex digits: `%XX` and `\uXXXX` escapes, bytes in messages, colours.
    @_spi(Engine) @inlinable
    public static func upperHexDigit(_ value: UInt8) -> UInt8 {
        let nibble = value & 0xF
        return nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }

    /// The byte as two upper-case hexadecimal digits (`0A`), as messages and CSS show a byte.
    @_spi(Engine) @inlinable
    public var upperHex: String {
        String(decoding: [.upperHexDigit(self >> 4), .upperHexDigit(self)], as: UTF8.self)
    }
}
