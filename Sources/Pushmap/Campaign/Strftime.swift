/// strftime formats for the `date` filter, always in UTC, with Ruby's directives (which Liquid
/// uses): `%Y %C %y %m %d %e %j %H %k %I %l %M %S %L %N %p %P %b %h %B %a %A %u %w %Z %z %s %%`,
/// the combinations `%F %T %D %R %r %c %x %X`, `%n %t`, and the flags `-` (no padding), `_`
/// (blank padding), `0` (zero padding) and `^` (upper case). An unknown directive is written as
/// it stands, as Ruby does.
enum Strftime {
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// How a number is padded to its width.
    private enum Padding { case zeros, blanks, none }

    static func format(_ seconds: Int64, _ pattern: String) -> String {
        let date = CivilDate(seconds: seconds)
        var output = ""
        var scalars = pattern.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "%" else {
                output.unicodeScalars.append(scalar)
                continue
            }
            var written = "%"
            var padding: Padding?
            var upper = false
            var directive = scalars.next()
            while let flag = directive, "-_0^#".unicodeScalars.contains(flag) {
                written.unicodeScalars.append(flag)
                switch flag {
                case "-": padding = Padding.none
                case "_": padding = .blanks
                case "0": padding = .zeros
                default: upper = true
                }
                directive = scalars.next()
            }
            guard let directive else {
                output += written
                break
            }
            guard let text = expand(directive, date, seconds, padding) else {
                output += written
                output.unicodeScalars.append(directive)
                continue
            }
            output += upper ? text.uppercased() : text
        }
        return output
    }

    /// One directive's text, or nil when it is none Ruby knows.
    private static func expand(_ directive: Unicode.Scalar, _ date: CivilDate, _ seconds: Int64, _ padding: Padding?) -> String? {
        func number(_ value: Int64, _ width: Int, _ standard: Padding) -> String {
            let digits = String(value)
            let pad = padding ?? standard
            guard pad != .none, digits.count < width else { return digits }
            return String(repeating: pad == .zeros ? "0" : " ", count: width - digits.count) + digits
        }
        let hour12 = date.hour % 12 == 0 ? 12 : date.hour % 12
        switch directive {
        case "Y": return number(date.year, 4, .zeros)
        case "C": return number(date.year / 100, 2, .zeros)
        case "y": return number(date.year % 100, 2, .zeros)
        case "m": return number(date.month, 2, .zeros)
        case "d": return number(date.day, 2, .zeros)
        case "e": return number(date.day, 2, .blanks)
        case "j": return number(date.dayOfYear, 3, .zeros)
        case "H": return number(date.hour, 2, .zeros)
        case "k": return number(date.hour, 2, .blanks)
        case "I": return number(hour12, 2, .zeros)
        case "l": return number(hour12, 2, .blanks)
        case "M": return number(date.minute, 2, .zeros)
        case "S": return number(date.second, 2, .zeros)
        case "L": return "000"
        case "N": return "000000000"
        case "p": return date.hour < 12 ? "AM" : "PM"
        case "P": return date.hour < 12 ? "am" : "pm"
        case "B": return months[Int(date.month - 1)]
        case "b", "h": return String(months[Int(date.month - 1)].prefix(3))
        case "A": return weekdays[Int(date.weekday)]
        case "a": return String(weekdays[Int(date.weekday)].prefix(3))
        case "u": return String(date.weekday == 0 ? 7 : date.weekday)
        case "w": return String(date.weekday)
        case "Z": return "UTC"
        case "z": return "+0000"
        case "s": return String(seconds)
        case "%": return "%"
        case "n": return "\n"
        case "t": return "\t"
        case "F": return format(seconds, "%Y-%m-%d")
        case "T", "X": return format(seconds, "%H:%M:%S")
        case "D", "x": return format(seconds, "%m/%d/%y")
        case "R": return format(seconds, "%H:%M")
        case "r": return format(seconds, "%I:%M:%S %p")
        case "c": return format(seconds, "%a %b %e %H:%M:%S %Y")
        default: return nil
        }
    }
}
