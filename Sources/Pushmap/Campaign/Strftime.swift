/// strftime formats for the `date` filter, in the offset the time was written with (UTC when it
/// had none), as Ruby's Time#strftime (which Liquid calls) writes them: `%[flags][width][:]directive`.
///
/// Directives: `%Y %C %y %m %d %e %j %H %k %I %l %M %S %L %N %p %P %b %h %B %a %A %u %w %U %W
/// %V %G %g %Z %z %:z %::z %:::z %s %%`, the combinations `%F %T %D %R %r %c %x %X %v`, `%n %t`,
/// and the `E` and `O` modifiers where Ruby takes them (`%Ey` is `%y`). Flags: `-` (no padding),
/// `_` (blanks), `0` (zeros), `^` (upper case), `#` (change case: `%#p` is `am`). A width pads to
/// at least that many characters; for `%L` and `%N` it is the number of fraction digits (`%3N`
/// is milliseconds). An unknown directive is written as it stands.
enum Strftime {
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// How a number is padded to its width.
    private enum Padding { case zeros, blanks, none }

    /// What a directive's flags, width and colons ask.
    private struct Options {
        var padding: Padding?
        var upper = false
        var changeCase = false
        var width: Int?
        var colons = 0
    }

    /// What one directive writes, before its options pad it or change its case.
    private enum Piece {
        case number(Int64, width: Int, padding: Padding)
        case word(String)
        case combination(String)
        case fraction(defaultDigits: Int)
        case offset
    }

    /// Directives the `E` and `O` modifiers may stand before.
    private static let withE: Set<Unicode.Scalar> = ["c", "C", "x", "X", "y", "Y"]
    private static let withO: Set<Unicode.Scalar> = ["d", "e", "H", "I", "m", "M", "S", "u", "U", "V", "w", "W", "y"]

    static func format(_ instant: LiquidTime.Instant, _ pattern: String) -> String {
        // The fields of the clock where the time was written; %s stays epoch seconds.
        let date = CivilDate(seconds: instant.seconds + (instant.offset ?? 0))
        var output = ""
        let scalars = Array(pattern.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            guard scalar == "%" else {
                output.unicodeScalars.append(scalar)
                continue
            }
            let start = index - 1
            var options = Options()
            while index < scalars.count, "-_0^#".unicodeScalars.contains(scalars[index]) {
                switch scalars[index] {
                case "-": options.padding = Padding.none
                case "_": options.padding = .blanks
                case "0": options.padding = .zeros
                case "^": options.upper = true
                default: options.changeCase = true
                }
                index += 1
            }
            var width = 0, hasWidth = false
            while index < scalars.count, scalars[index].isASCII, LiquidMarkupLexer.isDigit(UInt8(scalars[index].value)) {
                // Capped: a width is padding, and a huge one must not make a huge string.
                width = min(width * 10 + Int(scalars[index].value - 48), 1024)
                hasWidth = true
                index += 1
            }
            if hasWidth { options.width = width }
            while index < scalars.count, scalars[index] == ":", options.colons < 3 {
                options.colons += 1
                index += 1
            }
            var modifier: Unicode.Scalar?
            if index < scalars.count, scalars[index] == "E" || scalars[index] == "O" {
                modifier = scalars[index]
                index += 1
            }
            let directive = index < scalars.count ? scalars[index] : nil
            index += 1
            let allowed = modifier == nil || (modifier == "E" ? withE : withO).contains(directive ?? "%")
            guard let directive, allowed, options.colons == 0 || directive == "z",
                  let piece = piece(directive, date, instant) else {
                // As it stands: an unknown directive, or a `%` with nothing after it.
                output.unicodeScalars.append(contentsOf: scalars[start..<min(index, scalars.count)])
                continue
            }
            output += write(piece, directive, options, instant)
        }
        return output
    }

    /// One directive's piece, or nil when it is none Ruby knows.
    private static func piece(_ directive: Unicode.Scalar, _ date: CivilDate, _ instant: LiquidTime.Instant) -> Piece? {
        let hour12 = date.hour % 12 == 0 ? 12 : date.hour % 12
        let week = ISOWeek(date)
        switch directive {
        case "Y": return .number(date.year, width: 4, padding: .zeros)
        case "C": return .number(date.year / 100, width: 2, padding: .zeros)
        case "y": return .number(date.year % 100, width: 2, padding: .zeros)
        case "m": return .number(date.month, width: 2, padding: .zeros)
        case "d": return .number(date.day, width: 2, padding: .zeros)
        case "e": return .number(date.day, width: 2, padding: .blanks)
        case "j": return .number(date.dayOfYear, width: 3, padding: .zeros)
        case "H": return .number(date.hour, width: 2, padding: .zeros)
        case "k": return .number(date.hour, width: 2, padding: .blanks)
        case "I": return .number(hour12, width: 2, padding: .zeros)
        case "l": return .number(hour12, width: 2, padding: .blanks)
        case "M": return .number(date.minute, width: 2, padding: .zeros)
        case "S": return .number(date.second, width: 2, padding: .zeros)
        case "u": return .number(date.weekday == 0 ? 7 : date.weekday, width: 1, padding: .zeros)
        case "w": return .number(date.weekday, width: 1, padding: .zeros)
        // Weeks of the year that start on Sunday (%U) or Monday (%W); days before the first are week 0.
        case "U": return .number((date.dayOfYear - 1 + 7 - date.weekday) / 7, width: 2, padding: .zeros)
        case "W": return .number((date.dayOfYear - 1 + 7 - (date.weekday + 6) % 7) / 7, width: 2, padding: .zeros)
        case "V": return .number(week.week, width: 2, padding: .zeros)
        case "G": return .number(week.year, width: 4, padding: .zeros)
        case "g": return .number(week.year % 100, width: 2, padding: .zeros)
        case "s": return .number(instant.seconds, width: 1, padding: .zeros)
        case "L": return .fraction(defaultDigits: 3)
        case "N": return .fraction(defaultDigits: 9)
        case "p": return .word(date.hour < 12 ? "AM" : "PM")
        case "P": return .word(date.hour < 12 ? "am" : "pm")
        case "B": return .word(months[Int(date.month - 1)])
        case "b", "h": return .word(String(months[Int(date.month - 1)].prefix(3)))
        case "A": return .word(weekdays[Int(date.weekday)])
        case "a": return .word(String(weekdays[Int(date.weekday)].prefix(3)))
        // Ruby names UTC; a time parsed with an offset has no zone name, and writes none.
        case "Z": return .word(instant.offset == nil ? "UTC" : "")
        case "z": return .offset
        case "%": return .combination("%")
        case "n": return .combination("\n")
        case "t": return .combination("\t")
        case "F": return .combination(format(instant, "%Y-%m-%d"))
        case "T", "X": return .combination(format(instant, "%H:%M:%S"))
        case "D", "x": return .combination(format(instant, "%m/%d/%y"))
        case "R": return .combination(format(instant, "%H:%M"))
        case "r": return .combination(format(instant, "%I:%M:%S %p"))
        case "c": return .combination(format(instant, "%a %b %e %H:%M:%S %Y"))
        case "v": return .combination(format(instant, "%e-%^b-%4Y"))
        default: return nil
        }
    }

