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
        #"{"template": "basic", "title": "t", "body": "b", "target": {"topic": "news 2"}}"#,
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

    @Test("writes a line's warnings byte for byte as translate --format json writes the same diagnostics")
    func warningsAsTranslateWritesThem() throws {
        // Check warnings with payload paths, one quoting the time: both commands at one fixed time.
        let intent = #"{"template": "basic", "title": "t \"quoted\"", "body": "b", "remindLater": {"at": 1700000000, "label": "Later"}, "image": "http://e.com/a.png"}"#
        let now = ["--now", "1800000000"]
        let batch = try CommandRunner.run(["batch", "--platform", "fcm"] + now, input: Data((intent + "\n").utf8))
        #expect(batch.status == 0, "\(batch.stderr)")
        let translate = try CommandRunner.run(["translate", "--platform", "fcm", "--format", "json", "--compact"] + now, input: Data(intent.utf8))
        #expect(translate.status == 0, "\(translate.stderr)")
        // translate: {"diagnostics":[...],"file":"-"}; batch: ...,"warnings":[...]}
        guard let listStart = translate.stderr.range(of: #"{"diagnostics":"#)?.upperBound,
              let listEnd = translate.stderr.range(of: #","file":"#, options: .backwards)?.lowerBound,
              let warningsStart = batch.stdout.range(of: #","warnings":"#)?.upperBound else {
            Issue.record("no diagnostics in \(translate.stderr) or no warnings in \(batch.stdout)")
            return
        }
        let expected = String(translate.stderr[listStart..<listEnd])
        let written = String(batch.stdout[warningsStart...].dropLast(2)) // the line's "}\n"
        #expect(expected.contains("payloadPath") && expected.contains("android-remind-later-past"), "\(expected)")
        #expect(written == expected)
    }

    @Test("a line with a number that loses digits carries the warning; the lines around it do not")
    func inexactNumber() throws {
        let lines = [#"{"title": "a"}"#, #"{"title": "b", "data": {"n": -92233720368547758090}}"#, #"{"title": "c", "data": {"n": 1e20}}"#]
        let result = try CommandRunner.run(["batch", "--platform", "fcm"], input: Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let out = result.stdout.split(separator: "\n").map(String.init)
        #expect(out.count == 3)
        #expect(out.filter { $0.contains("warnings") }.count == 1, "\(result.stdout)")
        #expect(out[1].contains(#""path":"$.data.n","rule":"inexact-number","severity":"warning""#), "\(out[1])")
        #expect(out[1].contains(#""n":"-9.223372036854776e+19""#), "\(out[1])")
    }

    @Test("a team script's warnings stay at the payload path, untraced: no intent field is guessed")
    func teamWarningsAtPayloadPath() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushmap-warnings-\(UUID().uuidString)")
        let scripts = folder.appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("""
            return { name = "odd", api = 1, platforms = { "fcm" }, fcm = function(intent, ctx)
              pushmap.warn("$.title", 'the title is "' .. intent.title .. '"')
              return { message = { token = "t", data = { adb_title = intent.title, adb_sticky = "maybe" } } }
            end }
            """.utf8).write(to: scripts.appendingPathComponent("odd.lua"))
        let intent = #"{"template": "odd", "title": "t"}"#
        let batch = try CommandRunner.run(["batch", "--platform", "fcm", "--scripts", "scripts"], input: Data((intent + "\n").utf8), directory: folder)
        #expect(batch.status == 0, "\(batch.stderr)")
        let warnings = try #require((CommandRunner.json(batch.stdout) as? [String: Any])?["warnings"] as? [[String: Any]])
        let sticky = try #require(warnings.first { $0["rule"] as? String == "android-sticky" }, "\(warnings)")
        // The intent has no android.sticky: the script wrote the value, and batch does not trace.
        #expect(sticky["path"] as? String == "$.message.data.adb_sticky")
        #expect(sticky["script"] == nil)
        #expect(warnings.contains { $0["rule"] as? String == "script" && $0["message"] as? String == #"the title is "t""# })
        // translate traces it: the same path, and the line.
        let translate = try CommandRunner.run(
            ["translate", "--platform", "fcm", "--scripts", "scripts", "--format", "json"], input: Data(intent.utf8), directory: folder)
        #expect(translate.status == 0, "\(translate.stderr)")
        let report = try #require(CommandRunner.json(translate.stderr) as? [String: Any])
        let traced = try #require((report["diagnostics"] as? [[String: Any]])?.first { $0["rule"] as? String == "android-sticky" })
        #expect(traced["path"] as? String == "$.message.data.adb_sticky")
        #expect(traced["script"] as? String == "scripts/odd.lua:3")
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

    /// Source: the thirty-third audit, F8: a CRLF line of exactly the limit was refused, its CR
    /// counted; the limit is the intent's, 1 MiB.
    @Test("a line of exactly the limit is translated whether it ends in LF or CR LF; one byte more is refused")
    func lineOfTheLimit() throws {
        let padding = (1 << 20) - #"{"title": "Hi", "body": ""}"#.utf8.count
        let exact = #"{"title": "Hi", "body": ""# + String(repeating: "x", count: padding) + #""}"#
        let over = #"{"title": "Hi", "body": ""# + String(repeating: "x", count: padding + 1) + #""}"#
        #expect(exact.utf8.count == 1 << 20)
        let input = Data((exact + "\n" + exact + "\r\n" + over + "\r\n" + exact).utf8)
        let result = try CommandRunner.run(["batch", "--platform", "apns"], input: input)
        let output = lines(result.stdout)
        #expect(output.count == 4)
        // The APNS payload is far over its size, but the line was read: its error is the check's.
        for index in [0, 1, 3] { #expect(!"\(output[index])".contains("too-large"), "\(index): \(output[index])") }
        #expect("\(output[2])".contains("a line of 1048577 bytes exceeds the limit of 1048576 bytes"), "\(output[2])")
    }

    /// Source: the sixth audit: `--jobs -1` said "Missing value for '--jobs <jobs>'".
    @Test("--jobs out of 1 to 256, negative included, is a usage error naming the range", arguments: ["0", "-1", "257", "abc"])
    func jobsRange(value: String) throws {
        let result = try CommandRunner.run(["batch", "--jobs", value, "-"], input: Data())
        #expect(result.status == 64)
        if value != "abc" { #expect(result.stderr.contains("--jobs must be between 1 and 256"), "\(result.stderr)") }
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

    /// Source: the sixth audit: a run whose lines failed exited 0 once the reader had gone, so a
    /// pipeline under pipefail looked successful.
    @Test("ends quietly when the reader closes the pipe early: exit 0, or 1 when a line read so far failed", arguments: [false, true])
    func readerClosesEarly(failing: Bool) throws {
        let folder = try temporaryFolder()
        let inputFile = folder.appendingPathComponent("in.ndjson")
        let line = Self.mixed[0] + "\n"
        try Data(((failing ? "not json\n" : "") + String(repeating: line, count: 200_000)).utf8).write(to: inputFile)
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
        #expect(process.terminationStatus == (failing ? 1 : 0))
        let errors = try String(contentsOf: errorFile, encoding: .utf8)
        #expect(errors.isEmpty, "\(errors)")
    }

    /// Source: the forty-sixth audit (cli F1) against commands.md ("It streams") and the service's
    /// /v1/batch, which answers each line as it comes: a batch fed one line at a time by a
    /// process that waits for each answer (a coprocess) held the answers until 4,096 lines had
    /// come, and both waited for ever. The deadline only stops a hung run; no time is measured.
    @Test("answers each line as it comes from a pipe, without waiting for more")
    func answersLineByLine() throws {
        let process = Process()
        process.executableURL = CommandRunner.binary
        process.arguments = ["batch", "--platform", "apns", "--now", "1800000000"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let reader = output.fileHandleForReading
        /// The next output line, or nil when none comes within a minute.
        func nextLine() -> String? {
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var line = Data()
            DispatchQueue.global().async {
                while !line.contains(0x0A) {
                    let data = reader.availableData
                    if data.isEmpty { break }
                    line.append(data)
                }
                done.signal()
            }
            guard done.wait(timeout: .now() + 60) == .success else { return nil }
            return String(decoding: line, as: UTF8.self)
        }
        for (number, title) in ["first", "second"].enumerated() {
            input.fileHandleForWriting.write(Data(#"{"title": "\#(title)", "body": "b"}"#.utf8 + [0x0A]))
            let line = nextLine()
            #expect(line == #"{"line":\#(number + 1),"apns":{"aps":{"alert":{"body":"b","title":"\#(title)"}}}}"# + "\n", "\(line ?? "no answer")")
            if line == nil { return }
        }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// Source: the forty-sixth audit (cli F8): on a terminal the count ("pushmap: 4096 lines, 0
    /// failed") was written before the output lines, which ran on from it. Under script(1)
    /// both streams are one terminal.
    @Test("shows no count on the terminal the output lines go to")
    func noCountAmidOutput() throws {
        let folder = try temporaryFolder()
        let inputFile = folder.appendingPathComponent("in.ndjson")
        try Data(String(repeating: Self.mixed[0] + "\n", count: 3).utf8).write(to: inputFile)
        let command = "'\(CommandRunner.binary.path)' batch --platform apns '\(inputFile.path)'"
        let result = try CommandRunner.run(["-qec", command, "/dev/null"], executable: URL(fileURLWithPath: "/usr/bin/script"))
        #expect(result.status == 0)
        #expect(result.stdout.contains(#"{"line":3,"#), "\(result.stdout)")
        #expect(!result.stdout.contains("lines, 0 failed"), "\(result.stdout)")
    }

    /// Source: the eighth audit: with standard output on a full disk, translate, templates,
    /// batch, scripts check and schema exited 0 with nothing said, their output lost.
    @Test("output that cannot be written (a full disk) is one line on standard error and exit 1, for every command", arguments: [
        ["translate", "intent.json"], ["batch", "intent.json"], ["templates"], ["schema"], ["validate", "--platform", "apns", "payload.json"],
    ])
    func fullDisk(arguments: [String]) throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        let folder = try temporaryFolder()
        try Data(#"{"title": "t", "body": "b"}"#.utf8).write(to: folder.appendingPathComponent("intent.json"))
        try Data(#"{"aps": {"alert": "a"}}"#.utf8).write(to: folder.appendingPathComponent("payload.json"))
        let process = Process()
        process.executableURL = CommandRunner.binary
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1, "\(arguments): \(said)")
        #expect(said.contains("pushmap: cannot write to standard output: "), "\(arguments): \(said)")
    }

    @Test("reports a missing file in one line, exit 1")
    func missingFile() throws {
        let result = try CommandRunner.run(["batch", "no-such.ndjson"])
        #expect(result.status == 1)
        #expect(result.stderr == "pushmap: no-such.ndjson: no such file or directory\n")
        // An empty name is shown quoted, not as nothing (the forty-third audit, F5).
        let empty = try CommandRunner.run(["batch", ""])
        #expect(empty.status == 1)
        #expect(empty.stderr == "pushmap: '': no such file or directory\n", "\(empty.stderr)")
    }

    @Test("answers truncated, binary and NUL-laden lines each with one error line, in order")
    func faultyLines() throws {
        var random = SystemRandomNumberGenerator()
        // Any byte but the newline: a line of pure noise.
        let noise = (0..<300).map { _ -> UInt8 in
            let byte = UInt8.random(in: 0...255, using: &random)
            return byte == 0x0A ? 0x20 : byte
        }
        let lines: [[UInt8]] = [
            Array(Self.mixed[0].utf8),
            Array(#"{"title": "cut", "bo"#.utf8),
            [0xFF, 0xFE, 0x00, 0x7B],
            Array(#"{"title": "a"#.utf8) + [0x00] + Array(#"b", "body": "c"}"#.utf8),
            Array(#"{"title": "\#u{0}"#.utf8),
            noise,
            [0x0D],
            Array(#"{"title": "caf"#.utf8) + [0xC3] + Array(#"", "body": "x"}"#.utf8),
            Array(Self.mixed[8].utf8),
        ]
        var input: [UInt8] = []
        for line in lines { input += line + [0x0A] }
        let result = try CommandRunner.run(["batch", "--platform", "fcm"], input: Data(input))
        #expect(result.status == 1)
        let outputs = result.stdout.split(separator: "\n").map(String.init)
        #expect(outputs.count == lines.count, "\(result.stdout)")
        let objects = outputs.map { CommandRunner.json($0) as? [String: Any] }
        #expect(objects.allSatisfy { $0 != nil }, "every output line is JSON")
        #expect(objects.map { $0?["line"] as? Int } == Array(1...lines.count))
        #expect(objects.map { $0?["fcm"] != nil } == [true, false, false, false, false, false, false, false, true])
        #expect(result.stderr.contains("9 lines, 2 translated, 7 failed"))
    }

    @Test("answers an enormous last line without a newline, and a binary blob, with one error line each")
    func enormousEndings() throws {
        let huge = Array(Self.mixed[0].utf8) + [0x0A] + Array(repeating: UInt8(ascii: "["), count: 3_000_000)
        let first = try CommandRunner.run(["batch"], input: Data(huge))
        #expect(first.status == 1)
        let lines = first.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.last?.contains("exceeds the limit") == true, "\(lines.last ?? "")")
        // Every byte value but the newline, over and over.
        let blob = [UInt8]((0..<2_000_000).lazy.map { index -> UInt8 in
            let byte = UInt8(truncatingIfNeeded: index &* 131 &+ 7)
            return byte == 0x0A ? 0 : byte
        })
        let second = try CommandRunner.run(["batch"], input: Data(blob))
        #expect(second.status == 1)
        #expect(second.stdout.split(separator: "\n").count == 1)
        #expect(second.stdout.hasPrefix(#"{"line":1,"error":"#))
    }
}
