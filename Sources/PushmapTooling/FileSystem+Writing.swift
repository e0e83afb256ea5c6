#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif
@_spi(Tools) package import Pushmap

/// What the command line writes to disk (`scripts export`, `preview --output`, standard output);
/// a service only reads, so the library keeps only ``FileSystem``'s reading half. As members of
/// an extension of a `Tools` type, these are in that group: import this module with `@_spi(Tools)`.
extension FileSystem {
    /// Writes `bytes` to `path`, replacing it.
    package static func writeFile(_ bytes: [UInt8], to path: String) throws(FileError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileError(path: path, reason: reason(errno)) }
        defer { close(descriptor) }
        try writeAll(bytes, to: descriptor, path: path)
    }

    /// Writes all of `bytes` to an open descriptor, going on after short writes and interrupts.
    package static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(FileError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0 {
                let number = errno
                if number == EINTR { continue }
                throw FileError(path: path, reason: reason(number), number: number)
            }
            offset += written
        }
    }

    /// Makes the folder `path` and its parents.
    package static func makeDirectory(_ path: String) throws(FileError) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o755) != 0, errno != EEXIST { throw FileError(path: current, reason: reason(errno)) }
        }
        guard isDirectory(path) else { throw FileError(path: path, reason: "exists and is not a directory") }
    }
}
