import Foundation
import PushmapTestSupport
import Testing

/// What a team adopting pushmap does first, done as the team does it: a package of its own that
/// depends on the library by path, `scripts/install` into a prefix, `scripts/release` unpacked
/// elsewhere. scripts/test runs this suite after the others, alone, and outside `swift test`
/// (PUSHMAP_PACKAGING_TESTS=1): scripts/install builds with SwiftPM, which would wait forever for
/// the lock on .build that a running `swift test` holds.
@Suite("Packaging: depend, install, release", .serialized,
       .enabled(if: ProcessInfo.processInfo.environment["PUSHMAP_PACKAGING_TESTS"] == "1",
                "scripts/test runs it outside swift test, whose lock on .build scripts/install would wait for"))
struct PackagingTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let quickStart = root.appendingPathComponent("examples/quick-start.json")

    @Test("CHANGELOG.md's top entry is the version pushmap, pushmap-server and openapi.yaml give")
    func versionHasOneSource() throws {
        let version = try Self.changelogVersion()
        let cli = try runProgram(Self.binary("PUSHMAP_BINARY", ".build/release/pushmap").path, ["--version"])
        #expect(cli.status == 0)
        #expect(cli.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == version)
        let server = try runProgram(Self.binary("PUSHMAP_SERVER_BINARY", "Server/.build/release/pushmap-server").path, ["--version"])
        #expect(server.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == version)
        let document = try String(contentsOf: Self.root.appendingPathComponent("Server/Sources/PushmapServer/openapi.yaml"), encoding: .utf8)
        #expect(document.contains("\n  version: \(version)\n"), "openapi.yaml's info.version is not \(version)")
    }

    @Test("A package depending on the library by path fetches no service dependency, builds without pushmap warnings, and translates")
    func dependentPackage() throws {
        let scratch = try Self.scratch("dependent")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let app = scratch.appendingPathComponent("intent-app")
        try FileManager.default.createDirectory(at: app.appendingPathComponent("Sources/IntentApp"), withIntermediateDirectories: true)
        try """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "intent-app",
                platforms: [.macOS(.v15)],
                dependencies: [.package(name: "pushmap", path: "\(Self.root.path)")],
                targets: [
                    .executableTarget(name: "IntentApp", dependencies: [.product(name: "Pushmap", package: "pushmap")]),
                ]
            )

            """.write(to: app.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try """
            import Foundation
            import Logging
            import Pushmap

            let intent = Array(FileHandle.standardInput.readDataToEndOfFile())
            let translator = try Translator(logger: Logger(label: "intent-app"))
            let translation = try translator.translate(intent, platforms: [.fcm, .apns])
            print(String(decoding: translation.bytes(for: .fcm, style: .compact), as: UTF8.self))
            print(String(decoding: translation.bytes(for: .apns, style: .compact), as: UTF8.self))
            print(Translator.version)

            """.write(to: app.appendingPathComponent("Sources/IntentApp/main.swift"), atomically: true, encoding: .utf8)

        let build = try runProgram("/usr/bin/env", ["swift", "build"], directory: app)
        #expect(build.status == 0, "swift build failed:\n\(build.output.suffix(4000))")

        // What SwiftPM fetched: the library's own needs (swift-log; swift-argument-parser for
        // the command line beside it in the same manifest), none of the service's.
        let checkouts = try FileManager.default.contentsOfDirectory(atPath: app.appendingPathComponent(".build/checkouts").path).sorted()
        #expect(Set(checkouts).isSubset(of: ["swift-log", "swift-argument-parser"]), "checked out: \(checkouts)")
        #expect(checkouts.contains("swift-log"))

        // The rule scripts/test holds pushmap's own builds to, read from this build's output.
        let log = scratch.appendingPathComponent("build.log")
        try Data(build.output.utf8).write(to: log)
        let ownWarnings = try runProgram(Self.root.appendingPathComponent("scripts/own-warnings").path, [Self.root.path, log.path])
        #expect(ownWarnings.status == 0, "warnings from pushmap's sources:\n\(ownWarnings.stdout)")

        let translated = try runProgram(app.appendingPathComponent(".build/debug/IntentApp").path, [], input: try Data(contentsOf: Self.quickStart))
        #expect(translated.status == 0, "\(translated.stderr)")
        let printed = translated.stdout.split(separator: "\n").map(String.init)
        #expect(printed.count == 3)
        let fcm = try JSONSerialization.jsonObject(with: Data((printed.first ?? "").utf8)) as? [String: Any]
        let message = fcm?["message"] as? [String: Any]
        let data = message?["data"] as? [String: Any]
        // The quick-start intent: a basic template titled "Game request", for a token.
        #expect(data?["adb_title"] as? String == "Game request", "not the FCM message: \(printed.first ?? "")")
        #expect(message?["token"] as? String == "FCM_TOKEN")
        let apns = try JSONSerialization.jsonObject(with: Data((printed.dropFirst().first ?? "").utf8)) as? [String: Any]
        let alert = (apns?["aps"] as? [String: Any])?["alert"] as? [String: Any]
        #expect(alert?["title"] as? String == "Game request", "not the APNS payload: \(printed.dropFirst().first ?? "")")
        #expect(printed.last == (try Self.changelogVersion()))
    }

    @Test("scripts/install puts working, stripped binaries, man pages and completions under a prefix; --uninstall takes exactly them away")
    func installAndUninstall() throws {
        let scratch = try Self.scratch("install")
        defer { try? FileManager.default.removeItem(at: scratch) }
        // A prefix that already holds a file of somebody else's, in a folder the install uses.
        let prefix = scratch.appendingPathComponent("prefix")
        let foreign = prefix.appendingPathComponent("share/man/man1/other.1")
        try FileManager.default.createDirectory(at: foreign.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(".TH OTHER 1\n".utf8).write(to: foreign)
        let before = try Self.tree(prefix)

        let install = try runProgram(Self.root.appendingPathComponent("scripts/install").path, ["--prefix", prefix.path])
        #expect(install.status == 0, "\(install.output.suffix(4000))")
        let version = try Self.changelogVersion()

        let pushmap = prefix.appendingPathComponent("bin/pushmap")
        let server = prefix.appendingPathComponent("bin/pushmap-server")
        #expect(try runProgram(pushmap.path, ["--version"]).stdout == version + "\n")
        let translated = try runProgram(pushmap.path, ["translate", "--platform", "both", Self.quickStart.path])
        #expect(translated.status == 0)
        #expect(translated.stdout.contains("\"fcm\"") && translated.stdout.contains("\"apns\""))
        #expect(try runProgram(server.path, ["--version"]).stdout == version + "\n")
        for binary in [pushmap, server] {
            let sections = try runProgram("/usr/bin/env", ["readelf", "-S", "-W", binary.path])
            #expect(sections.status == 0)
            #expect(!sections.stdout.contains(".symtab"), "\(binary.lastPathComponent) is not stripped")
            let libraries = try runProgram("/usr/bin/env", ["ldd", binary.path])
            #expect(!libraries.stdout.contains("libswift") && !libraries.stdout.contains("liblua"), "\(binary.lastPathComponent) is not standalone:\n\(libraries.stdout)")
        }

        // man renders the pages: the command's and each subcommand's.
        let man1 = prefix.appendingPathComponent("share/man/man1")
        for page in ["pushmap.1", "pushmap.translate.1", "pushmap.batch.1", "pushmap-server.1"] {
            let rendered = try runProgram("/usr/bin/env", ["man", "-l", "-P", "cat", man1.appendingPathComponent(page).path], environment: ["MANWIDTH": "100"])
            #expect(rendered.status == 0, "man -l \(page): \(rendered.stderr)")
            #expect(rendered.stdout.contains("SYNOPSIS") || rendered.stdout.contains("Synopsis"), "\(page) rendered as:\n\(rendered.stdout.prefix(600))")
            // The exit codes the tools use, not generate-manual's generic sentence (the thirty-ninth audit, F6).
            let words = rendered.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(words.contains("64 a usage error") && !words.contains(">0 if an error occurs"), "\(page):\n\(rendered.stdout.suffix(400))")
            // The values and defaults --help gives (the thirty-ninth audit, F6).
            let defaults = ["pushmap.translate.1": "(values: fcm, apns, both; default: both)", "pushmap.batch.1": "(values: fcm, apns, both; default: both)",
                            "pushmap-server.1": "(default: 127.0.0.1)"]
            if let expected = defaults[page] { #expect(words.contains(expected), "\(page):\n\(words)") }
        }
        let index = try runProgram("/usr/bin/env", ["man", "-l", "-P", "cat", man1.appendingPathComponent("pushmap.1").path])
        #expect(index.stdout.contains("translate"))

        // bash loads the completion and completes a subcommand from its first letters.
        let bashCompletion = prefix.appendingPathComponent("share/bash-completion/completions/pushmap")
        let completion = try runProgram("/usr/bin/env", ["bash", "-c", """
            source "$1" || exit 1
            complete -p pushmap || exit 1
            function=$(complete -p pushmap | sed -E 's/.*-F ([^ ]+).*/\\1/')
            COMP_WORDS=(pushmap trans); COMP_CWORD=1; COMP_LINE="pushmap trans"; COMP_POINT=${#COMP_LINE}
            "$function" pushmap trans pushmap
            printf '%s\\n' "${COMPREPLY[@]}"
            """, "bash", bashCompletion.path])
        #expect(completion.status == 0, "\(completion.stderr)")
        #expect(completion.stdout.split(separator: "\n").contains("translate"), "completions: \(completion.stdout)")
        let serverCompletion = try runProgram("/usr/bin/env", ["bash", "-c", "source \"$1\" && complete -p pushmap-server", "bash",
                                                         prefix.appendingPathComponent("share/bash-completion/completions/pushmap-server").path])
        #expect(serverCompletion.status == 0)
        for file in ["share/zsh/site-functions/_pushmap", "share/fish/vendor_completions.d/pushmap.fish",
                     "share/zsh/site-functions/_pushmap-server", "share/fish/vendor_completions.d/pushmap-server.fish"] {
            #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent(file).path), "\(file) missing")
        }

        // Installing again replaces the install; uninstalling leaves the prefix as it was.
        #expect(try runProgram(Self.root.appendingPathComponent("scripts/install").path, ["--prefix", prefix.path]).status == 0)
        let uninstall = try runProgram(Self.root.appendingPathComponent("scripts/install").path, ["--uninstall", "--prefix", prefix.path])
        #expect(uninstall.status == 0, "\(uninstall.output)")
        #expect(try Self.tree(prefix) == before)
        let again = try runProgram(Self.root.appendingPathComponent("scripts/install").path, ["--uninstall", "--prefix", prefix.path])
        #expect(again.status == 1)
        #expect(again.stderr.contains("nothing to uninstall"))

        // A prefix that did not exist, installed into twice, is gone again after the uninstall,
        // with the folder above it that the install made (the thirty-ninth audit, F9).
        let fresh = scratch.appendingPathComponent("fresh/prefix")
        #expect(try runProgram(Self.root.appendingPathComponent("scripts/install").path, ["--prefix", fresh.path]).status == 0)
        #expect(try runProgram(Self.root.appendingPathComponent("scripts/install").path, ["--prefix", fresh.path]).status == 0)
        #expect(FileManager.default.isExecutableFile(atPath: fresh.appendingPathComponent("bin/pushmap").path))
        #expect(try runProgram(Self.root.appendingPathComponent("scripts/install").path, ["--uninstall", "--prefix", fresh.path]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: fresh.deletingLastPathComponent().path))
        #expect(FileManager.default.fileExists(atPath: scratch.path))
    }

    @Test("scripts/release writes a tarball and its checksum; unpacked elsewhere, its binaries run")
    func release() throws {
        let scratch = try Self.scratch("release")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let dist = scratch.appendingPathComponent("dist")
        let result = try runProgram(Self.root.appendingPathComponent("scripts/release").path, ["--output", dist.path])
        #expect(result.status == 0, "\(result.output.suffix(4000))")
        let version = try Self.changelogVersion()
        let arch = try runProgram("/usr/bin/env", ["uname", "-m"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let name = "pushmap-\(version)-linux-\(arch)"
        let tarball = dist.appendingPathComponent("\(name).tar.gz")
        #expect(FileManager.default.fileExists(atPath: tarball.path))
        let check = try runProgram("/usr/bin/env", ["sha256sum", "-c", "\(name).tar.gz.sha256"], directory: dist)
        #expect(check.status == 0, "\(check.output)")
        #expect(check.stdout.contains("\(name).tar.gz: OK"))

        let unpacked = scratch.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: unpacked, withIntermediateDirectories: true)
        #expect(try runProgram("/usr/bin/env", ["tar", "-xzf", tarball.path, "-C", unpacked.path]).status == 0)
        let folder = unpacked.appendingPathComponent(name)
        for file in ["LICENSE", "NOTICE", "README.md", "CHANGELOG.md", "bin/pushmap", "bin/pushmap-server",
                     "share/man/man1/pushmap.1", "share/bash-completion/completions/pushmap"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path), "\(file) missing from the tarball")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("share/pushmap").path))
        // Run with an empty environment, from a folder that is not the repository.
        let pushmap = try runProgram(folder.appendingPathComponent("bin/pushmap").path, ["translate", "--platform", "apns", Self.quickStart.path],
                              directory: unpacked, clearEnvironment: true)
        #expect(pushmap.status == 0, "\(pushmap.stderr)")
        #expect(pushmap.stdout.contains("\"aps\""))
        #expect(try runProgram(folder.appendingPathComponent("bin/pushmap-server").path, ["--version"], directory: unpacked, clearEnvironment: true).stdout == version + "\n")
    }

    // MARK: - Support

    static func changelogVersion() throws -> String {
        let changelog = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        guard let heading = changelog.split(separator: "\n").first(where: { $0.hasPrefix("## [") && $0.dropFirst(4).first?.isNumber == true }) else {
            throw PackagingError(description: "CHANGELOG.md has no version heading")
        }
        return String(heading.dropFirst(4).prefix { $0 != "]" })
    }

    static func binary(_ variable: String, _ fallback: String) -> URL {
        if let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty { return URL(fileURLWithPath: path) }
        return root.appendingPathComponent(fallback)
    }

    static func scratch(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pushmap-packaging-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Every path under a folder, with a file's size: what an uninstall must give back.
    static func tree(_ folder: URL) throws -> [String] {
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        let paths = try FileManager.default.subpathsOfDirectory(atPath: folder.path)
        return paths.sorted().map { path in
            let size = (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(path).path))?[.size] as? Int ?? -1
            return "\(path) \(size)"
        }
    }
}

struct PackagingError: Error, CustomStringConvertible {
    var description: String
}
