import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What a deployment relies on: binaries that need no Swift or Lua library, the OpenAPI document
/// held to the running server, and two replicas behind nginx losing nothing when one stops.
@Suite("pushmap-server deployment", .serialized)
struct DeploymentTests {
    /// scripts/test builds with scripts/build and sets this; a plain `swift test` build links the
    /// Swift libraries dynamically, as SwiftPM does by default.
    static let standaloneBuild = ProcessInfo.processInfo.environment["PUSHMAP_STANDALONE"] == "1"

    @Test("pushmap and pushmap-server need nothing beyond the C library, and run copied elsewhere", .enabled(if: standaloneBuild))
    func standaloneBinaries() throws {
        let scratch = try ServerPaths.scratch("standalone")
        defer { try? FileManager.default.removeItem(at: scratch) }
        for binary in [ServerPaths.cli, ServerPaths.server] {
            let copy = scratch.appendingPathComponent(binary.lastPathComponent)
            try FileManager.default.copyItem(at: binary, to: copy)
            let ldd = try runCommand("/usr/bin/ldd", [copy.path])
            let libraries = String(decoding: ldd.stdout, as: UTF8.self)
            for forbidden in ["libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime", "liblua", "not found"] {
                #expect(!libraries.contains(forbidden), "\(binary.lastPathComponent) links \(forbidden):\n\(libraries)")
            }
        }
        // With no library path at all, from a folder of its own.
        let environment = ["PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": ""]
        let seed = try Data(contentsOf: ServerPaths.root.appendingPathComponent("examples/seeds/basic-fcm.json"))
        let translated = try runCommand(scratch.appendingPathComponent("pushmap").path, ["translate", "--platform", "both", "-"], input: seed, environment: environment)
        #expect(translated.status == 0, "\(translated.stderr)")
        #expect(String(decoding: translated.stdout, as: UTF8.self).contains("\"fcm\""))
        let help = try runCommand(scratch.appendingPathComponent("pushmap-server").path, ["--help"], environment: environment)
        #expect(help.status == 0, "\(help.stderr)")
    }

    @Test("schemathesis finds the running server true to openapi.yaml")
    func schemathesis() throws {
        let tool = ServerPaths.root.appendingPathComponent(".venv-test/bin/schemathesis")
        try #require(FileManager.default.isExecutableFile(atPath: tool.path), "run scripts/setup --test to install schemathesis into .venv-test")
        let server = try ServerUnderTest()
        // Every check but positive_data_acceptance: an intent is valid by more than its JSON shape
        // (the template's fields, the payload checks), so a schema-valid object may well be a 422.
        // The hooks tell schemathesis how to send an NDJSON body.
        let hooks = ["PYTHONPATH": ServerPaths.root.appendingPathComponent("Tests/PushmapServerTests").path, "SCHEMATHESIS_HOOKS": "schemathesis_hooks"]
        let result = try runCommand(tool.path, [
            "run", "\(server.baseURL)/openapi.yaml", "--url", server.baseURL, "--checks", "all",
            "--exclude-checks", "positive_data_acceptance", "--max-examples", "25", "--request-timeout", "10", "--no-color",
            "--seed", "1", "--suppress-health-check", "all",
        ], environment: ProcessInfo.processInfo.environment.merging(hooks) { $1 })
        let report = String(decoding: result.stdout, as: UTF8.self)
        #expect(result.status == 0, "schemathesis:\n\(report)\n\(result.stderr)")
    }

