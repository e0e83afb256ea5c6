#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A counter on standard error while it is a terminal.
final class LineProgress {
    let enabled: Bool
    /// What a line is ("lines", "recipients").
    let counting: StaticString
    private var last: Int64 = 0

    init(enabled: Bool, counting: StaticString = "lines") {
        self.enabled = enabled
        self.counting = counting
    }

    func update(lines: Int, failed: Int) {
        guard enabled else { return }
        let now = Int64(time(nil))
        guard now != last else { return }
        last = now
        try? StandardStream.error.write("\rpushmap: \(lines) \(counting), \(failed) failed")
    }

    func finish() {
        if enabled, last != 0 { try? StandardStream.error.write("\n") }
    }
}
