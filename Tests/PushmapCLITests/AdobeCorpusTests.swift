import Foundation
import Testing

@Suite("Adobe's test payloads", .enabled(if: AdobeCorpus.isPresent, Comment(rawValue: AdobeCorpus.absent)))
struct AdobeCorpusTests {
    /// Full payloads on which `validate` does not yet say what Adobe's code does: each is a rule
    /// still to write. The list only shrinks: a payload on it that agrees fails the test too.
    static let disagreements: Set<String> = []

    @Test("finds Adobe's index and every file it names")
    func index() throws {
        #expect(AdobeCorpus.entries.count == 131)
        for entry in AdobeCorpus.entries {
            #expect(FileManager.default.fileExists(atPath: AdobeCorpus.folder.appendingPathComponent(entry.file).path), "\(entry.file)")
        }
        // Every payload left out says why (see AdobeCorpus.excludedKinds and excludedFiles).
        #expect(AdobeCorpus.fullPayloads.count == 97)
    }

    @Test("validate says valid where Adobe's code shows the template and invalid where it does not")
    func validateAgrees() throws {
        var agreeing = 0
        for entry in AdobeCorpus.fullPayloads {
            let result = try CommandRunner.run(["validate", "--platform", entry.pushmapPlatform, "-"], input: try AdobeCorpus.payload(entry))
            #expect(result.status == 0 || result.status == 1, "\(entry): \(result.stderr)")
            let agrees = (result.status == 0) == entry.valid
            if agrees { agreeing += 1 }
            if Self.disagreements.contains(entry.file) {
                #expect(!agrees, "\(entry) now agrees with Adobe's code: take it off AdobeCorpusTests.disagreements")
            } else {
                #expect(agrees, "\(entry): Adobe's code \(entry.valid ? "shows" : "does not show") it, validate says:\n\(result.stdout)")
            }
        }
        print("validate agrees with Adobe's code on \(agreeing) of \(AdobeCorpus.fullPayloads.count) full payloads")
    }

    @Test("import then translate gives back every payload Adobe's code shows, or a warning names each key it could not keep")
    func importRoundTrips() throws {
        // Every valid payload, full or not: import does not depend on who reads the payload. Left
        // out: the one whose adb_tmr_end is the Swift test's run-time expression, not a time.
        let valid = AdobeCorpus.entries.filter { $0.valid && $0.file != "timer-18-valid.json" }
        #expect(valid.count == 107)
        var silentInputs = 0
        for entry in valid {
            let payload = try AdobeCorpus.payload(entry)
            if entry.pushmapPlatform == "apns", Self.showsNothing(payload) {
                // iOS parser inputs whose text the test gave in its UNNotificationContent: sent
                // as they are, an alert push with an empty aps, which shows nothing. import makes
                // the intent and says so, as validate warns of such a payload (apns-aps-object).
                silentInputs += 1
                let imported = try CommandRunner.run(["import", "--platform", "apns", "-"], input: payload)
                #expect(imported.status == 0 && imported.stderr.contains("warning: $: the intent made from the payload is refused when translated: nothing to show"), "\(entry): \(imported.stderr)")
                continue
            }
            #expect(try RoundTrip.problems(payload, platform: entry.pushmapPlatform) == [], "\(entry)")
        }
        #expect(silentInputs == 8)
    }

    /// Whether an APNS payload's aps has no alert, sound, badge or content-available.
    static func showsNothing(_ payload: Data) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: payload) as? [String: Any] else { return false }
        let aps = object["aps"] as? [String: Any] ?? [:]
        return ["alert", "sound", "badge", "content-available"].allSatisfy { aps[$0] == nil }
    }
}
