internal import ArgumentParser

/// The exit statuses pushmap documents.
enum ExitStatus {
    /// Translated or valid; warnings allowed.
    static let success = ExitCode(0)
    /// Invalid input (not JSON, not a valid intent, unreadable file), a failed check, or output
    /// that could not be written.
    static let invalid = ExitCode(1)
    /// A mapping script failed: syntax, runtime error, limit, contract.
    static let scriptFailed = ExitCode(2)
    /// `preview --output FILE.png`: no headless browser, or it failed to draw the page.
    static let noBrowser = ExitCode(3)
}
