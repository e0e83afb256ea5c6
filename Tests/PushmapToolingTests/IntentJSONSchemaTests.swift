import Foundation
@_spi(Tools) import Pushmap
import PushmapJSON
@_spi(Tools) import PushmapTooling
import Testing

@Suite("Intent JSON Schema")
struct IntentJSONSchemaTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("the schema says what a colour and a link look like; pushmap itself still takes any string there")
    func schemaForms() throws {
        let made = IntentJSONSchema.make(templates: ["plain", "basic"])
        let properties = made["properties"]
        for name in ["title", "body", "background", "icon", "timer"] {
            #expect(properties?["colors"]?["properties"]?[name]?["pattern"] == .string(IntentJSONSchema.colourPattern), "colors.\(name)")
        }
        #expect(properties?["link"]?["properties"]?["uri"]?["format"] == "uri")
        #expect(properties?["buttons"]?["items"]?["properties"]?["uri"]?["format"] == "uri")
        #expect(properties?["carousel"]?["properties"]?["items"]?["items"]?["properties"]?["uri"]?["format"] == "uri")
        #expect(properties?["android"]?["properties"]?["priority"]?["enum"] == ["min", "low", "default", "high", "max"])
        // The phone ignores a colour it cannot read: the payload checks warn, the intent check does not refuse.
        let check = IntentCheck(templates: ["plain": [], "basic": []])
        let intent = try JSONParser.parse(Array(#"{"template": "basic", "title": "t", "body": "b", "colors": {"title": "GG0000"}}"#.utf8))
        #expect(check.findings(JSONTape(intent)) == [])
    }

    @Test("publishes the schema file that the code describes")
    func schemaFile() throws {
        let file = try [UInt8](Data(contentsOf: Self.root.appendingPathComponent("schema/intent.schema.json")))
        let made = IntentJSONSchema.make(templates: ["plain", "basic", "carousel", "timer", "input", "zb", "cat", "rate", "icon"])
        #expect(try JSONParser.parse(file) == made, "regenerate with: scripts/pushmap schema > schema/intent.schema.json")
    }
}
