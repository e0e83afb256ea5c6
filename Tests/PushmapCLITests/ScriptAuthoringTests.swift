import Foundation
import Testing

/// What a team writing its own mappings meets through the binary: a bad value blamed on the line
/// that wrote it, a fixed clock, fixtures that fail for every reason they should, the contract's
/// required and shared fields, and the schema and editor files made from the scripts.
@Suite("Script authoring through the command line")
struct ScriptAuthoringTests {
    /// A fresh folder holding `files` (path: contents); removed by the caller.
    static func folder(_ files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushmap-authoring-\(UUID().uuidString)")
        for (path, contents) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// `translate --platform fcm` of `intent` through a team template `t` whose fcm mapping is
    /// `body` (the lines after `function(intent, ctx)`, the first of them line 2), with the folder's
    /// path, which the messages name.
    static func translateFCM(_ body: String, intent: String = #"{"template": "t"}"#) throws -> (folder: String, result: CommandRunner.Result) {
        let folder = try Self.folder(["t.lua": "return { name = \"t\", api = 1, platforms = { \"fcm\" }, fcm = function(intent, ctx)\n\(body)\nend }\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        return (folder.path, try CommandRunner.run(["translate", "--platform", "fcm", "--scripts", folder.path, "-"], input: Data(intent.utf8)))
    }

    static let etaScript = """
        local map = pushmap.map

        return {
          name = "eta",
          api = 1,
          platforms = { "fcm", "apns" },
          fields = { eta = "integer" },
          fcm = function(intent, ctx)
            local payload = map("basic", "fcm", intent, ctx)
            local data = payload.message.data
            data.eta = intent.eta
            return payload
          end,
          apns = function(intent, ctx)
            local payload = map("basic", "apns", intent, ctx)
            payload.aps.alert = 5
            return payload
          end,
        }

        """

    /// Source: the eighth audit: `base = "basik"` loaded, and its fields were then warned of as
    /// another template's while the payload carried them.
    @Test("a base naming no template is a contract error with its did-you-mean")
    func misspeltBase() throws {
        let folder = try Self.folder(["t.lua": #"return { name = "t", api = 1, base = "basik", platforms = { "fcm" }, fcm = function(intent, ctx) return { message = { data = { a = "b" } } } end }"# + "\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandRunner.run(["templates", "--scripts", folder.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains(#"t.lua:1: template contract: 'base': no template is named "basik" (did you mean basic?) [contract]"#), "\(result.stderr)")
    }

    /// Source: the eighth audit and commands.md ("an error about a key the payload itself lacks
    /// ... names your template's script"): a mapping returning an array, or a table with no
    /// `message`, was the intent's error, exit 1, though only `{}` itself was named.
    @Test("a mapping returning the wrong shape (an array, no message) is its script's failure, exit 2")
    func wrongShape() throws {
        for body in [#"return { { message = { data = { a = "b" } } } }"#, #"return { data = { a = "b" }, token = "t" }"#] {
            let (folder, result) = try Self.translateFCM(body)
            #expect(result.status == 2, "\(body): \(result.stderr)")
            #expect(result.stderr.contains("[fcm-message-object, fcm, written by \(folder)/t.lua]"), "\(result.stderr)")
        }
    }

    /// Source: the eighth audit (its findings 5 and 14, with script-contract.md: errors name "the
    /// script's file and line"): an API function given what it cannot take named no line
    /// (`pushmap.map` of no template), or the prelude's line (`customdata` with no table to fill),
    /// or a function the script never called (`pushmap.reserved`); `pushmap.action` of a string
    /// returned the fallback with no word; `error({...})` named no line.
    @Test("an API function given what it cannot take is an error at the script line that called it; error() of a table too")
    func apiMisuseNamesTheLine() throws {
        let cases: [(call: String, says: String)] = [
            (#"local p = pushmap.map("basci", "fcm", intent, ctx)"#, #"t.lua:3: pushmap.map: no template named "basci"; the templates are basic, carousel, cat, icon, input, plain, rate, t, timer, zb [runtime]"#),
            (#"local p = pushmap.builtin("t", "fcm", intent, ctx)"#, #"t.lua:3: pushmap.builtin: no template named "t"; the templates are basic, carousel, cat, icon, input, plain, rate, timer, zb [runtime]"#),
            (#"local p = pushmap.builtin("basic", "web", intent, ctx)"#, #"t.lua:3: pushmap.builtin: the platform must be "fcm" or "apns", got "web""#),
            // The nineteenth audit: no intent named the built-in script's line, not the caller's.
            (#"local p = pushmap.builtin("basic", "fcm", nil, ctx)"#, #"t.lua:3: pushmap.builtin: pass the intent (a table) as the 3rd argument, got nil [runtime]"#),
            // The twenty-second audit (N4): text read nothing and blamed the intent's title and
            // body; a number or true blamed the built-in script's line.
            (#"local p = pushmap.builtin("basic", "fcm", "x", ctx)"#, #"t.lua:3: pushmap.builtin: pass the intent (a table) as the 3rd argument, got "x" [runtime]"#),
            (#"local p = pushmap.map("basic", "fcm", 5, ctx)"#, #"t.lua:3: pushmap.map: pass the intent (a table) as the 3rd argument, got 5 [runtime]"#),
            (#"local p = pushmap.builtin("basic", "fcm", true, ctx)"#, #"t.lua:3: pushmap.builtin: pass the intent (a table) as the 3rd argument, got true [runtime]"#),
            (#"pushmap.customdata(intent.data, nil, "fcm")"#, "t.lua:3: attempt to index a nil value (local 'into') (in customdata, pushmap/prelude.lua:"),
            (#"pushmap.customdata(intent.data, {}, "android")"#, #"t.lua:3: pushmap.reserved: the platform must be "fcm" or "apns", got "android" (in customdata, pushmap/prelude.lua:"#),
            (#"local kind = pushmap.action("https://example.com/sale", "OPENAPP")"#, #"t.lua:3: pushmap.action: the action must be a table with type and uri (a link, a button), got "https://example.com/sale""#),
            ("error({ code = 1 })", #"t.lua:3: the error raised is a table, not a message: raise a string, error("...")"#),
            // A tail call leaves no frame of the script's: its file, as before.
            (#"do return pushmap.map("basci", "fcm", intent, ctx) end"#, #"t.lua: pushmap.map: no template named "basci""#),
        ]
        for (call, says) in cases {
            let (folder, result) = try Self.translateFCM(
                "  local payload = { message = { data = { a = \"b\" } } }\n  \(call)\n  return payload", intent: #"{"template": "t", "data": {"k": "v"}}"#)
            #expect(result.status == 2, "\(call): \(result.stderr)")
            #expect(result.stderr.contains("script error: \(folder)/\(says)"), "\(call): \(result.stderr)")
        }
    }

    /// Source: the forty-fourth audit (scripts F5 and F6) with lua-api.md ("the line of your script
    /// that called it") and the Lua manual's `error` levels and `load`: `error(m, 0)` and an error
    /// at level 2 in the mapping named the file alone (the second with pushmap's prelude after),
    /// and an error in a chunk the script loaded named only `[string "chunk"]`.
    @Test("error(m, 0), error(m, 2) and an error in a loaded chunk name the script's line")
    func errorLevelsAndLoadedChunksNameTheLine() throws {
        let cases: [(call: String, says: String)] = [
            (#"error("plain words", 0)"#, "t.lua:3: plain words [runtime]"),
            (#"error("one up", 2)"#, "t.lua:3: one up [runtime]"),
            (#"local function check() error("from a helper", 2) end check()"#, "t.lua:3: from a helper [runtime]"),
            (#"load("return os.time()", "chunk", "t")()"#, #"t.lua:3: os is not available in pushmap's sandbox"#),
            (#"load("error('boom')", "chunk", "t")()"#, #"t.lua:3: boom (in [string "chunk"]:1) [runtime]"#),
            (#"load("error('quiet', 0)", "chunk", "t")()"#, "t.lua:3: quiet [runtime]"),
            (#"local f = load("local x = nil; return x.y", "=mine") f()"#, "t.lua:3: attempt to index a nil value (local 'x') (in f, mine:1) [runtime]"),
        ]
        for (call, says) in cases {
            let (folder, result) = try Self.translateFCM(
                "  local payload = { message = { data = { a = \"b\" } } }\n  \(call)\n  return payload", intent: #"{"template": "t", "data": {"k": "v"}}"#)
            #expect(result.status == 2, "\(call): \(result.stderr)")
            #expect(result.stderr.contains("script error: \(folder)/\(says)"), "\(call): \(result.stderr)")
        }
    }

    /// Source: the eighth audit (its finding 5) and script-contract.md: "puts a value in the payload
    /// that JSON cannot hold (a function, a cycle, a table mixing list and named keys) fails the
    /// translation with the script's file and line"; the file alone was named. NaN was written
    /// "-nan", and blamed on the line after the one that wrote it.
    /// Source: the forty-sixth audit (scripts F1) against lua-api.md's pushmap.rules (its
    /// `refuses` a list, `owners` and `ignores` maps): written into a payload or by pushmap.json,
    /// its read-only views came out `{}`, lists as empty objects, with exit 0.
    @Test("pushmap.rules' read-only tables are written as the lists and maps they show")
    func rulesWrittenAsShown() throws {
        let (_, result) = try Self.translateFCM("""
            local r = pushmap.rules["carousel"]
            return { message = { data = { refuses = pushmap.json(r.refuses), ignores = pushmap.json(r.ignores) }, fcm_options = { analytics_label = r.owners.timer } } }
            """)
        #expect(result.status == 0, "\(result.stderr)")
        let data = (CommandRunner.json(result.stdout) as? [String: Any]).flatMap { ($0["message"] as? [String: Any])?["data"] as? [String: String] }
        #expect(data?["refuses"] == #"["catalog","icons","reply","rating","timer","expired","colors.timer","zeroBezel"]"#, "\(result.stdout)")
        #expect(data?["ignores"] == #"{"buttons":true,"remindLater":true}"#, "\(result.stdout)")
        #expect(result.stdout.contains(#""analytics_label": "timer""#), "\(result.stdout)")
    }

    /// Source: the forty-sixth audit (scripts F5) against lua-api.md (a pushmap function given
    /// what it cannot take fails at the line that called it): a finding's text that is not UTF-8
    /// failed later, as "the string at $result1[2]", with no line.
    @Test("pushmap.warn and pushmap.error given text that is not UTF-8 fail at the line that called them")
    func findingTextNotUTF8() throws {
        for (call, said) in [(#"pushmap.warn("$.title", "\255bad")"#, "pushmap.warn: the message"), (#"pushmap.error("$.x\255", "m")"#, "pushmap.error: the path")] {
            let (folder, result) = try Self.translateFCM(call + "\nreturn { message = { data = {} } }")
            #expect(result.status == 2)
            #expect(result.stderr == "<stdin>: script error: \(folder)/t.lua:2: \(said) is not valid UTF-8 [runtime]\n", "\(result.stderr)")
        }
    }

    /// Source: the forty-sixth audit (scripts F10) against lua-api.md's pushmap.path (an integer
    /// index, 0-based; a key JSON-quoted): -1 gave "$[-1]", 2.0 was "not a string", and a key
    /// that is not UTF-8 failed as pushmap.json's error.
    @Test("pushmap.path takes an index of 0 or more, 2.0 as 2, and refuses a key that is not UTF-8 at the calling line")
    func pathSteps() throws {
        let (_, two) = try Self.translateFCM(#"return { message = { data = { a = pushmap.path("$.b", 2.0) .. pushmap.path("$", "2") } } }"#)
        #expect(two.stdout.contains(#""a": "$.b[2]$[\"2\"]""#), "\(two.stdout)\(two.stderr)")
        for (step, said) in [("-1", "an index is 0 or more (JSON paths count from 0), got -1"), ("1.5", "an index is a whole number, got 1.5"), (#""\255""#, "the key is not valid UTF-8")] {
            let (folder, result) = try Self.translateFCM("local p = pushmap.path(\"$\", \(step))\nreturn { message = { data = {} } }")
            #expect(result.status == 2)
            #expect(result.stderr == "<stdin>: script error: \(folder)/t.lua:2: pushmap.path: \(said) [runtime]\n", "\(result.stderr)")
        }
    }

    @Test("a value JSON cannot hold is an error at the line of the team's script that wrote it")
    func badValueNamesTheLine() throws {
        let cases: [(write: String, says: String)] = [
            ("payload.message.data.cb = function() end", "t.lua:3: a function value at $.message.data.cb cannot be converted to JSON (in the fcm payload) [bad value]"),
            ("payload.message.data.t = { 1, 2, x = 3 }", "t.lua:3: the table at $.message.data.t mixes array and object keys (1 and 'x') (in the fcm payload) [bad value]"),
            ("local c = {} c.self = c payload.message.data.c = c", "t.lua:3: the table at $.message.data.c.self contains itself (a cycle) (in the fcm payload) [bad value]"),
            ("payload.message.data.n = 0/0", "t.lua:3: NaN at $.message.data.n is not a JSON number (in the fcm payload) [bad value]"),
        ]
        for (write, says) in cases {
            let (folder, result) = try Self.translateFCM("  local payload = { message = { data = { a = \"b\" } } }\n  \(write)\n  return payload")
            #expect(result.status == 2, "\(write): \(result.stderr)")
            #expect(result.stderr.contains("script error: \(folder)/\(says)"), "\(write): \(result.stderr)")
        }
    }

    /// Source: the eighth audit (its findings 7 and 14) and script-contract.md ("no template may be
    /// named `shared`"; shared.lua holds `fields` and `required`): a shared.lua written as a
    /// template was "a function value at $.apns cannot be converted to JSON [bad value]", and a
    /// type clash with a template's field named no line.
    @Test("shared.lua with a template's keys, a type that is no type, or a clash with a template's field: a contract error at its line")
    func sharedContract() throws {
        let template = #"return { name = "t", api = 1, platforms = { "fcm" }, fields = { orderId = "integer" }, fcm = function(intent, ctx) return { message = { data = {} } } end }"# + "\n"
        let cases: [(files: [String: String], says: String)] = [
            (["shared.lua": "return {\n  name = \"shared\", api = 1, platforms = { \"apns\" },\n  apns = function(intent, ctx) return { aps = {} } end,\n}\n"],
             #"shared.lua:1: template contract: unknown key "apns" in shared.lua (the keys are fields, required); shared.lua declares fields for every template and is no template itself [contract]"#),
            (["shared.lua": "return {\n  fields = { coupon = 5 },\n}\n"],
             "shared.lua:1: template contract: field 'coupon' has the type 5, expected one of string, integer, number, boolean, object, array [contract]"),
            (["shared.lua": "return {\n  fields = { orderId = \"string\" },\n}\n", "t.lua": template],
             "t.lua:1: template contract: field 'orderId' is declared with another type in shared.lua [contract]"),
        ]
        for (files, says) in cases {
            let folder = try Self.folder(files)
            defer { try? FileManager.default.removeItem(at: folder) }
            let result = try CommandRunner.run(["templates", "--scripts", folder.path])
            #expect(result.status == 2, "\(says): \(result.stderr)")
            #expect(result.stderr.contains("script error: \(folder.path)/\(says)"), "\(result.stderr)")
        }
    }

    /// Source: the twenty-sixth audit, F21: two folders' shared.lua giving one field two types
    /// passed, the later folder's type winning without a word.
    @Test("two folders' shared.lua that give one field two types: a contract error in the later one")
    func sharedAcrossFolders() throws {
        let first = try Self.folder(["shared.lua": "return {\n  fields = { orderId = \"string\" },\n}\n"])
        let second = try Self.folder(["shared.lua": "return {\n  fields = { orderId = \"integer\" },\n}\n"])
        let same = try Self.folder(["shared.lua": "return {\n  fields = { orderId = \"string\", coupon = \"string\" },\n}\n"])
        defer { for folder in [first, second, same] { try? FileManager.default.removeItem(at: folder) } }
        let clash = try CommandRunner.run(["templates", "--scripts", first.path, "--scripts", second.path])
        #expect(clash.status == 2, "\(clash.stderr)")
        #expect(clash.stderr.contains("\(second.path)/shared.lua:1: template contract: field 'orderId' is declared with another type in an earlier folder's shared.lua"), "\(clash.stderr)")
        // The same type again, with a field added, is fine.
        #expect(try CommandRunner.run(["templates", "--scripts", first.path, "--scripts", same.path]).status == 0)
    }

    /// Source: the eighth audit: `scripts check` on an empty folder said "0 passed, 0 failed" and
    /// exit 0, so a wrong path in CI showed green.
    @Test("scripts check on a folder with no scripts and no fixtures fails, saying so")
    func checkEmptyFolder() throws {
        let folder = try Self.folder([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandRunner.run(["scripts", "check", folder.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no scripts (NAME.lua) or fixtures (NAME.test/CASE.json) to check"), "\(result.stderr)")
    }

    /// Source: the eighth audit: an empty script, a new author's first step, was "memory limit
    /// of 33554432 bytes exceeded"; a file saved with a UTF-8 byte order mark did not load.
    @Test("an empty script, or one with no return, is a contract error at its line; a byte order mark is skipped as Lua skips it")
    func emptyScript() throws {
        for source in ["", "local t = { name = \"t\" }\n", "return nil\n"] {
            let folder = try Self.folder(["t.lua": source])
            defer { try? FileManager.default.removeItem(at: folder) }
            let result = try CommandRunner.run(["templates", "--scripts", folder.path])
            #expect(result.status == 2, "\(source): \(result.stderr)")
            #expect(result.stderr.contains("t.lua:1: template contract: the script returns nothing; it must end with `return` and a table"), "\(result.stderr)")
            #expect(!result.stderr.contains("memory"), "\(result.stderr)")
        }
        let bom = "\u{FEFF}return { name = \"t\", api = 1, platforms = { \"fcm\" }, fcm = function(intent, ctx) return { message = { data = { a = \"b\" } } } end }\n"
        let folder = try Self.folder(["t.lua": bom])
        defer { try? FileManager.default.removeItem(at: folder) }
        let listed = try CommandRunner.run(["templates", "--scripts", folder.path])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("t.lua"), "\(listed.stdout)")
    }

    /// Source: the twenty-sixth audit, F14: with `scripts export`'s unchanged copy of the
    /// built-ins, a timer already over (the sender's endsAt, written as its text) was a script
    /// failure at a payload path, exit 2; the built-in says it at $.timer.endsAt. (Then an error;
    /// a warning since an end already past is one, as issue 3 sets.)
    @Test("an exported copy of the built-ins reports the sender's past timer end where the built-in does, not at a script line")
    func exportedCopyBlamesTheIntent() throws {
        let folder = try Self.folder(["intent.json": #"{"template": "timer", "title": "Hi", "body": "B", "timer": {"endsAt": 1703462400}, "expired": {"title": "Over"}}"#])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try CommandRunner.run(["scripts", "export", "mine"], directory: folder).status == 0)
        let arguments = ["translate", "--platform", "fcm", "--now", "1704067200", "intent.json"]
        let builtin = try CommandRunner.run(arguments, directory: folder)
        let copy = try CommandRunner.run(arguments + ["--scripts", "mine"], directory: folder)
        #expect(builtin.status == 0, "\(builtin.stderr)")
        #expect(copy.status == 0, "\(copy.stderr)")
        #expect(copy.stderr.hasPrefix("intent.json: warning: $.timer.endsAt: adb_tmr_end 1703462400 is at or before now"), "\(copy.stderr)")
        #expect(copy.stderr == builtin.stderr, "\(copy.stderr)")
        #expect(!copy.stderr.contains("script error") && !copy.stderr.contains("written by"), "\(copy.stderr)")
    }

    @Test("a bad value a team's script wrote names the script's file and line and the payload path, exit 2")
    func blamesTheLine() throws {
        let folder = try Self.folder([
            "m/eta.lua": Self.etaScript,
            "intent.json": #"{"template": "eta", "title": "Hi", "body": "There", "eta": 12}"#,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandRunner.run(["translate", "--platform", "fcm", "--scripts", "m", "intent.json"], directory: folder)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("$.message.data.eta"), "\(result.stderr)")
        #expect(result.stderr.contains("written by m/eta.lua:11]"), "\(result.stderr)")
        #expect(result.stderr.contains("script error: m/eta.lua:11: wrote a value that fails the fcm check fcm-data-string at $.message.data.eta [bad value]"), "\(result.stderr)")
        // The value is the intent's eta unchanged, so that path is named; no invented $.data.eta.
        #expect(result.stderr.hasPrefix("intent.json: error: $.eta: "), "\(result.stderr)")
        #expect(!result.stderr.contains("$.data.eta"), "\(result.stderr)")

        // In a batch, the line's error is the script's, with the line that wrote the value.
        let batch = try CommandRunner.run(["batch", "--platform", "fcm", "--scripts", "m", "-"], input: Data(#"{"template": "eta", "title": "Hi", "body": "There", "eta": 12}"#.utf8), directory: folder)
        #expect(batch.status == 1)
        #expect(batch.stdout.contains(#""kind":"script failed""#) && batch.stdout.contains(#""script":"m/eta.lua:11""#), "\(batch.stdout)")

        // A value the script made up is placed at the payload path alone, in JSON too.
        let apns = try CommandRunner.run(["translate", "--platform", "apns", "--format", "json", "--scripts", "m", "intent.json"], directory: folder)
        #expect(apns.status == 2, "\(apns.stderr)")
        let report = try #require(CommandRunner.json(apns.stderr) as? [String: Any])
        let diagnostic = try #require((report["diagnostics"] as? [[String: Any]])?.first)
        #expect(diagnostic["path"] as? String == "$.aps.alert")
        #expect(diagnostic["script"] as? String == "m/eta.lua:16")
        let scriptError = try #require(report["scriptError"] as? [String: Any])
        #expect(scriptError["script"] as? String == "m/eta.lua")
        #expect(scriptError["line"] as? Int == 16)
    }

    @Test("a bad value from the intent through a built-in template stays the intent's error, exit 1")
    func intentValuesStayTheIntents() throws {
        let folder = try Self.folder([
            "m/basic.lua": """
                local builtin = pushmap.builtin
                return {
                  name = "basic", api = 1, platforms = { "fcm", "apns" },
                  fcm = function(intent, ctx) return builtin("basic", "fcm", intent, ctx) end,
                  apns = function(intent, ctx) return builtin("basic", "apns", intent, ctx) end,
                }

                """,
            "intent.json": #"{"template": "basic", "title": "Hi", "body": "There", "target": {"topic": "no spaces allowed"}}"#,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandRunner.run(["translate", "--platform", "fcm", "--scripts", "m", "intent.json"], directory: folder)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("error: $.target.topic: "), "\(result.stderr)")
        #expect(!result.stderr.contains("written by"), "\(result.stderr)")
    }

    @Test("a translation failing on a team's value names the lines of its warnings too; warnings alone: translate names them, batch does not, exit 0")
    func warningNamesTheLine() throws {
        let folder = try Self.folder([
            "m/promo.lua": """
                local map = pushmap.map

                local function apns(intent, ctx)
                  local payload = map("basic", "apns", intent, ctx)
                  payload.adb_media = "http://cdn.example.com/promo.png"
                  if intent.broken then payload.aps.alert = 5 end
                  return payload
                end

                return { name = "promo", api = 1, platforms = { "apns" }, fields = { broken = "boolean" }, apns = apns }

                """,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        func translate(_ intent: String, _ flags: [String] = []) throws -> CommandRunner.Result {
            try CommandRunner.run(["translate", "--platform", "apns", "--scripts", "m"] + flags + ["-"], input: Data(intent.utf8), directory: folder)
        }
        // The alert fails, so the run is traced: the https warning is on the script's value, not
        // the intent's image, at the payload path and the line that wrote it.
        let broken = #"{"template": "promo", "title": "Hi", "body": "There", "image": "http://cdn.example.com/other.png", "broken": true}"#
        let result = try translate(broken)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("warning: $.adb_media: "), "\(result.stderr)")
        #expect(result.stderr.contains("[ios-media-https, apns, written by m/promo.lua:5]"), "\(result.stderr)")
        #expect(result.stderr.contains("[ios-template-alert, apns, written by m/promo.lua:6]"), "\(result.stderr)")
        let json = try translate(broken, ["--format", "json"])
        let report = try #require(CommandRunner.json(json.stderr) as? [String: Any])
        let warning = try #require((report["diagnostics"] as? [[String: Any]])?.first { $0["rule"] as? String == "ios-media-https" })
        #expect(warning["script"] as? String == "m/promo.lua:5", "\(report)")
        #expect(warning["path"] as? String == "$.adb_media", "\(report)")

        // Warnings alone: the payload is written and the run ends 0. translate (one intent, read
        // by a person) traces the run for the line; batch does not pay for a trace per line.
        let fine = #"{"template": "promo", "title": "Hi", "body": "There"}"#
        let warned = try translate(fine)
        #expect(warned.status == 0, "\(warned.stderr)")
        #expect(warned.stdout.contains("http://cdn.example.com/promo.png"))
        #expect(warned.stderr.contains("warning: $.adb_media: "), "\(warned.stderr)")
        #expect(warned.stderr.contains("[ios-media-https, apns, written by m/promo.lua:5]"), "\(warned.stderr)")
        #expect(!warned.stderr.contains("script error"), "\(warned.stderr)")
        let batch = try CommandRunner.run(["batch", "--platform", "apns", "--scripts", "m", "-"], input: Data((fine + "\n").utf8), directory: folder)
        #expect(batch.status == 0, "\(batch.stderr)")
        #expect(batch.stdout.contains(#""rule":"ios-media-https""#), "\(batch.stdout)")
        #expect(!batch.stdout.contains(#""script":"#), "\(batch.stdout)")
    }

    static let stampScript = """
        local date, format = pushmap.date, string.format

        return {
          name = "stamp",
          api = 1,
          platforms = { "fcm" },
          fcm = function(intent, ctx)
            local payload = pushmap.map("basic", "fcm", intent, ctx)
            local data = payload.message.data
            data.sent_at = date(ctx.now)
            data.sent_day = date(ctx.now, "%a %d %b %Y %H:%M")
            data.sent_epoch = format("%d", ctx.now)
            return payload
          end,
        }

        """

    @Test("--now gives the same bytes on every run, to translate and batch; pushmap.date formats it in UTC")
    func fixedClock() throws {
        let folder = try Self.folder([
            "m/stamp.lua": Self.stampScript,
            "intent.json": #"{"template": "stamp", "title": "Hi", "body": "There"}"#,
            "intents.ndjson": #"{"template": "stamp", "title": "Hi", "body": "There"}"# + "\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = ["translate", "--platform", "fcm", "--compact", "--now", "1704067200", "--scripts", "m", "intent.json"]
        let first = try CommandRunner.run(arguments, directory: folder)
        Thread.sleep(forTimeInterval: 1.1) // the system clock moves on; --now does not
        let second = try CommandRunner.run(arguments, directory: folder)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdoutBytes == second.stdoutBytes)
        #expect(first.stdout.contains(#""sent_at":"2024-01-01T00:00:00Z""#), "\(first.stdout)")
        #expect(first.stdout.contains(#""sent_day":"Mon 01 Jan 2024 00:00""#), "\(first.stdout)")
        #expect(first.stdout.contains(#""sent_epoch":"1704067200""#), "\(first.stdout)")
        let batch = ["batch", "--platform", "fcm", "--now", "1704067200", "--scripts", "m", "intents.ndjson"]
        let batches = try [CommandRunner.run(batch, directory: folder), CommandRunner.run(batch, directory: folder)]
        #expect(batches[0].status == 0 && batches[0].stdoutBytes == batches[1].stdoutBytes)
        #expect(batches[0].stdout.contains("2024-01-01T00:00:00Z"), "\(batches[0].stdout)")

        // ISO 8601's four year digits before the year 1000, which glibc wrote as "999" (the
        // forty-fourth audit, scripts F9).
        let early = try Self.folder(["m/early.lua": """
            return { name = "early", api = 1, platforms = { "fcm" },
              fcm = function(intent, ctx) return { message = { data = {
                a = pushmap.date(-30641760000), b = pushmap.date(-62167219200, "%F %Y %%Y") } } } end }

            """])
        defer { try? FileManager.default.removeItem(at: early) }
        let padded = try CommandRunner.run(["translate", "--platform", "fcm", "--compact", "--scripts", "m"], input: Data(#"{"template": "early"}"#.utf8), directory: early)
        #expect(padded.status == 0, "\(padded.stderr)")
        #expect(padded.stdout.contains(#""a":"0999-01-01T00:00:00Z","b":"0000-01-01 0000 %Y""#), "\(padded.stdout)")

        // A conversion that depends on the machine is refused with the line that asked for it.
        let local = try Self.folder(["m/local.lua": """
            return { name = "local", api = 1, platforms = { "fcm" },
              fcm = function(intent, ctx) return { message = { data = { d = pushmap.date(ctx.now, "%c") } } } end }

            """])
        defer { try? FileManager.default.removeItem(at: local) }
        let refused = try CommandRunner.run(["translate", "--platform", "fcm", "--scripts", "m"], input: Data(#"{"template": "local"}"#.utf8), directory: local)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("m/local.lua:2: pushmap.date: unsupported conversion '%c'"), "\(refused.stderr)")

        // The twenty-sixth audit, F22: a number as the format was written as its digits, a
        // trailing % was "unsupported conversion '% '", a wrong time "bad argument #1 to 'date'".
        for (call, said) in [
            ("pushmap.date(ctx.now, 5)", #"pushmap.date: the format must be a string such as "%Y-%m-%d", got number"#),
            (#"pushmap.date(ctx.now, "%Y %")"#, "pushmap.date: the format ends in a lone '%' (write %% for a percent sign)"),
            (#"pushmap.date("soon")"#, "pushmap.date: the time must be whole epoch seconds, got string"),
            ("pushmap.date(1.5)", "pushmap.date: the time must be whole epoch seconds, got a fraction"),
            // The forty-second audit, F6: these two were "a fraction" too.
            ("pushmap.date(1e300)", "pushmap.date: the time must be whole epoch seconds, got a number beyond 64 bits"),
            ("pushmap.date(0/0)", "pushmap.date: the time must be whole epoch seconds, got not a number (nan)"),
        ] {
            let folder = try Self.folder(["m/bad.lua": """
                return { name = "bad", api = 1, platforms = { "fcm" },
                  fcm = function(intent, ctx) return { message = { data = { d = \(call) } } } end }

                """])
            defer { try? FileManager.default.removeItem(at: folder) }
            let result = try CommandRunner.run(["translate", "--platform", "fcm", "--scripts", "m"], input: Data(#"{"template": "bad"}"#.utf8), directory: folder)
            #expect(result.status == 2)
            #expect(result.stderr.contains("m/bad.lua:2: \(said)"), "\(call): \(result.stderr)")
        }
    }

    static let promoScript = """
        return {
          name = "promo",
          api = 1,
          platforms = { "fcm" },
          fcm = function(intent, ctx) return pushmap.map("basic", "fcm", intent, ctx) end,
        }

        """

    /// The FCM payload basic writes for title "a", body "b" and a remind-later time `at`.
    static func remindPayload(_ at: Int) -> String {
        #"{"message": {"data": {"adb_body": "b", "adb_rem_ts": "\#(at)", "adb_rem_txt": "L", "adb_template_type": "basic", "adb_title": "a", "adb_version": "1"}}}"#
    }

    static func remindIntent(_ at: Int) -> String {
        #"{"template": "promo", "title": "a", "body": "b", "remindLater": {"label": "L", "at": \#(at)}}"#
    }

    @Test("scripts check: every way a fixture fails is one FAIL with its reason, and the run goes on")
    func fixtureFailures() throws {
        let folder = try Self.folder([
            "m/promo.lua": Self.promoScript,
            "m/lonely.lua": Self.promoScript.replacingOccurrences(of: "\"promo\"", with: "\"lonely\""),
            "m/promo.test/a-typo.json": #"{"intent": \#(Self.remindIntent(1)), "apsn": {"aps": {}}, "fcm": \#(Self.remindPayload(1))}"#,
            "m/promo.test/b-broken.json": #"{"intent": {"template": "promo""#,
            "m/promo.test/c-not-object.json": #"["intent"]"#,
            "m/promo.test/d-bad-now.json": #"{"intent": \#(Self.remindIntent(1)), "now": "soon", "fcm": {}}"#,
            "m/promo.test/e-bad-warnings.json": #"{"intent": \#(Self.remindIntent(1)), "warnings": "some", "fcm": {}}"#,
            "m/promo.test/f-warned.json": #"{"intent": \#(Self.remindIntent(1)), "fcm": \#(Self.remindPayload(1)), "warnings": ["tapping remind later cancels"]}"#,
            "m/promo.test/g-warning-missing.json": #"{"intent": \#(Self.remindIntent(1900000000)), "fcm": \#(Self.remindPayload(1900000000)), "warnings": ["tapping remind later cancels"]}"#,
            "m/promo.test/h-no-warnings.json": #"{"intent": \#(Self.remindIntent(1)), "fcm": \#(Self.remindPayload(1)), "warnings": []}"#,
            "m/promo.test/i-fine.json": #"{"intent": \#(Self.remindIntent(1900000000)), "fcm": \#(Self.remindPayload(1900000000)), "warnings": []}"#,
            "m/promo.test/j-error-and-warnings.json": #"{"intent": {"template": "promo"}, "error": "x", "warnings": []}"#,
            // The forty-sixth audit, scripts F15: a time --now refuses.
            "m/promo.test/k-now-before-1970.json": #"{"intent": \#(Self.remindIntent(1)), "now": -5, "fcm": {}}"#,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandRunner.run(["scripts", "check", "m"], directory: folder)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let expected = [
            "FAIL m/promo.test/a-typo.json\n     unknown key \"apsn\"; did you mean \"apns\"? (the keys are intent, now, fcm, apns, error, warnings)",
            "FAIL m/promo.test/b-broken.json\n     not JSON: 1:32: unexpected end of input",
            "FAIL m/promo.test/c-not-object.json\n     a fixture is a JSON object",
            "FAIL m/promo.test/d-bad-now.json\n     \"now\" must be an integer",
            "FAIL m/promo.test/e-bad-warnings.json\n     \"warnings\" must be a list of strings",
            "PASS m/promo.test/f-warned.json",
            "FAIL m/promo.test/g-warning-missing.json\n     expected a warning containing \"tapping remind later cancels\", got none",
            "FAIL m/promo.test/h-no-warnings.json\n     unexpected warning: $.remindLater.at: adb_rem_ts 1 is at or before now (1704067200)",
            "PASS m/promo.test/i-fine.json",
            "FAIL m/promo.test/j-error-and-warnings.json\n     \"warnings\" goes with an expected payload",
            "FAIL m/promo.test/k-now-before-1970.json\n     \"now\" must be an epoch time from 0 to 253402300799 (the end of 9999), as --now, not -5",
            "FAIL m/lonely.lua: no fixtures (write them as m/lonely.test/CASE.json)",
            "2 passed, 10 failed",
        ]
        for piece in expected {
            #expect(result.stdout.contains(piece), "missing: \(piece)\n\(result.stdout)")
        }

        // The same run as one JSON object, for CI tools.
        let json = try CommandRunner.run(["scripts", "check", "--format", "json", "m"], directory: folder)
        #expect(json.status == 1)
        let report = try #require(CommandRunner.json(json.stdout) as? [String: Any], "\(json.stdout)")
        #expect(report["passed"] as? Int == 2)
        #expect(report["failed"] as? Int == 10)
        let fixtures = try #require(report["fixtures"] as? [[String: Any]])
        #expect(fixtures.count == 11)
        let typo = try #require(fixtures.first { $0["path"] as? String == "m/promo.test/a-typo.json" })
        #expect(typo["passed"] as? Bool == false)
        #expect((typo["differences"] as? [String])?.first?.contains("did you mean \"apns\"") == true)
        let untested = try #require(report["untested"] as? [[String: Any]])
        #expect(untested.map { $0["template"] as? String } == ["lonely"])
        #expect((report["templates"] as? [[String: Any]])?.count == 2)

        // --now is the time of the fixtures that name none: the "fine" one's remind-later time is past then.
        let later = try CommandRunner.run(["scripts", "check", "--now", "1950000000", "m"], directory: folder)
        #expect(later.stdout.contains("FAIL m/promo.test/i-fine.json\n     unexpected warning: $.remindLater.at: adb_rem_ts 1900000000 is at or before now (1950000000)"), "\(later.stdout)")
    }

    /// Source: the twenty-sixth audit, F22: with a script that does not load, `scripts check
    /// --format json` wrote the translate error object on standard error, not the check's object.
    @Test("scripts check --format json says a script that does not load in its own object, exit 2")
    func checkJSONLoadFailure() throws {
        let folder = try Self.folder(["m/broken.lua": "return {\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = try CommandRunner.run(["scripts", "check", "--format", "json", "m"], directory: folder)
        #expect(json.status == 2, "\(json.stderr)")
        let report = try #require(CommandRunner.json(json.stdout) as? [String: Any], "\(json.stdout)")
        #expect(report["failed"] as? Int == 1)
        #expect(report["fixtures"] as? [Any] != nil && report["templates"] as? [Any] != nil)
        let error = try #require(report["scriptError"] as? [String: Any])
        #expect(error["script"] as? String == "m/broken.lua")
        #expect(error["line"] as? Int == 2)
        #expect(json.stderr.isEmpty, "\(json.stderr)")
        let human = try CommandRunner.run(["scripts", "check", "m"], directory: folder)
        #expect(human.status == 2)
        #expect(human.stderr.contains("m/broken.lua: script error: m/broken.lua:2:"), "\(human.stderr)")
        #expect(human.stdout.contains("FAIL m/broken.lua: does not load"), "\(human.stdout)")
    }

    /// Source: the forty-second audit, F5, against issue 5 ("compiles every script, checks its
    /// contract, and runs the fixtures beside it"): the first script that did not load hid every
    /// other script's error and every fixture.
    @Test("scripts check says every script that does not load, and checks the others and their fixtures; exit 2")
    func checkGoesOnPastBrokenScripts() throws {
        let folder = try Self.folder([
            // A syntax error in an override of a built-in: its fixture must not run against the built-in.
            "m/basic.lua": "return { name = \"basic\", api = 1, platforms = { \"fcm\" }, fcm = function(i, c) return {} end\n",
            "m/basic.test/a.json": #"{"intent": {"template": "basic", "title": "a", "body": "b"}, "fcm": {"message": {"data": {}}}}"#,
            "m/mid.lua": "return { name = \"mid\", api = 1, platforms = { \"fcm\" }, fcm = function(i, c) return {} end, bogus = 1 }\n",
            // Built on a broken template: it fails in turn, at its own base.
            "m/child.lua": "return { name = \"child\", api = 1, base = \"mid\", platforms = { \"fcm\" }, fcm = function(i, c) return {} end }\n",
            "m/ok.lua": "return { name = \"ok\", api = 1, platforms = { \"fcm\" }, fcm = function(i, c) return { message = { data = { t = i.title } } } end }\n",
            "m/ok.test/a.json": #"{"intent": {"template": "ok", "title": "x"}, "fcm": {"message": {"data": {"t": "x"}}}}"#,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let human = try CommandRunner.run(["scripts", "check", "m"], directory: folder)
        #expect(human.status == 2)
        for expected in ["m/basic.lua: script error: m/basic.lua:2: '}' expected", "m/mid.lua: script error: m/mid.lua:1: template contract: unknown key \"bogus\"",
                         "m/child.lua: script error: m/child.lua:1: template contract: 'base': no template is named \"mid\""] {
            #expect(human.stderr.contains(expected), "\(expected)\n\(human.stderr)")
        }
        for expected in ["FAIL m/basic.lua: does not load", "FAIL m/mid.lua: does not load", "FAIL m/child.lua: does not load",
                         "ok   m/ok.lua: template ok (fcm)", "PASS m/ok.test/a.json", "FAIL m/basic.test/a.json\n     not run: m/basic.lua does not load",
                         "1 passed, 4 failed"] {
            #expect(human.stdout.contains(expected), "\(expected)\n\(human.stdout)")
        }
        let json = try CommandRunner.run(["scripts", "check", "--format", "json", "m"], directory: folder)
        #expect(json.status == 2)
        let report = try #require(CommandRunner.json(json.stdout) as? [String: Any])
        let errors = try #require(report["scriptErrors"] as? [[String: Any]])
        #expect(errors.compactMap { $0["script"] as? String } == ["m/basic.lua", "m/mid.lua", "m/child.lua"])
        #expect(report["passed"] as? Int == 1 && report["failed"] as? Int == 4, "\(report)")
    }
}
