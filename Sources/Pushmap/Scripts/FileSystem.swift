internal import PushmapJSON
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Why a file or folder could not be read or written, in words for a one-line message.
public struct FileError: Error, Sendable, CustomStringConvertible {
    /// The file or folder.
    public let path: String
    /// What went wrong, such as "No such file or directory".
    public let reason: String
    /// `path: reason`.
    public var description: String { "\(FileSystem.shown(path)): \(reason)" }
    /// The system's error number, when a call failed (0 otherwise): a closed pipe (EPIPE) is no
    /// failure to report.
    package var number: Int32 = 0

    package init(path: String, reason: String, number: Int32 = 0) {
        self.path = path
        self.reason = reason
        self.number = number
    }
}

/// The few file operations pushmap needs, over POSIX: Foundation is slow to load, and a
/// command-line run should start in milliseconds. Only reading is here, for loading scripts from
/// a folder; the writing the command line does is in PushmapTooling.
@_spi(Tools) public enum FileSystem {

    /// The whole content of the file at `path`, refusing folders and anything over `limit` bytes.
    /// Only a command's own input may be a pipe or a device (`streams`): a FIFO in a scripts
    /// folder, a gallery or an image path blocked for ever at its opening, waiting for a writer
    /// (the forty-sixth audit, cli F3), so those are opened without waiting and must be files.
    @_spi(Tools) public static func readFile(_ path: String, limit: Int = 1 << 30, streams: Bool = false) throws(FileError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | (streams ? 0 : O_NONBLOCK))
        guard descriptor >= 0 else { throw FileError(path: path, reason: reason(errno)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw FileError(path: path, reason: reason(errno)) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw FileError(path: path, reason: "is a directory, not a file") }
        if !streams {
            guard (info.st_mode & S_IFMT) == S_IFREG else { throw FileError(path: path, reason: "is not a regular file (a pipe or a device)") }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        }
        return try readAll(descriptor, path: path, limit: limit, sizeHint: Int(info.st_size))
    }

    /// Everything from an open descriptor (standard input, a pipe) up to `limit` bytes.
    package static func readAll(_ descriptor: Int32, path: String, limit: Int = 1 << 30, sizeHint: Int = 0) throws(FileError) -> [UInt8] {
        var bytes: [UInt8] = []
        // Room for the size the file says plus one byte (to see it end), the limit past which
        // nothing is kept; added with overflow in mind, as a limit may be Int.max.
        bytes.reserveCapacity(max(4096, min(sizeHint, limit) &+ 1))
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress, buffer.count)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, reason: reason(errno))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > limit { throw FileError(path: path, reason: "larger than the limit of \(limit) bytes") }
        }
        return bytes
    }

    /// Whether `path` names a folder.
    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether something exists at `path`.
    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// The names in the folder at `path`, sorted, without "." and ".."; with `suffixes`, only
    /// the names ending with one of them, the files pushmap reads.
    /// - Throws: for a name it would read that is not UTF-8 (`café.lua` saved in Latin-1): Swift's
    ///   strings repair such bytes, and the file would be opened under another name, "no such file".
    package static func list(_ path: String, ending suffixes: String...) throws(FileError) -> [String] {
        guard let folder = opendir(path) else { throw FileError(path: path, reason: reason(errno)) }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let (name, notUTF8) = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { name in
                    String(validatingCString: name).map { ($0, nil) } ?? (String(cString: name), UTF8Text.escaped(cString: name))
                }
            }
            guard name != "." && name != "..", suffixes.isEmpty || suffixes.contains(where: name.hasSuffix) else { continue }
            if let shown = notUTF8, !suffixes.isEmpty {
                throw FileError(path: (path.hasSuffix("/") ? path : path + "/") + shown, reason: "the name is not UTF-8, which pushmap reads names as: rename the file")
            }
            names.append(name)
        }
        return names.sorted()
    }

    /// A path as a message shows it: an empty one as `''`, not as nothing before the colon (the
    /// forty-third audit, F5).
    static func shown(_ path: String) -> String { path.isEmpty ? "''" : path }

    /// `code` (an `errno`) in words for a one-line message.
    package static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file or directory"
        case EACCES: "permission denied"
        case EISDIR: "is a directory, not a file"
        case ENOTDIR: "a part of the path is not a directory"
        default: String(cString: strerror(code))
        }
    }
}
