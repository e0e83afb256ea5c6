internal import ArgumentParser
@_spi(Tools) internal import Pushmap

/// `--jobs N`, on the commands that translate many lines (batch, campaign): how many worker
/// threads translate at once.
struct JobsOption: ParsableArguments {
    @Option(name: .long, help: "Worker threads; the number of cores by default.")
    var jobs: Int?

    func validate() throws {
        if let jobs, jobs < 1 || jobs > 256 { throw ValidationError("--jobs must be between 1 and 256") }
    }

    /// The threads to run: `--jobs`, else one per core.
    var workers: Int { jobs ?? Translator.cores }
}
