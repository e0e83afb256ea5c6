internal import ArgumentParser
internal import Hummingbird
internal import Logging
internal import NIOCore
@_spi(Tools) internal import Pushmap
internal import ServiceLifecycle
internal import UnixSignals
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// `pushmap-server`: the translator as an HTTP service (see openapi.yaml and docs/service.md).
@main
struct PushmapServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pushmap-server",
        abstract: "Serve pushmap's translation over HTTP (routes in openapi.yaml, at GET /openapi.yaml).",
        discussion: """
        PUSHMAP_SCRIPTS=DIR[:DIR...] gives script folders as it does for every pushmap command: \
        layered beneath each --scripts, reloaded and watched with them. SIGHUP reloads the scripts \
        (a reload that fails keeps the scripts in force); SIGTERM or SIGINT stops accepting \
        connections, finishes the requests in flight and exits 0.
        """,
        version: Translator.version
    )

    @Option(name: .long, help: "The address to listen on.")
    var host = "127.0.0.1"

    // Unconditional, as the numbers below: "-1" is a value to refuse with its range, not a
    // missing one (the twenty-fifth audit, F17).
    @Option(name: .long, parsing: .unconditional, help: "The port; 0 picks a free one. The bound address is printed on standard output.")
    var port = 8080

    @Option(name: .customLong("scripts"), help: ArgumentHelp(
        "A folder of NAME.lua template scripts layered over the built-in ones; repeat it to add layers, later ones winning. PUSHMAP_SCRIPTS=DIR[:DIR...] gives folders beneath these.",
        valueName: "dir"), completion: .directory)
    var scriptDirectories: [String] = []

    @Flag(name: .long, help: "Reload the scripts when a file in a script folder (--scripts or PUSHMAP_SCRIPTS) changes (polled).")
    var watch = false

    @Option(name: .customLong("watch-interval-ms"), parsing: .unconditional, help: "How often --watch polls, in milliseconds.")
    var watchIntervalMilliseconds = 1000

    @Option(name: .customLong("token-file"), help: ArgumentHelp(
        "A file holding the shared token every request must carry as 'Authorization: Bearer TOKEN'.", valueName: "file"), completion: .file())
    var tokenFile: String?

    @Option(name: .customLong("max-body-bytes"), parsing: .unconditional, help: "Largest request body (translate, validate, preview, import) and batch line, in bytes.")
    var maxBodyBytes = 1 << 20

    @Option(name: .customLong("max-concurrent-requests"), parsing: .unconditional, help: "Requests served at once; more get 503.")
    var maxConcurrentRequests = 256

    @Option(name: .customLong("request-timeout-ms"), parsing: .unconditional, help: "Time for one request from its whole head to its answer, in milliseconds; slower ones get 408. A head that comes slowly is --idle-timeout-ms's.")
    var requestTimeoutMilliseconds = 10_000

    @Option(name: .customLong("batch-timeout-ms"), parsing: .unconditional, help: "Time for one batch stream, in milliseconds.")
    var batchTimeoutMilliseconds = 600_000

    @Option(name: .customLong("idle-timeout-ms"), parsing: .unconditional, help: ArgumentHelp(
        "Time a connection may send nothing, in milliseconds, before it is closed: between requests, inside a request's head, or in its body. An answer being written is not idle."))
    var idleTimeoutMilliseconds = 60_000

    @Option(name: .customLong("drain-delay-ms"), parsing: .unconditional, help: ArgumentHelp(
        "On SIGTERM or SIGINT, time to go on taking requests with /readyz answering 503, in milliseconds, before the listener closes and the requests in flight finish: for a load balancer that polls /readyz. 0 closes at once."))
    var drainDelayMilliseconds = 0

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "A fixed time to serve at, in epoch seconds (the system clock by default): ctx.now in scripts, and what checks call past, so answers repeat exactly.",
        valueName: "epoch"))
    var now: Int64?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.",
            completion: .list(Logger.Level.allCases.map(\.rawValue)))
    var logLevel = "info"

    /// ArgumentParser's entry point, after what must come before any thread starts.
    static func main() async {
        ProcessStart.boundMallocArenas()
        // The `help` that swift-argument-parser's man page and completions name for every command
        // answers as --help does (the thirty-ninth audit, F4: it was a usage error).
        let arguments = Array(CommandLine.arguments.dropFirst())
        // `help` alone: with more after it, the usage error any other stray word is (the
        // forty-first audit, F4).
        await main(arguments == ["help"] ? ["--help"] : arguments)
    }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard maxBodyBytes > 0 else { throw ValidationError("--max-body-bytes must be over 0") }
        guard maxConcurrentRequests > 0 else { throw ValidationError("--max-concurrent-requests must be over 0") }
        // Each named, as the other range errors are (the forty-first audit, F7).
        for (value, option) in [
            (requestTimeoutMilliseconds, "--request-timeout-ms"), (batchTimeoutMilliseconds, "--batch-timeout-ms"),
            (idleTimeoutMilliseconds, "--idle-timeout-ms"), (watchIntervalMilliseconds, "--watch-interval-ms"),
        ] where value <= 0 {
            throw ValidationError("\(option) must be over 0")
        }
        guard drainDelayMilliseconds >= 0 else { throw ValidationError("--drain-delay-ms must be 0 or more") }
        if let problem = now.flatMap(Translator.Options.fixedClockProblem) { throw ValidationError(problem) }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level: unknown level '\(logLevel)'") }
    }

    func run() async throws {
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        // The variable's folders first, as every pushmap command layers them: a container sets it once.
        configuration.scriptDirectories = TemplateScripts.environmentFolders + scriptDirectories
        configuration.watchScripts = watch
        configuration.watchIntervalMilliseconds = watchIntervalMilliseconds
        configuration.maxBodyBytes = maxBodyBytes
        configuration.maxConcurrentRequests = maxConcurrentRequests
        configuration.requestTimeoutMilliseconds = requestTimeoutMilliseconds
        configuration.batchTimeoutMilliseconds = batchTimeoutMilliseconds
        configuration.idleTimeoutMilliseconds = idleTimeoutMilliseconds
        configuration.drainDelayMilliseconds = drainDelayMilliseconds
        configuration.now = now
        if let tokenFile {
            do {
                let token = try FileSystem.readFile(tokenFile, limit: 4096)
                configuration.token = Self.trimmed(token)
            } catch {
                Self.fail("pushmap-server: \(error)")
            }
            if configuration.token?.isEmpty ?? true { Self.fail("pushmap-server: \(tokenFile): the token file is empty") }
        }
        let logger = Self.logger(level: Logger.Level(rawValue: logLevel) ?? .info)
        try await PushmapServer.run(configuration, logger: logger)
    }

    /// The token without surrounding whitespace (a file written by `echo` ends in a newline).
    static func trimmed(_ bytes: [UInt8]) -> [UInt8] {
        let space: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        guard let first = bytes.firstIndex(where: { !space($0) }), let last = bytes.lastIndex(where: { !space($0) }) else { return [] }
        return Array(bytes[first...last])
    }

    static func logger(level: Logger.Level) -> Logger {
        // Every line logged while a request runs names it, its scripts' print and warn too, which
        // go through the translator's logger, not the request's (on a batch's worker threads,
        // BatchAnswer and CampaignAnswer bind the request for each line).
        let requestID = Logger.MetadataProvider {
            let id = RequestScope.current.requestID
            return id == "-" ? [:] : ["request_id": .string(id)]
        }
        var logger = Logger(label: "pushmap-server", factory: { StreamLogHandler.standardError(label: $0, metadataProvider: requestID) })
        logger.logLevel = level
        return logger
    }

    /// One line on standard error, then exit 1: a server that cannot start says why and stops.
    static func fail(_ message: String) -> Never {
        var line = Array(message.utf8)
        line.append(0x0A)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        #if canImport(Glibc)
        Glibc.exit(1)
        #else
        Darwin.exit(1)
        #endif
    }
}

