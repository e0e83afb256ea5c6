internal import PushmapJSON

/// The bytes of a JSON answer, success or error: compact, in the order written, ending in a
/// newline, as the command line writes them. (The generated code is given them as bytes: its own
/// JSON coding would sort and pretty-print.)
enum Answer {
    static func json(_ value: JSONValue) -> [UInt8] {
        var bytes = JSONWriter(style: .compact).write(value)
        bytes.append(0x0A)
        return bytes
    }
}
