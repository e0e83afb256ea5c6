/// A day of the proleptic Gregorian calendar and the time in it, from epoch seconds in UTC (for
/// the `date` filter and the preview's arrival time),
/// after Howard Hinnant's days-from-civil algorithms.
package struct CivilDate {
    package let year: Int64
    /// 1 to 12.
    package let month: Int64
    /// 1 to 31.
    package let day: Int64
    package let hour: Int64
    package let minute: Int64
    package let second: Int64
    /// 0 for Sunday to 6 for Saturday.
    package let weekday: Int64
    /// 1 to 366.
    package let dayOfYear: Int64

    package init(seconds: Int64) {
        // Floor division by remainder, so that no step leaves Int64 near its ends (the lowest
        // --now trapped a preview: the thirty-sixth audit, F8).
        let remainder = seconds % 86_400
        let days = seconds / 86_400 - (remainder < 0 ? 1 : 0)
        let rest = remainder < 0 ? remainder + 86_400 : remainder
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfShiftedYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfShiftedYear + 2) / 153
        day = dayOfShiftedYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        hour = rest / 3600
        minute = rest % 3600 / 60
        second = rest % 60
        // 1970-01-01 was a Thursday.
        let week = (days + 4) % 7
        weekday = week < 0 ? week + 7 : week
        dayOfYear = days - Self.days(year: year, month: 1, day: 1) + 1
    }

    /// Days from 1970-01-01 to the given date.
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func isLeap(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }
}