/// Builds the server from its configuration and runs it until SIGTERM or SIGINT.
enum PushmapServer {
    static func run(_ configuration: ServerConfiguration, logger: Logger) async throws {
        let metrics = ServerMetrics.bootstrap()
        let store: ScriptStore
        do {
            store = try ScriptStore(directories: configuration.scriptDirectories, now: configuration.now, logger: logger, metrics: metrics)
        } catch {
            PushmapServerCommand.fail("pushmap-server: the scripts could not be loaded: \(error)")
        }
        let readiness = Readiness()
        let api = PushmapAPI(store: store, configuration: configuration, metrics: metrics, readiness: readiness)
        let router: Router<ServerContext>
        do {
            router = try ServerRouter.make(api: api, configuration: configuration, metrics: metrics)
        } catch {
            PushmapServerCommand.fail("pushmap-server: the routes could not be registered: \(error)")
        }
        let reloader = ScriptReloader(
            store: store, watch: configuration.watchScripts, watchInterval: .milliseconds(configuration.watchIntervalMilliseconds))
        let app = Application(
            router: router,
            // A client that opens a connection and sends part of a request's head, or nothing, held
            // it for good (a second audit held 3,000): IdleTimeout closes it, Hummingbird's own
            // idle handling off (IdleTimeout says why).
            server: .http1(configuration: .init(
                additionalChannelHandlers: [UnreadableRequestAnswer(maxBodyBytes: configuration.maxBodyBytes), IdleTimeout(milliseconds: configuration.idleTimeoutMilliseconds)],
                idleTimeout: nil)),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "pushmap-server"),
            services: [reloader],
            onServerRunning: { channel in
                // Tests and scripts read the bound address here (the port may have been 0).
                let address = channel.localAddress.map { "\($0.ipAddress ?? configuration.host):\($0.port ?? configuration.port)" }
                let line = "pushmap-server: listening on http://\(address ?? "\(configuration.host):\(configuration.port)")\n"
                _ = Array(line.utf8).withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
                logger.info("listening", metadata: ["address": "\(address ?? "?")"])
            },
            logger: logger
        )
        let place = "\(configuration.host):\(configuration.port)"
        // The announcer after the application: a graceful stop reaches services last to first,
        // so /readyz turns 503 when the signal comes, not once the requests in flight are done.
        let announcer = StopAnnouncer(readiness: readiness, drainDelay: .milliseconds(configuration.drainDelayMilliseconds), logger: logger)
        let services = ServiceGroup(configuration: .init(services: [app, announcer], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await withTaskExecutorPreference(EventLoopTaskExecutor.shared) {
                try await services.run()
            }
        } catch let error as IOError {
            // NIO's own text names the system call ("bind(descriptor:ptr:bytes:): ..."): say it plainly.
            PushmapServerCommand.fail("pushmap-server: cannot listen on \(place): \(String(cString: strerror(error.errnoCode)))")
        } catch is SocketAddressError.UnknownHost {
            PushmapServerCommand.fail("pushmap-server: cannot listen on \(place): \(configuration.host) is not an address or a host name this machine resolves")
        }
        logger.info("stopped")
    }
}
