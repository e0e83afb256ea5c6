import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Paths the server tests share.
enum ServerPaths {
    /// The repository root, found from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// $PUSHMAP_SERVER_BINARY (set by scripts/test), else the release or debug build of the
    /// Server package.
    static let server: URL = binary("PUSHMAP_SERVER_BINARY", name: "pushmap-server", package: "Server/")
    /// $PUSHMAP_BINARY, else the release or debug build: the command line the answers mirror.
    static let cli: URL = binary("PUSHMAP_BINARY", name: "pushmap", package: "")

    private static func binary(_ variable: String, name: String, package: String) -> URL {
        if let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty { return URL(fileURLWithPath: path) }
        let candidates = ["release", "debug"].map { root.appendingPathComponent("\(package).build/\($0)/\(name)") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[1]
    }

    static func scratch(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pushmap-server-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
}

/// A process a test started; stopped (SIGKILL if need be) when the test lets go of it.
final class RunningProcess: @unchecked Sendable {
    let process = Process()
    let stdoutFile: URL
    let stderrFile: URL

    init(_ executable: URL, _ arguments: [String], scratch: URL, label: String, environment: [String: String]? = nil) throws {
        stdoutFile = scratch.appendingPathComponent("\(label).stdout")
        stderrFile = scratch.appendingPathComponent("\(label).stderr")
        _ = FileManager.default.createFile(atPath: stdoutFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrFile.path, contents: nil)
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = ServerPaths.root
        if let environment { process.environment = environment }
        process.standardOutput = try FileHandle(forWritingTo: stdoutFile)
        process.standardError = try FileHandle(forWritingTo: stderrFile)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }
    var stdout: String { (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "" }

    func signal(_ number: Int32) { if process.isRunning { kill(pid, number) } }

    /// Waits up to `seconds` for the process to end; its status, or nil if it still runs.
    func wait(seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { return nil }
        return process.terminationStatus
    }

    /// Stops it for good: SIGTERM, then SIGKILL after two seconds.
    func stop() {
        guard process.isRunning else { return }
        kill(pid, SIGTERM)
        if wait(seconds: 2) == nil {
            kill(pid, SIGKILL)
            _ = wait(seconds: 2)
        }
    }

    deinit { stop() }
}

/// One pushmap-server on a free loopback port.
final class ServerUnderTest: @unchecked Sendable {
    let running: RunningProcess
    let baseURL: String
    let scratch: URL

    /// - Parameter environment: variables set for the server on top of the test's own.
    init(_ arguments: [String] = [], scratch: URL? = nil, environment: [String: String] = [:]) throws {
        let scratch = try scratch ?? ServerPaths.scratch("server")
        self.scratch = scratch
        running = try RunningProcess(
            ServerPaths.server, ["--port", "0"] + arguments, scratch: scratch, label: "server-\(UUID().uuidString.prefix(8))",
            environment: environment.isEmpty ? nil : ProcessInfo.processInfo.environment.merging(environment) { $1 })
        // The bound address is the one line on standard output; 30 s at most.
        let deadline = Date().addingTimeInterval(30)
        var found: String?
        while found == nil && Date() < deadline {
            if let range = running.stdout.range(of: #"http://[0-9.]+:[0-9]+"#, options: .regularExpression) {
                found = String(running.stdout[range])
            } else if !running.process.isRunning {
                break
            } else {
                usleep(20_000)
            }
        }
        guard let found else {
            running.stop()
            throw HarnessError(description: "the server did not say where it listens; stderr: \(running.stderr)")
        }
        baseURL = found
    }

    var port: Int { Int(baseURL.split(separator: ":").last ?? "0") ?? 0 }

    deinit { running.stop() }
}

/// An HTTP answer, as curl saw it.
struct HTTPAnswer {
    var status: Int
    var headers: [String: String]
    var body: Data
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: Any? { try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) }
    var object: [String: Any] { json as? [String: Any] ?? [:] }
}

/// HTTP through curl: a request at a time, each bounded in time.
enum Curl {
    static func request(
        _ method: String, _ url: String, body: Data? = nil, headers: [String: String] = [:], extra: [String] = [], maxSeconds: Int = 20
    ) throws -> HTTPAnswer {
        let scratch = try ServerPaths.scratch("curl")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let bodyFile = scratch.appendingPathComponent("body")
        let headerFile = scratch.appendingPathComponent("headers")
        var arguments = ["-s", "-S", "-H", "Expect:", "--max-time", String(maxSeconds), "-X", method, "-o", bodyFile.path, "-D", headerFile.path, "-w", "%{http_code}"]
        if let body {
            let requestFile = scratch.appendingPathComponent("request")
            try body.write(to: requestFile)
            arguments += ["--data-binary", "@" + requestFile.path]
            if headers["Content-Type"] == nil { arguments += ["-H", "Content-Type: application/json"] }
        }
        for (name, value) in headers { arguments += ["-H", "\(name): \(value)"] }
        arguments += extra + [url]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let statusText = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var parsedHeaders: [String: String] = [:]
        let headerText = (try? String(contentsOf: headerFile, encoding: .utf8)) ?? ""
        for line in headerText.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            parsedHeaders[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return HTTPAnswer(status: Int(statusText) ?? 0, headers: parsedHeaders, body: (try? Data(contentsOf: bodyFile)) ?? Data())
    }

    static func get(_ url: String, headers: [String: String] = [:]) throws -> HTTPAnswer { try request("GET", url, headers: headers) }

    static func post(_ url: String, _ body: Data, headers: [String: String] = [:]) throws -> HTTPAnswer {
        try request("POST", url, body: body, headers: headers)
    }
}

/// Runs a command to its end; its status and standard output.
func runCommand(_ executable: String, _ arguments: [String], input: Data? = nil, environment: [String: String]? = nil) throws -> (status: Int32, stdout: Data, stderr: String) {
    let scratch = try ServerPaths.scratch("command")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let inputFile = scratch.appendingPathComponent("stdin")
    let errorFile = scratch.appendingPathComponent("stderr")
    try (input ?? Data()).write(to: inputFile)
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = ServerPaths.root
    if let environment { process.environment = environment }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = try FileHandle(forWritingTo: errorFile)
    process.standardInput = try FileHandle(forReadingFrom: inputFile)
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, data, (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "")
}

/// Polls `condition` every 50 ms for up to `seconds`.
func eventually(seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    repeat {
        if try condition() { return true }
        usleep(50_000)
    } while Date() < deadline
    return false
}