    @Test("two replicas behind nginx: one is killed mid-run, nginx retries on the other, nothing is lost")
    func nginxFailover() throws {
        let nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let nginxPath = try #require(nginx, "run scripts/setup --test to install nginx")
        let scratch = try ServerPaths.scratch("nginx")
        let first = try ServerUnderTest(scratch: scratch)
        let second = try ServerUnderTest(scratch: scratch)
        let listenPort = try Self.freePort()
        let configuration = NginxConfiguration(prefix: scratch.path, listenPort: listenPort, upstreams: [first.port, second.port])
        let configurationFile = scratch.appendingPathComponent("nginx.conf")
        try configuration.text.write(to: configurationFile, atomically: true, encoding: .utf8)
        let proxy = try RunningProcess(
            URL(fileURLWithPath: nginxPath), ["-p", scratch.path, "-c", configurationFile.path, "-e", scratch.appendingPathComponent("error.log").path],
            scratch: scratch, label: "nginx")
        defer { proxy.stop() }
        let proxyURL = "http://127.0.0.1:\(listenPort)"
        try #require(try eventually(seconds: 10) { try Curl.get("\(proxyURL)/healthz").status == 200 }, "nginx did not start: \(proxy.stderr)")

        // 1,200 translations, four at a time, through one curl; the first replica is killed a
        // third of the way in. Bounded: each transfer has 10 s, the whole run 120 s.
        let total = 1200
        let seedFile = ServerPaths.root.appendingPathComponent("examples/seeds/basic-fcm.json").path
        var curlConfig = ""
        for index in 0..<total {
            curlConfig += "url = \"\(proxyURL)/v1/translate?platform=both&n=\(index)\"\noutput = \"/dev/null\"\n"
        }
        let configPath = scratch.appendingPathComponent("load.curl")
        try curlConfig.write(to: configPath, atomically: true, encoding: .utf8)
        let load = try RunningProcess(
            URL(fileURLWithPath: "/usr/bin/curl"),
            // The body option is global: every transfer posts the seed.
            ["-s", "--parallel", "--parallel-max", "4", "--max-time", "10", "-H", "Content-Type: application/json", "-H", "Expect:",
             "--data-binary", "@" + seedFile,
             "-w", "%{http_code}\n", "-K", configPath.path],
            scratch: scratch, label: "load")
        defer { load.stop() }
        // The replicas' access log lines say how far the run is (curl's own output is buffered).
        let served = { [first, second] in
            [first, second].map { $0.running.stderr.components(separatedBy: "path=/v1/translate").count - 1 }.reduce(0, +)
        }
        _ = eventually(seconds: 60) { served() >= total / 3 }
        first.running.signal(SIGKILL)
        #expect(load.wait(seconds: 120) != nil)
        let statuses = load.stdout.split(separator: "\n")
        let lost = statuses.filter { $0 != "200" }.count
        let log = (try? String(contentsOf: scratch.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
        // nginx writes both upstreams, "a, b", when it retried on the second.
        let retried = log.split(separator: "\n").filter { $0.contains("/v1/translate") && $0.contains(", ") }.count
        let histogram = Dictionary(grouping: statuses, by: { String($0) }).mapValues(\.count)
        let recordLine = "nginx failover: \(statuses.count) requests, \(lost) lost, \(retried) retried on the other replica (statuses \(histogram))\n"
        FileHandle.standardError.write(Data(recordLine.utf8))
        #expect(statuses.count == total)
        #expect(lost == 0, "\(recordLine)")
        // The kill came mid-run: the second replica served the rest.
        #expect(second.running.stderr.components(separatedBy: "path=/v1/translate").count - 1 > total / 3)
        #expect(try Curl.get("\(second.baseURL)/healthz").status == 200)
    }

    /// A free loopback port, from the kernel.
    static func freePort() throws -> Int {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw HarnessError(description: "socket failed") }
        defer { close(socketDescriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketDescriptor, $0, length) == 0 && getsockname(socketDescriptor, $0, &length) == 0 }
        }
        guard bound else { throw HarnessError(description: "bind failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// nginx as docs/service.md's "Scaling out" shows it, on loopback with a temporary prefix.
struct NginxConfiguration {
    var prefix: String
    var listenPort: Int
    var upstreams: [Int]

    var text: String {
        """
        worker_processes 1;
        daemon off;
        pid \(prefix)/nginx.pid;
        error_log \(prefix)/error.log warn;
        events { worker_connections 256; }
        http {
            client_body_temp_path \(prefix)/body;
            proxy_temp_path \(prefix)/proxy;
            fastcgi_temp_path \(prefix)/fastcgi;
            uwsgi_temp_path \(prefix)/uwsgi;
            scgi_temp_path \(prefix)/scgi;
            log_format upstreams '$request_uri $status "$upstream_addr" "$upstream_status"';
            access_log \(prefix)/access.log upstreams;
            upstream pushmap {
        \(upstreams.map { "        server 127.0.0.1:\($0) max_fails=1 fail_timeout=5s;" }.joined(separator: "\n"))
                keepalive 16;
            }
            server {
                listen 127.0.0.1:\(listenPort);
                client_max_body_size 1m;
                location / {
                    proxy_pass http://pushmap;
                    proxy_http_version 1.1;
                    proxy_set_header Connection "";
                    # A translation has no side effects: a POST that failed on one replica is
                    # safely sent to the other.
                    proxy_next_upstream error timeout non_idempotent;
                    proxy_next_upstream_tries 2;
                    proxy_connect_timeout 1s;
                    proxy_read_timeout 15s;
                }
            }
        }
        """
    }
}
