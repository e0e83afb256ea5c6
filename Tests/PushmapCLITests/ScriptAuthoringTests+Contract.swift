import Foundation
import Testing

// Declared fields through the command line: the contract, the schema and the exported annotations.
extension ScriptAuthoringTests {
    /// A team's folder using the contract: a field shared by every template, a template that
    /// requires its own field and a common one.
    static let contractFiles = [
        "m/shared.lua": """
            -- Fields every template accepts, declared once.
            return { fields = { orderId = "string" } }

            """,
        "m/shipping.lua": """
            local map = pushmap.map

            return {
              name = "shipping",
              api = 1,
              platforms = { "fcm", "apns" },
              fields = { trackingUrl = "string", carrier = "string" },
              required = { "trackingUrl", "target" },
              fcm = function(intent, ctx)
                local payload = map("basic", "fcm", intent, ctx)
                payload.message.data.acme_order_id = intent.orderId
                payload.message.data.acme_tracking = intent.trackingUrl
                return payload
              end,
              apns = function(intent, ctx) return map("basic", "apns", intent, ctx) end,
            }

            """,
    ]

    @Test("required and shared fields; an unknown template stops before field errors; PUSHMAP_SCRIPTS")
    func contract() throws {
        let folder = try Self.folder(Self.contractFiles.merging([
            "parcel.json": #"{"template": "shipping", "title": "On its way", "body": "Soon", "orderId": "A-1", "trackingUrl": "https://t.example/A-1", "target": {"token": "d1"}}"#,
            "missing.json": #"{"template": "shipping", "title": "On its way", "body": "Soon"}"#,
            "basic.json": #"{"template": "basic", "title": "Hi", "body": "There", "orderId": "A-1"}"#,
            "misplaced.json": #"{"template": "basic", "title": "Hi", "body": "There", "trackingUrl": "https://t.example/A-1"}"#,
            "typo.json": #"{"template": "shiping", "title": "Hi", "body": "There", "trackingUrl": "https://t.example/A-1", "carrier": "X"}"#,
        ]) { $1 })
        defer { try? FileManager.default.removeItem(at: folder) }
        func translate(_ file: String, _ extra: [String] = ["--scripts", "m"], environment: [String: String] = [:]) throws -> CommandRunner.Result {
            try CommandRunner.run(["translate", "--platform", "fcm", "--compact"] + extra + [file], directory: folder, environment: environment)
        }
        let parcel = try translate("parcel.json")
        #expect(parcel.status == 0, "\(parcel.stderr)")
        #expect(parcel.stdout.contains(#""acme_order_id":"A-1""#) && parcel.stdout.contains(#""acme_tracking":"https://t.example/A-1""#), "\(parcel.stdout)")

        let missing = try translate("missing.json")
        #expect(missing.status == 1)
        #expect(missing.stderr == """
            missing.json: error: $: missing required field 'target' [missing-field]
            missing.json: error: $: missing required field 'trackingUrl' [missing-field]

            """, "\(missing.stderr)")

        // The shared field is every template's; a template's own field is only its own.
        #expect(try translate("basic.json").status == 0)
        let misplaced = try translate("misplaced.json")
        #expect(misplaced.status == 1)
        #expect(misplaced.stderr.contains("unknown field 'trackingUrl'"), "\(misplaced.stderr)")

        // An unknown template is one error, with a near name...
        let typo = try translate("typo.json")
        #expect(typo.status == 1)
        #expect(typo.stderr == "typo.json: error: $.template: unknown template 'shiping'; did you mean 'shipping'? (known: basic, carousel, cat, icon, input, plain, rate, shipping, timer, zb) [unknown-template]\n", "\(typo.stderr)")
        // ...or, with no near name (the scripts were not given), how to load them.
        let forgot = try translate("parcel.json", [])
        #expect(forgot.status == 1)
        #expect(forgot.stderr == "parcel.json: error: $.template: unknown template 'shipping' (known: basic, carousel, cat, icon, input, plain, rate, timer, zb); a template of your own is loaded from its folder with --scripts DIR or PUSHMAP_SCRIPTS [unknown-template]\n", "\(forgot.stderr)")

        // PUSHMAP_SCRIPTS gives the folder once for every command.
        let fromEnvironment = try translate("parcel.json", [], environment: ["PUSHMAP_SCRIPTS": "m"])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
        #expect(fromEnvironment.stdoutBytes == parcel.stdoutBytes)
        let listed = try CommandRunner.run(["templates"], directory: folder, environment: ["PUSHMAP_SCRIPTS": "m"])
        #expect(listed.stdout.contains("shipping  fcm,apns   m/shipping.lua; adds fields carrier, orderId, trackingUrl; requires target, trackingUrl"), "\(listed.stdout)")
    }

    @Test("schema --scripts publishes each template's declared fields; a JSON Schema validator accepts a custom intent and refuses a wrong one")
    func schemaWithDeclaredFields() throws {
        let python = CommandRunner.root.appendingPathComponent(".venv-test/bin/python")
        try #require(FileManager.default.isExecutableFile(atPath: python.path), "run scripts/setup --test to install jsonschema into .venv-test")
        let intents = [
            "good-shipping": #"{"template": "shipping", "title": "On its way", "body": "Soon", "orderId": "A-1", "trackingUrl": "https://t.example/A-1", "target": {"token": "d1"}}"#,
            "good-plain": #"{"title": "Hi", "body": "There", "orderId": "A-1"}"#,
            "bad-type": #"{"template": "shipping", "title": "On its way", "body": "Soon", "orderId": 1, "trackingUrl": "https://t.example/A-1", "target": {"token": "d1"}}"#,
            "bad-missing": #"{"template": "shipping", "title": "On its way", "body": "Soon", "target": {"token": "d1"}}"#,
            "bad-misplaced": #"{"template": "basic", "title": "Hi", "body": "There", "trackingUrl": "https://t.example/A-1"}"#,
            "bad-unknown": #"{"template": "basic", "title": "Hi", "body": "There", "orderID": "A-1"}"#,
        ]
        var files = Self.contractFiles
        for (name, text) in intents { files["\(name).json"] = text }
        files["validate.py"] = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            validator = jsonschema.Draft202012Validator(schema)
            for path in sys.argv[2:]:
                errors = [error.message for error in validator.iter_errors(json.load(open(path)))]
                print(path, "valid" if not errors else "invalid: " + "; ".join(sorted(errors)))

            """
        let folder = try Self.folder(files)
        defer { try? FileManager.default.removeItem(at: folder) }
        let schema = try CommandRunner.run(["schema", "--scripts", "m"], directory: folder)
        #expect(schema.status == 0, "\(schema.stderr)")
        try schema.stdoutBytes.write(to: folder.appendingPathComponent("schema.json"))

        let process = Process()
        process.executableURL = python
        process.arguments = ["validate.py", "schema.json"] + intents.keys.sorted().map { "\($0).json" }
        process.currentDirectoryURL = folder
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        let verdicts = Dictionary(uniqueKeysWithValues: text.split(separator: "\n").map { line in
            (String(line.prefix { $0 != " " }.dropLast(5)), String(line.drop { $0 != " " }.dropFirst()))
        })
        #expect(verdicts["good-shipping"] == "valid", "\(text)")
        #expect(verdicts["good-plain"] == "valid", "\(text)")
        #expect(verdicts["bad-type"]?.contains("1 is not of type 'string'") == true, "\(text)")
        #expect(verdicts["bad-missing"]?.contains("'trackingUrl' is a required property") == true, "\(text)")
        #expect(verdicts["bad-misplaced"]?.contains("'trackingUrl' was unexpected") == true, "\(text)")
        #expect(verdicts["bad-unknown"]?.contains("'orderID' was unexpected") == true, "\(text)")
        // pushmap itself agrees with the validator on each.
        for name in intents.keys {
            let translated = try CommandRunner.run(["translate", "--scripts", "m", "\(name).json"], directory: folder)
            #expect((translated.status == 0) == name.hasPrefix("good"), "\(name): \(translated.stderr)")
        }
    }

