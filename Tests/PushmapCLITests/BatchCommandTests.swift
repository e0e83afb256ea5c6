import Foundation
import Testing

@Suite("pushmap batch")
struct BatchCommandTests {
    /// Good and bad lines mixed: valid intents, not JSON, invalid intent, failed check, blank.
    static let mixed: [String] = [
        #"{"title": "One", "body": "first"}"#,
        "not json",
        #"{"template": "basic", "title": "Two", "body": "second"}"#,
        "",
        #"{"tittle": "typo"}"#,
        #"{"template": "basic", "title": "t", "body": "b", "colors": {"title": "zzz"}}"#,
        #"{"template": "carousel", "title": "c", "body": "b", "carousel": {"items": [{"image": "https://e.com/1.png"}, {"image": "https://e.com/2.png"}, {"image": "https://e.com/3.png"}]}}"#,
        "   ",
        #"{"title": "Last", "body": "line"}"#,
    ]

    func lines(_ output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap { CommandRunner.json(String($0)) as? [String: Any] }
    }

    @Test("gives one line out per line in, in order, good and bad mixed; exit 1 when some fail")
    func mixedLines() throws {
        let input = Data((Self.mixed.joined(separator: "\n") + "\n").utf8)
        let result = try CommandRunner.run(["batch", "--platform", "fcm"], input: input)
        #expect(result.status == 1)
        let output = lines(result.stdout)
        #expect(output.count == Self.mixed.count)
        #expect(output.map { $0["line"] as? Int } == Array(1...Self.mixed.count))
        let ok = output.map { $0["fcm"] != nil }
        #expect(ok == [true, false, true, false, false, false, true, false, true])
        #expect(result.stderr.contains("pushmap: batch: 9 lines, 4 translated, 5 failed"))
    }

    @Test("exits 0 when every line translated, and handles a last line without a newline")
    func allGood() throws {
        let input = Data((Self.mixed[0] + "\r\n" + Self.mixed[8]).utf8)
        let result = try CommandRunner.run(["batch", "--platform", "both"], input: input)
        #expect(result.status == 0, "\(result.stderr)")
        let output = lines(result.stdout)
        #expect(output.count == 2)
        #expect(output.allSatisfy { $0["fcm"] != nil && $0["apns"] != nil })
    }

    @Test("turns an empty input into an empty output")
    func emptyInput() throws {
        let result = try CommandRunner.run(["batch"], input: Data())
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("0 lines"))
    }

    @Test("answers a line of several MB with an error line and goes on")
    func hugeLine() throws {
        let huge = "{\"title\": \"" + String(repeating: "x", count: 5_000_000) + "\"}"
        let input = Data((Self.mixed[0] + "\n" + huge + "\n" + Self.mixed[8] + "\n").utf8)
        let result = try CommandRunner.run(["batch", "--platform", "apns"], input: input)
        #expect(result.status == 1)
        let output = lines(result.stdout)
        #expect(output.count == 3)
        #expect(output[1]["error"] != nil)
        #expect(result.stdout.contains("exceeds the limit"))
        #expect(output[2]["apns"] != nil)
    }

    @Test("gives the same bytes with --jobs 1 and --jobs 4")
    func jobsAgree() throws {
        var all: [String] = []
        for index in 0..<3000 { all.append(Self.mixed[index % Self.mixed.count]) }
        let input = Data((all.joined(separator: "\n") + "\n").utf8)
        let one = try CommandRunner.run(["batch", "--jobs", "1"], input: input)
        let four = try CommandRunner.run(["batch", "--jobs", "4"], input: input)
        #expect(one.stdoutBytes == four.stdoutBytes)
        #expect(lines(one.stdout).count == 3000)
    }

    @Test("ends quietly when the reader closes the pipe early")
    func readerClosesEarly() throws {
        let folder = try temporaryFolder()
        let inputFile = folder.appendingPathComponent("in.ndjson")
        let line = Self.mixed[0] + "\n"
        try Data(String(repeating: line, count: 200_000).utf8).write(to: inputFile)
        let errorFile = folder.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let process = Process()
        process.executableURL = CommandRunner.binary
        process.arguments = ["batch", inputFile.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        let first = output.fileHandleForReading.readData(ofLength: 100)
        #expect(!first.isEmpty)
        try output.fileHandleForReading.close()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        let errors = try String(contentsOf: errorFile, encoding: .utf8)
        #expect(errors.isEmpty, "\(errors)")
    }

    @Test("reports a missing file in one line, exit 1")
    func missingFile() throws {
        let result = try CommandRunner.run(["batch", "no-such.ndjson"])
        #expect(result.status == 1)
        #expect(result.stderr == "pushmap: no-such.ndjson: No such file or directory\n")
    }
}
