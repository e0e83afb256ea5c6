internal import HTTPTypes
internal import Hummingbird
internal import NIOCore

/// Hands Hummingbird an answer of known length (every answer but the streamed ones) as one
/// buffer, which it writes with its head in one go. The generated routes give it as a body to
/// stream, written head first and body after: two flushes and two `write` calls a request,
/// where a translation's answer is a few kilobytes already in memory.
struct BufferedBodyMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        guard let length = response.body.contentLength else { return response }
        let collected = Collected(capacity: length)
        try await response.body.write(collected)
        response.body = ResponseBody(byteBuffer: collected.buffer)
        return response
    }

    /// A writer that keeps what is written, for the buffer above.
    private struct Collected: ResponseBodyWriter {
        final class Storage {
            var buffer: ByteBuffer
            init(capacity: Int) { buffer = ByteBufferAllocator().buffer(capacity: capacity) }
        }

        let storage: Storage

        init(capacity: Int) { storage = Storage(capacity: capacity) }

        var buffer: ByteBuffer { storage.buffer }

        mutating func write(_ buffer: ByteBuffer) async throws {
            var buffer = buffer
            storage.buffer.writeBuffer(&buffer)
        }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
