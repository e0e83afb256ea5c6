import PushmapJSON
import PushmapTestSupport
@_spi(Tools) @testable import Pushmap
import Testing

// Custom scripts, continued: each audit finding on a team's script, with its source.
extension CustomScriptTests {
    /// Source: docs/intent.md (colors.timer, "Timer text colour (timer template)") and the policy
    /// of a warning for what a template leaves unread. It was silent on every other template.
    @Test("colors.timer on a template other than timer is ignored with one warning where the fix goes; timer and what builds on it read it")
    func timerColourElsewhere() throws {
        let translator = try builtinTranslator()
        let intent = ##"{"template": "basic", "title": "Hi", "body": "There", "colors": {"title": "#112233", "timer": "#445566"}}"##
        let basic = try translator.translate(Array(intent.utf8), platforms: [.fcm, .apns])
        // Said by both platforms' runs, it is one finding with no platform (twenty-fifth audit, F4).
        #expect(basic.diagnostics.map(\.message) == ["field 'colors.timer' belongs to the timer template, not basic: it is ignored"])
        #expect(basic.diagnostics.map(\.path) == ["$.colors.timer"])
        #expect(basic.diagnostics.map(\.platform) == [nil])
        #expect(basic.diagnostics.allSatisfy { $0.severity == .warning })
        // plain ignores colors whole: that one warning a platform, not a second for colors.timer.
        let plainIntent = ##"{"template": "plain", "title": "Hi", "body": "There", "colors": {"title": "#112233", "timer": "#445566"}}"##
        let plain = try translator.translate(Array(plainIntent.utf8), platforms: [.fcm])
        #expect(plain.diagnostics.map(\.path) == ["$.colors"])
        let timer = ##"{"template": "timer", "title": "Hi", "body": "There", "timer": {"duration": 60}, "expired": {"title": "Over"}, "colors": {"timer": "#445566"}}"##
        let timed = try translator.translate(Array(timer.utf8), platforms: [.fcm])
        #expect(timed.diagnostics.isEmpty, "\(timed.diagnostics)")
        #expect(data(timed.payloads[.fcm])?["adb_clr_tmr"] == .string("445566"))
        // A template built on timer accepts it too, as it accepts timer's own fields.
        let countdown = try Translator(scripts: scripts(["countdown": Self.countdown]), logger: quietLogger)
        let built = try countdown.translate(Array(("{\"template\": \"countdown\"," + timer.dropFirst(#"{"template": "timer","#.count)).utf8), platforms: [.fcm])
        #expect(built.diagnostics.isEmpty, "\(built.diagnostics)")
    }

    static let countdown = """
        return {
          name = "countdown", api = 1, platforms = { "fcm" }, base = "timer",
          fcm = function(intent, ctx) return pushmap.builtin("timer", "fcm", intent, ctx) end,
        }
        """
}

extension CustomScriptTests {
    /// Source: the twenty-sixth audit, F1: a team's override of plain with an endless
    /// apnsHeaders hung `translate --request` for a built-in basic intent, as the built-in took
    /// its base's headers from the team's layer and ran them unmetered.
    @Test("a built-in template writes its request headers from the built-in layer, not a team's override of its base")
    func builtinHeadersFromBuiltinLayer() throws {
        let plain = """
            local builtin = pushmap.builtin
            return { name = "plain", api = 1, platforms = { "fcm", "apns" },
              fcm = function(intent, ctx) return builtin("plain", "fcm", intent, ctx) end,
              apns = function(intent, ctx) return builtin("plain", "apns", intent, ctx) end,
              apnsHeaders = function(intent, payload, ctx)
                while true do end
              end }
            """
        let translator = try Translator(scripts: scripts(["plain": plain]), logger: quietLogger)
        let basic = try translator.translate(Array(#"{"template": "basic", "title": "Hi", "body": "B"}"#.utf8), platforms: [.apns], forms: [.apnsRequest])
        #expect(basic.payloads[.apns]?["headers"]?["apns-push-type"] == "alert")
        // The override's own template still runs its headers, under the instruction count.
        let error = translationError {
            _ = try translator.translate(Array(#"{"title": "Hi", "body": "B"}"#.utf8), platforms: [.apns], forms: [.apnsRequest])
        }
        #expect(error?.scriptError?.kind == .instructionLimit, "\(String(describing: error))")
    }
}

extension CustomScriptTests {
    /// Source: the twenty-sixth audit, F18: pushmap.warn and pushmap.error as a script loaded
    /// went nowhere, and the translation passed without a word.
    @Test("pushmap.warn or pushmap.error as a script loads is a script error at its line", arguments: ["warn", "error"])
    func findingAtLoad(function: String) throws {
        let source = """
            pushmap.\(function)("$.title", "at load")
            return { name = "early", api = 1, platforms = { "fcm" }, fcm = function(intent, ctx) return pushmap.builtin("plain", "fcm", intent, ctx) end }
            """
        do {
            _ = try Translator(scripts: scripts(["early": source]), logger: quietLogger)
            Issue.record("expected a script error")
        } catch {
            #expect(error.line == 1, "\(error)")
            #expect(error.message.contains("pushmap.\(function) is for a mapping"), "\(error)")
        }
    }
}

extension CustomScriptTests {
    /// Source: the twenty-sixth audit, F5 and F6: a tail call into an API function, or a limit met
    /// inside one, was reported at pushmap/prelude.lua or pushmap/intent.lua, a file the team
    /// cannot fix.
    @Test("an error that stops inside pushmap's own Lua names the team's file, pushmap's place after", arguments: [
        ("do return pushmap.color(nil) end", "pushmap.color: the colour must be a string, got nil (in pushmap/prelude.lua:"),
        // Met in the loop's own line or inside pushmap.color: either way the team's file.
        ("for i = 1, 1000000 do local c = pushmap.color('#ff00' .. (i % 100)) end", "instruction limit of 2000000 exceeded"),
    ])
    func errorsInsidePushmap(body: String, expected: String) throws {
        let source = """
            return { name = "inside", api = 1, platforms = { "fcm" }, fcm = function(intent, ctx)
              \(body)
              return pushmap.builtin("plain", "fcm", intent, ctx)
            end }
            """
        let error = try Self.fcmFailure(of: source, named: "inside", intent: #"{"template": "inside", "title": "Hi"}"#)
        let scriptError = try #require(error?.scriptError)
        #expect(scriptError.script == "custom/inside.lua", "\(scriptError)")
        #expect(scriptError.message.hasPrefix(expected), "\(scriptError)")
        #expect(!scriptError.description.hasPrefix("pushmap/"), "\(scriptError)")
    }
}

extension CustomScriptTests {
    /// Source: the twenty-sixth audit, F12: a pcall that caught an error from pushmap.map left
    /// the callee marked as running, and the next call of it said it "calls itself".
    @Test("a template whose mapping raised into a pcall can be called again; one that calls itself is still refused")
    func callAfterCaughtError() throws {
        let caller = """
            return { name = "caller", api = 1, platforms = { "fcm" }, fcm = function(intent, ctx)
              local ok = pcall(pushmap.map, "raiser", "fcm", { boom = true }, ctx)
              local payload = pushmap.map("raiser", "fcm", intent, ctx)
              payload.message.data.caught = ok and "no" or "yes"
              return payload
            end }
            """
        let raiser = """
            return { name = "raiser", api = 1, platforms = { "fcm" }, fcm = function(intent, ctx)
              if rawget(intent, "boom") then error("boom") end
              return pushmap.builtin("plain", "fcm", intent, ctx)
            end }
            """
        let looping = """
            return { name = "looping", api = 1, platforms = { "fcm" }, fcm = function(intent, ctx)
              local payload = pushmap.map("looping", "fcm", intent, ctx)
              return payload
            end }
            """
        let translator = try Translator(scripts: scripts(["caller": caller, "raiser": raiser, "looping": looping]), logger: quietLogger)
        let translation = try translator.translate(Array(#"{"template": "caller", "title": "Hi"}"#.utf8), platforms: [.fcm])
        #expect(translation.payloads[.fcm]?["message"]?["data"]?["caught"] == "yes")
        let error = translationError { _ = try translator.translate(Array(#"{"template": "looping", "title": "Hi"}"#.utf8), platforms: [.fcm]) }
        #expect(error?.scriptError?.message.contains("calls itself") == true, "\(String(describing: error))")
    }
}

extension CustomScriptTests {
    /// Source: the twenty-sixth audit, F17, F20 and F22: load's error for a chunk too deep to
    /// compile carried a traceback of pushmap's frames; pushmap.array on an intent list named a
    /// metatable the team never set; a `#!` first line was a syntax error.
    @Test("load's errors are one line, pushmap.array on the intent says it is read-only, a #! line is skipped")
    func smallScriptMessages() throws {
        let source = """
            #!/usr/bin/env lua
            return { name = "small", api = 1, platforms = { "fcm" }, fcm = function(intent, ctx)
              local payload = pushmap.builtin("plain", "fcm", intent, ctx)
              local _, problem = load("return " .. ("("):rep(300) .. "1" .. (")"):rep(300))
              payload.message.data.problem = problem
              if intent.buttons then pushmap.array(intent.buttons) end
              return payload
            end }
            """
        let translator = try Translator(scripts: scripts(["small": source]), logger: quietLogger)
        let translation = try translator.translate(Array(#"{"template": "small", "title": "Hi"}"#.utf8), platforms: [.fcm])
        let problem = try #require(translation.payloads[.fcm]?["message"]?["data"]?["problem"]?.stringValue)
        #expect(!problem.contains("\n") && !problem.isEmpty, "\(problem)")
        let error = translationError {
            _ = try translator.translate(Array(#"{"template": "small", "title": "Hi", "buttons": [{"label": "a"}]}"#.utf8), platforms: [.fcm])
        }
        #expect(error?.scriptError?.line == 6, "\(String(describing: error))")
        #expect(error?.scriptError?.message.contains("read-only") == true, "\(String(describing: error))")
    }
}

extension CustomScriptTests {
    /// Source: the twenty-sixth audit, F22: an error a C function raised (setmetatable on the
    /// sandbox's globals, table.insert into the read-only intent) named the script but no line,
    /// although Lua knew which line called it. `error(message, 0)` asks for no place (ErrorTests).
    @Test("an error raised by a library function the script called names the script's line", arguments: [
        ("setmetatable(_G, {})", "cannot change a protected metatable"),
        ("table.insert(intent.data, 'x')", "intent.data[0] is read-only"),
    ])
    func placeOfLibraryErrors(body: String, expected: String) throws {
        let source = """
            return { name = "placed", api = 1, platforms = { "fcm" }, fcm = function(intent, ctx)
              local payload = pushmap.builtin("plain", "fcm", intent, ctx)
              \(body)
              return payload
            end }
            """
        let error = try Self.fcmFailure(of: source, named: "placed", intent: #"{"template": "placed", "title": "Hi", "data": {"k": "v"}}"#)
        let scriptError = try #require(error?.scriptError)
        #expect(scriptError.script == "custom/placed.lua", "\(scriptError)")
        #expect(scriptError.line == 3, "\(scriptError)")
        #expect(scriptError.message.hasPrefix(expected), "\(scriptError)")
    }
}

extension CustomScriptTests {
    /// Source: the twenty-sixth audit, F9: a script named "x" writing `message.tokn = "x"` had its
    /// finding put on `$.template`, the value being equal to the template's name.
    @Test("a value a script writes that equals the template's name is the script's, at its payload path")
    func valueEqualToTemplateName() throws {
        let source = """
            return { name = "x", api = 1, platforms = { "fcm" }, fcm = function(intent, ctx)
              local payload = pushmap.builtin("plain", "fcm", intent, ctx)
              payload.message.tokn = "x"
              return payload
            end }
            """
        let error = try Self.fcmFailure(of: source, named: "x", intent: #"{"template": "x", "title": "Hi", "target": {"token": "t"}}"#)
        let finding = try #require(error?.diagnostics.first { $0.rule == "fcm-unknown-field" })
        #expect(finding.path == "$.message.tokn", "\(finding)")
        #expect(error?.scriptError?.line == 3, "\(String(describing: error))")
    }
}

extension CustomScriptTests {
    /// Source: the twenty-sixth audit, F8: a value written by a chunk the script loaded, which
    /// has no line to name, was put on `$.link.type`, a field the intent did not have, exit 1.
    @Test("a bad value written by code the script loaded is the script's failure at the payload path, with no line")
    func valueFromLoadedChunk() throws {
        let source = """
            return { name = "loader", api = 1, platforms = { "fcm" }, fcm = function(intent, ctx)
              local payload = pushmap.builtin("plain", "fcm", intent, ctx)
              load("local p = ... p.message.data.adb_a_type = 'WEB'")(payload)
              return payload
            end }
            """
        let error = try Self.fcmFailure(of: source, named: "loader", intent: #"{"template": "loader", "title": "Hi", "target": {"token": "t"}}"#)
        #expect(error?.kind == .scriptFailed, "\(String(describing: error))")
        #expect(error?.scriptError?.script == "custom/loader.lua", "\(String(describing: error))")
        let finding = try #require(error?.diagnostics.first { $0.rule == "android-link-type" })
        #expect(finding.path == "$.message.data.adb_a_type", "\(finding)")
        #expect(finding.message.contains("no line of the script can be named"), "\(finding)")
    }
}

extension CustomScriptTests {
    /// Source: the twenty-sixth audit, F8: a script that wrote a bad value on its first call only
    /// (state kept between calls) had the finding put on `$.link.type`, a field the intent lacked.
    @Test("a bad value the same run again does not write is the script's failure at the payload path")
    func valueFromFirstCallOnly() throws {
        let source = """
            local calls = 0
            return { name = "stateful", api = 1, platforms = { "fcm" }, fcm = function(intent, ctx)
              local payload = pushmap.builtin("plain", "fcm", intent, ctx)
              calls = calls + 1
              if calls == 1 then payload.message.data.adb_a_type = "WEB" end
              return payload
            end }
            """
        let error = try Self.fcmFailure(of: source, named: "stateful", intent: #"{"template": "stateful", "title": "Hi", "target": {"token": "t"}}"#)
        #expect(error?.kind == .scriptFailed, "\(String(describing: error))")
        let finding = try #require(error?.diagnostics.first { $0.rule == "android-link-type" })
        #expect(finding.path == "$.message.data.adb_a_type", "\(finding)")
        #expect(finding.message.contains("did not write it"), "\(finding)")
    }
}

extension CustomScriptTests {
    /// A team script that copies the intent, changes the title to a number and hands the copy to
    /// the built-in basic template at its line 5; the sender's remind-later time is in the past.
    /// `copy`, three lines, makes the table (the default: a copy by pairs).
    static func lendingScript(
        copy: String = "local copy = {}\nfor key, value in pairs(intent) do copy[key] = value end\ncopy.title = 5"
    ) -> String {
        """
        return { name = "lend", api = 1, platforms = { "fcm" }, fcm = function(intent, ctx)
        \(copy)
          local payload = pushmap.builtin("basic", "fcm", copy, ctx)
          return payload
        end }
        """
    }

    /// Source: the twenty-sixth audit, F7: a built-in given a table the script changed wrote a bad
    /// value, and the finding blamed the sender's `$.title`, which is a string, with exit 1.
    @Test("a bad value a built-in writes from a field the script changed in its copy of the intent is the script's, at the line that passed it")
    func builtinOnChangedCopy() throws {
        let intent = #"{"template": "lend", "title": "Hi", "body": "b", "remindLater": {"label": "L", "at": 1000}, "target": {"token": "t"}}"#
        let error = try #require(try Self.fcmFailure(of: Self.lendingScript(), named: "lend", intent: intent))
        #expect(error.kind == .scriptFailed, "\(error)")
        #expect(error.scriptError?.script == "custom/lend.lua" && error.scriptError?.line == 5, "\(String(describing: error.scriptError))")
        #expect(error.scriptError?.message.contains("$.title differs") == true, "\(String(describing: error.scriptError))")
        let title = try #require(error.diagnostics.first { $0.rule == "fcm-data-string" })
        #expect(title.path == "$.message.data.adb_title", "\(title)")
        // The remind-later time the copy took unchanged stays the sender's, at the intent's path.
        let remind = try #require(error.diagnostics.first { $0.rule == "android-remind-later-past" })
        #expect(remind.path == "$.remindLater.at" && remind.script == nil, "\(remind)")
    }

    /// A copy that reads the intent through `__index` changes only its own keys: the sender's
    /// remind-later time it reads through stays the sender's.
    @Test("a copy made as setmetatable({ title = ... }, { __index = intent }) is blamed for its own keys only")
    func builtinOnInheritingCopy() throws {
        let source = Self.lendingScript(copy: "local copy = setmetatable({ title = 5 }, { __index = intent })\n--\n--")
        let intent = #"{"template": "lend", "title": "Hi", "body": "b", "remindLater": {"label": "L", "at": 1000}, "target": {"token": "t"}}"#
        let error = try #require(try Self.fcmFailure(of: source, named: "lend", intent: intent))
        #expect(error.scriptError?.script == "custom/lend.lua" && error.scriptError?.line == 5, "\(String(describing: error.scriptError))")
        let remind = try #require(error.diagnostics.first { $0.rule == "android-remind-later-past" })
        #expect(remind.path == "$.remindLater.at" && remind.script == nil, "\(remind)")
    }

    /// Each platform's mapping may pass a table of its own: a finding is matched with the table the
    /// line that wrote its value passed, not the first one the run saw.
    @Test("with both platforms, an APNS finding names the apns mapping's line, not the fcm mapping's call")
    func builtinOnCopiesForBothPlatforms() throws {
        let source = """
            return { name = "lend", api = 1, platforms = { "fcm", "apns" },
              fcm = function(intent, ctx)
                return pushmap.builtin("basic", "fcm", setmetatable({ badge = "7" }, { __index = intent }), ctx)
              end,
              apns = function(intent, ctx)
                local payload = pushmap.builtin("basic", "apns", setmetatable({ title = 7 }, { __index = intent }), ctx)
                return payload
              end }
            """
        let translator = try Translator(scripts: scripts(["lend": source]), logger: quietLogger)
        let error = try #require(translationError {
            _ = try translator.translate(Array(#"{"template": "lend", "title": "Hi", "target": {"token": "t"}}"#.utf8), platforms: [.fcm, .apns])
        })
        #expect(error.scriptError?.script == "custom/lend.lua" && error.scriptError?.line == 6, "\(String(describing: error.scriptError))")
        let title = try #require(error.diagnostics.first { $0.path.hasSuffix("title") })
        #expect(title.script == "custom/lend.lua:6", "\(title)")
    }

    /// A finding the built-in itself records (pushmap.error) about a table the script made is the
    /// script's: the sender gave a title and a body.
    @Test("an error a built-in records about a table the script passed fails at the script's line")
    func builtinErrorOnPassedTable() throws {
        let source = """
            return { name = "lend", api = 1, platforms = { "apns" }, apns = function(intent, ctx)
              local payload = pushmap.builtin("plain", "apns", {}, ctx)
              return payload
            end }
            """
        let translator = try Translator(scripts: scripts(["lend": source]), logger: quietLogger)
        let error = try #require(translationError {
            _ = try translator.translate(Array(#"{"template": "lend", "title": "Hi", "body": "b", "target": {"token": "t"}}"#.utf8), platforms: [.apns])
        })
        let scriptError = try #require(error.scriptError)
        #expect(scriptError.script == "custom/lend.lua" && scriptError.line == 2, "\(scriptError)")
        #expect(scriptError.message.contains("refused the table passed as the intent: $: nothing to show"), "\(scriptError)")
    }

    /// Source: the twenty-sixth audit, F7: a built-in that failed on a table the script passed
    /// (buttons a string) named its own line, in a file not in the team's folder.
    @Test("a built-in that fails on a table the script passed as the intent fails at the script's line")
    func builtinFailsOnPassedTable() throws {
        let source = """
            return { name = "lend", api = 1, platforms = { "fcm" }, fcm = function(intent, ctx)
              local payload = pushmap.builtin("basic", "fcm", { title = "a", buttons = "xy" }, ctx)
              return payload
            end }
            """
        let error = try #require(try Self.fcmFailure(of: source, named: "lend", intent: #"{"template": "lend", "title": "Hi", "target": {"token": "t"}}"#))
        let scriptError = try #require(error.scriptError)
        #expect(scriptError.kind == .runtime && scriptError.script == "custom/lend.lua" && scriptError.line == 2, "\(scriptError)")
        #expect(scriptError.message.contains("failed on the table passed as the intent (templates/plain.lua:"), "\(scriptError)")
    }
}

extension CustomScriptTests {
    /// Source: the thirty-second audit, F5: a `ttl` the copy added came out as the Android one,
    /// and the failure was the sender's, at `$.android.ttl`, which the sender never gave.
    @Test("a bad value a built-in writes from a general field the copy changed, where an Android one stands in for it, is the script's")
    func builtinOnCopyWithGeneralField() throws {
        let source = Self.lendingScript(copy: "local copy = {}\nfor key, value in pairs(intent) do copy[key] = value end\ncopy.ttl = -5")
        let error = try #require(try Self.fcmFailure(of: source, named: "lend", intent: #"{"template": "lend", "title": "Hi", "target": {"token": "t"}}"#))
        #expect(error.scriptError?.script == "custom/lend.lua" && error.scriptError?.line == 5, "\(String(describing: error.scriptError))")
        #expect(error.scriptError?.message.contains("$.ttl differs") == true, "\(String(describing: error.scriptError))")
        let ttl = try #require(error.diagnostics.first { $0.rule == "fcm-ttl" })
        #expect(ttl.path == "$.message.android.ttl" && ttl.script == "custom/lend.lua:5", "\(ttl)")
    }

    /// Source: the thirty-second audit, F6: headers a team's apnsHeaders made without
    /// apns-push-type were warned about at the sender's `$.ios.pushType`, with no line.
    @Test("a header a team's apnsHeaders left out is warned about at the line that made the headers")
    func headerLeftOut() throws {
        let source = """
            return { name = "quiet", api = 1, platforms = { "apns" },
              apns = function(intent, ctx) return pushmap.builtin("plain", "apns", intent, ctx) end,
              apnsHeaders = function(intent, payload, ctx)
                local headers = { ["apns-priority"] = "10" }
                return headers
              end }
            """
        let translator = try Translator(scripts: scripts(["quiet": source]), options: .init(blameWarnings: true), logger: quietLogger)
        let translation = try translator.translate(
            Array(#"{"template": "quiet", "title": "Hi", "target": {"token": "t"}}"#.utf8), platforms: [.apns], forms: [.apnsRequest])
        let missing = try #require(translation.diagnostics.first { $0.rule == "apns-push-type" })
        #expect(missing.path == #"$.headers["apns-push-type"]"# && missing.script == "custom/quiet.lua:4", "\(missing)")
        // pushmap's own headers are complete: the built-in template's request has no such finding.
        let plain = try translator.translate(Array(#"{"title": "Hi", "target": {"token": "t"}}"#.utf8), platforms: [.apns], forms: [.apnsRequest])
        #expect(!plain.diagnostics.contains { $0.rule == "apns-push-type" }, "\(plain.diagnostics)")
    }
}

extension CustomScriptTests {
    /// Source: the thirty-second audit, F7: a limit met inside a built-in the script called named
    /// the team's file with no line (the built-in given a table the script made), or the built-in
    /// template's own line, `templates/basic.lua:22`, as the place to fix (given the intent).
    @Test("a limit met inside a built-in the script called names the script's calling line, the built-in's place after", arguments: [
        ("intent", ScriptLimits(), ScriptError.Kind.instructionLimit),
        ("{ title = intent.title, body = intent.body }", ScriptLimits(), .instructionLimit),
        ("intent", ScriptLimits(instructions: 1 << 40, timeMilliseconds: 50), .timeLimit),
    ])
    func limitInsideBuiltin(given: String, limits: ScriptLimits, kind: ScriptError.Kind) throws {
        let source = """
            return { name = "loop", api = 1, platforms = { "fcm" }, fcm = function(intent, ctx)
              local payload
              for i = 1, 100000000 do
                payload = pushmap.builtin("basic", "fcm", \(given), ctx)
              end
              return payload
            end }
            """
        let translator = try Translator(scripts: scripts(["loop": source]), options: .init(limits: limits), logger: quietLogger)
        let error = try #require(translationError {
            _ = try translator.translate(Array(#"{"template": "loop", "title": "Hi", "body": "b", "target": {"token": "t"}}"#.utf8), platforms: [.fcm])
        })
        let scriptError = try #require(error.scriptError)
        #expect(scriptError.kind == kind, "\(scriptError)")
        #expect(scriptError.script == "custom/loop.lua" && scriptError.line == 4, "\(scriptError)")
        #expect(scriptError.message.contains("(in templates/") || scriptError.message.contains("(in pushmap/"), "\(scriptError)")
    }
}

extension CustomScriptTests {
    /// What translating `intent` to FCM with the one team script `source` (template `name`)
    /// fails with, or nil when it translates.
    static func fcmFailure(of source: String, named name: String, intent: String) throws -> TranslationError? {
        let translator = try Translator(scripts: scripts([name: source]), logger: quietLogger)
        return translationError { _ = try translator.translate(Array(intent.utf8), platforms: [.fcm]) }
    }
}
