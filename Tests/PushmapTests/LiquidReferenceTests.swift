import Foundation
import Pushmap
import PushmapJSON
import PushmapTestSupport
import Testing

/// Campaign templates against the reference: Shopify's Liquid (Debian's ruby-liquid, installed by
/// `scripts/setup --test`) renders every case of LiquidReference/cases.json, strict, and pushmap's
/// LiquidTemplate must give the same text, or fail where it fails. A case marked `differs` is
/// where pushmap departs from Liquid on purpose (the reason is in the case): there, pushmap must
/// give the case's `expect`.
@Suite("Liquid templates against Shopify's Liquid")
struct LiquidReferenceTests {
    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        let source: String
        let template: String
        let differs: String?
        let expect: String?
        let expect_missing: [String]?
        let expect_error: Bool?
        /// Set from pushmap's own parse of the file: Decodable cannot make a JSONValue.
        var vars: JSONValue = .null
        var testDescription: String { "\(template) (\(source))" }

        enum CodingKeys: String, CodingKey { case source, template, differs, expect, expect_missing, expect_error }
    }

    /// What the reference printed for one case.
    struct Reference: Decodable { let output: String?; let error: String? }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("LiquidReference")
    static let casesFile = folder.appendingPathComponent("cases.json")

    /// The cases, with their vars as pushmap's JSON values (Decodable cannot make those).
    static let cases: [Case] = {
        let bytes = (try? Data(contentsOf: casesFile)) ?? Data()
        let decoded = (try? JSONDecoder().decode([Case].self, from: bytes)) ?? []
        let values = (try? JSONParser.parse(Array(bytes)).arrayValue) ?? nil
        return decoded.enumerated().map { index, item in
            var item = item
            item.vars = values?[index]["vars"] ?? .object(JSONObject())
            return item
        }
    }()

    /// Liquid's answers, one per case, from one Ruby process.
    static let references: Result<[Reference], ReferenceFailure> = {
        guard let run = try? runProgram("/usr/bin/env", ["ruby", folder.appendingPathComponent("render.rb").path, casesFile.path]) else {
            return .failure(ReferenceFailure(reason: "ruby did not start"))
        }
        guard run.status == 0 else {
            return .failure(ReferenceFailure(reason: "ruby failed (install ruby and ruby-liquid: scripts/setup --test): \(run.stderr)"))
        }
        let lines = run.stdout.split(separator: "\n")
        let answers = lines.compactMap { try? JSONDecoder().decode(Reference.self, from: Data($0.utf8)) }
        guard answers.count == cases.count else {
            return .failure(ReferenceFailure(reason: "ruby answered \(answers.count) of \(cases.count) cases"))
        }
        return .success(answers)
    }()

    struct ReferenceFailure: Error, CustomStringConvertible { let reason: String; var description: String { reason } }

    @Test("the corpus is there and the reference answers every case")
    func corpus() throws {
        #expect(Self.cases.count > 80)
        _ = try Self.references.get()
    }

    @Test("pushmap renders as Liquid does, or as the case says where it departs on purpose", arguments: Array(cases.indices))
    func renders(_ index: Int) throws {
        let item = Self.cases[index]
        let reference = try Self.references.get()[index]
        // What pushmap does with it: the text, or nil when it fails (syntax, a problem).
        var ours: String?
        var missing: [String] = []
        do {
            let rendering = try LiquidTemplate(item.template).render(item.vars, lenient: false)
            for problem in rendering.problems {
                if case .missingVariable(let name) = problem { missing.append(name) }
            }
            ours = rendering.problems.isEmpty ? rendering.text : nil
            if item.expect_missing != nil { ours = rendering.text }
        } catch {
            ours = nil
        }
        if item.differs != nil {
            if item.expect_error == true {
                #expect(ours == nil, "\(item.template): pushmap should fail here (\(item.differs ?? ""))")
            } else {
                #expect(ours == item.expect, "\(item.template): \(item.differs ?? "")")
            }
            #expect(missing == (item.expect_missing ?? []), "\(item.template)")
            // The note stays true: Liquid itself does something else.
            #expect(reference.output != item.expect || reference.error != nil, "\(item.template): Liquid agrees; drop `differs`")
            return
        }
        if reference.error != nil {
            #expect(ours == nil, "\(item.template): Liquid fails (\(reference.error ?? "")); pushmap gave \(ours.map { "\"\($0)\"" } ?? "")")
        } else {
            #expect(ours == reference.output, "\(item.template): Liquid gives \(reference.output.map { "\"\($0)\"" } ?? "")")
        }
    }
}
