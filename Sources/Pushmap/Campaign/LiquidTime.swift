internal import PushmapJSON

/// What the `date` filter reads as a time, in epoch seconds: a number of seconds, a string of
/// digits, an ISO 8601 date or date and time (`2026-11-26`, `2026-330`, `2026-11-26T10:00:00Z`,
/// `20261126T100000Z`, `2026-11-26 10:00:00 +0200`; no offset means UTC), or `now`/`today`, which are the
/// rendering's `now` (in Liquid both are the current time, not midnight). A time written with an
/// offset keeps it, as Ruby's Time.parse does: `09:30+09:00` is written 09:30, not 00:30 UTC.
enum LiquidTime {
    /// Years 1 to 9999, so every date has four digits and no arithmetic overflows.
    static let range: ClosedRange<Int64> = -62_135_596_800...253_402_300_799

    /// A time: whole epoch seconds, the nanoseconds after them (for `%L` and `%N`), and the
    /// offset from UTC it was written with, in seconds (nil: UTC, as `Z` or no offset says).
    struct Instant: Equatable {
        var seconds: Int64
        var nanoseconds: Int64 = 0
        var offset: Int64?
    }

    static func instant(of value: JSONValue, now: Int64) throws(LiquidFilter.Failure) -> Instant {
        let instant: Instant?
        switch value {
        case .integer(let integer): instant = Instant(seconds: integer)
        case .double(let double):
            let whole = double.rounded(.down)
            instant = double.isFinite && abs(double) < 1e15 ? Instant(seconds: Int64(whole), nanoseconds: Int64(((double - whole) * 1e9).rounded(.down))) : nil
        case .string(let text): instant = parse(text, now: now)
        default:
            throw LiquidFilter.Failure(message: "'date' needs a time, not \(value.typeName == "array" || value.typeName == "object" ? "an" : "a") \(value.typeName).")
        }
        guard let instant else {
            let shown = LiquidText.text(of: value)
            let quoted = shown.count > 40 ? String(shown.prefix(40)) + "..." : shown
            throw LiquidFilter.Failure(message: "'date' cannot read \"\(quoted)\" as a time; give epoch seconds, an ISO 8601 date such as 2026-11-26T10:00:00Z or an English one such as March 14, 2016.")
        }
        guard range.contains(instant.seconds) else {
            // Epoch milliseconds (JavaScript's, many exports') of any date since 2001 are past
            // 9999 as seconds: say the fix (the twenty-eighth audit, F12).
            let milliseconds = instant.seconds > range.upperBound && range.contains(instant.seconds / 1000)
                ? " It reads as epoch milliseconds: divide by 1000 first (| divided_by: 1000)." : ""
            throw LiquidFilter.Failure(message: "'date' takes times from year 1 to 9999; \(instant.seconds) seconds is outside.\(milliseconds)")
        }
        return instant
    }

    private static func parse(_ text: String, now: Int64) -> Instant? {
        // `now`, `today` and epoch seconds as the whole text, as Liquid's Utils.to_date matches
        // them: digits only (/\A\d+\z/), no sign (Int64 would take "+5" and "-0") and no blank
        // or line end around them (" 3 " is no time there). Dates are read with blanks trimmed.
        let lowered = text.lowercased()
        if lowered == "now" || lowered == "today" { return Instant(seconds: now) }
        let bytes = Array(text.utf8)
        if !bytes.isEmpty, bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let digits = Int64(text) {
            return Instant(seconds: digits)
        }
        let trimmed = String(text.trimmingBlanks())
        return iso8601(Array(trimmed.utf8)) ?? written(trimmed, now: now)
    }

