import Foundation
@_spi(Tools) @testable import Pushmap
import Testing

/// A built-in template is one description (Sources/Pushmap/Templates), one script and its
/// fixtures (templates/NAME.lua, templates/NAME.test/): the three agree, as the walkthrough in
/// docs/adding-a-template.md says.
@Suite("Template descriptions")
struct TemplateDescriptionTests {
    static let folder = repositoryRoot.appendingPathComponent("templates")

    static func script(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name + ".lua"), encoding: .utf8)
    }

    /// The quoted words of the script's `owns = { ... }`, or none.
    static func owns(_ script: String) -> [String] {
        guard let line = script.split(separator: "\n").first(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("owns = {") }) else { return [] }
        return line.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// The schema's field at `path` (names, through objects and arrays of objects).
    static func field(_ path: [String]) -> IntentField? {
        var object = IntentSchema.root
        var found: IntentField?
        for name in path {
            guard let field = object.field(named: name) else { return nil }
            found = field
            switch field.shape {
            case .object(let inner), .array(.object(let inner), _): object = inner
            default: object = IntentObject([])
            }
        }
        return found
    }

    @Test("every description has a built-in script and fixtures, and every built-in script a description")
    func descriptionsScriptsFixtures() throws {
        let described = Set(BuiltinTemplates.all.map(\.name))
        let loaded = Set(try builtinTranslator().templates.values.filter { $0.layer == TemplateScript.builtinLayer }.map(\.name))
        #expect(described == loaded, "described: \(described.sorted()); scripts: \(loaded.sorted())")
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
        #expect(Set(files.filter { $0.hasSuffix(".lua") }.map { String($0.dropLast(4)) }) == described)
        for name in described.sorted() {
            let fixtures = (try? FileManager.default.contentsOfDirectory(atPath: Self.folder.appendingPathComponent(name + ".test").path)) ?? []
            #expect(fixtures.contains { $0.hasSuffix(".json") }, "\(name) has no fixture in templates/\(name).test/")
        }
    }

    @Test("each description's type and fields are the ones its script writes and owns")
    func scriptsAgree() throws {
        for template in BuiltinTemplates.all {
            let script = try Self.script(template.name)
            #expect(Self.owns(script) == template.fields.map(\.name) + template.ownedInside, "\(template.name): the script's owns and the description's fields differ")
            if let type = template.type {
                #expect(type.utf8.count <= 16, "\(template.name): a type of more than 16 bytes does not fit a key print (RuleScope.template)")
                #expect(script.contains("adb_template_type = \"\(type)\""), "\(template.name).lua does not write adb_template_type \"\(type)\"")
            }
            for key in template.keys {
                let field = Self.field(key.field.split(separator: ".").map(String.init))
                #expect(field != nil || key.field == "template", "\(template.name): \(key.key.name) comes from \(key.field), which the intent schema lacks")
            }
        }
    }

    @Test("the tables derived from the descriptions")
    func derivedTables() {
        // Blame: a key's intent field.
        #expect(BuiltinTemplates.intentPaths[AdobeKey.carouselMode.name] == "$.carousel.mode")
        #expect(BuiltinTemplates.intentPaths[AdobeKey.items.name] == "$.carousel.items", "the first template that writes a key gives its field")
        #expect(IntentOrigin.customKey(AdobeKey.ctaColour.name) == "$.catalog.button.color")
        #expect(IntentOrigin.customKey("orderId") == "$.data.orderId")
        // Import: keys both platforms carry first, a template's own only for its payloads.
        #expect(BuiltinTemplates.readableFCM.first?.key == .version)
        #expect(BuiltinTemplates.readableAPNS.map(\.key).contains(.media))
        #expect(!BuiltinTemplates.readableAPNS.map(\.key).contains(.image))
        #expect(BuiltinTemplates.readableFCM.first { $0.key == .remindText }?.owner == "basic")
        #expect(BuiltinTemplates.namesByType["car"] == "carousel")
        // The lists, compared as the values they encode.
        #expect(Set(BuiltinTemplates.listKeys(on: .fcm)) == [.actions, .items, .ratingActions])
        #expect(Set(BuiltinTemplates.listKeys(on: .apns)) == [.actions, .items])
        // Preview.
        #expect(BuiltinTemplates.plainFCMKeys.count == 12)
        #expect(BuiltinTemplates.iOSTypes == ["basic", "car", "timer"])
        #expect(BuiltinTemplates.androidOnlyKeys[AdobeKey.collapsedStyle.name] == "zb")
        #expect(BuiltinTemplates.androidOnlyKeys[AdobeKey.items.name] == nil, "adb_items is read by three templates")
    }
}
