@_spi(Tools) internal import Pushmap

/// A FILE argument, or `-` / nothing for standard input.
struct InputFile {
    /// The name in messages: the path, or `<stdin>`.
    let name: String
    let path: String?

    init(_ argument: String?) {
        if let argument, argument != "-" {
            name = argument
            path = argument
        } else {
            name = "<stdin>"
            path = nil
        }
    }

    /// The whole input; a one-line reason when it cannot be read or is empty.
    func read(limit: Int) throws(FileError) -> [UInt8] {
        let bytes: [UInt8]
        if let path {
            bytes = try FileSystem.readFile(path, limit: limit)
        } else {
            bytes = try FileSystem.readAll(0, path: name, limit: limit)
        }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw FileError(path: name, reason: "empty input: expected a JSON object")
        }
        return bytes
    }
}
