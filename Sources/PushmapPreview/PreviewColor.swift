@_spi(Engine) internal import PushmapJSON

/// A colour as a phone reads it from a payload, ready for CSS.
package struct PreviewColor: Sendable, Hashable {
    package var red: UInt8
    package var green: UInt8
    package var blue: UInt8
    /// 0 to 255.
    package var alpha: UInt8

    /// The colours a view is drawn with; nil where the phone uses its own.
    package struct Set: Sendable, Hashable {
        package var title: PreviewColor?
        package var body: PreviewColor?
        package var background: PreviewColor?
        package var icon: PreviewColor?
        package var timer: PreviewColor?
        package init() {}
    }

    /// `rgba(r, g, b, a)`, or `#RRGGBB` when opaque.
    package var css: String {
        if alpha == 255 { return "#" + red.upperHex + green.upperHex + blue.upperHex }
        let opacity = Double(Int(alpha) * 1000 / 255) / 1000
        return "rgba(\(red), \(green), \(blue), \(opacity))"
    }

    /// How Android's notificationbuilder reads a colour: `Color.parseColor("#" + value)`, so
    /// RRGGBB or AARRGGBB (alpha first) and no `#` of its own (a value with one is ignored).
    package static func android(_ value: String) -> PreviewColor? {
        guard let bytes = hexBytes(value), !value.hasPrefix("#") else { return nil }
        switch bytes.count {
        case 3: return PreviewColor(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: 255)
        case 4: return PreviewColor(red: bytes[1], green: bytes[2], blue: bytes[3], alpha: bytes[0])
        default: return nil
        }
    }

    /// How AEPNotificationContent reads a colour: 6 or 8 hex digits, `#` allowed, and 8 digits
    /// are RRGGBBAA (alpha last).
    package static func iOS(_ value: String) -> PreviewColor? {
        let digits = value.hasPrefix("#") ? String(value.dropFirst()) : value
        guard let bytes = hexBytes(digits) else { return nil }
        switch bytes.count {
        case 3: return PreviewColor(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: 255)
        case 4: return PreviewColor(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: bytes[3])
        default: return nil
        }
    }

    /// Pairs of hex digits as bytes; nil when any character is not a hex digit or one is left over.
    private static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0, !digits.isEmpty else { return nil }
        var bytes: [UInt8] = []
        var index = 0
        while index < digits.count {
            guard let high = digits[index].hexDigitValue, let low = digits[index + 1].hexDigitValue else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

}