    private static func write(_ piece: Piece, _ directive: Unicode.Scalar, _ options: Options, _ instant: LiquidTime.Instant) -> String {
        switch piece {
        case .number(let value, let width, let padding):
            let pad = options.padding ?? padding
            let digits = String(value.magnitude)
            let sign = value < 0 ? "-" : ""
            guard pad != .none else { return sign + digits }
            let room = max((options.width ?? width) - digits.count - sign.count, 0)
            return pad == .zeros ? sign + String(repeating: "0", count: room) + digits : String(repeating: " ", count: room) + sign + digits
        case .word(let word):
            var text = word
            if options.changeCase {
                // Ruby's `#`: AM/PM and the zone to lower case, names to upper case.
                text = directive == "p" || directive == "Z" ? word.lowercased() : word.uppercased()
            } else if options.upper {
                text = word.uppercased()
            }
            guard options.padding != Padding.none else { return text }
            return padded(text, options.width, with: options.padding == .zeros ? "0" : " ")
        case .combination(let text):
            return padded(options.upper ? text.uppercased() : text, options.width, with: options.padding == .zeros ? "0" : " ")
        case .fraction(let defaultDigits):
            let count = options.width.flatMap { $0 > 0 ? $0 : nil } ?? defaultDigits
            let nine = String(repeating: "0", count: 9 - String(instant.nanoseconds).count) + String(instant.nanoseconds)
            return count <= 9 ? String(nine.prefix(count)) : nine + String(repeating: "0", count: count - 9)
        case .offset:
            // The hours, then minutes and seconds as the colons ask (%:::z: as few as it needs).
            let offset = instant.offset ?? 0
            let magnitude = offset.magnitude
            let (hours, minutes, seconds) = (magnitude / 3600, magnitude % 3600 / 60, magnitude % 60)
            func two(_ value: UInt64) -> String { value < 10 ? "0\(value)" : "\(value)" }
            let rest: String
            switch options.colons {
            case 0: rest = two(minutes)
            case 1: rest = ":" + two(minutes)
            case 2: rest = ":" + two(minutes) + ":" + two(seconds)
            default: rest = seconds != 0 ? ":" + two(minutes) + ":" + two(seconds) : minutes != 0 ? ":" + two(minutes) : ""
            }
            let sign = offset < 0 ? "-" : "+"
            let width = options.width ?? (3 + rest.count)
            if options.padding == .blanks {
                return padded(sign + String(hours), width - rest.count, with: " ") + rest
            }
            let digits = String(hours)
            return sign + String(repeating: "0", count: max(width - 1 - rest.count - digits.count, 2 - digits.count, 0)) + digits + rest
        }
    }

    private static func padded(_ text: String, _ width: Int?, with pad: Character) -> String {
        guard let width, text.count < width else { return text }
        return String(repeating: pad, count: width - text.count) + text
    }

    /// The ISO 8601 week (1 to 53, weeks start on Monday, week 1 holds the year's first
    /// Thursday) and the year it belongs to, which differs near New Year.
    private struct ISOWeek {
        let week: Int64
        let year: Int64

        init(_ date: CivilDate) {
            let isoWeekday = date.weekday == 0 ? 7 : date.weekday
            let week = (date.dayOfYear - isoWeekday + 10) / 7
            if week < 1 {
                year = date.year - 1
                self.week = Self.weeks(in: date.year - 1)
            } else if week > Self.weeks(in: date.year) {
                year = date.year + 1
                self.week = 1
            } else {
                year = date.year
                self.week = week
            }
        }

        /// 53 when the year ends on a Thursday or starts on one (the year before ends on a Wednesday).
        static func weeks(in year: Int64) -> Int64 {
            func lastWeekday(_ year: Int64) -> Int64 { (year + year / 4 - year / 100 + year / 400) % 7 }
            return lastWeekday(year) == 4 || lastWeekday(year - 1) == 3 ? 53 : 52
        }
    }
}
