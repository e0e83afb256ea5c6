internal import ArgumentParser
@_spi(Tools) internal import Pushmap

/// `--jobs N`, on the commands that translate many lines (batch, campaign): how many worker
/// threads translate at once.
struct JobsOption: ParsableArguments {
    // Unconditional, so that `--jobs -1` is read as the number it is, and refused by its range,
    // rather than as a missing value before an option named -1.
    @Option(name: .long, parsing: .unconditional, help: "Worker threads, 1 to 256; the number of cores by default.")
    var jobs: Int?

    func validate() throws {
        if let jobs, jobs < 1 || jobs > 256 { throw ValidationError("--jobs must be between 1 and 256") }
    }

    /// The threads to run: `--jobs`, else one per core.
    var workers: Int { jobs ?? Translator.cores }
}