    /// An ISO 8601 date: `YYYY-MM-DD`, the ordinal `YYYY-DDD`, or the basic `YYYYMMDD` when a time
    /// follows; then optionally `T` (or a space) and a time, `HH:MM[:SS]` (`HHMM[SS]` after the
    /// basic date), with a fraction (nanoseconds: its first nine digits), `24:00` and a leap
    /// second `:60` rolling over as Ruby's Time.parse does; then `Z` or an offset `+HH:MM`,
    /// `+HHMM` or `+HH`, a space before it allowed (`2026-11-26 10:05:09 +0000`).
    static func iso8601(_ bytes: [UInt8]) -> Instant? {
        var i = 0
        func digits(_ count: Int) -> Int64? {
            guard i + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[i..<(i + count)] {
                guard LiquidMarkupLexer.isDigit(byte) else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            i += count
            return value
        }
        func skip(_ byte: Character) -> Bool {
            guard i < bytes.count, bytes[i] == byte.asciiValue else { return false }
            i += 1
            return true
        }
        func runOfDigits() -> Int {
            var end = i
            while end < bytes.count, LiquidMarkupLexer.isDigit(bytes[end]) { end += 1 }
            return end - i
        }
        guard let year = digits(4) else { return nil }
        var days: Int64
        let basic = !skip("-")
        if basic {
            guard let month = digits(2), let day = digits(2), (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
                  i < bytes.count else { return nil }
            days = CivilDate.days(year: year, month: month, day: day)
        } else if runOfDigits() == 3 {
            guard let ordinal = digits(3), ordinal >= 1, ordinal <= (CivilDate.isLeap(year) ? 366 : 365) else { return nil }
            days = CivilDate.days(year: year, month: 1, day: 1) + ordinal - 1
        } else {
            guard let month = digits(2), skip("-"), let day = digits(2),
                  (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
            days = CivilDate.days(year: year, month: month, day: day)
        }
        if i == bytes.count { return Instant(seconds: days * 86_400) }
        guard skip("T") || skip("t") || (!basic && skip(" ")), let hour = digits(2) else { return nil }
        // The time in the date's form: `10:05` after `2026-11-26`, `1005` after `20261126`.
        let extended = !basic
        guard !extended || skip(":"), let minute = digits(2), hour <= 24, minute < 60 else { return nil }
        var second: Int64 = 0
        var nanoseconds: Int64 = 0
        if extended ? skip(":") : runOfDigits() >= 2 {
            guard let given = digits(2), given <= 60 else { return nil }
            second = given
            if skip(".") || skip(",") {
                let start = i
                while i < bytes.count, LiquidMarkupLexer.isDigit(bytes[i]) {
                    if i - start < 9 { nanoseconds = nanoseconds * 10 + Int64(bytes[i] - UInt8(ascii: "0")) }
                    i += 1
                }
                if i == start { return nil }
                for _ in min(i - start, 9)..<9 { nanoseconds *= 10 }
            }
        }
        // 24:00 is the next midnight, nothing later; a leap second counts into the next minute.
        if hour == 24, minute != 0 || second != 0 || nanoseconds != 0 { return nil }
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second
        if i == bytes.count { return Instant(seconds: seconds, nanoseconds: nanoseconds) }
        if i + 1 < bytes.count, bytes[i] == UInt8(ascii: " ") { i += 1 }
        if skip("Z") || skip("z") { return i == bytes.count ? Instant(seconds: seconds, nanoseconds: nanoseconds) : nil }
        // A zone named UTC or GMT, as Ruby's Time#to_s writes a UTC time and Time.parse reads it
        // (`2026-11-26 10:00:00 UTC`; the thirty-fifth audit, F3).
        let zone = String(decoding: bytes[i...], as: UTF8.self).uppercased()
        if zone == "UTC" || zone == "GMT" { return Instant(seconds: seconds, nanoseconds: nanoseconds) }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") else { return nil }
        let sign: Int64 = bytes[i] == UInt8(ascii: "-") ? -1 : 1
        i += 1
        guard let offsetHours = digits(2), offsetHours < 24 else { return nil }
        var offsetMinutes: Int64 = 0
        if i < bytes.count {
            _ = skip(":")
            guard let minutes = digits(2), minutes < 60 else { return nil }
            offsetMinutes = minutes
        }
        guard i == bytes.count else { return nil }
        // 10:00+02:00 is 08:00 UTC, written 10:00 with its offset.
        let offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
        return Instant(seconds: seconds - offset, nanoseconds: nanoseconds, offset: offset)
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: CivilDate.isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
