internal import NIOHTTP1
internal import PushmapJSON

/// The last line of a streamed answer (a batch's, a campaign's) that stopped early, saying how
/// far it got: `{"error":{"kind":"timeout","message":"..."}}` past its time limit, `bad request`
/// when its body could not be read on.
enum StreamStop {
    static func line(_ message: String, kind: String = "timeout") -> [UInt8] {
        var line = Array(#"{"error":{"kind":"#.utf8)
        JSONWriter(style: .compact).write(.string(kind), into: &line)
        line.append(contentsOf: #","message":"#.utf8)
        JSONWriter(style: .compact).write(.string(message), into: &line)
        line.append(contentsOf: "}}\n".utf8)
        return line
    }

    /// Why a body could not be read on, for the line (and a whole body's 400).
    static func reason(_ error: any Error) -> String {
        if let error = error as? HTTPParserError { return "the request's body could not be read as HTTP/1.1: \(error.reason)" }
        return "the request's body could not be read as HTTP/1.1 (\(error))"
    }
}
