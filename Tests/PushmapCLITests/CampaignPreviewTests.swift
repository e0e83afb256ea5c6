import Foundation
import Testing

/// `pushmap preview INTENT --recipients FILE`: the longest renderings of a campaign's audience
/// on one gallery page, written by the built binary and opened in headless Chromium.
@Suite("pushmap preview --recipients")
struct CampaignPreviewTests {
    static let intent = #"{"title": "Hi {{ name }}", "body": "{{ note }}", "locales": {"fr": {"title": "Salut {{ name }}"}}}"#

    /// A recipient line: an id, a name and a note of `length` letters.
    static func recipient(_ id: String, name: String, note: Int, extra: String = "") -> String {
        #"{"id": "\#(id)", "vars": {"name": "\#(name)", "note": "\#(String(repeating: "n", count: note))"}\#(extra)}"#
    }

    /// Runs `pushmap preview intent.json --recipients recipients.ndjson OPTIONS --output page.html`
    /// in a folder of its own; the page as Chromium builds it, when one was written.
    static func page(_ recipients: [String], _ options: [String] = []) throws -> (result: CommandRunner.Result, dom: DOM?) {
        let files = try CampaignCommandTests.Files(intent: intent, recipients: recipients)
        defer { try? FileManager.default.removeItem(at: files.folder) }
        let page = files.folder.appendingPathComponent("page.html")
        let result = try CommandRunner.run(
            ["preview", "intent.json", "--recipients", "recipients.ndjson", "--output", page.path] + options, directory: files.folder)
        guard FileManager.default.fileExists(atPath: page.path) else { return (result, nil) }
        return (result, try HeadlessChromium.dumpDOM(page))
    }

    @Test("the page draws the N longest recipients, longest first, each labelled with its line, id, locale and length; not the shorter ones")
    func longest() throws {
        let recipients = [
            Self.recipient("short", name: "Al", note: 5),
            Self.recipient("long", name: "Bea", note: 80, extra: #", "locale": "fr""#),
            Self.recipient("tiny", name: "Cy", note: 1),
            Self.recipient("longest", name: "Dee", note: 120),
            Self.recipient("middle", name: "Ed", note: 40),
        ]
        let (result, dom) = try Self.page(recipients, ["--longest", "3"])
        #expect(result.status == 0, "\(result.stderr)")
        let page = try #require(dom)
        #expect(page.contains(#"data-page="gallery""#))
        // "Hi Dee" + 120, "Salut Bea" + 80, "Hi Ed" + 40.
        #expect(page.values(of: "data-entry") == [
            "line 4, longest, 126 characters", "line 2, long, locale fr, 89 characters", "line 5, middle, 45 characters",
        ])
        #expect(page.texts("title").contains("Salut Bea"), "the recipient's locale layer is drawn")
        #expect(page.texts("title").contains("Hi Dee"))
        for shorter in ["short", "tiny", "Hi Al", "Hi Cy"] { #expect(!page.contains(shorter), "\(shorter) is not among the 3 longest") }
        // Six by default.
        let all = try Self.page(recipients)
        #expect(all.result.status == 0, "\(all.result.stderr)")
        #expect(all.dom?.values(of: "data-entry").count == 5)
    }

    @Test("each drawn recipient shows its campaign warnings: the text cut to fit, the locale fallback, a variable rendered empty with --lenient")
    func warnings() throws {
        let recipients = [
            #"{"id": "huge", "platform": "apns", "vars": {"name": "Zoe", "note": "\#(String(repeating: "é", count: 5000))"}}"#,
            Self.recipient("austrian", name: "Jonas", note: 30, extra: #", "locale": "de-AT""#),
            #"{"id": "nameless", "vars": {"note": "\#(String(repeating: "n", count: 20))"}}"#,
        ]
        let (result, dom) = try Self.page(recipients, ["--lenient"])
        #expect(result.status == 0, "\(result.stderr)")
        let page = try #require(dom)
        #expect(page.values(of: "data-entry") == [
            "line 1, huge, 5006 characters", "line 2, austrian, locale de-AT, 38 characters", "line 3, nameless, 23 characters",
        ])
        #expect(page.contains("$.body: shortened from 5000 to "), "the truncation warning, with the lengths")
        #expect(page.contains("no de-AT or de: sent in the default language"))
        #expect(page.contains("$.title: name is not in this recipient&#39;s vars: rendered empty") || page.contains("$.title: name is not in this recipient's vars: rendered empty"))
        let rules = page.values(of: "data-rule")
        for rule in ["truncated", "locale-fallback", "missing-variable"] { #expect(rules.contains(rule), "\(rule) in \(rules)") }
    }

