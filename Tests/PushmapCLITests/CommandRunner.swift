import Foundation

/// Runs the built `pushmap` binary the way a user does, capturing stdout, stderr and the status.
struct CommandRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutBytes: Data
    }

    /// The repository root, found from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The binary: $PUSHMAP_BINARY (set by scripts/test), else the newest build in .build.
    static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["PUSHMAP_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let candidates = ["release", "debug"].map { root.appendingPathComponent(".build/\($0)/pushmap") }
        let existing = candidates.filter { FileManager.default.isExecutableFile(atPath: $0.path) }
        return existing.max { modified($0) < modified($1) } ?? candidates[1]
    }()

    private static func modified(_ url: URL) -> Date {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date) ?? .distantPast
    }

    /// Runs `pushmap arguments` (or another `executable`) in the repository root with `input` on
    /// stdin; `environment` replaces the variables it names. With `deadline`, a run still going
    /// after that many seconds is killed (status 9), so that a hang fails its test rather than
    /// stopping the suite: timeout(1) cannot do it here, as the test process blocks the signals
    /// its children inherit.
    static func run(
        _ arguments: [String], input: Data? = nil, directory: URL? = nil, environment: [String: String] = [:], executable: URL = binary,
        deadline: Double? = nil
    ) throws -> Result {
        // Files rather than pipes for stdin and stderr: no deadlock, no threads to share.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("pushmap-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let inputFile = scratch.appendingPathComponent("stdin")
        let errorFile = scratch.appendingPathComponent("stderr")
        try (input ?? Data()).write(to: inputFile)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        process.currentDirectoryURL = directory ?? root
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: errorFile)
        process.standardInput = try FileHandle(forReadingFrom: inputFile)
        try process.run()
        if let deadline {
            let pid = process.processIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + deadline) { if process.isRunning { kill(pid, SIGKILL) } }
        }
        let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errorData = (try? Data(contentsOf: errorFile)) ?? Data()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData, as: UTF8.self),
            stdoutBytes: outputData
        )
    }

    /// Parses JSON text with Foundation, for comparing values.
    static func json(_ text: String) -> NSObject? {
        try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) as? NSObject
    }
}
