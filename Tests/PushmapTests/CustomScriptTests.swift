import PushmapJSON
import PushmapTestSupport
@_spi(Tools) @testable import Pushmap
import Testing

@Suite("Custom scripts")
struct CustomScriptTests {
    static let renameSound = """
    -- A team's basic: the built-in basic, with adb_sound renamed.
    return {
      name = "basic",
      api = 1,
      platforms = { "fcm", "apns" },
      fcm = function(intent, ctx)
        local payload = pushmap.builtin("basic", "fcm", intent, ctx)
        local data = payload.message.data
        data.adb_snd, data.adb_sound = data.adb_sound, nil
        return payload
      end,
      apns = function(intent, ctx) return pushmap.builtin("basic", "apns", intent, ctx) end,
    }
    """

    static let promo = """
    return {
      name = "promo",
      api = 1,
      platforms = { "fcm" },
      fields = { coupon = "string" },
      fcm = function(intent, ctx)
        return { message = { data = { promo_title = intent.title, promo_coupon = intent.coupon } } }
      end,
    }
    """

    /// A team's template on the built-in basic that leaves out the buttons, and says so.
    static let zoom = """
    return {
      name = "zoom",
      api = 1,
      platforms = { "fcm" },
      base = "basic",
      ignores = { "buttons" },
      fcm = function(intent, ctx)
        local payload = pushmap.builtin("basic", "fcm", intent, ctx)
        payload.message.data.adb_act = nil
        return payload
      end,
    }
    """

    let intent = #"{"template": "basic", "title": "Hi", "body": "There", "sound": "ding"}"#

    @Test("an override renames a key, composed on the built-in without copying it")
    func renameThroughOverride() throws {
        let translator = try Translator(scripts: scripts(["basic": Self.renameSound]), logger: quietLogger)
        let translation = try translator.translate(Array(intent.utf8), platforms: [.fcm, .apns])
        #expect(data(translation.payloads[.fcm])?["adb_snd"] == .string("ding"))
        #expect(data(translation.payloads[.fcm])?["adb_sound"] == nil)
        #expect(data(translation.payloads[.fcm])?["adb_title"] == .string("Hi"))
        #expect(translation.payloads[.apns]?["aps"]?["sound"] == .string("ding"))
        #expect(translator.templates["basic"]?.overrides == true)
        #expect(translator.templates["basic"]?.layer == "custom")
    }