    @Test("a recipient whose line is an error is listed with its error, not drawn; the page is written and the exit status is 1")
    func failedRecipients() throws {
        let recipients = [
            Self.recipient("fine", name: "Ann", note: 10),
            "not json",
            #"{"id": "nameless", "vars": {"note": "a note much longer than the others, to be sure length does not draw it"}}"#,
            #"{"id": "typo", "var": {}}"#,
        ]
        let (result, dom) = try Self.page(recipients)
        #expect(result.status == 1)
        #expect(result.stderr.contains("pushmap: preview: 3 of 4 recipients did not translate"), "\(result.stderr)")
        let page = try #require(dom)
        #expect(page.values(of: "data-entry") == ["line 1, fine, 16 characters", "line 2", "line 3, nameless", "line 4, typo"])
        let failures = page.texts("failure-line")
        #expect(failures.contains { $0.contains("[json-syntax]") }, "\(failures)")
        #expect(failures.contains("error: $.title: name is not in this recipient's vars [missing-variable]"), "\(failures)")
        #expect(failures.contains { $0.contains("did you mean 'vars'?") }, "\(failures)")
        #expect(page.count(#"data-role="failure""#) == 3)
        // Only the recipient that translated is drawn: one entry's two platforms.
        #expect(Set(page.values(of: "data-platform")) == ["fcm", "apns"])
        #expect(!page.contains("much longer than the others"))
    }

