import Foundation
import Testing

// Campaign payloads within the platforms' size limits, and the findings that name a recipient's values.
extension CampaignCommandTests {
    // MARK: - Within the limit

    /// The compact bytes of the `apns` payload on an output line.
    static func apnsBytes(_ line: Substring) -> Int? {
        guard let start = line.range(of: #""apns":"#)?.upperBound else { return nil }
        let end = line.range(of: #","warnings":"#)?.lowerBound ?? line.index(line.endIndex, offsetBy: -1)
        return line[start..<end].utf8.count
    }

    static func fit(body: String, _ options: [String] = []) throws -> (result: CommandRunner.Result, size: Int?, body: String?) {
        let intent = String(decoding: try JSONSerialization.data(withJSONObject: ["title": "T", "body": body]), as: UTF8.self)
        let result = try campaign(intent, ["{}"], ["--platform", "apns"] + options)
        let line = result.stdout.split(separator: "\n").first ?? ""
        return (result, apnsBytes(line), Self.lines(result.stdout).first.flatMap { apnsAlert($0)?["body"] as? String })
    }

    @Test("a payload of exactly 4096 bytes is sent whole; one byte more and the body loses just enough, to 4096")
    func exactLimit() throws {
        let probe = try Self.fit(body: "a")
        let overhead = try #require(probe.size) - 1
        let whole = try Self.fit(body: String(repeating: "a", count: 4096 - overhead))
        #expect(whole.size == 4096)
        #expect(whole.result.status == 0)
        #expect(!whole.result.stdout.contains("truncated"))
        let over = try Self.fit(body: String(repeating: "a", count: 4097 - overhead))
        #expect(over.size == 4096)
        #expect(over.result.status == 0)
        #expect(over.body?.hasSuffix("aaa…") == true)
        let line = try #require(Self.lines(over.result.stdout).first)
        let warning = Self.diagnostics(line).first { $0["rule"] as? String == "truncated" }
        #expect(warning?["path"] as? String == "$.body")
        #expect(warning?["message"] as? String == "shortened from \(4097 - overhead) to \(4097 - overhead - 3) characters to fit the payload within its limit")
        #expect(over.result.stderr.contains("truncated: $.body 1"), "\(over.result.stderr)")
    }

    /// Source: campaign.md ("in this order until the payload fits: expandedBody, body, ...
    /// title"); the thirty-fifth audit, F1: a title and a body too long for either alone to
    /// make room were both left whole, and the recipient failed with apns-size.
    @Test("a payload no one text can make fit has its texts cut in order, body then title, each keeping a character")
    func severalTextsCut() throws {
        let intent = #"{"title": "{{ t }}", "body": "{{ b }}"}"#
        let recipient = #"{"vars": {"t": "\#(String(repeating: "T", count: 4100))", "b": "\#(String(repeating: "b", count: 4100))"}}"#
        let result = try Self.campaign(intent, [recipient], ["--platform", "apns"])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(Self.lines(result.stdout).first)
        #expect(try #require(Self.apnsBytes(result.stdout.split(separator: "\n")[0])) <= 4096)
        let alert = try #require(Self.apnsAlert(line))
        #expect(alert["body"] as? String == "b…")
        #expect((alert["title"] as? String)?.hasSuffix("T…") == true)
        #expect(Self.diagnostics(line).filter { $0["rule"] as? String == "truncated" }.compactMap { $0["path"] as? String } == ["$.body", "$.title"])
    }

    /// Source: campaign.md ("when both platforms are asked for, both get the shortened text");
    /// the thirty-seventh audit, F1: with both platforms, a cut sized for the larger overflow
    /// (FCM's whole message, with a long token) or that mended one platform only (a subtitle is
    /// APNS's, a carousel's expandedBody FCM's) was thrown away, and recipients that fit on
    /// each platform alone failed.
    @Test("both platforms: a text is cut once for both, and a text in one payload is cut for that one's overflow")
    func bothPlatformsCut() throws {
        let token = String(repeating: "k", count: 160)
        let title = #"{"id": "n", "target": {"token": "\#(token)"}, "vars": {"t": "\#(String(repeating: "T", count: 4064))"}}"#
        let shared = try Self.campaign(#"{"title": "{{ t }}", "body": "b"}"#, [title], ["--platform", "both"])
        #expect(shared.status == 0, "\(shared.stderr)")
        let line = try #require(Self.lines(shared.stdout).first)
        let cut = try #require(Self.apnsAlert(line)?["title"] as? String)
        #expect(cut.hasSuffix("T…") && cut.count < 4064, "\(shared.stdout.prefix(300))")
        let fcmTitle = (((line["fcm"] as? [String: Any])?["message"] as? [String: Any])?["data"] as? [String: Any])?["adb_title"] as? String
        #expect(fcmTitle == cut)

        let carousel = #"{"template": "carousel", "title": "Picks", "body": "New", "subtitle": "{{ s }}", "expandedBody": "{{ eb }}", "carousel": {"items": [{"image": "https://x.example/1.png"}, {"image": "https://x.example/2.png"}, {"image": "https://x.example/3.png"}]}}"#
        let apart = #"{"vars": {"eb": "\#(String(repeating: "e", count: 4100))", "s": "\#(String(repeating: "s", count: 4400))"}}"#
        let result = try Self.campaign(carousel, [apart], ["--platform", "both"])
        #expect(result.status == 0, "\(result.stderr)")
        let paths = Self.diagnostics(try #require(Self.lines(result.stdout).first)).filter { $0["rule"] as? String == "truncated" }.compactMap { $0["path"] as? String }
        #expect(paths == ["$.expandedBody", "$.subtitle"], "\(result.stdout.suffix(600))")
    }

    /// Source: FCM's 4096 bytes count the data keys and values plus an overhead Google does not
    /// document (a sender's measurements on Stack Overflow), so a message past 4096 bytes written
    /// compactly but not in keys and values is one FCM may take: a campaign cuts it to be sure,
    /// and with --no-truncate it goes with the fcm-size warning.
    @Test("an FCM message FCM may refuse is cut to 4096 bytes; with --no-truncate it goes with a warning")
    func fcmMayRefuse() throws {
        let intent = String(decoding: try JSONSerialization.data(withJSONObject: [
            "title": "T", "body": String(repeating: "a", count: 3_950), "target": ["token": String(repeating: "t", count: 163)],
        ]), as: UTF8.self)
        let cut = try Self.campaign(intent, ["{}"], ["--platform", "fcm"])
        #expect(cut.status == 0, "\(cut.stderr)")
        let line = try #require(Self.lines(cut.stdout).first)
        let message = try #require((line["fcm"] as? [String: Any])?["message"])
        let written = try JSONSerialization.data(withJSONObject: message, options: [.withoutEscapingSlashes])
        #expect(written.count <= 4096)
        #expect(Self.diagnostics(line).contains { $0["rule"] as? String == "truncated" && $0["path"] as? String == "$.body" })
        #expect(!Self.diagnostics(line).contains { $0["rule"] as? String == "fcm-size" })

        let whole = try Self.campaign(intent, ["{}"], ["--platform", "fcm", "--no-truncate"])
        #expect(whole.status == 0, "\(whole.stderr)")
        let kept = try #require(Self.lines(whole.stdout).first)
        let size = Self.diagnostics(kept).first { $0["rule"] as? String == "fcm-size" }
        #expect(size?["severity"] as? String == "warning")
        #expect(!Self.diagnostics(kept).contains { $0["rule"] as? String == "truncated" })
    }

    /// Source: the sixth audit, and commands.md's limits (intent nesting: 32 levels): a campaign's
    /// intent took 64, and each recipient then failed on it.
    @Test("an intent nested past 32 levels is refused once, before any recipient, as translate refuses it")
    func intentNesting() throws {
        var nested = #"{"x": 1}"#
        for _ in 0..<40 { nested = #"{"a": \#(nested)}"# }
        let result = try Self.campaign(#"{"title": "t", "body": "b", "data": {"k": "v"}, "ios": {"liveActivity": {"event": "update", "contentState": \#(nested)}}}"#, ["{}"], ["--platform", "apns"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(result.stderr.contains("nesting deeper than 32 levels [json-syntax]"), "\(result.stderr)")
    }

    /// Source: the sixth audit: a text cut in a locale layer was reported at `$.body`, which the
    /// base wrote and the recipient never got; campaign.md: each finding "at its path".
    @Test("a finding about a layer's text is at the layer's path, as the summary's truncations are")
    func layerPaths() throws {
        let intent = #"{"title": "t", "body": "{{ b }}", "locales": {"fr-CA": {"body": "FR {{ b }}"}}}"#
        let long = String(repeating: "x", count: 5_000)
        let result = try Self.campaign(intent, [#"{"locale": "fr-CA", "vars": {"b": "\#(long)"}}"#, #"{"vars": {"b": "\#(long)"}}"#], ["--platform", "apns"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = Self.lines(result.stdout)
        let paths = lines.map { line in Set(Self.diagnostics(line).map { $0["path"] as? String ?? "" }) }
        #expect(paths.first == [#"$.locales["fr-CA"].body"#], "\(paths)")
        #expect(paths.last == ["$.body"], "\(paths)")
        #expect(result.stderr.contains(#"truncated: $.body 1, $.locales["fr-CA"].body 1"#) || result.stderr.contains(#"$.locales["fr-CA"].body 1"#), "\(result.stderr)")
    }

    /// Source: the sixth audit and campaign.md: a malformed recipient line is "an error line of
    /// kind invalid recipient"; a recipient's target with no token was labelled invalid intent.
    @Test("a fault in a recipient's target is the recipient's: kind invalid recipient")
    func recipientTarget() throws {
        let result = try Self.campaign(#"{"title": "t", "body": "b"}"#, [#"{"id": "a", "target": {}}"#], ["--platform", "fcm"])
        #expect(result.status == 1)
        let error = try #require(Self.lines(result.stdout).first?["error"] as? [String: Any])
        #expect(error["kind"] as? String == "invalid recipient", "\(error)")
        #expect((error["diagnostics"] as? [[String: Any]])?.first?["path"] as? String == "$.target")
    }

    /// Source: the sixth audit: a name used three times gave three findings a recipient (two the
    /// same), and the summary counted 6 for 2 recipients. One fault, the recipient's lack.
    @Test("a missing variable used many times is one finding a recipient, and counts once a recipient")
    func missingOnce() throws {
        let result = try Self.campaign(#"{"title": "Hi {{ n }}", "body": "Bye {{ n }} {{ n }}"}"#, [#"{"id": "a"}"#, #"{"id": "b"}"#], ["--check", "--format", "json"])
        #expect(result.status == 1)
        let lines = Self.lines(result.stdout)
        #expect(lines.count == 3, "\(result.stdout)")
        for line in lines.prefix(2) {
            let diagnostics = ((line["error"] as? [String: Any])?["diagnostics"] as? [[String: Any]]) ?? []
            #expect(diagnostics.count == 1 && diagnostics.first?["path"] as? String == "$.title", "\(line)")
        }
        #expect((lines.last?["missingVariables"] as? [String: Int]) == ["n": 2], "\(lines.last ?? [:])")
    }

    /// Source: the forty-third audit, F8: a name of 20,000 indexes made a 60 KB finding, and the
    /// summary said the name again in full.
    @Test("a missing variable's long name is cut to 200 characters in the finding and the summary")
    func longMissingName() throws {
        let name = "a" + String(repeating: "[0]", count: 2_000)
        let result = try Self.campaign(#"{"title": "Hi {{ \#(name) }}", "body": "b"}"#, [#"{"id": "a", "vars": {"a": [1]}}"#], ["--format", "json"])
        #expect(result.status == 1)
        let lines = Self.lines(result.stdout)
        let diagnostics = ((lines.first?["error"] as? [String: Any])?["diagnostics"] as? [[String: Any]]) ?? []
        let message = try #require(diagnostics.first?["message"] as? String, "\(result.stdout.prefix(500))")
        let shown = String(name.prefix(200)) + "…"
        #expect(message.hasPrefix(shown + " is not in this recipient's vars"), "\(message.prefix(300))")
        #expect(result.stdout.utf8.count < 2_000, "\(result.stdout.utf8.count) bytes")
        #expect(result.stderr.utf8.count < 2_000, "\(result.stderr.utf8.count) bytes")
    }

    /// Source: the twenty-eighth audit, F6: a data value of 5,000 bytes, which no cut shortens,
    /// failed the recipient with a size finding at `$` that did not say what to make smaller.
    @Test("a recipient whose payload no cut makes fit names the largest value a campaign never cuts")
    func uncutValueNamed() throws {
        let recipient = #"{"id": "d", "vars": {"v": "\#(String(repeating: "x", count: 5000))"}}"#
        let result = try Self.campaign(#"{"title": "t", "body": "b", "data": {"k": "{{ v }}"}}"#, [recipient], ["--platform", "fcm"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("the texts were shortened as far as they go, and the largest value a campaign never cuts is $.data.k, 5000 bytes"), "\(result.stdout)")
    }

    /// Source: the thirty-seventh audit, F6 (a title of one cluster of 6 KB failed with a size
    /// finding naming nothing) and F8 ("from 1500 to 1 characters").
    @Test("a title of one huge character is named when nothing fits; a text cut to one character says so in the singular")
    func oneCharacterLeft() throws {
        let zalgo = "Z" + String(repeating: "\u{0301}", count: 3000)
        let failed = try Self.campaign(#"{"title": "{{ t }}", "body": "b"}"#, [#"{"vars": {"t": "\#(zalgo)"}}"#], ["--platform", "apns"])
        #expect(failed.status == 1)
        #expect(failed.stdout.contains("and $.title is still 6001 bytes: its first character, which a cut keeps, is that long"), "\(failed.stdout)")
        // The expanded body goes first, all of it; then the body loses what is left to save.
        let long = #"{"vars": {"e": "\#(String(repeating: "e", count: 1500))", "b": "\#(String(repeating: "b", count: 4000))"}}"#
        let cut = try Self.campaign(#"{"template": "basic", "title": "t", "body": "{{ b }}", "expandedBody": "{{ e }}"}"#, [long], ["--platform", "apns"])
        #expect(cut.status == 0, "\(cut.stderr)")
        let warning = Self.diagnostics(try #require(Self.lines(cut.stdout).first)).first { $0["path"] as? String == "$.expandedBody" }
        #expect(warning?["message"] as? String == "shortened from 1500 to 1 character to fit the payload within its limit", "\(cut.stdout.suffix(400))")
    }

    /// Source: the twenty-eighth audit, F5: a member missing from one item of a loop was named by
    /// the loop's variable (`i.price`), not by what the audience file lacks (`items[2].price`).
    @Test("a member missing from a loop's item is named by its path in the recipient's vars, nested loops too")
    func loopItemPaths() throws {
        let intent = #"{"title": "t", "body": "{% for i in items %}{{ i.name }} {{ i.price }};{% endfor %}{% for o in orders %}{% for l in o.lines %}{{ l.sku }}{% endfor %}{% endfor %}"}"#
        let recipient = #"{"id": "1", "vars": {"items": [{"name": "a", "price": 1}, {"name": "b"}], "orders": [{"lines": [{"sku": "x"}]}, {"lines": [{"sku": "y"}, {}]}]}}"#
        let result = try Self.campaign(intent, [recipient], ["--platform", "apns"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("items[1].price is not in this recipient's vars"), "\(result.stdout)")
        #expect(result.stderr.contains("missing variables: items[1].price 1, orders[1].lines[1].sku 1"), "\(result.stderr)")
    }

    /// Source: the twenty-eighth audit, F12: a CRM export's epoch milliseconds failed the date
    /// filter with no word of the fix; Liquid's is `divided_by: 1000`.
    @Test("a date in epoch milliseconds fails the recipient with the fix; divided by 1000 it renders")
    func dateMilliseconds() throws {
        let recipient = #"{"id": "1", "vars": {"d": "1764151200000"}}"#
        let failed = try Self.campaign(#"{"title": "t", "body": "{{ d | date: \"%F\" }}"}"#, [recipient], ["--platform", "apns"])
        #expect(failed.status == 1)
        #expect(failed.stdout.contains("It reads as epoch milliseconds: divide by 1000 first (| divided_by: 1000)."), "\(failed.stdout)")
        let fixed = try Self.campaign(#"{"title": "t", "body": "{{ d | divided_by: 1000 | date: \"%F\" }}"}"#, [recipient], ["--platform", "apns"])
        #expect(fixed.status == 0 && fixed.stdout.contains(#""body":"2025-11-26""#), "\(fixed.stdout)")
    }

    /// Source: the twenty-eighth audit, F10: a title of one grapheme cluster of 6,001 bytes (an e
    /// and 3,000 combining marks) was cut to "…" alone and counted as translated: a blank
    /// notification, which docs/campaign.md says a recipient never gets.
    @Test("a title or body that only the ellipsis would be left of fails the recipient on its size")
    func ellipsisAlone() throws {
        let huge = "e" + String(repeating: "\u{301}", count: 3000)
        let recipient = String(decoding: try JSONSerialization.data(withJSONObject: ["id": "c", "vars": ["t": huge]]), as: UTF8.self)
        let result = try Self.campaign(#"{"title": "{{ t }}", "body": "b"}"#, [recipient], ["--platform", "apns"])
        #expect(result.status == 1, "\(result.stdout)")
        let line = try #require(Self.lines(result.stdout).first)
        #expect(Self.diagnostics(line).map { $0["rule"] as? String } == ["apns-size"], "\(line)")
        #expect(!result.stdout.contains("\"title\":\"…\""))
    }

    /// Source: the sixth audit: FCM's adb_items holds the captions as JSON inside a JSON string,
    /// where a quote costs 4 bytes; counted as 2, the cut took two whole captions ([700, 1, 1]
    /// characters, 3,231 bytes) where cutting the second to about 215 fits.
    @Test("captions of quotes are cut only as far as FCM's message needs, not whole")
    func carouselQuotes() throws {
        let items = (0..<3).map { index in
            ["image": "https://e.com/\(index).png", "text": "{{ c }}", "uri": "https://e.com/\(index)"]
        }
        let intent = String(decoding: try JSONSerialization.data(withJSONObject: [
            "template": "carousel", "title": "t", "body": "b", "link": ["uri": "https://e.com"],
            "carousel": ["mode": "manual", "items": items],
        ] as [String: Any]), as: UTF8.self)
        let recipient = String(decoding: try JSONSerialization.data(withJSONObject: ["vars": ["c": String(repeating: "\"", count: 700)]]), as: UTF8.self)
        let result = try Self.campaign(intent, [recipient], ["--platform", "fcm"])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(Self.lines(result.stdout).first)
        let message = try #require((line["fcm"] as? [String: Any])?["message"] as? [String: Any])
        let written = try JSONSerialization.data(withJSONObject: message, options: [.withoutEscapingSlashes])
        #expect(written.count <= 4096 && written.count > 4_050, "\(written.count) bytes")
        let adbItems = try #require(((message["data"] as? [String: Any])?["adb_items"] as? String)?.data(using: .utf8))
        let captions = try #require(try JSONSerialization.jsonObject(with: adbItems) as? [[String: Any]]).map { ($0["txt"] as? String)?.count ?? 0 }
        #expect(captions[0] == 700 && captions[1] > 150 && captions[2] == 1, "\(captions)")
    }

    /// Source: the twelfth audit (cases 4 and 5): on APNS, whose payload escapes a caption once,
    /// the cut counted as FCM's adb_items (twice) fell short three times, moved on to the caption
    /// before it, and the recipient failed `apns-size` with 2,000 characters still to give.
    @Test("APNS captions of quotes and newlines are cut until the payload fits, the last caption first")
    func carouselQuotesAPNS() throws {
        let items = (0..<3).map { index in
            ["image": "https://e.com/\(index).png", "text": index == 2 ? "Blue" : "{{ c\(index) }}"]
        }
        let intent = String(decoding: try JSONSerialization.data(withJSONObject: [
            "template": "carousel", "title": "Pick one", "body": "Three colours",
            "carousel": ["mode": "manual", "items": items],
        ] as [String: Any]), as: UTF8.self)
        let plain = String(repeating: "Red, the classic colour of the season. ", count: 40)
        let quoted = String(repeating: "\"Green\" \"Forest\" \"Mint\"\n", count: 100)
        let recipient = String(decoding: try JSONSerialization.data(withJSONObject: ["vars": ["c0": plain, "c1": quoted]]), as: UTF8.self)
        let result = try Self.campaign(intent, [recipient], ["--platform", "apns"])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        let line = try #require(Self.lines(result.stdout).first)
        let payload = try #require(line["apns"] as? [String: Any], "\(line)")
        let written = try JSONSerialization.data(withJSONObject: payload, options: [.withoutEscapingSlashes])
        #expect(written.count <= 4096, "\(written.count) bytes")
        let cut = (line["warnings"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        #expect(cut.contains("$.carousel.items[1].text") && !cut.contains("$.carousel.items[0].text"), "\(cut)")
    }

    /// Source: the sandbox audit: a body whose last character is one grapheme cluster of 20,001
    /// scalars was cut to "a …", and the warning said "from 3 to 3 characters".
    @Test("a cut that takes one character of many bytes says so in bytes")
    func oneHugeCluster() throws {
        let fitted = try Self.fit(body: "a e" + String(repeating: "\u{301}", count: 20_000))
        #expect(fitted.result.status == 0, "\(fitted.result.stdout.prefix(300))")
        #expect(fitted.body == "a …")
        let line = try #require(Self.lines(fitted.result.stdout).first)
        let warning = Self.diagnostics(line).first { $0["rule"] as? String == "truncated" }
        #expect(warning?["message"] as? String
            == "shortened from 40003 to 5 bytes (3 characters either way: one of many bytes was taken) to fit the payload within its limit")
    }

    @Test("truncation keeps grapheme clusters whole: family emoji, flags, combining marks, CJK")
    func clusters() throws {
        let clusters = ["👨‍👩‍👧‍👦", "🇫🇷", "e\u{301}\u{327}", "漢", "🏳️‍🌈"]
        for cluster in clusters {
            let body = String(repeating: cluster, count: 5000 / cluster.utf8.count + 10)
            let fitted = try Self.fit(body: body)
            #expect(fitted.result.status == 0, "\(cluster): \(fitted.result.stdout)")
            let size = try #require(fitted.size)
            #expect(size <= 4096 && size > 4096 - cluster.utf8.count - 3, "\(cluster): \(size) bytes")
            let shortened = try #require(fitted.body)
            #expect(shortened.hasSuffix("…"))
            let kept = Array(shortened.dropLast())
            #expect(!kept.isEmpty && kept.allSatisfy { $0 == Character(cluster) }, "\(cluster): a cluster was split")
            #expect(shortened.unicodeScalars.count == kept.count * cluster.unicodeScalars.count + 1)
        }
    }

    @Test("--no-truncate: a payload over the limit fails with the size rule")
    func noTruncate() throws {
        let fitted = try Self.fit(body: String(repeating: "x", count: 5000), ["--no-truncate"])
        #expect(fitted.result.status == 1)
        let line = try #require(Self.lines(fitted.result.stdout).first)
        let errors = Self.diagnostics(line).filter { $0["severity"] as? String == "error" }
        #expect(errors.map { $0["rule"] as? String } == ["apns-size"])
    }

    // MARK: - Summary and --check

    static let audience = [
        #"{"id": "a", "locale": "de-AT", "vars": {"first_name": "Anna"}}"#,
        #"{"id": "b"}"#,
        #"{"id": "c", "locale": "fr", "vars": {"first_name": "Luc"}}"#,
        #"{"id": "d"}"#,
    ]

    @Test("--check writes only the failed recipients' lines, and the summary for people on standard error")
    func checkHuman() throws {
        let result = try Self.campaign(Self.localized, Self.audience, ["--check"])
        #expect(result.status == 1)
        let lines = Self.lines(result.stdout)
        #expect(lines.map { $0["id"] as? String } == ["b", "d"])
        #expect(lines.allSatisfy { $0["error"] != nil })
        #expect(result.stderr.contains("pushmap: campaign: 4 recipients, 2 translated, 2 failed"), "\(result.stderr)")
        #expect(result.stderr.contains("  missing variables: first_name 2"), "\(result.stderr)")
        #expect(result.stderr.contains("  locale fallbacks: de-AT 1"), "\(result.stderr)")
    }

    @Test("--check --format json: the summary is one JSON object on standard output after the error lines")
    func checkJSON() throws {
        let result = try Self.campaign(Self.localized, Self.audience, ["--check", "--format", "json"])
        #expect(result.status == 1)
        let lines = Self.lines(result.stdout)
        #expect(lines.count == 3)
        let summary = try #require(lines.last)
        #expect(summary["recipients"] as? Int == 4)
        #expect(summary["translated"] as? Int == 2)
        #expect(summary["failed"] as? Int == 2)
        #expect(summary["missingVariables"] as? [String: Int] == ["first_name": 2])
        #expect(summary["localeFallbacks"] as? [String: Int] == ["de-AT": 1])
        #expect(summary["truncated"] as? [String: Int] == [:])
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    // MARK: - batch

    @Test("batch lines carry an intent's top-level id, on success and on error; none without one")
    func batchID() throws {
        let input = [
            #"{"id": "m-1", "title": "t", "buttons": [{"label": "x", "id": "b"}]}"#,
            #"{"id": "m-2", "tittle": "typo"}"#,
            #"{"title": "no id", "data": {"id": "not the message's"}}"#,
        ].joined(separator: "\n") + "\n"
        let result = try CommandRunner.run(["batch", "--platform", "apns"], input: Data(input.utf8))
        let lines = Self.lines(result.stdout)
        #expect(lines.map { $0["id"] as? String } == ["m-1", "m-2", nil])
        #expect(lines.map { $0["error"] != nil } == [false, true, false])
        #expect(result.stdout.hasPrefix(#"{"line":1,"id":"m-1","apns":"#), "\(result.stdout)")
        // Source: the twelfth audit (case 8): bad JSON after the id (here a lone surrogate)
        // keeps it, in batch and in campaign alike.
        let broken = try CommandRunner.run(["batch", "--platform", "apns"], input: Data((#"{"id": "m-4", "title": "\udc00"}"# + "\n").utf8))
        #expect(Self.lines(broken.stdout).map { $0["id"] as? String } == ["m-4"], "\(broken.stdout)")
        let recipients = [#"{"id": "u-2", "vars": {"name": "\udc00Bo"}}"#, #"{"id": "u-3", "vars": {"a": [1,]}}"#]
        let campaign = try Self.campaign(#"{"title": "Hi {{ name }}", "body": "b"}"#, recipients, ["--platform", "apns"])
        #expect(Self.lines(campaign.stdout).map { $0["id"] as? String } == ["u-2", "u-3"], "\(campaign.stdout)")
    }

    // MARK: - preview

    @Test("preview --recipient draws what that recipient sees: their layer, their variables")
    func previewRecipient() throws {
        let files = try Files(intent: Self.localized, recipients: [#"{"locale": "fr-CA", "platform": "apns", "vars": {"first_name": "Élise"}}"#])
        defer { try? FileManager.default.removeItem(at: files.folder) }
        let result = try CommandRunner.run(["preview", "intent.json", "--recipient", "recipients.ndjson"], directory: files.folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Allo Élise"), "\(result.stdout)")
        #expect(result.stdout.contains("Commande expédiée"), "\(result.stdout)")
        #expect(!result.stdout.contains("Android"), "a recipient on apns is drawn on iOS only: \(result.stdout)")
        let missing = try Files(intent: Self.localized, recipients: [#"{"locale": "fr"}"#])
        defer { try? FileManager.default.removeItem(at: missing.folder) }
        let failed = try CommandRunner.run(["preview", "intent.json", "--recipient", "recipients.ndjson"], directory: missing.folder)
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("$.locales.fr.title: first_name is not in this recipient's vars [missing-variable]"), "\(failed.stderr)")
    }
}
