/// How pushmap-server runs: where it listens, which scripts it serves, and its limits.
///
/// Every field has the default the command line uses when the option is not given.
struct ServerConfiguration: Sendable {
    /// The address to listen on; loopback unless said otherwise, so nothing is exposed by accident.
    var host: String = "127.0.0.1"
    /// The port; 0 picks a free one (the bound address is printed on standard output).
    var port: Int = 8080
    /// Folders of `NAME.lua` scripts layered over the built-in ones, later folders winning: those
    /// of `PUSHMAP_SCRIPTS`, then each `--scripts`.
    var scriptDirectories: [String] = []
    /// Whether to poll the script folders and reload when a script changes.
    var watchScripts: Bool = false
    /// How often the folders are polled with `watchScripts`, in milliseconds.
    var watchIntervalMilliseconds: Int = 1000
    /// The shared token every request (but health and readiness) must carry as
    /// `Authorization: Bearer TOKEN`; nil lets every request in.
    var token: [UInt8]? = nil
    /// Largest body of `/v1/translate`, `/v1/validate`, `/v1/preview` and `/v1/import`, in bytes
    /// (also the largest batch line).
    var maxBodyBytes: Int = 1 << 20
    /// Requests served at once; one more gets 503, so a burst cannot take all memory.
    var maxConcurrentRequests: Int = 256
    /// Time for one request, body included, in milliseconds; slower requests get 408.
    var requestTimeoutMilliseconds: Int = 10_000
    /// Time for one `/v1/batch` stream, in milliseconds; it then ends with an error line.
    var batchTimeoutMilliseconds: Int = 600_000
    /// Time a connection may send nothing while no answer is being written, in milliseconds:
    /// then it is closed.
    var idleTimeoutMilliseconds: Int = 60_000
    /// On a graceful stop, time to go on answering (`/readyz` with 503) before the listener
    /// closes, in milliseconds.
    var drainDelayMilliseconds: Int = 0
    /// A fixed time for the scripts (`ctx.now`) and the checks, in epoch seconds; nil follows the
    /// system clock. Fixed, every answer repeats byte for byte: for tests and staging.
    var now: Int64? = nil
}
