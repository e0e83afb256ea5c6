public import Foundation

/// What a program run to its end gave.
public struct ProgramRun: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// Both streams, standard output first: for a failure's message.
    public var output: String { stdout + stderr }
}

/// Runs a program to its end, its streams through files (no pipe to fill and block on).
/// `environment` adds to the test's own environment, or with `clearEnvironment` replaces it.
public func runProgram(
    _ executable: String, _ arguments: [String], input: Data = Data(), directory: URL? = nil,
    environment: [String: String] = [:], clearEnvironment: Bool = false
) throws -> ProgramRun {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("pushmap-run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let files = ["stdin", "stdout", "stderr"].map { scratch.appendingPathComponent($0) }
    try input.write(to: files[0])
    for file in files.dropFirst() { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    var variables = clearEnvironment ? [:] : ProcessInfo.processInfo.environment
    variables.merge(environment) { _, new in new }
    process.environment = variables
    process.standardInput = try FileHandle(forReadingFrom: files[0])
    process.standardOutput = try FileHandle(forWritingTo: files[1])
    process.standardError = try FileHandle(forWritingTo: files[2])
    try process.run()
    process.waitUntilExit()
    return ProgramRun(
        status: process.terminationStatus,
        stdout: String(decoding: (try? Data(contentsOf: files[1])) ?? Data(), as: UTF8.self),
        stderr: String(decoding: (try? Data(contentsOf: files[2])) ?? Data(), as: UTF8.self)
    )
}
