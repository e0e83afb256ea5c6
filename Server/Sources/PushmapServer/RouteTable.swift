internal import HTTPTypes
internal import OpenAPIRuntime

/// The paths the server answers and the method of each, as the generated code registers them
/// from openapi.yaml: another method on a known path is 405, not 404, and the metrics label a
/// request by its path only when it is one of these (any other path would make a label each).
struct RouteTable: Sendable {
    private(set) var methods: [String: HTTPRequest.Method] = [:]

    /// The table of the routes `register` registers, read by letting it register on a recorder.
    init(_ register: (any ServerTransport) throws -> Void) rethrows {
        let recorder = Recorder()
        try register(recorder)
        methods = recorder.methods
    }

    /// The route that answers `path`, as the router finds it: the router splits a path at its
    /// slashes and skips empty parts, so `/v1/translate/` and `//v1//translate` are
    /// `/v1/translate`. Nil for a path no route has.
    func route(_ path: String) -> String? {
        if methods[path] != nil { return path }
        let route = Self.canonical(path)
        return methods[route] != nil ? route : nil
    }

    /// `path` as the router reads it: its empty parts skipped.
    static func canonical(_ path: some StringProtocol) -> String {
        "/" + path.split(separator: "/").joined(separator: "/")
    }

    /// Takes each registration's path and method and keeps no handler.
    private final class Recorder: ServerTransport {
        var methods: [String: HTTPRequest.Method] = [:]

        func register(
            _ handler: @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?),
            method: HTTPRequest.Method, path: String
        ) throws {
            methods[path] = method
        }
    }
}
