import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Reloads (SIGHUP, --watch, a broken one) and the graceful stop, on the real binary.
@Suite("pushmap-server lifecycle", .serialized)
struct ServerLifecycleTests {
    static func templateNames(_ server: ServerUnderTest) throws -> [String] {
        (try Curl.get("\(server.baseURL)/v1/templates").json as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    static func scriptsFolder() throws -> (scratch: URL, scripts: URL) {
        let scratch = try ServerPaths.scratch("reload")
        let scripts = scratch.appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        try ScriptSources.template("greeting", title: "hello").write(to: scripts.appendingPathComponent("greeting.lua"), atomically: true, encoding: .utf8)
        return (scratch, scripts)
    }

    @Test("SIGHUP reloads the scripts; a broken reload keeps them, says why and shows in /metrics")
    func reloadBySignal() throws {
        let (scratch, scripts) = try Self.scriptsFolder()
        let server = try ServerUnderTest(["--scripts", scripts.path], scratch: scratch)
        #expect(try Self.templateNames(server).contains("greeting"))
        let intent = Data(#"{"template":"greeting","body":"b"}"#.utf8)
        #expect(try Curl.post("\(server.baseURL)/v1/translate?platform=apns", intent).text.contains("hello"))

        try ScriptSources.template("greeting", title: "bonjour").write(to: scripts.appendingPathComponent("greeting.lua"), atomically: true, encoding: .utf8)
        try ScriptSources.template("farewell", title: "bye").write(to: scripts.appendingPathComponent("farewell.lua"), atomically: true, encoding: .utf8)
        server.running.signal(SIGHUP)
        #expect(try eventually(seconds: 10) { try Self.templateNames(server).contains("farewell") })
        #expect(try Curl.post("\(server.baseURL)/v1/translate?platform=apns", intent).text.contains("bonjour"))
        #expect(try Curl.get("\(server.baseURL)/metrics").text.contains(#"pushmap_script_reloads_total{result="ok"} 1"#))
        #expect(try Curl.get("\(server.baseURL)/metrics").text.contains("pushmap_custom_scripts_in_force 2"))

        try ScriptSources.broken.write(to: scripts.appendingPathComponent("greeting.lua"), atomically: true, encoding: .utf8)
        server.running.signal(SIGHUP)
        #expect(try eventually(seconds: 10) { try Curl.get("\(server.baseURL)/metrics").text.contains(#"pushmap_script_reloads_total{result="failed"} 1"#) })
        let metrics = try Curl.get("\(server.baseURL)/metrics").text
        #expect(metrics.contains("pushmap_script_reload_failing 1"))
        #expect(server.running.stderr.contains("script reload failed"))
        // The scripts before the broken reload still answer.
        #expect(try Curl.post("\(server.baseURL)/v1/translate?platform=apns", intent).text.contains("bonjour"))
        #expect(try Self.templateNames(server).contains("farewell"))
    }

    @Test("--watch reloads when a script file changes, and keeps the old scripts when the new ones break")
    func reloadByWatch() throws {
        let (scratch, scripts) = try Self.scriptsFolder()
        let server = try ServerUnderTest(["--scripts", scripts.path, "--watch", "--watch-interval-ms", "100"], scratch: scratch)
        #expect(try !Self.templateNames(server).contains("farewell"))
        try ScriptSources.template("farewell", title: "bye").write(to: scripts.appendingPathComponent("farewell.lua"), atomically: true, encoding: .utf8)
        #expect(try eventually(seconds: 10) { try Self.templateNames(server).contains("farewell") })

        try ScriptSources.broken.write(to: scripts.appendingPathComponent("farewell.lua"), atomically: true, encoding: .utf8)
        #expect(try eventually(seconds: 10) { try Curl.get("\(server.baseURL)/metrics").text.contains("pushmap_script_reload_failing 1") })
        #expect(try Self.templateNames(server).contains("farewell"))
        // Reported once, not at every poll.
        usleep(500_000)
        #expect(try Curl.get("\(server.baseURL)/metrics").text.contains(#"pushmap_script_reloads_total{result="failed"} 1"#))

        try ScriptSources.template("farewell", title: "ciao").write(to: scripts.appendingPathComponent("farewell.lua"), atomically: true, encoding: .utf8)
        #expect(try eventually(seconds: 10) { try Curl.get("\(server.baseURL)/metrics").text.contains("pushmap_script_reload_failing 0") })
        let intent = Data(#"{"template":"farewell","body":"b"}"#.utf8)
        #expect(try Curl.post("\(server.baseURL)/v1/translate?platform=fcm", intent).text.contains("ciao"))
    }

    /// Source: the twenty-first audit (N5): a folder taken away was taken for one caught
    /// mid-change at every poll, so nothing was logged or counted, and once it was back the
    /// failing gauge of an earlier failure stayed up.
    @Test("--watch reports a script folder that goes away, once, and clears it when the folder is back")
    func watchedFolderGone() throws {
        let (scratch, scripts) = try Self.scriptsFolder()
        let server = try ServerUnderTest(["--scripts", scripts.path, "--watch", "--watch-interval-ms", "100"], scratch: scratch)
        let moved = scratch.appendingPathComponent("moved")
        try FileManager.default.moveItem(at: scripts, to: moved)
        #expect(try eventually(seconds: 10) { try Curl.get("\(server.baseURL)/metrics").text.contains("pushmap_script_reload_failing 1") })
        usleep(500_000)
        #expect(try Curl.get("\(server.baseURL)/metrics").text.contains(#"pushmap_script_reloads_total{result="failed"} 1"#))
        #expect(server.running.stderr.contains("no such directory"))
        // The scripts in force stay.
        #expect(try Self.templateNames(server).contains("greeting"))
        try FileManager.default.moveItem(at: moved, to: scripts)
        #expect(try eventually(seconds: 10) { try Curl.get("\(server.baseURL)/metrics").text.contains("pushmap_script_reload_failing 0") })
        // The twenty-second audit (N6): a folder whose script did not compile, taken away and
        // put back unchanged, cleared the gauge and was said to be in force.
        try "return {{{ not lua\n".write(to: scripts.appendingPathComponent("greeting.lua"), atomically: true, encoding: .utf8)
        #expect(try eventually(seconds: 10) { try Curl.get("\(server.baseURL)/metrics").text.contains("pushmap_script_reload_failing 1") })
        try FileManager.default.moveItem(at: scripts, to: moved)
        #expect(eventually(seconds: 10) { server.running.stderr.components(separatedBy: "no such directory").count > 2 })
        try FileManager.default.moveItem(at: moved, to: scripts)
        #expect(eventually(seconds: 10) { server.running.stderr.contains("still fail to load") })
        #expect(try Curl.get("\(server.baseURL)/metrics").text.contains("pushmap_script_reload_failing 1"))
        #expect(try Self.templateNames(server).contains("greeting"))
    }

    @Test("PUSHMAP_SCRIPTS: its folders are served beneath --scripts, watched and reloaded with them, and count as custom")
    func scriptsFromEnvironment() throws {
        let (scratch, scripts) = try Self.scriptsFolder()
        let second = scratch.appendingPathComponent("second")
        try FileManager.default.createDirectory(at: second, withIntermediateDirectories: true)
        try ScriptSources.template("parting", title: "bye").write(to: second.appendingPathComponent("parting.lua"), atomically: true, encoding: .utf8)
        let environment = ["PUSHMAP_SCRIPTS": scripts.path + ":" + second.path]

        // Given only through the variable, both folders are served, as the command line serves them.
        let server = try ServerUnderTest(["--watch", "--watch-interval-ms", "100"], scratch: scratch, environment: environment)
        #expect(try Self.templateNames(server).contains("greeting") && Self.templateNames(server).contains("parting"))
        let intent = Data(#"{"template":"greeting","body":"b"}"#.utf8)
        let served = try Curl.post("\(server.baseURL)/v1/translate?platform=apns", intent)
        #expect(served.status == 200, "\(served.text)")
        #expect(served.text.contains("hello"))
        let cli = try runCommand(
            ServerPaths.cli.path, ["translate", "--compact", "--platform", "apns", "-"], input: intent,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
        #expect(cli.status == 0, "\(cli.stderr)")
        #expect((served.object["apns"] as? NSObject)?.isEqual(try JSONSerialization.jsonObject(with: cli.stdout)) == true)
        #expect(try Curl.get("\(server.baseURL)/metrics").text.contains("pushmap_custom_scripts_in_force 2"))

        // A file added to a folder of the variable is picked up by --watch.
        try ScriptSources.template("welcome", title: "hi").write(to: second.appendingPathComponent("welcome.lua"), atomically: true, encoding: .utf8)
        #expect(try eventually(seconds: 10) { try Self.templateNames(server).contains("welcome") })
        #expect(try Curl.get("\(server.baseURL)/metrics").text.contains("pushmap_custom_scripts_in_force 3"))

        // --scripts layers above the variable's folders, and SIGHUP reloads those too.
        let over = scratch.appendingPathComponent("over")
        try FileManager.default.createDirectory(at: over, withIntermediateDirectories: true)
        try ScriptSources.template("greeting", title: "over").write(to: over.appendingPathComponent("greeting.lua"), atomically: true, encoding: .utf8)
        let layered = try ServerUnderTest(["--scripts", over.path], scratch: scratch, environment: environment)
        #expect(try Curl.post("\(layered.baseURL)/v1/translate?platform=apns", intent).text.contains("over"))
        try ScriptSources.template("parting", title: "ciao").write(to: second.appendingPathComponent("parting.lua"), atomically: true, encoding: .utf8)
        layered.running.signal(SIGHUP)
        let parting = Data(#"{"template":"parting","body":"b"}"#.utf8)
        #expect(try eventually(seconds: 10) { try Curl.post("\(layered.baseURL)/v1/translate?platform=fcm", parting).text.contains("ciao") })
        #expect(try Curl.get("\(layered.baseURL)/metrics").text.contains(#"pushmap_script_reloads_total{result="ok"} 1"#))

        // The help says so.
        let help = try runCommand(ServerPaths.server.path, ["--help"])
        #expect(String(decoding: help.stdout, as: UTF8.self).contains("PUSHMAP_SCRIPTS"))
    }

    /// Source: the thirty-ninth audit, F4 and F5: the man page and the completions named a `help`
    /// that was a usage error, and the completions offered no folder, file or log level.
    @Test("`pushmap-server help` is its help, as the man page says; the completions complete folders, files and log levels")
    func helpAndCompletions() throws {
        let help = try runCommand(ServerPaths.server.path, ["help"])
        #expect(help.status == 0 && String(decoding: help.stdout, as: UTF8.self).contains("USAGE: pushmap-server"), "\(help.stderr)")
        let bash = String(decoding: try runCommand(ServerPaths.server.path, ["--generate-completion-script", "bash"]).stdout, as: UTF8.self)
        #expect(bash.contains("'--scripts')\n        __pushmap-server_add_completions -d"), "\(bash)")
        #expect(bash.contains("'trace'$'\\n''debug'"), "\(bash)")
    }

    @Test("a port in use or a host that does not resolve: one line naming the address, exit 1")
    func cannotListen() throws {
        let server = try ServerUnderTest()
        for (arguments, reason) in [
            (["--port", "\(server.port)"], "127.0.0.1:\(server.port): Address already in use"),
            (["--host", "999.1.1.1", "--port", "0"], "999.1.1.1:0: 999.1.1.1 is not an address or a host name this machine resolves"),
        ] {
            let second = try RunningProcess(ServerPaths.server, arguments, scratch: server.scratch, label: "second")
            defer { second.stop() }
            #expect(second.wait(seconds: 20) == 1)
            #expect(second.stderr == "pushmap-server: cannot listen on \(reason)\n", "\(second.stderr)")
        }
    }

    /// Source: the twenty-fifth audit, F17: "-1" read as a missing value ("Missing value for
    /// '--port <port>'"), where 99999 was refused with its range.
    @Test("a negative number for a numeric option is refused with its range, exit 64")
    func negativeNumbers() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("pushmap-negative-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        for (option, reason) in [
            ("--port", "--port must be between 0 and 65535"), ("--request-timeout-ms", "--request-timeout-ms must be over 0"),
            // The forty-third audit: --now is 1970 to the end of 9999, as the command line's.
            ("--now", "--now must be an epoch time from 0 to 253402300799 (the end of 9999), not -1"),
        ] {
            let process = try RunningProcess(ServerPaths.server, [option, "-1"], scratch: scratch, label: "negative")
            defer { process.stop() }
            #expect(process.wait(seconds: 20) == 64)
            #expect(process.stderr.hasPrefix("Error: \(reason)\n"), "\(process.stderr)")
        }
    }

    /// Source: the twenty-first audit (N1, what was left of the fourth's F1): a team's script that
    /// runs for seconds ran on the request's event loop, and /healthz waited behind it.
    @Test("while teams' scripts run for seconds, two requests per core, /healthz still answers")
    func slowScriptsLeaveTheLoopsFree() throws {
        let (scratch, scripts) = try Self.scriptsFolder()
        // Runs until the script time limit: each find is C work the instruction count hardly sees.
        let slow = "return { name = 'slow', api = 1, platforms = {'fcm'}, fcm = function(intent, ctx)\n  local s = ('a'):rep(9000) while true do s:find('.-b') end\nend }\n"
        try slow.write(to: scripts.appendingPathComponent("slow.lua"), atomically: true, encoding: .utf8)
        let server = try ServerUnderTest(["--scripts", scripts.path], scratch: scratch)
        let clients = try (0..<4).map { index in
            try RunningProcess(
                URL(fileURLWithPath: "/usr/bin/curl"),
                ["-s", "--max-time", "30", "-X", "POST", "--data", #"{"template": "slow"}"#, "\(server.baseURL)/v1/translate?platform=fcm"],
                scratch: server.scratch, label: "slow-\(index)")
        }
        defer { clients.forEach { $0.stop() } }
        usleep(500_000)
        let health = try Curl.get("\(server.baseURL)/healthz")
        // Answered while the four translations still run, not after them.
        #expect(health.status == 200, "\(health.text)")
        #expect(clients.allSatisfy { $0.process.isRunning })
    }

    @Test("SIGTERM: the request in flight finishes, new ones are refused, the exit status is 0")
    func gracefulStop() throws {
        let server = try ServerUnderTest()
        // A batch sent at 20 KB/s takes about two seconds, so SIGTERM arrives in the middle of it.
        let seed = String(decoding: ServerRouteTests.seed, as: UTF8.self).replacingOccurrences(of: "\n", with: "")
        let lines = 40
        let input = server.scratch.appendingPathComponent("batch.ndjson")
        try Data(String(repeating: seed + "\n", count: lines).utf8).write(to: input)
        let client = try RunningProcess(
            URL(fileURLWithPath: "/usr/bin/curl"),
            ["-s", "-H", "Expect:", "--max-time", "20", "--limit-rate", "20000", "-H", "Content-Type: application/x-ndjson", "--data-binary", "@" + input.path,
             "\(server.baseURL)/v1/batch?platform=fcm"],
            scratch: server.scratch, label: "client")
        defer { client.stop() }
        usleep(700_000)
        server.running.signal(SIGTERM)
        #expect(server.running.wait(seconds: 20) == 0)
        #expect(client.wait(seconds: 20) == 0)
        let answered = client.stdout.split(separator: "\n")
        #expect(answered.count == lines)
        #expect(answered.allSatisfy { $0.contains(#""fcm":"#) })
        // Gone: the port no longer answers.
        #expect(try Curl.get("\(server.baseURL)/healthz").status == 0)
    }

    /// Source: the seventh audit: the documented 503 from /readyz could not be seen, as the
    /// listener closed at once and the flag turned only once the requests in flight were done.
    @Test("with --drain-delay-ms, SIGTERM turns /readyz to 503 at once while requests are still taken; then the server stops, status 0")
    func drainDelay() throws {
        let server = try ServerUnderTest(["--drain-delay-ms", "3000"])
        #expect(try Curl.get("\(server.baseURL)/readyz").status == 200)
        server.running.signal(SIGTERM)
        usleep(500_000)
        let ready = try Curl.get("\(server.baseURL)/readyz")
        #expect(ready.status == 503, "\(ready.status)")
        #expect(try Curl.post("\(server.baseURL)/v1/translate?platform=fcm", ServerRouteTests.seed).status == 200)
        #expect(server.running.wait(seconds: 20) == 0)
        #expect(server.running.stderr.contains("stopping: /readyz answers 503"), "\(server.running.stderr.suffix(400))")
        #expect(try Curl.get("\(server.baseURL)/healthz").status == 0)
    }
}
