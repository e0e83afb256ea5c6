internal import PushmapJSON

/// The last line of a streamed answer (a batch's, a campaign's) that ran out of its time limit:
/// `{"error":{"kind":"timeout","message":"..."}}`, saying how far it got.
enum StreamTimeout {
    static func line(_ message: String) -> [UInt8] {
        var line = Array(#"{"error":{"kind":"timeout","message":"#.utf8)
        JSONWriter(style: .compact).write(.string(message), into: &line)
        line.append(contentsOf: "}}\n".utf8)
        return line
    }
}
