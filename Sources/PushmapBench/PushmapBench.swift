import Logging
import LuaHost
@_spi(Tools) import Pushmap
import PushmapJSON

/// `pushmap-bench [ITERATIONS]`: the per-call figures of scripts/bench, on one core.
@main
struct PushmapBench {
    /// A 1.2 KB basic intent with 25 payload keys, like the one the targets were set with.
    static let intent = #"""
    {"template":"basic","version":"1","title":"game request","body":"shall we play a game?",
     "expandedBody":"Bob wants to play a game of chess with you. Click 'accept' to start!",
     "image":"https://pictureofchess.com/board.png","sound":"bingBong","badge":1,
     "link":{"uri":"https://chess.com/games","type":"WEBURL"},
     "buttons":[{"label":"accept","uri":"https://chess.com/games/552","type":"DEEPLINK"},{"label":"decline","type":"OPENAPP"}],
     "colors":{"title":"AABBCC","body":"00EE00","background":"000000","icon":"123456"},
     "remindLater":{"label":"Remind me","at":1893456000},
     "android":{"channel":"a3b80ef","smallIcon":"ic_knight","largeIcon":"https://pictureofchess.com/logo.png",
       "priority":"low","tag":"24","sticky":true,"ticker":"Play a game?","collapseKey":"new message"},
     "target":{"token":"bk3RNwTe3H0:CI2k_HHwgIpoDKCIZvvDMExUdFQ3P1vNpZ_3PYrb3ahPkXcHXQ0bU4lJBTzIQw4gnkvCZ6K6cRNBgtxQRfyp1MEuN2gGFIPmpfVuLMXuKPOy28PTUmgm61pY0fpTIY7ls18yWp7mWRYbvELXE8NcIHDqmCFc0gSFrRPqw"},
     "data":{"game_id":"552","opponent":"bob","campaign":"winter-chess-2026","rating":1480,"ranked":true}}
    """#

    static func main() throws {
        let iterations = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 20_000
        // A second argument runs only the figures whose name contains it, for a profiler.
        only = CommandLine.arguments.dropFirst(2).first
        let logger = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
        let translator = try Translator(options: Translator.Options(idleStates: 1), logger: logger)
        let bytes = Array(intent.utf8)
        let both: [Platform] = [.fcm, .apns]
        let writer = JSONWriter(style: .compact)
        let value = try JSONParser.parse(bytes)
        let sample = try translator.translate(bytes, platforms: both)
        let fcmKeys = sample.payloads[.fcm]?["message"]?["data"]?.objectValue?.count ?? 0

        print("intent: \(bytes.count) bytes; FCM data keys: \(fcmKeys); FCM message \(sample.bytes(for: .fcm, style: .compact).count) bytes")
        report("parse intent (hand-written parser)", iterations) { _ = try? JSONParser.parse(bytes) }
        report("write FCM message (sorted, compact)", iterations) { _ = writer.write(sample.payloads[.fcm] ?? .null) }
        report("translate, one platform (fcm), parse to bytes", iterations) {
            if let t = try? translator.translate(bytes, platforms: [.fcm]) { _ = t.bytes(for: .fcm, style: .compact) }
        }
        let lua = report("translate, both platforms, parse to bytes", iterations) {
            if let t = try? translator.translate(bytes, platforms: both) {
                _ = t.bytes(for: .fcm, style: .compact)
                _ = t.bytes(for: .apns, style: .compact)
            }
        }
        let checker = PayloadChecker(now: 1_704_067_200, intentPaths: true)
        let reference = report("reference: hand-written Swift basic mapping, both platforms, with checks", iterations) {
            if let intent = try? JSONParser.parse(bytes) {
                // As the translator does: write each payload, then check it knowing its length.
                let fcm = ReferenceMapping.fcm(intent)
                let apns = ReferenceMapping.apns(intent)
                let fcmText = writer.write(fcm)
                let apnsText = writer.write(apns)
                _ = checker.check(fcm, platform: .fcm, compactSize: fcmText.count)
                _ = checker.check(apns, platform: .apns, compactSize: apnsText.count)
            }
        }
        if only == nil { print("ratio lua/reference: \(format(lua / reference))x") }
        let fcmSize = sample.bytes(for: .fcm, style: .compact).count
        let apnsSize = sample.bytes(for: .apns, style: .compact).count
        // As a translation runs them: on the payloads read in place, as the Lua host lends them.
        let fcmItems = JSONItemStorage(sample.payloads[.fcm] ?? .null)
        let apnsItems = JSONItemStorage(sample.payloads[.apns] ?? .null)
        report("checks alone, both payloads", iterations) {
            fcmItems.withRoot { _ = checker.check($0, platform: .fcm, compactSize: fcmSize) }
            apnsItems.withRoot { _ = checker.check($0, platform: .apns, compactSize: apnsSize) }
        }
        _ = value
        // What a campaign adds per recipient to a translation: its personalised strings, each
        // compiled once (LiquidTemplate), rendered with the recipient's vars.
        let personalised = try [
            "Hi {{ name | default: 'there' }}!",
            "{{ order.items[0].name | truncate: 24 }} ships {{ order.when | date: '%b %e' }}",
            "{% if vip %}VIP: {% endif %}{{ order.items.size }} items",
        ].map { try LiquidTemplate($0) }
        let recipient = try JSONParser.parse(Array(#"{"name":"Ada","vip":true,"order":{"when":"2026-11-26T10:00:00Z","items":[{"name":"The Art of Computer Programming"}]}}"#.utf8))
        report("liquid: three personalised strings rendered for one recipient", iterations) {
            for template in personalised { _ = template.render(recipient, lenient: false, now: 1_795_687_200) }
        }
        // The Lua host alone: a 25-field table in, a mapping over it, a 25-field table out.
        let state = try LuaState(logger: logger)
        let mapping = try state.load("""
            local t = ...
            return { a1 = t.f1, a2 = t.f2, a3 = t.f3, a4 = t.f4, a5 = t.f5, a6 = t.f6, a7 = t.f7, a8 = t.f8,
              a9 = t.f9, a10 = t.f10, a11 = t.f11, a12 = t.f12, a13 = t.f13, a14 = t.f14, a15 = t.f15,
              a16 = t.f16, a17 = t.f17, a18 = t.f18, a19 = t.f19, a20 = t.f20, a21 = t.f21, a22 = t.f22,
              a23 = t.f23, a24 = t.f24, a25 = t.f25 }
            """, name: "bench.lua")
        let fields = JSONValue.object(JSONObject((1...25).map { ("f\($0)", JSONValue.string("value number \($0)")) }))
        report("lua host: 25-field table in, mapping call, 25-field table out", iterations) {
            _ = try? state.call(mapping, [.value(fields)])
        }
        let empty = try state.load("return 1", name: "empty.lua")
        report("lua host: empty call", iterations) { _ = try? state.call(empty) }
        print("memory of one Lua state with the built-in scripts, after translating: \(translator.stateMemory()) bytes (Lua's own and freed blocks kept for reuse)")
        if only == nil || "hostile".contains(only ?? "") { try hostile(logger: logger) }
    }

    /// How long a hostile script takes to end in its error, and that the next translation works.
    static func hostile(logger: Logger) throws {
        let cases = [
            ("loops", "while true do end"),
            ("loops inside pcall", "while true do pcall(function() while true do end end) end"),
            ("allocates without end", "local t = {} local i = 0 while true do i = i + 1 t[i] = ('x'):rep(1000) .. i end"),
            ("grows a table", "local t = {} for i = 1, 1e9 do t[i] = i end"),
            ("doubles a string", "local s = 'x' while true do s = s .. s end"),
            ("pattern bomb", "return ('a'):rep(60000):find('a*a*a*a*a*b')"),
        ]
        var scripts = TemplateScripts.builtin
        for (index, (_, body)) in cases.enumerated() {
            scripts.add(name: "evil\(index)", source: "return { name = 'evil\(index)', api = 1, platforms = {'fcm'}, fcm = function(intent, ctx)\n\(body)\nend }", layer: "bench")
        }
        let translator = try Translator(scripts: scripts, options: Translator.Options(idleStates: 1), logger: logger)
        let clock = ContinuousClock()
        for (index, (name, _)) in cases.enumerated() {
            var worst = Duration.zero
            var kind = ""
            for _ in 0..<5 {
                let started = clock.now
                do {
                    _ = try translator.translate(Array(#"{"template": "evil\#(index)"}"#.utf8), platforms: [.fcm])
                    kind = "no error?"
                } catch {
                    kind = error.scriptError.map { "\($0.kind)" } ?? "\(error.kind)"
                }
                worst = max(worst, clock.now - started)
            }
            let next = (try? translator.translate(Array(#"{"title": "t", "body": "b"}"#.utf8), platforms: [.fcm])) != nil
            let ms = Double(worst.components.seconds) * 1000 + Double(worst.components.attoseconds) / 1e15
            print("hostile script, \(name): \(kind) after at most \(format(ms)) ms (5 runs); next translation \(next ? "ok" : "FAILED")")
        }
    }

    /// Runs `body` in samples of 50 and prints the median and 90th percentile per call, in µs.
    nonisolated(unsafe) static var only: String?

    @discardableResult
    static func report(_ name: String, _ iterations: Int, _ body: () -> Void) -> Double {
        if let only, !name.contains(only) { return 1 }
        let clock = ContinuousClock()
        for _ in 0..<min(2000, iterations / 10) { body() }  // warm up
        let batch = 50
        var samples: [Double] = []
        for _ in 0..<max(1, iterations / batch) {
            let started = clock.now
            for _ in 0..<batch { body() }
            let elapsed = clock.now - started
            samples.append(Double(elapsed.components.attoseconds) / 1e12 / Double(batch) + Double(elapsed.components.seconds) * 1e6 / Double(batch))
        }
        samples.sort()
        let median = samples[samples.count / 2]
        let p90 = samples[samples.count * 9 / 10]
        print("\(name): median \(format(median)) µs, p90 \(format(p90)) µs")
        return median
    }

    static func format(_ value: Double) -> String {
        let scaled = (value * 100).rounded() / 100
        return String(scaled)
    }
}
