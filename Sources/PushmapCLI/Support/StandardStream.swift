internal import ArgumentParser
@_spi(Tools) internal import Pushmap
@_spi(Tools) internal import PushmapTooling
internal import PushmapJSON
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Writes to standard output or standard error through the file descriptor, with no buffering
/// beyond what callers collect: batch output is assembled in blocks and written whole.
struct StandardStream {
    let descriptor: Int32

    static let output = StandardStream(descriptor: 1)
    static let error = StandardStream(descriptor: 2)

    /// Raised when the reader has gone away (EPIPE): the run ends quietly.
    struct Closed: Error {}

    /// Writes `bytes` whole. Standard output that cannot take them for any other reason (a full
    /// disk: ENOSPC) ends the run here, said on standard error, with status 1: every caller
    /// would otherwise have to tell a gone reader from lost output, and one that did not exited 0
    /// with its output lost.
    func write(_ bytes: [UInt8]) throws(Closed) {
        do {
            try FileSystem.writeAll(bytes, to: descriptor, path: "<stdout>")
        } catch {
            guard descriptor == 1, error.number != EPIPE else { throw Closed() }
            StandardStream.note("pushmap: cannot write to standard output: \(error.reason)")
            exit(ExitStatus.invalid.rawValue)
        }
    }

    func write(_ text: String) throws(Closed) {
        try write(Array(text.utf8))
    }

    /// Writes a line to standard error, ignoring a closed stream: diagnostics must never crash.
    /// The line is one line whatever it quotes: an intent's or a script's control characters are
    /// written escaped (``ShownText``), so none starts a line of its own or reaches the terminal.
    static func note(_ text: String) {
        try? StandardStream.error.write(ShownText.escaped(text) + "\n")
    }

    var isTerminal: Bool { isatty(descriptor) == 1 }

    /// Makes a closed pipe an EPIPE error rather than a fatal signal.
    static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }
}