    @Test("scripts export writes Lua Language Server annotations that match the pushmap table, ctx and the intent")
    func annotations() throws {
        // What a script really sees: the names in pushmap and in ctx, listed by a mapping.
        let folder = try Self.folder(["m/names.lua": """
            local function names(t)
              local list = {}
              for key in pairs(t) do list[#list + 1] = key end
              table.sort(list)
              return table.concat(list, ",")
            end

            return {
              name = "names", api = 1, platforms = { "fcm" }, fields = { eta = "integer" },
              fcm = function(intent, ctx)
                return { message = { data = { api = names(pushmap), ctx = names(ctx) } } }
              end,
            }

            """])
        defer { try? FileManager.default.removeItem(at: folder) }
        let seen = try CommandRunner.run(["translate", "--platform", "fcm", "--scripts", "m"], input: Data(#"{"template": "names"}"#.utf8), directory: folder)
        #expect(seen.status == 0, "\(seen.stderr)")
        let data = try #require(((CommandRunner.json(seen.stdout) as? [String: Any])?["message"] as? [String: Any])?["data"] as? [String: String])
        let api = Set(try #require(data["api"]).split(separator: ",").map(String.init))
        let ctx = Set(try #require(data["ctx"]).split(separator: ",").map(String.init))
        #expect(api.contains("date") && api.contains("map") && ctx.contains("now"), "\(data)")

        let export = try CommandRunner.run(["scripts", "export", "exported"], directory: folder)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.hasSuffix("wrote exported/types/pushmap.lua\n"), "\(export.stdout)")
        let text = try String(contentsOf: folder.appendingPathComponent("exported/types/pushmap.lua"), encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "---@meta")
        // Every function and value of the pushmap table is annotated, and nothing else is.
        var annotated: Set<String> = []
        for line in lines {
            for prefix in ["function pushmap.", "pushmap."] where line.hasPrefix(prefix) {
                annotated.insert(String(line.dropFirst(prefix.count).prefix { $0.isLetter || $0.isNumber || $0 == "_" }))
            }
        }
        #expect(annotated == api, "annotated but absent: \(annotated.subtracting(api)); present but not annotated: \(api.subtracting(annotated))")
        // Every function's parameters are annotated, in order.
        for (index, line) in lines.enumerated() where line.hasPrefix("function pushmap.") {
            let parameters = line.drop { $0 != "(" }.dropFirst().prefix { $0 != ")" }.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let documented = lines[..<index].reversed().prefix { $0.hasPrefix("---") }.reversed().compactMap { line -> String? in
                guard line.hasPrefix("---@param ") else { return nil }
                return String(line.dropFirst("---@param ".count).prefix { $0 != " " }.replacingOccurrences(of: "?", with: ""))
            }
            #expect(documented == parameters, "\(line): @param \(documented)")
        }
        // ctx's fields, and the intent's top-level fields as `pushmap schema` has them.
        func fields(of name: String) -> Set<String> {
            let start = lines.firstIndex(of: "---@class \(name)").map { $0 + 1 } ?? lines.endIndex
            return Set(lines[start...].prefix { $0.hasPrefix("---@field ") }.map {
                String($0.dropFirst("---@field ".count).prefix { $0 != " " && $0 != "?" })
            })
        }
        #expect(fields(of: "pushmap.Context") == ctx)
        let schema = try CommandRunner.run(["schema"])
        let properties = try #require((CommandRunner.json(schema.stdout) as? [String: Any])?["properties"] as? [String: Any])
        #expect(fields(of: "pushmap.Intent") == Set(properties.keys.filter { $0 != "$schema" }))
        // The folder still checks: the annotations are not a template.
        let check = try CommandRunner.run(["scripts", "check", "exported"], directory: folder)
        #expect(check.status == 0, "\(check.stdout)")

        // With a team's scripts, the intent's class holds the fields they declare; --types-only
        // writes that file alone, and again over it.
        for _ in 0..<2 {
            let types = try CommandRunner.run(["scripts", "export", "--types-only", "--scripts", "m", "m"], directory: folder)
            #expect(types.status == 0 && types.stdout == "wrote m/types/pushmap.lua\n", "\(types.stdout)\(types.stderr)")
        }
        let ours = try String(contentsOf: folder.appendingPathComponent("m/types/pushmap.lua"), encoding: .utf8)
        #expect(ours.contains("---@field eta? integer Declared by m/names.lua."), "\(ours.suffix(2000))")
    }

    @Test("the smaller points: a mistyped command, text that is not JSON, file completion, a quick start without warnings")
    func smallerPoints() throws {
        let typo = try CommandRunner.run(["translat", "intent.json"])
        #expect(typo.status == 64)
        #expect(typo.stderr.hasPrefix("Error: unknown command 'translat'; did you mean 'translate'?\n"), "\(typo.stderr)")
        // The same for help's argument, which printed the top help, exit 0 (the thirty-ninth audit, F11).
        let helpTypo = try CommandRunner.run(["help", "translat"])
        #expect(helpTypo.status == 64 && helpTypo.stderr.hasPrefix("Error: unknown command 'translat'; did you mean 'translate'?\n"), "\(helpTypo.stderr)")
        #expect(try CommandRunner.run(["help", "translate"]).stdout.hasPrefix("OVERVIEW: Translate one intent"))
        // One level down too: it was "2 unexpected arguments" (the forty-fourth audit, scripts F10).
        let nested = try CommandRunner.run(["scripts", "chek", "mappings"])
        #expect(nested.status == 64)
        #expect(nested.stderr == """
            Error: unknown command 'scripts chek'; did you mean 'scripts check'?
            Usage: pushmap scripts <subcommand>
              See 'pushmap scripts --help' for more information.

            """, "\(nested.stderr)")

        let notJSON = try CommandRunner.run(["translate"], input: Data("not json\n".utf8))
        #expect(notJSON.status == 1)
        #expect(notJSON.stderr == "<stdin>: error: $: 1:1: not JSON: it starts with 'not json'; a JSON object starts with { [json-syntax]\n", "\(notJSON.stderr)")

        let bash = try CommandRunner.run(["--generate-completion-script", "bash"])
        #expect(bash.stdout.contains("translate") && bash.stdout.contains("-o plusdirs"), "file names are completed")
        // The forty-sixth audit, cli F9: import's payload file had no completion.
        let zsh = try CommandRunner.run(["--generate-completion-script", "zsh"]).stdout
        let importFunction = zsh.components(separatedBy: "_pushmap_import() {").dropFirst().first?.components(separatedBy: "\n}").first ?? ""
        #expect(importFunction.contains("':file:_files -g "), "\(importFunction)")

        // The README's first command, as written there, prints both payloads and no warning.
        let readme = try String(contentsOf: CommandRunner.root.appendingPathComponent("README.md"), encoding: .utf8)
        let line = try #require(readme.split(separator: "\n").first { $0.hasPrefix("scripts/pushmap translate ") })
        let quickStart = try CommandRunner.run(line.split(separator: " ").dropFirst().map(String.init))
        #expect(quickStart.status == 0)
        #expect(quickStart.stderr.isEmpty, "\(quickStart.stderr)")
        #expect(quickStart.stdout.contains("\"fcm\"") && quickStart.stdout.contains("\"apns\""))
    }

    /// Source: the forty-sixth audit (cli F6, F12; scripts F2) against script-contract.md
    /// ("a template with no fixture fails"; "a case that must fail"): a fixture of another
    /// template's intent counted its folder's template as tested, which never ran; a folder named
    /// for no template passed; an FCM-only template's error case saw the apns platform's
    /// unsupported-platform error instead of its own; "not JSON" was said twice.
    @Test("scripts check: only a fixture for NAME tests NAME; a folder for no template fails; an error case runs its template's platforms")
    func fixturesBelongToTheirTemplate() throws {
        let folder = try Self.folder([
            "m/boom.lua": #"return { name = "boom", api = 1, platforms = { "fcm" }, fcm = function(intent, ctx) error("boom") end }"# + "\n",
            "m/boom.test/other.json": #"{"intent": {"template": "basic", "title": "t", "body": "b"}, "error": "no such words"}"#,
            "m/promo.lua": #"return { name = "promo", api = 1, platforms = { "fcm" }, fields = { coupon = "string" }, fcm = function(intent, ctx) if intent.coupon == nil then pushmap.error("$.coupon", "needs a coupon") end return pushmap.map("basic", "fcm", intent, ctx) end }"# + "\n",
            "m/promo.test/error.json": #"{"intent": {"template": "promo", "title": "t", "body": "b"}, "error": "needs a coupon"}"#,
            "m/nosuch.test/x.json": #"{"intent": {"title": "t", "body": "b"}, "error": "anything"}"#,
            "m/promo.test/broken.json": "not json",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandRunner.run(["scripts", "check", "m"], directory: folder)
        #expect(result.status == 1)
        #expect(result.stdout.contains("PASS m/promo.test/error.json\n"), "\(result.stdout)")
        #expect(result.stdout.contains("FAIL m/promo.test/broken.json\n     not JSON: 1:1: it starts with"), "\(result.stdout)")
        #expect(result.stdout.contains("FAIL m/nosuch.test/x.json\n     no template nosuch is loaded"), "\(result.stdout)")
        #expect(result.stdout.contains("FAIL m/boom.lua: no fixtures (write them as m/boom.test/CASE.json)\n"), "\(result.stdout)")
    }

}
