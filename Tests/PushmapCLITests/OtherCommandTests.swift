import Foundation
import PushmapTestSupport
import Testing

@Suite("pushmap validate, templates, scripts, schema")
struct OtherCommandTests {
    @Test("validate accepts every seed payload", arguments: SeedPayloads.names)
    func validatesSeeds(name: String) throws {
        let platform = name.contains("-fcm") ? "fcm" : "apns"
        let path = SeedPayloads.folder.appendingPathComponent("\(name).json").path
        // At 2023-12-01, while Adobe's examples still ran: timer-fcm ends on 2023-12-25, and a timer
        // already over when it arrives is an error on Android, which drops it.
        let result = try CommandRunner.run(["validate", "--platform", platform, "--now", "1701388800", path])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("valid \(platform) payload: 0 errors"))
    }

    @Test("validate rejects a broken payload with its path and rule, exit 1")
    func validateRejects() throws {
        let payload = #"{"aps": {"badge": "3", "custom": 1}}"#
        let result = try CommandRunner.run(["validate", "--platform", "apns", "-"], input: Data(payload.utf8))
        #expect(result.status == 1)
        #expect(result.stdout.contains("$.aps.badge"))
        #expect(result.stdout.contains("$.aps.custom"))
        #expect(result.stdout.contains("invalid apns payload"))
    }

    @Test("validate writes JSON with --format json")
    func validateJSON() throws {
        let payload = #"{"message": {"data": {"adb_title": 1}}}"#
        let result = try CommandRunner.run(["validate", "--platform", "fcm", "--format", "json", "-"], input: Data(payload.utf8))
        #expect(result.status == 1)
        let object = try #require(CommandRunner.json(result.stdout) as? [String: Any])
        #expect(object["valid"] as? Bool == false)
    }

    @Test("validate needs a platform")
    func validateNeedsPlatform() throws {
        let result = try CommandRunner.run(["validate", "-"], input: Data("{}".utf8))
        #expect(result.status == 64)
    }

    /// Source: the forty-third audit, F1 and F2: `--now` at the top of 64 bits wrapped
    /// apns-expiration round (exit 0), and import with `--now -1` and an apns-expiration at the
    /// top crashed (exit 132, nothing said).
    @Test("--now reads a negative time as written, takes 1970 to the end of 9999, and names what it cannot read")
    func nowOption() throws {
        let payload = Data(#"{"message": {"token": "t", "notification": {"title": "Hi"}}}"#.utf8)
        for arguments in [["--now", "-5"], ["--now=-5"], ["--now", "9223372036854775807"], ["--now", "253402300800"]] {
            let result = try CommandRunner.run(["validate", "--platform", "fcm"] + arguments + ["-"], input: payload)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("Error: --now must be an epoch time from 0 to 253402300799 (the end of 9999), not "), "\(arguments): \(result.stderr)")
        }
        for now in ["0", "253402300799"] {
            let result = try CommandRunner.run(["validate", "--platform", "fcm", "--now", now, "-"], input: payload)
            #expect(result.status == 0, "\(now): \(result.stderr)")
        }
        let request = Data(#"{"headers": {"apns-push-type": "alert", "apns-expiration": "9223372036854775807"}, "payload": {"aps": {"alert": "Hi"}}}"#.utf8)
        let imported = try CommandRunner.run(["import", "--platform", "apns", "--now", "0", "-"], input: request)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("apns-expiration is not kept"), "\(imported.stderr)")
        let missing = try CommandRunner.run(["validate", "--platform", "fcm", "--now", "--format", "json", "-"], input: payload)
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("Error: The value '--format' is invalid for '--now <epoch>'"), "\(missing.stderr)")
    }

    @Test("templates lists the built-ins and where an override comes from")
    func templates() throws {
        let plain = try CommandRunner.run(["templates"])
        #expect(plain.status == 0)
        #expect(plain.stdout.contains("basic"))
        #expect(plain.stdout.contains("built-in (templates/basic.lua)"))
        let folder = try temporaryFolder()
        try "return pushmap.builtin and { name = 'basic', api = 1, platforms = {'fcm'}, fcm = function(i, c) return pushmap.builtin('basic', 'fcm', i, c) end }"
            .write(to: folder.appendingPathComponent("basic.lua"), atomically: true, encoding: .utf8)
        let layered = try CommandRunner.run(["templates", "--scripts", folder.path, "--format", "json"])
        #expect(layered.status == 0, "\(layered.stderr)")
        let items = try #require(CommandRunner.json(layered.stdout) as? [[String: Any]])
        let basic = try #require(items.first { $0["name"] as? String == "basic" })
        #expect(basic["path"] as? String == folder.appendingPathComponent("basic.lua").path)
        #expect(basic["overrides"] as? Bool == true)
        let human = try CommandRunner.run(["templates", "--scripts", folder.path])
        #expect(human.stdout.contains("basic.lua, overrides the built-in"), "\(human.stdout)")
        // The eighth audit: a template of two folders was said to override the built-in.
        let second = try temporaryFolder()
        try "return { name = 'own', api = 1, platforms = {'fcm'}, fcm = function(i, c) return { message = { data = {} } } end }"
            .write(to: folder.appendingPathComponent("own.lua"), atomically: true, encoding: .utf8)
        try "return { name = 'own', api = 1, platforms = {'fcm'}, fcm = function(i, c) return { message = { data = {} } } end }"
            .write(to: second.appendingPathComponent("own.lua"), atomically: true, encoding: .utf8)
        let both = try CommandRunner.run(["templates", "--scripts", folder.path, "--scripts", second.path])
        #expect(both.stdout.contains("\(second.path)/own.lua, overrides \(folder.path)/own.lua"), "\(both.stdout)")
    }

    @Test("scripts export writes the built-ins, and scripts check passes on them")
    func exportAndCheck() throws {
        let folder = try temporaryFolder().appendingPathComponent("mappings")
        let export = try CommandRunner.run(["scripts", "export", folder.path])
        #expect(export.status == 0, "\(export.stderr)")
        for name in ["plain", "basic", "carousel", "timer"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("\(name).lua").path))
        }
        let again = try CommandRunner.run(["scripts", "export", folder.path])
        #expect(again.status == 1)
        // One sentence (the twenty-sixth audit, F22: "DIR/basic.lua: and 62 more of the files...").
        #expect(again.stderr.hasPrefix("pushmap: scripts export: \(folder.path)/"), "\(again.stderr)")
        #expect(again.stderr.contains(" more files export writes already exist (use --force to replace them); nothing was written"), "\(again.stderr)")
        // The eighth audit: one file of the export already there stopped it halfway.
        let partial = try temporaryFolder().appendingPathComponent("partial")
        try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
        try Data("-- mine\n".utf8).write(to: partial.appendingPathComponent("zb.lua"))
        let refused = try CommandRunner.run(["scripts", "export", partial.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("zb.lua already exists (use --force to replace it); nothing was written"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: partial.path) == ["zb.lua"])
        let check = try CommandRunner.run(["scripts", "check", folder.path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("PASS "))
        #expect(!check.stdout.contains("FAIL "))
    }

    /// Source: the forty-sixth audit (cli F3), against commands.md (a file pushmap cannot read
    /// is one line, exit 1): a FIFO in a scripts folder or a gallery blocked for ever at its
    /// opening. Each run has a deadline, so that a hang fails the test instead of stopping the run.
    @Test("a FIFO where a file is read (a scripts folder, a gallery) is one line and exit 1, never a hang; a FIFO as the input is read")
    func fifos() throws {
        let folder = try temporaryFolder()
        for name in ["scripts", "gallery"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        #expect(mkfifo(folder.appendingPathComponent("scripts/basic.lua").path, 0o600) == 0)
        #expect(mkfifo(folder.appendingPathComponent("gallery/x.json").path, 0o600) == 0)
        try Data(#"{"title": "a", "body": "b"}"#.utf8).write(to: folder.appendingPathComponent("ok.json"))
        let translate = try CommandRunner.run(["translate", "--scripts", "scripts", "ok.json"], directory: folder, deadline: 60)
        #expect(translate.status == 1)
        #expect(translate.stderr == "pushmap: scripts/basic.lua: is not a regular file (a pipe or a device)\n")
        let check = try CommandRunner.run(["scripts", "check", "scripts"], directory: folder, deadline: 60)
        #expect(check.status == 1 && check.stderr.contains("scripts/basic.lua: is not a regular file"), "\(check.stderr)")
        let gallery = try CommandRunner.run(["preview", "--gallery", "gallery", "--output", "g.html"], directory: folder, deadline: 60)
        #expect(gallery.status == 1)
        #expect(gallery.stderr.hasPrefix("gallery/x.json: is not a regular file (a pipe or a device)\n"), "\(gallery.stderr)")
        // A FIFO given as the input is a stream like standard input: read once a writer comes.
        let input = folder.appendingPathComponent("in.fifo").path
        #expect(mkfifo(input, 0o600) == 0)
        let writer = Thread {
            if let handle = FileHandle(forWritingAtPath: input) {
                handle.write(Data(#"{"title": "x", "body": "y"}"#.utf8))
                try? handle.close()
            }
        }
        writer.start()
        let piped = try CommandRunner.run(["translate", "--platform", "apns", "--compact", input], directory: folder, deadline: 60)
        #expect(piped.status == 0 && piped.stdout == #"{"aps":{"alert":{"body":"y","title":"x"}}}"# + "\n", "\(piped.stdout)\(piped.stderr)")
    }

    /// Source: the forty-sixth audit (cli F2), against README's "a reader that closes the pipe
    /// ends the run quietly": `scripts export DIR | head -1` died of SIGPIPE after a file or two,
    /// and the half-written folder made the next run refuse.
    @Test("scripts export writes every file when the reader of its report goes away")
    func exportPastAClosedReader() throws {
        let whole = try temporaryFolder().appendingPathComponent("whole")
        let written = try CommandRunner.run(["scripts", "export", whole.path]).stdout.split(separator: "\n").count
        let folder = try temporaryFolder().appendingPathComponent("mappings")
        let process = Process()
        process.executableURL = CommandRunner.binary
        process.arguments = ["scripts", "export", folder.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try output.fileHandleForReading.close()  // the reader is gone before the first line
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }.filter { !$0.hasSuffix(".test") && $0.contains(".") } ?? []
        #expect(files.count == written, "\(files.count) of \(written) files")
    }

    @Test("scripts check runs the repository's own fixtures")
    func checksBuiltins() throws {
        let result = try CommandRunner.run(["scripts", "check", "templates"])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains(" 0 failed"))
    }

    @Test("scripts check shows a failing fixture with its difference, exit 1")
    func failingFixture() throws {
        let folder = try temporaryFolder()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("plain.test"), withIntermediateDirectories: true)
        let fixture = #"{"intent": {"title": "A", "body": "B"}, "apns": {"aps": {"alert": {"title": "Z", "body": "B"}}}}"#
        try fixture.write(to: folder.appendingPathComponent("plain.test/wrong.json"), atomically: true, encoding: .utf8)
        let result = try CommandRunner.run(["scripts", "check", folder.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("FAIL \(folder.path)/plain.test/wrong.json"))
        #expect(result.stdout.contains(#"apns: $.aps.alert.title: expected "Z", got "A""#))
    }

    @Test("schema prints the file in schema/intent.schema.json")
    func schema() throws {
        let result = try CommandRunner.run(["schema"])
        #expect(result.status == 0)
        let file = try String(contentsOf: CommandRunner.root.appendingPathComponent("schema/intent.schema.json"), encoding: .utf8)
        #expect(result.stdout == file)
    }

    @Test("a JSON Schema validator given pushmap's schema refuses a colour that is not hex and accepts RRGGBB with #")
    func schemaColours() throws {
        let python = CommandRunner.root.appendingPathComponent(".venv-test/bin/python")
        try #require(FileManager.default.isExecutableFile(atPath: python.path), "run scripts/setup --test to install jsonschema into .venv-test")
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let schema = try CommandRunner.run(["schema"])
        #expect(schema.status == 0, "\(schema.stderr)")
        try schema.stdoutBytes.write(to: folder.appendingPathComponent("schema.json"))
        // One line per colour: valid, or the validator's first message.
        let script = """
            import json, sys, jsonschema
            validator = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
            for colour in sys.argv[2:]:
                intent = {"template": "basic", "title": "t", "body": "b", "colors": {"title": colour}}
                errors = [error.message for error in validator.iter_errors(intent)]
                print(colour, "valid" if not errors else "invalid: " + errors[0])
            """
        let process = Process()
        process.executableURL = python
        process.arguments = ["-c", script, folder.appendingPathComponent("schema.json").path, "GG0000", "#AABBCC", "AABBCC80", "#ABC"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(text)")
        #expect(lines.first?.hasPrefix("GG0000 invalid: 'GG0000' does not match") == true, "\(text)")
        #expect(lines.dropFirst().first == "#AABBCC valid", "\(text)")
        #expect(lines.dropFirst(2).first == "AABBCC80 valid", "\(text)")
        #expect(lines.last?.hasPrefix("#ABC invalid") == true, "\(text)")
    }

    @Test("generates shell completions")
    func completions() throws {
        let result = try CommandRunner.run(["--generate-completion-script", "bash"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("translate"))
    }

    /// Source: the eighth audit (its finding 4): a file name in another encoding than UTF-8 (a
    /// Latin-1 `x\xe9.lua`) made the whole folder fail as "no such file or directory"; a folder
    /// argument so named was "no such directory", and `scripts export` wrote into another folder
    /// (the name with U+FFFD) and exited 0. Swift cannot pass such bytes as an argument, so the
    /// shell does.
    @Test("a file name or argument that is not UTF-8 is said to be so, not reported missing or written elsewhere")
    func namesNotUTF8() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushmap-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = #"""
            mkdir s && printf 'return {}' > "s/x$(printf '\351').lua"
            "$0" templates --scripts s; echo "status $?"
            mkdir "d$(printf '\377')"
            "$0" scripts check "d$(printf '\377')"; echo "status $?"
            "$0" scripts export "x$(printf '\376')"; echo "status $?"
            ls
            """#
        let run = try runProgram("/bin/sh", ["-c", script, CommandRunner.binary.path], directory: folder)
        let lines = run.stdout + run.stderr
        #expect(lines.contains(#"pushmap: s/x\xe9.lua: the name is not UTF-8, which pushmap reads names as: rename the file"#), "\(lines)")
        #expect(lines.contains(#"argument 3, 'd\xff', is not UTF-8, which pushmap reads file names and options as: rename the file"#), "\(lines)")
        #expect(lines.contains(#"argument 3, 'x\xfe', is not UTF-8"#), "\(lines)")
        #expect(run.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("status ") } == ["status 1", "status 64", "status 64"], "\(run.stdout)")
        // Nothing exported anywhere: the folder holds what the script made, and no other.
        #expect(run.stdout.components(separatedBy: "\n").suffix(3) == ["d\u{FFFD}", "s", ""], "\(run.stdout)")
    }
}
