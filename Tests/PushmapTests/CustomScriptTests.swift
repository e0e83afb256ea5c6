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
