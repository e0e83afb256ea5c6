internal import Pushmap

/// Epoch seconds as a UTC date and time, `2024-01-01 00:00 UTC`, for people reading a page.
package enum UTCTime {
    package static func text(_ seconds: Int64) -> String {
        let date = CivilDate(seconds: seconds)
        func two(_ number: Int64) -> String { number < 10 ? "0\(number)" : "\(number)" }
        return "\(date.year)-\(two(date.month))-\(two(date.day)) \(two(date.hour)):\(two(date.minute)) UTC"
    }
}
