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

    /// The whole input; a one-line reason when it cannot be read. An empty input is read (as
    /// nothing): the JSON parser's `json-syntax` finding says so, in the format asked for.
    func read(limit: Int) throws(FileError) -> [UInt8] {
        if let path { return try FileSystem.readFile(path, limit: limit, streams: true) }
        return try FileSystem.readAll(0, path: name, limit: limit)
    }
}
