@_spi(Tools) internal import Pushmap
@_spi(Tools) internal import PushmapTooling
@_spi(Engine) internal import PushmapJSON
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Headless Chromium, found on PATH (or named by `PUSHMAP_CHROMIUM`), for turning a page into a
/// PNG. Each run gets a profile folder of its own, so runs side by side do not share a lock,
/// and a time limit, so a browser that hangs cannot hang pushmap.
struct HeadlessBrowser {
    /// Why no picture was made, in one line.
    struct Failure: Error, CustomStringConvertible {
        let description: String
        /// The picture was drawn but could not be written where asked: the output's fault
        /// (exit 1), not the browser's (exit 3; the forty-fifth audit, preview F3).
        var unwritable = false
    }

    /// The names tried on PATH, in order.
    static let names = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"]
    /// How long one screenshot may take.
    static let timeLimitSeconds = 120

    let executable: String

    /// The browser to use; a failure when there is none.
    static func find() throws(Failure) -> HeadlessBrowser {
        if let named = environment("PUSHMAP_CHROMIUM"), !named.isEmpty {
            guard access(named, X_OK) == 0, !FileSystem.isDirectory(named) else {
                throw Failure(description: "PUSHMAP_CHROMIUM names \(named), which is not an executable file")
            }
            return HeadlessBrowser(executable: named)
        }
        for folder in (environment("PATH") ?? "").split(separator: ":") {
            for name in names {
                let path = "\(folder)/\(name)"
                if access(path, X_OK) == 0, !FileSystem.isDirectory(path) { return HeadlessBrowser(executable: path) }
            }
        }
        throw Failure(description:
            "no headless browser to draw the PNG with: install Chromium (Debian: apt-get install chromium) or set PUSHMAP_CHROMIUM; --output with .html needs none")
    }

    /// Draws `html` at `width` x `height` CSS pixels into the PNG file at `output`.
    func screenshot(html: String, width: Int, height: Int, output: String) throws(Failure) {
        var template = Array((Self.temporaryFolder() + "/pushmap-preview-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } != nil }
        guard made else {
            throw Failure(description: "cannot make a temporary folder: \(String(cString: strerror(errno)))")
        }
        let folder = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { Self.removeTree(folder) }
        let page = folder + "/page.html"
        let log = folder + "/browser.log"
        do {
            try FileSystem.writeFile(Array(html.utf8), to: page)
        } catch {
            throw Failure(description: "\(error)")
        }
        let target = output.hasPrefix("/") ? output : Self.currentDirectory() + "/" + output
        // Drawn in the temporary folder and moved to `output` only when whole: a failed draw
        // leaves the file there as it was, as an invalid intent does (the twenty-fifth audit,
        // F12: it was deleted), and never a stale picture passing for a new one.
        let shot = folder + "/page.png"
        let arguments = [
            executable, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--disable-extensions", "--user-data-dir=\(folder)/profile", "--screenshot=\(shot)",
            "--window-size=\(width),\(height)", Self.fileURL(page),
        ]
        let status = try run(arguments, log: log)
        guard status == 0 else {
            throw Failure(description: "\(executable) failed (status \(status)) drawing the page: \(Self.lastLine(of: log))")
        }
        guard let size = Self.fileSize(shot), size > 0 else {
            throw Failure(description: "\(executable) wrote no picture to \(output): \(Self.lastLine(of: log))")
        }
        if rename(shot, target) != 0 {
            // Another file system than the temporary folder's: copied instead.
            do {
                try FileSystem.writeFile(try FileSystem.readFile(shot), to: target)
            } catch {
                throw Failure(description: "\(error)", unwritable: true)
            }
        }
    }

    /// Runs the browser with its output in `log`; its exit status, or a failure past the time limit.
    private func run(_ arguments: [String], log: String) throws(Failure) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        var process: pid_t = 0
        let spawned = posix_spawn(&process, executable, &actions, nil, &pointers, environ)
        guard spawned == 0 else {
            throw Failure(description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        let deadline = time(nil) + Self.timeLimitSeconds
        while true {
            let done = waitpid(process, &status, WNOHANG)
            if done == process { break }
            if done < 0, errno != EINTR { throw Failure(description: "lost track of \(executable): \(String(cString: strerror(errno)))") }
            if time(nil) > deadline {
                kill(process, SIGKILL)
                _ = waitpid(process, &status, 0)
                throw Failure(description: "\(executable) took more than \(Self.timeLimitSeconds) seconds and was stopped")
            }
            usleep(20_000)
        }
        // Exited normally: its code; killed by a signal: 128 + the signal, as shells say.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// A `file://` URL for an absolute path, every byte but unreserved ones and `/` percent-encoded.
    static func fileURL(_ path: String) -> String {
        var url = Array("file://".utf8)
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                url.append(byte)
            default:
                url += [UInt8(ascii: "%"), .upperHexDigit(byte >> 4), .upperHexDigit(byte)]
            }
        }
        return String(decoding: url, as: UTF8.self)
    }

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    private static func temporaryFolder() -> String {
        let folder = environment("TMPDIR") ?? "/tmp"
        return folder.isEmpty ? "/tmp" : (folder.hasSuffix("/") && folder.count > 1 ? String(folder.dropLast()) : folder)
    }

    static func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return "." }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func fileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    /// The log's last non-empty line, cut short: what the browser said last.
    private static func lastLine(of path: String) -> String {
        let bytes = (try? FileSystem.readFile(path, limit: 1 << 20)) ?? []
        let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? "it said nothing"
        return line.count > 200 ? String(line.prefix(200)) + "…" : line
    }

    /// Removes a folder and everything in it (the browser's profile holds many files).
    private static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        // Links are removed, never followed.
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in (try? FileSystem.list(path)) ?? [] { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}
