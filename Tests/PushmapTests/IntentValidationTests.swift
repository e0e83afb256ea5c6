import Foundation
import PushmapJSON
@_spi(Tools) @testable import Pushmap
import Testing

@Suite("Intent validation")
struct IntentValidationTests {
    let check = IntentCheck(templates: ["plain": [], "basic": [], "carousel": [], "timer": []])

    func findings(_ text: String) throws -> [Diagnostic] {
        check.findings(JSONTape(try json(text)))
    }

    @Test("names an unknown field with its path and a did-you-mean")
    func unknownField() throws {
        let found = try findings(#"{"tittle": "x"}"#)
        #expect(found == [.error("$.tittle", "unknown-field", "unknown field 'tittle' at $; did you mean 'title'?")])
        let nested = try findings(#"{"link": {"url": "https://x"}}"#)
        #expect(nested.first?.path == "$.link.url")
        #expect(nested.first?.message == "unknown field 'url' at $.link; did you mean 'uri'?")
        // The field it was taken for is missing by that one fault: no second finding (the sixth
        // audit: link.url, target.tokn, timer.duraton and items[].imge each gave two).
        #expect(nested.count == 1, "\(nested)")
        #expect(try findings(#"{"target": {"tokn": "t"}}"#).map(\.rule) == ["unknown-field"])
        // A key near none of them leaves the field missing, said as well.
        #expect(try findings(#"{"target": {"zzzzzz": "t"}}"#).map(\.rule) == ["unknown-field", "missing-field"])
        let far = try findings(#"{"zzzzzz": 1}"#)
        #expect(far.first?.message == "unknown field 'zzzzzz' at $")
    }

    @Test("refuses names and values that only look like known ones, byte for byte as scripts compare")
    func canonicalLookalikes() throws {
        // U+212A KELVIN SIGN is canonically equivalent to K: Swift's == would accept it, Lua would not.
        let field = try findings(#"{"android": {"collapse\#u{212A}ey": "x"}}"#)
        #expect(field.first?.rule == "unknown-field")
        #expect(field.first?.message.contains("looks like 'collapseKey' but is written with other Unicode characters") == true)
        let choice = try findings(#"{"link": {"uri": "myapp://x", "type": "DEEPLIN\#u{212A}"}}"#)
        #expect(choice.first?.rule == "bad-value")
        let named = IntentCheck(templates: ["kiosk": []])
        #expect(named.findings(JSONTape(try json(#"{"template": "\#u{212A}iosk"}"#))).first?.rule == "unknown-template")
    }

    @Test("names wrong types with what was expected and what came")
    func wrongTypes() throws {
        #expect(try findings(#"{"title": 5}"#) == [.error("$.title", "wrong-type", "expected a string, got integer")])
        #expect(try findings(#"{"badge": "3"}"#).first?.message == "expected an integer, got string")
        #expect(try findings(#"{"badge": 3.0}"#).first?.message == "expected an integer, got 3.0: write it as 3, digits without a fraction or exponent")
        // The forty-sixth audit, cli F15: 1e2 has no fraction to take out.
        #expect(try findings(#"{"badge": 1e2}"#).first?.message == "expected an integer, got 100.0: write it as 100, digits without a fraction or exponent")
        #expect(try findings(#"{"android": {"sticky": "yes"}}"#).first?.path == "$.android.sticky")
        #expect(try findings(#"{"buttons": {}}"#).first?.message == "expected an array, got object")
        #expect(try findings(#"{"buttons": [{"label": 1}]}"#).first?.path == "$.buttons[0].label")
        #expect(try findings("[]").first?.message == "an intent is a JSON object, got array")
    }

    @Test("refuses bad choices with a did-you-mean that ignores case")
    func badChoices() throws {
        let found = try findings(#"{"link": {"uri": "x", "type": "weburl"}}"#)
        #expect(found == [.error("$.link.type", "bad-value", "'weburl' is not one of WEBURL, DEEPLINK, OPENAPP, DISMISS; did you mean 'WEBURL'?")])
        #expect(try findings(#"{"android": {"delivery": "urgent"}}"#).first?.rule == "bad-value")
    }

    @Test("refuses an unknown template with a did-you-mean")
    func unknownTemplate() throws {
        let found = try findings(#"{"template": "basci"}"#)
        #expect(found.first?.message == "unknown template 'basci'; did you mean 'basic'? (known: basic, carousel, plain, timer)")
        #expect(found.first?.path == "$.template")
    }

    @Test("asks for required fields and exactly one of exclusive fields")
    func requiredAndExclusive() throws {
        #expect(try findings(#"{"buttons": [{"uri": "x"}]}"#) == [.error("$.buttons[0]", "missing-field", "missing required field 'label'")])
        #expect(try findings(#"{"timer": {"duration": 5, "endsAt": 9}}"#).first?.message == "give only one of 'duration' and 'endsAt', not 'duration' and 'endsAt'")
        #expect(try findings(#"{"timer": {}}"#).first?.message == "needs one of 'duration' and 'endsAt'")
        #expect(try findings(#"{"target": {"token": "a", "topic": "b"}}"#).first?.rule == "exclusive-fields")
    }

    @Test("checks ranges")
    func ranges() throws {
        #expect(try findings(#"{"badge": -1}"#).first?.message == "-1 is below the minimum of 0")
        #expect(try findings(#"{"ios": {"criticalSound": {"volume": 1.5}}}"#).first?.message == "1.5 is above the maximum of 1.0")
        // A Live Activity orders its activities by any score: the intent takes any number, and
        // an alert's score out of 0 to 1 is the payload check's warning.
        #expect(try findings(#"{"ios": {"relevanceScore": 50}}"#).isEmpty)
        #expect(try findings(#"{"android": {"ttl": 9999999}}"#).first?.rule == "out-of-range")
        #expect(try findings(#"{"buttons": [{"label":"a"},{"label":"b"},{"label":"c"},{"label":"d"}]}"#).first?.rule == "too-many-items")
        // A carousel has no maximum: Adobe's code shows more than the five its pages name (its
        // iOS demo sends fifteen; the thirty-fourth audit, F2).
        let items = (0..<15).map { #"{"image": "https://e.com/\#($0).png"}"# }.joined(separator: ",")
        #expect(try findings(#"{"template": "carousel", "carousel": {"items": [\#(items)]}}"#).isEmpty)
    }

    @Test("accepts a template's own fields only for that template")
    func extraFields() throws {
        let extra = [IntentField("coupon", .string, "test")]
        let promo = IntentCheck(templates: ["plain": extra])
        #expect(promo.findings(JSONTape(try json(#"{"coupon": "X1"}"#))).isEmpty)
        #expect(promo.findings(JSONTape(try json(#"{"coupon": 1}"#))).first?.rule == "wrong-type")
        #expect(try findings(#"{"coupon": "X1"}"#).first?.rule == "unknown-field")
    }

    @Test("accepts every example intent", arguments: ["basic-apns-sneakers", "basic-apns", "basic-fcm", "carousel-apns", "carousel-fcm", "plain-apns", "plain-fcm", "timer-apns", "timer-fcm"])
    func examples(name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: repositoryRoot.appendingPathComponent("examples/seeds/\(name).json")))
        #expect(check.findings(JSONTape(try JSONParser.parse(bytes))) == [])
    }
}
