internal import ArgumentParser
@_spi(Tools) internal import Pushmap

/// `--now EPOCH`, on every command that translates or checks against the clock: the time scripts
/// see as `ctx.now` and the checks measure "already past" against, so a run can be repeated
/// byte for byte.
struct ClockOption: ParsableArguments {
    // Unconditional: `--now -5` is the time, as `--now=-5` is, not a missing value followed by
    // an option named -5.
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "The time to run at, in epoch seconds (the system clock by default): ctx.now in scripts, and what checks call past; the output is then the same on every run.",
        valueName: "epoch"))
    var now: Int64?

    func validate() throws {
        if let problem = now.flatMap(Translator.Options.fixedClockProblem) { throw ValidationError(problem) }
    }
}
