internal import ArgumentParser

/// How diagnostics are written: for people, or as JSON for programs.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case human
    case json
}

/// `--platform fcm|apns|both`.
enum PlatformChoice: String, ExpressibleByArgument, CaseIterable {
    case fcm
    case apns
    case both
}
