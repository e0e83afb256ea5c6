internal import OpenAPIRuntime

/// A streamed body's chunks (``LineStream``), read in a task of each read's own, one at a time:
/// the stream starts the next read only once the last has said it is done.
final class BodyChunks: @unchecked Sendable {
    // @unchecked: the iterator is used by one read task at a time, each after the last has ended.
    private var chunks: HTTPBody.AsyncIterator

    init(_ chunks: HTTPBody.AsyncIterator) { self.chunks = chunks }

    func next() async throws -> ArraySlice<UInt8>? { try await chunks.next() }
}
