import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A POST whose body is sent a piece at a time (chunked transfer encoding) on a plain loopback
/// socket while its answer is read, as a client streaming lines does; curl sends a body whole.
final class StreamingRequest {
    private var socketDescriptor: Int32
    /// Everything the server has sent so far: the head, then the body in its chunked framing.
    private(set) var received: [UInt8] = []

    convenience init(port: Int, path: String, contentType: String) throws {
        try self.init(port: port, raw: "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: \(contentType)\r\nTransfer-Encoding: chunked\r\n\r\n")
    }

    /// A connection that sends `text` as it is (part of a request's head, say) and then waits.
    init(port: Int, raw text: String) throws {
        socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw HarnessError(description: "socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else {
            close(socketDescriptor)
            throw HarnessError(description: "connect to port \(port) failed")
        }
        try write(Array(text.utf8))
    }

    /// Whether the server closes the connection within `seconds`, sending nothing before.
    func closed(within seconds: Double) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var ready = pollfd(fd: socketDescriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, Int32(seconds * 1000)) > 0 else { return false }
        return recv(socketDescriptor, &buffer, buffer.count, 0) == 0
    }

    /// Sends `bytes` as one chunk of the body.
    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        try write(Array(String(bytes.count, radix: 16).utf8) + [0x0D, 0x0A] + bytes + [0x0D, 0x0A])
    }

    /// Sends `text` as one chunk of the body unless the server has not taken it all within
    /// `seconds` (it reads no more, and the sockets' buffers are full); whether it did.
    func send(_ text: String, within seconds: Double) -> Bool {
        let bytes = Array(String(text.utf8.count, radix: 16).utf8) + [0x0D, 0x0A] + Array(text.utf8) + [0x0D, 0x0A]
        let deadline = Date().addingTimeInterval(seconds)
        var sent = 0
        while sent < bytes.count {
            let left = Int32(deadline.timeIntervalSinceNow * 1000)
            var ready = pollfd(fd: socketDescriptor, events: Int16(POLLOUT), revents: 0)
            guard left > 0, poll(&ready, 1, left) > 0 else { return false }
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socketDescriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Sends `bytes` as they are (a body after its head, not chunked).
    func sendRaw(_ bytes: [UInt8]) throws { try write(bytes) }

    /// Ends the body.
    func finish() throws { try write(Array("0\r\n\r\n".utf8)) }

    /// Reads what arrives until the server closes the connection or `seconds` pass; whether it
    /// closed. For a long answer, which `read(until:seconds:)` would search again at each read.
    func readToClose(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let left = Int32(deadline.timeIntervalSinceNow * 1000)
            guard left > 0 else { return false }
            var ready = pollfd(fd: socketDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, left) > 0 else { return false }
            let count = recv(socketDescriptor, &buffer, buffer.count, 0)
            if count == 0 { return true }
            guard count > 0 else { return false }
            received += buffer[..<count]
        }
    }

    /// Reads what arrives until the text received contains `expected` or `seconds` pass; whether it does.
    func read(until expected: String, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !String(decoding: received, as: UTF8.self).contains(expected) {
            let left = Int32(deadline.timeIntervalSinceNow * 1000)
            guard left > 0 else { return false }
            var ready = pollfd(fd: socketDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, left) > 0 else { return false }
            let count = recv(socketDescriptor, &buffer, buffer.count, 0)
            guard count > 0 else { return false }
            received += buffer[..<count]
        }
        return true
    }

    private func write(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socketDescriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw HarnessError(description: "send failed") }
            sent += count
        }
    }

    /// Closes the connection with a reset (SO_LINGER 0), as a client that gives up does.
    func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(socketDescriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close(socketDescriptor)
        socketDescriptor = -1
    }

    deinit { if socketDescriptor >= 0 { close(socketDescriptor) } }
}
