extension LiquidTime {
    /// A date written in English, as Ruby's Time.parse reads the common forms: the month by name
    /// (`March`, `Mar`, `Mar.`, any case) before or after the day, then the year (`March 14, 2016`,
    /// `14 March 2016`; no year means the year of `now`), a weekday before it ignored, and an
    /// optional time (`10:05`, `10:05:09`, `9pm`, `9:30 am`) and zone (`UTC`, `GMT`, `Z`,
    /// `+0200`, `+02:00`), as an RFC 2822 date has them (`Mon, 14 Mar 2016 10:00:00 +0000`).
    /// nil for anything else: a guess would show the wrong day.
    static func written(_ text: String, now: Int64) -> Instant? {
        let tokens = WrittenToken.split(text)
        var month: Int64?, day: Int64?, year: Int64?
        var time: (hour: Int64, minute: Int64, second: Int64)?
        var meridian: Int64? // 0 am, 12 pm
        var offset: Int64?
        var zoned = false
        for (index, token) in tokens.enumerated() {
            switch token {
            case .word(let word):
                if let number = months.firstIndex(where: { $0 == word || ($0.hasPrefix(word) && word.count == 3) }) {
                    guard month == nil else { return nil }
                    month = Int64(number + 1)
                } else if weekdays.contains(where: { $0 == word || ($0.hasPrefix(word) && word.count == 3) }) {
                    guard month == nil, day == nil, index == 0 else { return nil }
                } else if word == "am" || word == "pm" {
                    guard time != nil || day != nil, meridian == nil else { return nil }
                    meridian = word == "am" ? 0 : 12
                } else if word == "utc" || word == "gmt" || word == "z" {
                    guard !zoned, time != nil else { return nil }
                    zoned = true
                } else {
                    return nil
                }
            case .number(let value, let length):
                if length == 4, year == nil, month != nil {
                    year = value
                } else if length <= 2, day == nil, year == nil {
                    day = value
                } else if length <= 2, time == nil, day != nil, index + 1 < tokens.count, case .word(let next) = tokens[index + 1], next == "am" || next == "pm" {
                    // `9pm`: an hour alone, before its meridian.
                    time = (value, 0, 0)
                } else {
                    return nil
                }
            case .time(let hour, let minute, let second):
                guard time == nil, month != nil, day != nil else { return nil }
                time = (hour, minute, second)
            case .offset(let seconds):
                guard !zoned, time != nil else { return nil }
                zoned = true
                offset = seconds
            }
        }
        guard let month, let day, day >= 1 else { return nil }
        let resolvedYear = year ?? CivilDate(seconds: now).year
        guard (1...9999).contains(resolvedYear), day <= daysIn(month: month, year: resolvedYear) else { return nil }
        var clock = time ?? (0, 0, 0)
        if let meridian {
            guard time != nil, (1...12).contains(clock.hour) else { return nil }
            clock.hour = clock.hour % 12 + meridian
        }
        guard clock.hour < 24, clock.minute < 60, clock.second <= 60 else { return nil }
        let seconds = CivilDate.days(year: resolvedYear, month: month, day: day) * 86_400 + clock.hour * 3600 + clock.minute * 60 + clock.second
        // As the ISO form: a written offset is kept, UTC (named or not) is no offset.
        guard let offset else { return Instant(seconds: seconds) }
        return Instant(seconds: seconds - offset, offset: offset)
    }

    private static let months = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
    private static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// The pieces of a written date: words in lower case, numbers, `HH:MM[:SS]` and `+HHMM`;
    /// commas, a dot after a word and blanks only separate them.
    private enum WrittenToken {
        case word(String)
        case number(Int64, length: Int)
        case time(hour: Int64, minute: Int64, second: Int64)
        case offset(Int64)

        static func split(_ text: String) -> [WrittenToken] {
            let bytes = Array(text.utf8)
            var tokens: [WrittenToken] = []
            var i = 0
            func run(_ accepts: (UInt8) -> Bool) -> ArraySlice<UInt8> {
                let start = i
                while i < bytes.count, accepts(bytes[i]) { i += 1 }
                return bytes[start..<i]
            }
            func number(_ digits: ArraySlice<UInt8>) -> Int64? {
                guard !digits.isEmpty, digits.count <= 4 else { return nil }
                return digits.reduce(0) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
            }
            while i < bytes.count {
                let byte = bytes[i]
                if LiquidSourceText.isSpace(byte) || byte == UInt8(ascii: ",") {
                    i += 1
                } else if (byte | 0x20) >= UInt8(ascii: "a"), (byte | 0x20) <= UInt8(ascii: "z") {
                    let word = run { ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") }
                    tokens.append(.word(String(decoding: word.map { $0 | 0x20 }, as: UTF8.self)))
                    if i < bytes.count, bytes[i] == UInt8(ascii: ".") { i += 1 }
                } else if LiquidMarkupLexer.isDigit(byte) {
                    let digits = run(LiquidMarkupLexer.isDigit)
                    guard let value = number(digits) else { return [.word("")] }
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
                        tokens.append(.number(value, length: digits.count))
                        continue
                    }
                    i += 1
                    guard digits.count <= 2, let minute = number(run(LiquidMarkupLexer.isDigit)) else { return [.word("")] }
                    var second: Int64 = 0
                    if i < bytes.count, bytes[i] == UInt8(ascii: ":") {
                        i += 1
                        guard let given = number(run(LiquidMarkupLexer.isDigit)) else { return [.word("")] }
                        second = given
                    }
                    tokens.append(.time(hour: value, minute: minute, second: second))
                } else if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                    i += 1
                    let hours = run(LiquidMarkupLexer.isDigit)
                    var minutes: ArraySlice<UInt8> = []
                    if hours.count == 2, i < bytes.count, bytes[i] == UInt8(ascii: ":") {
                        i += 1
                        minutes = run(LiquidMarkupLexer.isDigit)
                    }
                    let all = Array(hours) + Array(minutes)
                    guard all.count == 4 || all.count == 2, let h = number(all.prefix(2)), let m = all.count == 4 ? number(all.suffix(2)) : 0,
                          h < 24, m < 60 else { return [.word("")] }
                    tokens.append(.offset((byte == UInt8(ascii: "-") ? -1 : 1) * (h * 3600 + m * 60)))
                } else {
                    return [.word("")]
                }
            }
            return tokens
        }
    }
}
