import Foundation
import Testing

/// Replays docs/writing-mappings.md as a reader would: every file it shows is written, every
/// command is run with the built binary in a fresh folder, in order, and what the command prints
/// (standard output and error as one terminal shows them) and its exit status must be what the
/// page says. So the walkthrough cannot go stale.
///
/// The page's conventions: `<!-- file: PATH -->` before a fenced block writes the block to PATH;
/// a `console` block holds one `$ pushmap ...` command and its exact output; `<!-- exit: N -->`
/// before it gives a status other than 0.
@Suite("The writing-mappings walkthrough")
struct WalkthroughTests {
    enum Step {
        case file(path: String, contents: String)
        case command(line: Int, arguments: [String], output: String, status: Int32)
    }

    static let page = CommandRunner.root.appendingPathComponent("docs/writing-mappings.md")

    /// The page's steps, in order.
    static func steps(of text: String) throws -> [Step] {
        let lines = text.components(separatedBy: "\n")
        var steps: [Step] = []
        var file: String?
        var status: Int32 = 0
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if let path = marker(line, "file") {
                file = path
            } else if let code = marker(line, "exit") {
                status = try #require(Int32(code), "line \(index + 1): bad exit marker")
            } else if line.hasPrefix("```") {
                let start = index
                index += 1
                var body: [String] = []
                while index < lines.count, !lines[index].hasPrefix("```") {
                    body.append(lines[index])
                    index += 1
                }
                if let path = file {
                    steps.append(.file(path: path, contents: body.joined(separator: "\n") + "\n"))
                } else if line == "```console" {
                    let command = try #require(body.first, "line \(start + 1): an empty console block")
                    #expect(command.hasPrefix("$ pushmap "), "line \(start + 2): commands on this page run pushmap only")
                    // No shell: plain words only, so the command means the same everywhere.
                    #expect(!command.dropFirst(2).contains { "\"'`|&;<>*$\\".contains($0) }, "line \(start + 2): no quoting or shell syntax: \(command)")
                    let words = command.dropFirst(2).split(separator: " ").map(String.init)
                    steps.append(.command(line: start + 2, arguments: Array(words.dropFirst()), output: body.dropFirst().joined(separator: "\n"), status: status))
                }
                file = nil
                status = 0
            }
            index += 1
        }
        return steps
    }

    /// The value of `<!-- NAME: VALUE -->`, or nil.
    static func marker(_ line: String, _ name: String) -> String? {
        let prefix = "<!-- \(name): ", suffix = " -->"
        guard line.hasPrefix(prefix), line.hasSuffix(suffix) else { return nil }
        return String(line.dropFirst(prefix.count).dropLast(suffix.count))
    }

    /// Runs the binary in `folder` with standard output and error going to one file, as on a
    /// terminal, so their order is the order pushmap wrote them in.
    static func run(_ arguments: [String], in folder: URL) throws -> (output: String, status: Int32) {
        let capture = folder.appendingPathComponent(".output-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: capture.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: capture) }
        let handle = try FileHandle(forWritingTo: capture)
        let process = Process()
        process.executableURL = CommandRunner.binary
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try handle.close()
        let text = String(decoding: try Data(contentsOf: capture), as: UTF8.self)
        return (text.hasSuffix("\n") ? String(text.dropLast()) : text, process.terminationStatus)
    }

    @Test("has every step of the walkthrough")
    func coversEveryStep() throws {
        let steps = try Self.steps(of: String(contentsOf: Self.page, encoding: .utf8))
        let commands = steps.compactMap { step -> String? in
            if case .command(_, let arguments, _, _) = step { return arguments.prefix(2).joined(separator: " ") }
            return nil
        }
        let files = steps.compactMap { step -> String? in
            if case .file(let path, _) = step { return path }
            return nil
        }
        for needed in ["scripts export", "scripts check", "translate --platform", "templates --scripts", "batch --platform"] {
            #expect(commands.contains { $0.hasPrefix(needed) }, "the walkthrough no longer runs pushmap \(needed)")
        }
        #expect(files.contains("mappings/basic.lua"), "no override of basic")
        #expect(files.contains { $0.hasPrefix("mappings/") && $0.hasSuffix(".lua") && $0 != "mappings/basic.lua" }, "no new template")
        #expect(files.contains { $0.contains(".test/") }, "no fixture")
        #expect(steps.contains { if case .command(_, _, _, let status) = $0 { status != 0 } else { false } }, "no failing command is shown")
        // The contract's features a team relies on, each shown at work.
        let contents = steps.compactMap { step -> (path: String, text: String)? in
            if case .file(let path, let text) = step { return (path, text) }
            return nil
        }
        #expect(files.contains("mappings/shared.lua"), "no field shared by every template")
        #expect(contents.contains { $0.path.hasSuffix(".lua") && $0.text.contains("required = {") }, "no required field")
        #expect(contents.contains { $0.path.contains(".test/") && $0.text.contains(#""warnings""#) }, "no fixture asserting warnings")
        #expect(steps.contains { if case .command(_, let arguments, _, _) = $0 { arguments.contains("--now") } else { false } }, "no --now")
    }

    @Test("runs as written: every command prints what the page shows and exits as it says")
    func runsAsWritten() throws {
        let steps = try Self.steps(of: String(contentsOf: Self.page, encoding: .utf8))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushmap-walkthrough-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for step in steps {
            switch step {
            case .file(let path, let contents):
                let url = folder.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(contents.utf8).write(to: url)
            case .command(let line, let arguments, let expected, let status):
                let result = try Self.run(arguments, in: folder)
                let command = "docs/writing-mappings.md:\(line): pushmap \(arguments.joined(separator: " "))"
                #expect(result.status == status, "\(command): exit status \(result.status), the page says \(status)\n\(result.output)")
                #expect(result.output == expected, "\(command): output differs from the page\n--- page\n\(expected)\n--- actual\n\(result.output)")
            }
        }
    }

    @Test("fails when the page and pushmap disagree")
    func detectsDrift() throws {
        let text = """
            <!-- file: intent.json -->
            ```json
            {"title": "Hi", "body": "There"}
            ```

            ```console
            $ pushmap translate --compact --platform fcm intent.json
            {"message":{"data":{"adb_body":"There","adb_title":"Hello"}}}
            ```
            """
        let steps = try Self.steps(of: text)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushmap-walkthrough-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        guard steps.count == 2, case .file(let path, let contents) = steps[0], case .command(_, let arguments, let expected, _) = steps[1] else {
            Issue.record("the example page did not parse into a file and a command: \(steps)")
            return
        }
        try Data(contents.utf8).write(to: folder.appendingPathComponent(path))
        let result = try Self.run(arguments, in: folder)
        #expect(result.status == 0)
        #expect(result.output == #"{"message":{"data":{"adb_body":"There","adb_title":"Hi"}}}"#)
        #expect(result.output != expected, "a stale expected output must not match")
    }
}