    @Test("the terminal text lists the same recipients, with their warnings and errors")
    func terminal() throws {
        let files = try CampaignCommandTests.Files(intent: Self.intent, recipients: [
            Self.recipient("a", name: "Ann", note: 3), Self.recipient("b", name: "Bo", note: 9), "[]",
        ])
        defer { try? FileManager.default.removeItem(at: files.folder) }
        let result = try CommandRunner.run(["preview", "intent.json", "--recipients", "recipients.ndjson", "--longest", "1"], directory: files.folder)
        #expect(result.status == 1)
        #expect(result.stdout.contains("line 2, b, 14 characters: template plain"), "\(result.stdout)")
        #expect(!result.stdout.contains("line 1"), "\(result.stdout)")
        #expect(result.stdout.contains("a recipient is a JSON object, got an array") || result.stdout.contains("a recipient is a JSON object, got array"), "\(result.stdout)")
        // The recipients from standard input.
        let piped = try CommandRunner.run(
            ["preview", "intent.json", "--recipients", "-", "--longest", "1"], input: Data((Self.recipient("c", name: "Cy", note: 20) + "\n").utf8),
            directory: files.folder)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout.hasPrefix("line 1, c, 25 characters: template plain"), "\(piped.stdout)")
        // The sixth audit: a line feed in an id started what read as another entry.
        let forged = try CommandRunner.run(
            ["preview", "intent.json", "--recipients", "-", "--longest", "1"],
            input: Data((Self.recipient(#"c\nline 7, u-7, 3 characters: template plain"#, name: "Cy", note: 20) + "\n").utf8), directory: files.folder)
        #expect(forged.status == 0, "\(forged.stderr)")
        #expect(!forged.stdout.contains("\nline 7"), "\(forged.stdout)")
        #expect(forged.stdout.hasPrefix("line 1, c\\nline 7") || forged.stdout.hasPrefix("line 1, c\\u{A}line 7") || forged.stdout.hasPrefix("line 1, c\\u000Aline 7"), "\(forged.stdout.prefix(80))")
    }

    @Test("usage errors exit 64; an unreadable or empty recipients file exits 1 with no page")
    func usage() throws {
        let files = try CampaignCommandTests.Files(intent: Self.intent, recipients: [Self.recipient("a", name: "Ann", note: 3)])
        defer { try? FileManager.default.removeItem(at: files.folder) }
        let usages: [[String]] = [
            ["preview", "intent.json", "--longest", "2"],
            ["preview", "intent.json", "--recipients", "recipients.ndjson", "--longest", "0"],
            ["preview", "intent.json", "--recipients", "recipients.ndjson", "--longest", "101"],
            ["preview", "intent.json", "--recipients", "recipients.ndjson", "--recipient", "recipients.ndjson"],
            ["preview", "--gallery", ".", "--recipients", "recipients.ndjson"],
            ["preview", "intent.json", "--lenient"],
            ["preview", "--recipients", "-"],
        ]
        for arguments in usages {
            let result = try CommandRunner.run(arguments, directory: files.folder)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
        }
        // A negative count is read as the count and refused with the range (the forty-third
        // audit, F4: "Missing value").
        for flag in [["--longest", "-5"], ["--longest=-5"]] {
            let result = try CommandRunner.run(["preview", "intent.json", "--recipients", "recipients.ndjson"] + flag, directory: files.folder)
            #expect(result.status == 64 && result.stderr.hasPrefix("Error: --longest must be between 1 and 100"), "\(flag): \(result.stderr)")
        }
        let page = files.folder.appendingPathComponent("page.html")
        let missing = try CommandRunner.run(["preview", "intent.json", "--recipients", "absent.ndjson", "--output", page.path], directory: files.folder)
        #expect(missing.status == 1)
        #expect(missing.stderr == "pushmap: absent.ndjson: no such file or directory\n", "\(missing.stderr)")
        try Data().write(to: files.folder.appendingPathComponent("empty.ndjson"))
        let empty = try CommandRunner.run(["preview", "intent.json", "--recipients", "empty.ndjson", "--output", page.path], directory: files.folder)
        #expect(empty.status == 1)
        #expect(empty.stderr == "pushmap: empty.ndjson: no recipients\n", "\(empty.stderr)")
        #expect(!FileManager.default.fileExists(atPath: page.path))
    }

    @Test("--recipient --lenient: a variable the recipient lacks renders empty, with a warning")
    func oneRecipientLenient() throws {
        let files = try CampaignCommandTests.Files(intent: Self.intent, recipients: [#"{"vars": {"note": "hello"}}"#])
        defer { try? FileManager.default.removeItem(at: files.folder) }
        let strict = try CommandRunner.run(["preview", "intent.json", "--recipient", "recipients.ndjson"], directory: files.folder)
        #expect(strict.status == 1)
        let lenient = try CommandRunner.run(["preview", "intent.json", "--recipient", "recipients.ndjson", "--lenient"], directory: files.folder)
        #expect(lenient.status == 0, "\(lenient.stderr)")
        #expect(lenient.stdout.contains("$.title: name is not in this recipient's vars: rendered empty [missing-variable]"), "\(lenient.stdout)")
    }

    @Test("a PNG of the recipients' page, drawn by Chromium, is not blank")
    func picture() throws {
        let files = try CampaignCommandTests.Files(intent: Self.intent, recipients: [
            Self.recipient("a", name: "Ann", note: 30), Self.recipient("b", name: "Bo", note: 90, extra: #", "locale": "fr""#),
        ])
        defer { try? FileManager.default.removeItem(at: files.folder) }
        let png = files.folder.appendingPathComponent("audience.png")
        let result = try CommandRunner.run(["preview", "intent.json", "--recipients", "recipients.ndjson", "--output", png.path], directory: files.folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try HeadlessChromium.colourCount(png) > 8)
    }
}
