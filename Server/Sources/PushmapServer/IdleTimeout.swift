internal import NIOCore
internal import NIOHTTPTypes

/// Closes a connection that has sent nothing for `--idle-timeout-ms`: between requests, inside a
/// request's head or in its body. An answer being written is never idle: one whose request was
/// read whole (a translation under way), or one waiting for its client to read what it wrote.
///
/// In place of Hummingbird's own idle handling, which counts only what is read while a body is
/// still coming. A batch client that stopped reading for longer than the idle time filled the
/// socket, the route stopped reading the body it could not answer, and the connection was closed
/// as idle: the client got a reset after a hundred of its lines, and the server logged a 200
/// (the twenty-first audit, N2). A client that reads nothing for good is stopped by the batch's
/// time limit, after which its connection is idle again.
final class IdleTimeout: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limit: TimeAmount
    /// When the connection last read or wrote a part of a request or an answer.
    private var lastActive = NIODeadline.now()
    private var progress = RequestProgress()
    private var timer: Scheduled<Void>?

    init(milliseconds: Int) {
        limit = .milliseconds(Int64(milliseconds))
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { schedule(context, at: .now() + limit) }
    }

    func channelActive(context: ChannelHandlerContext) {
        lastActive = .now()
        schedule(context, at: lastActive + limit)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastActive = .now()
        progress.read(unwrapInboundIn(data))
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        lastActive = .now()
        progress.wrote(unwrapOutboundIn(data))
        context.write(data, promise: promise)
    }

    private func schedule(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        guard timer == nil else { return }
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            timer = nil
            expired(context)
        }
    }

    private func expired(_ context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        let now = NIODeadline.now()
        // An answer under way whose request was read whole, or whose writes wait on the client.
        if progress.unanswered > 0 && (!progress.requestOpen || !context.channel.isWritable) {
            schedule(context, at: now + limit)
        } else if now >= lastActive + limit {
            context.close(promise: nil)
        } else {
            schedule(context, at: lastActive + limit)
        }
    }
}