    @Test("a new template is added by one script, with its own checked fields")
    func newTemplate() throws {
        let translator = try Translator(scripts: scripts(["promo": Self.promo]), logger: quietLogger)
        let translation = try translator.translate(Array(#"{"template": "promo", "title": "Sale", "coupon": "X1"}"#.utf8), platforms: [.fcm])
        #expect(data(translation.payloads[.fcm]) == .object(["promo_title": "Sale", "promo_coupon": "X1"]))
        let typo = translationError { _ = try translator.translate(Array(#"{"template": "promo", "copuon": "X1"}"#.utf8), platforms: [.fcm]) }
        #expect(typo?.diagnostics.first?.message == "unknown field 'copuon' at $; did you mean 'coupon'?")
        let wrongPlatform = translationError { _ = try translator.translate(Array(#"{"template": "promo"}"#.utf8), platforms: [.apns]) }
        #expect(wrongPlatform?.diagnostics.first?.rule == "unsupported-platform")
        // The field belongs to promo only.
        let elsewhere = translationError { _ = try translator.translate(Array(#"{"coupon": "X1"}"#.utf8), platforms: [.fcm]) }
        #expect(elsewhere?.diagnostics.first?.rule == "unknown-field")
    }

    @Test("a template's declarations reach the templates it builds on, which name no template of their own")
    func declarations() throws {
        let translator = try Translator(scripts: scripts(["zoom": Self.zoom]), logger: quietLogger)
        let intent = #"{"template": "zoom", "title": "Hi", "body": "There", "buttons": [{"label": "Go"}], "remindLater": {"label": "Later", "after": 60}}"#
        let translation = try translator.translate(Array(intent.utf8), platforms: [.fcm])
        #expect(data(translation.payloads[.fcm])?["adb_act"] == nil)
        // Built on basic, so basic's remindLater is accepted and written.
        #expect(data(translation.payloads[.fcm])?["adb_rem_txt"] == .string("Later"))
        #expect(translation.diagnostics.map(\.message) == ["buttons are ignored by the zoom template"])
        let carousel = #"{"template": "zoom", "title": "Hi", "body": "There", "carousel": {"items": [{"image": "https://example.com/1.png"}]}}"#
        // Another template's field is not read: ignored, with a warning.
        let ignored = try translator.translate(Array(carousel.utf8), platforms: [.fcm])
        #expect(ignored.diagnostics.map(\.message) == ["field 'carousel' belongs to the carousel template, not zoom: it is ignored"])
        #expect(ignored.diagnostics.map(\.severity) == [.warning])
        #expect(data(ignored.payloads[.fcm])?["adb_items"] == nil)
        // A template that declares nothing decides for itself.
        let promo = try Translator(scripts: scripts(["promo": Self.promo]), logger: quietLogger)
        _ = try promo.translate(Array(#"{"template": "promo", "title": "Sale", "carousel": {"items": []}}"#.utf8), platforms: [.fcm])
    }

    @Test("pushmap.reserved says why a custom key cannot be used, the same way each time")
    func reservedKeys() throws {
        let source = """
            return { name = 'keys', api = 1, platforms = {'apns'}, fields = { keys = 'array' },
              apns = function(intent)
                local fcm, apns = {}, {}
                for round = 1, 2 do
                  for i = 1, #intent.keys do
                    fcm[#fcm + 1] = pushmap.reserved(intent.keys[i], 'fcm') or 'ok'
                    apns[#apns + 1] = pushmap.reserved(intent.keys[i], 'apns') or 'ok'
                  end
                end
                return { aps = { alert = 'x' }, fcm = fcm, apns = apns }
              end }
            """
        let translator = try Translator(scripts: scripts(["keys": source]), logger: quietLogger)
        let keys = ["adb_title", "aps", "from", "google.x", "gcm.notification.y", "message_type", "orderId", "adb", "apsx", "gcm.y"]
        let intent = JSONValue.object(JSONObject([("template", .string("keys")), ("keys", .array(keys.map(JSONValue.string)))]))
        let payload = try translator.translate(intent, platforms: [.apns]).payloads[.apns]
        let collides = "collides with the keys pushmap writes (adb_*)"
        // FCM's v1 API reserves gcm.notification.*, not every gcm. key; an FCM data map may hold
        // aps (twenty-fifth audit, F3: validate passed the payload translate refused).
        let fcm = [collides, "ok", "is reserved by FCM", "is reserved by FCM", "is reserved by FCM", "is reserved by FCM", "ok", "ok", "ok", "ok"]
        let apns = [collides, "collides with the aps dictionary pushmap writes", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok"]
        #expect(payload?["fcm"]?.arrayValue?.compactMap(\.stringValue) == fcm + fcm)
        #expect(payload?["apns"]?.arrayValue?.compactMap(\.stringValue) == apns + apns)
    }

    @Test("a script that breaks the contract is reported with its file and line", arguments: [
        ("return {\n  name = 'other', api = 1, platforms = {'fcm'}, fcm = function() return {} end }", "'name'"),
        ("local x = 1\nreturn {\n  name = 'bad', api = 1, platforms = 'fcm', fcm = function() return {} end }", "'platforms'"),
        ("return { name = 'bad', api = 1, platforms = {'fcm'} }", "fcm"),
        ("return { name = 'bad', api = 99, platforms = {'fcm'}, fcm = function() return {} end }", "api"),
        ("return 42", "table"),
        ("return { name = 'bad', api = 1, platforms = {'fcm'}, owns = 'carousel', fcm = function() return {} end }", "'owns'"),
        ("return { name = 'bad', api = 1, platforms = {'fcm'}, owns = {'timer'}, fcm = function() return {} end }", "owned by the timer template"),
        ("return { name = 'bad', api = 1, platforms = {'fcm'}, base = 2, fcm = function() return {} end }", "'base'"),
        // A claim on a common field every built-in reads (the twenty-sixth audit, F10).
        ("return { name = 'bad', api = 1, platforms = {'fcm'}, owns = {'title'}, fcm = function() return {} end }",
         "'owns' names 'title', a common intent field the built-in templates read"),
        ("return { name = 'bad', api = 1, platforms = {'fcm'}, owns = {'colors.title'}, fcm = function() return {} end }",
         "'owns' names 'colors.title', a common intent field"),
        // A base that leads back to the template (the twenty-sixth audit, F15).
        ("return { name = 'bad', api = 1, platforms = {'fcm'}, base = 'bad', fcm = function() return {} end }", "'base' goes round: bad -> bad"),
        // A field both required and left out: no intent could pass (the twenty-sixth audit, F15).
        ("return { name = 'bad', api = 1, platforms = {'fcm'}, base = 'basic', required = {'buttons'}, ignores = {'buttons'}, fcm = function() return {} end }",
         "'required' and 'ignores' both name 'buttons'"),
        // A misspelt ignores entry ignored nothing (the twenty-sixth audit, F11).
        ("return { name = 'bad', api = 1, platforms = {'fcm'}, base = 'basic', ignores = {'remindLatr'}, fcm = function() return {} end }",
         "'ignores' names 'remindLatr', which is no intent field; did you mean remindLater?"),
    ])
    func contractErrors(source: String, mentions: String) throws {
        do {
            _ = try Translator(scripts: scripts(["bad": source]), logger: quietLogger)
            Issue.record("expected a contract error")
        } catch {
            #expect(error.kind == .contract || error.kind == .runtime)
            #expect(error.script == "custom/bad.lua")
            #expect(error.line == ScriptRuntime.returnLine(of: source))
            #expect(error.message.contains(mentions), "\(error)")
        }
    }

    @Test("a reload that fails keeps the previous scripts and says why")
    func failedReload() throws {
        let translator = try Translator(scripts: scripts(["promo": Self.promo]), logger: quietLogger)
        let broken = scripts(["promo": "return {"])
        do {
            try translator.reload(broken)
            Issue.record("expected the reload to fail")
        } catch {
            #expect(error.kind == .syntax)
            #expect(error.description.hasPrefix("custom/promo.lua:1:"))
        }
        let translation = try translator.translate(Array(#"{"template": "promo", "title": "Still", "coupon": "ok"}"#.utf8), platforms: [.fcm])
        #expect(data(translation.payloads[.fcm])?["promo_title"] == .string("Still"))
        // A good reload takes effect.
        try translator.reload(.builtin)
        #expect(translator.templates["promo"] == nil)
    }

    @Test("a failing mapping is a script error with file and line, distinct from an invalid intent")
    func runtimeFailure() throws {
        let source = "return { name = 'boom', api = 1, platforms = {'fcm'},\n  fcm = function(intent)\n    return intent.carousel.items\n  end }"
        let error = try Self.fcmFailure(of: source, named: "boom", intent: #"{"template": "boom"}"#)
        #expect(error?.kind == .scriptFailed)
        #expect(error?.exitCode == 2)
        #expect(error?.scriptError?.description == "custom/boom.lua:3: attempt to index a nil value (field 'carousel')")
    }

    @Test("a payload may be nested as deep as the documented limit, and one level more is refused at its path")
    func payloadDepth() throws {
        // The payload itself is level 1; `deep` and the tables inside it make the rest.
        func script(_ name: String, levels: Int) -> String {
            "return { name = '\(name)', api = 1, platforms = {'apns'}, apns = function(intent)\n" +
                "  local t = 1 for i = 1, \(levels - 1) do t = { t } end\n" +
                "  return { aps = { alert = 'deep' }, deep = t }\nend }"
        }
        let translator = try Translator(scripts: scripts(["fits": script("fits", levels: 32), "over": script("over", levels: 33)]), logger: quietLogger)
        let fits = try translator.translate(Array(#"{"template": "fits"}"#.utf8), platforms: [.apns])
        var depth = 0
        var value = fits.payloads[.apns]
        while let current = value, current.objectValue != nil || current.arrayValue != nil {
            depth += 1
            value = current["deep"] ?? current.arrayValue?.first
        }
        #expect(depth == 32)
        let error = translationError { _ = try translator.translate(Array(#"{"template": "over"}"#.utf8), platforms: [.apns]) }
        #expect(error?.scriptError?.kind == .badValue)
        #expect(error?.scriptError?.message.hasPrefix("value nested deeper than 32 levels at $.deep[0]") == true, "\(String(describing: error))")
        #expect(error?.scriptError?.message.hasSuffix("(in the apns payload)") == true)
    }

    @Test("pushmap.linktype and pushmap.androidColor answer for any input, long ones included")
    func helperFunctions() throws {
        let long = String(repeating: "x", count: 100_000)
        let uris = ["https://shop.example.com", "HTTP:foo", "http+x://a", "myapp://cart", "", "h", "https", "mailto:a@b.c", "https:" + long, long,
                    "HtTpS://x", "hTTp:", "https//x", "httpx:", "Http", "hxtp:", "ftp://x", "\u{C8}ttp:"]
        let expected = ["WEBURL", "WEBURL", "DEEPLINK", "DEEPLINK", "DEEPLINK", "DEEPLINK", "DEEPLINK", "DEEPLINK", "WEBURL", "DEEPLINK",
                        "WEBURL", "WEBURL", "DEEPLINK", "DEEPLINK", "DEEPLINK", "DEEPLINK", "DEEPLINK", "DEEPLINK"]
        // Twice over: the second time the conversions come from the kept ones.
        let colours = ["#ff880080", "ff8800", "FFFFFéC", "12345678", "#ff880080", "ff8800", "FFFFFéC", "12345678"]
        let source = """
            return { name = 'helpers', api = 1, platforms = {'apns'}, fields = { uris = 'array', colours = 'array' },
              apns = function(intent)
                local types, colours, ios = {}, {}, {}
                for i = 1, #intent.uris do types[i] = pushmap.linktype(intent.uris[i]) end
                for i = 1, #intent.colours do colours[i] = pushmap.androidColor(intent.colours[i]) end
                for i = 1, #intent.colours do ios[i] = pushmap.color(intent.colours[i]) end
                local refused = select(2, pcall(pushmap.color, 42))
                return { aps = { alert = 'x' }, types = types, colours = colours, ios = ios, refused = refused }
              end }
            """
        let translator = try Translator(scripts: scripts(["helpers": source]), logger: quietLogger)
        let intent = JSONValue.object(JSONObject([
            ("template", .string("helpers")), ("uris", .array(uris.map(JSONValue.string))), ("colours", .array(colours.map(JSONValue.string))),
        ]))
        let payload = try translator.translate(intent, platforms: [.apns]).payloads[.apns]
        #expect(payload?["types"]?.arrayValue?.compactMap(\.stringValue) == expected)
        let android = ["80FF8800", "FF8800", "FFFFFéC", "78123456"]
        #expect(payload?["colours"]?.arrayValue?.compactMap(\.stringValue) == android + android)
        let ios = ["FF880080", "FF8800", "FFFFFéC", "12345678"]
        #expect(payload?["ios"]?.arrayValue?.compactMap(\.stringValue) == ios + ios)
        #expect(payload?["refused"]?.stringValue?.contains("pushmap.color: the colour must be a string, got number") == true, "\(String(describing: payload?["refused"]))")
    }
}

@Suite("Which templates run without the instruction budget")
struct OwnTemplateTests {
    /// A plain that spends 10 million loop steps before answering: held to a budget of 100,000 it
    /// must fail; run without one it would answer (so a wrong verdict fails the test, not hangs it).
    static let loopingPlain = """
    local function spend() for i = 1, 10000000 do end end
    return {
      name = "plain", api = 1, platforms = { "fcm", "apns" },
      fcm = function(intent, ctx) spend() return { message = { data = { adb_title = intent.title } } } end,
      apns = function(intent, ctx) spend() return { aps = { alert = { title = intent.title } } } end,
    }
    """

    @Test("the built-in templates are pushmap's own; a template a team overrides is not")
    func ownTemplates() {
        #expect(TemplateScripts.builtin.ownTemplates == ["plain", "basic", "carousel", "timer", "input", "zb", "cat", "rate", "icon"])
        #expect(scripts(["basic": CustomScriptTests.renameSound]).ownTemplates == ["plain", "carousel", "timer", "input", "zb", "cat", "rate", "icon"])
    }

    @Test("a script that calls itself built-in takes the budget from every template, which it could reach through pushmap.builtin")
    func impostor() throws {
        var impostor = TemplateScripts.builtin
        impostor.add(name: "plain", source: Self.loopingPlain, layer: "built-in")
        #expect(impostor.ownTemplates.isEmpty)
        let translator = try Translator(scripts: impostor, options: Translator.Options(limits: ScriptLimits(instructions: 100_000)), logger: quietLogger)
        // basic is the embedded one, but its pushmap.builtin("plain") now reaches the loop.
        let error = translationError { _ = try translator.translate(Array(#"{"template": "basic", "title": "t"}"#.utf8), platforms: [.fcm]) }
        #expect(error?.scriptError?.kind == .instructionLimit)
    }

    @Test("an overriding script keeps its budget")
    func overrideIsMetered() throws {
        let translator = try Translator(scripts: scripts(["plain": Self.loopingPlain]), options: Translator.Options(limits: ScriptLimits(instructions: 100_000)), logger: quietLogger)
        let error = translationError { _ = try translator.translate(Array(#"{"title": "t"}"#.utf8), platforms: [.fcm]) }
        #expect(error?.scriptError?.kind == .instructionLimit)
    }

    @Test("pushmap.path writes the JSON paths the Swift side writes, for every kind of key")
    func scriptPaths() throws {
        // Each data key comes back as a warning at pushmap.path("$.data", key); an index too.
        let source = """
        return {
          name = "paths", api = 1, platforms = { "fcm" },
          fcm = function(intent, ctx)
            for key in pairs(intent.data) do pushmap.warn(pushmap.path("$.data", key), "seen") end
            pushmap.warn(pushmap.path(pushmap.path("$.buttons", 2), "uri"), "seen")
            return { message = { data = { k = "v" } } }
          end,
        }
        """
        let translator = try Translator(scripts: scripts(["paths": source]), logger: quietLogger)
        var random = SeededGenerator(seed: 0x9A7B)
        let pieces = ["a", "Z", "_", "7", " ", ".", "-", "\"", "\\", "\n", "\t", "\u{1}", "é", "日本", "😀", "[", "]", "$"]
        for _ in 0..<50 {
            var keys: [String] = []
            for _ in 0..<5 {
                var key = ""
                for _ in 0..<Int.random(in: 0...4, using: &random) { key += pieces[Int.random(in: 0..<pieces.count, using: &random)] }
                if !keys.contains(key) { keys.append(key) }
            }
            let intent = JSONValue.object(["template": "paths", "data": .object(JSONObject(keys.map { ($0, JSONValue.string("v")) }))])
            let translation = try translator.translate(intent, platforms: [.fcm])
            let written = Set(translation.diagnostics.map(\.path))
            let expected = Set(keys.map { JSONPath([.key("data"), .key($0)]).description } + ["$.buttons[2].uri"])
            #expect(written == expected)
        }
    }
}

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
                local payload = pushmap.builtin("basic", "apns", setmetatable({ badge = "7" }, { __index = intent }), ctx)
                return payload
              end }
            """
        let translator = try Translator(scripts: scripts(["lend": source]), logger: quietLogger)
        let error = try #require(translationError {
            _ = try translator.translate(Array(#"{"template": "lend", "title": "Hi", "target": {"token": "t"}}"#.utf8), platforms: [.fcm, .apns])
        })
        #expect(error.scriptError?.script == "custom/lend.lua" && error.scriptError?.line == 6, "\(String(describing: error.scriptError))")
        let badge = try #require(error.diagnostics.first { $0.rule == "apns-badge" })
        #expect(badge.script == "custom/lend.lua:6", "\(badge)")
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
