import PushmapJSON
import PushmapTestSupport
@_spi(Tools) @testable import Pushmap
import Testing

/// The intent check walks once with a reporter that stops at the first problem, and again with
/// one that explains only when the first says no. The two must agree: the first may never accept
/// what the second finds wrong, and should accept what it finds right, or the fast path is lost.
@Suite("The intent check's two reporters")
struct IntentCheckTests {
    static let now: Int64 = 1_704_067_200
    static let extra = [IntentField("coupon", .string, "Declared by promo.lua."), IntentField("stock", .integer(), "Declared by promo.lua.")]
    static let fields: [String: [IntentField]] = ["plain": [], "basic": [], "carousel": [], "timer": [], "promo": extra]
    let check = IntentCheck(templates: Self.fields)

    /// Both verdicts on `value` written as JSON; false when the tape parser gave up (numbers it
    /// cannot convert exactly, like 1e300), which sends the intent through JSONParser first.
    @discardableResult
    func agree(_ value: JSONValue, _ shown: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let bytes = JSONWriter(style: .compact, sortKeys: false).write(value)
        guard let tape = bytes.withUnsafeBufferPointer({ JSONTape.parse($0, limits: JSONParser.Limits(maxDepth: 32)) }) else {
            return false
        }
        let name = value["template"]?.stringValue ?? "plain"
        let findings = check.findings(tape)
        // Accepted on the hot path: nothing to say. A warning (a field only campaigns read) goes
        // the explaining way, which then translates it with the warning.
        let valid = findings.isEmpty && Self.fields[name] != nil
        let accepted = check.accepts(tape).map { check.templateNames[$0] }
        #expect(accepted == (valid ? name : nil), "\(shown()): findings \(findings)", sourceLocation: sourceLocation)
        // A value the tape parser left to JSONParser is checked on the tape made from it: the same.
        #expect(check.findings(JSONTape(value)) == findings, "\(shown())", sourceLocation: sourceLocation)
        return true
    }

    @Test("generated valid intents of every template are accepted, with their template")
    func validIntents() {
        var generator = IntentGenerator(seed: 0x7A9E_C4EC, now: Self.now)
        for index in 0..<400 {
            let template = PropertyTests.templates[index % PropertyTests.templates.count]
            let intent = JSONValue.object(generator.intent(template))
            #expect(agree(intent, "case \(index)"), "the tape parser gave up on case \(index)")
        }
    }

    static let replacements: [JSONValue] = [
        .null, true, false, 0, -1, 7, 101, 2_419_200, 2_419_201, .integer(Int64.max), 0.5, 3.0, -2.5, 1e300, "", "x",
        "https://e.com/a.png", "WEBURL", "DEEPLIN\u{212A}", "high", "HIGH", "private", "basic", "\u{212A}iosk", "promo", "no-such",
        "#FF8800", .array([]), .object(JSONObject()), .array(["a"]), .array([.object(JSONObject([("label", "L")]))]),
        .object(JSONObject([("uri", "myapp://x")])), .object(JSONObject([("token", "t")])),
    ]

    @Test("every field of the schema set to every kind of value, or removed, on every template's intent: both say the same")
    func everyField() {
        var generator = IntentGenerator(seed: 0xF1E1D, now: Self.now)
        var paths: [[String]] = [["tittle"], ["android", "collapse\u{212A}ey"], ["$schema"]]
        func walk(_ object: IntentObject, _ prefix: [String]) {
            for field in object.fields {
                paths.append(prefix + [field.name])
                if case .object(let inner) = field.shape { walk(inner, prefix + [field.name]) }
            }
        }
        walk(IntentSchema.root(adding: Self.extra), [])
        var compared = 0, total = 0
        for template in PropertyTests.templates + ["promo"] {
            var base = JSONValue.object(generator.intent(template == "promo" ? "plain" : template))
            if template == "promo" { base = Self.setting(base, ["template"], to: "promo") }
            for path in paths {
                for replacement in Self.replacements.map(Optional.some) + [nil] {
                    total += 1
                    let shown = "\(template) with \(path) = \(replacement.map { "\($0)" } ?? "removed")"
                    if agree(Self.setting(base, path, to: replacement), shown) { compared += 1 }
                }
            }
        }
        #expect(compared > total * 9 / 10, "only \(compared) of \(total) compared")
    }

    @Test("the validation tests' inputs get the same verdict")
    func validatorCases() throws {
        let texts = [
            #"{"tittle": "x"}"#, #"{"link": {"url": "https://x"}}"#, #"{"android": {"collapse\#u{212A}ey": "x"}}"#,
            #"{"link": {"uri": "myapp://x", "type": "DEEPLIN\#u{212A}"}}"#, #"{"template": "\#u{212A}iosk"}"#, #"{"title": 5}"#,
            #"{"badge": "3"}"#, #"{"badge": 3.0}"#, #"{"badge": -1}"#, #"{"target": {}}"#, #"{"target": {"token": "a", "topic": "b"}}"#,
            #"{"timer": {"duration": 5, "endsAt": 6}}"#, #"{"template": "timer", "timer": {}}"#, #"{"buttons": [{}, {}, {}, {}]}"#,
            #"{"template": "promo", "coupon": "X", "stock": 3}"#, #"{"template": "promo", "stock": 3.5}"#, #"{"coupon": "X"}"#,
            #"{"data": {"a": {"b": [1, 2, {"c": null}]}}}"#, #"{"ios": {"relevanceScore": 1.5}}"#, #"{"ios": {"relevanceScore": 1}}"#,
            #"{"template": "carousel", "carousel": {"items": [{"image": "https://e.com/1.png"}]}}"#, #"[]"#, #""plain""#, "{}",
        ]
        for text in texts { agree(try JSONParser.parse(text), text) }
    }

    @Test("a template may declare more fields than fit in one word: both walks still see each one")
    func manyFields() throws {
        let many = (0..<80).map { IntentField("field\($0)", .integer(minimum: 0), "Declared by wide.lua.") }
        let check = IntentCheck(templates: ["plain": [], "wide": many])
        let good = try JSONParser.parse(#"{"template": "wide", "field79": 3, "field0": 1, "title": "t"}"#)
        #expect(check.accepts(JSONTape(good)).map { check.templateNames[$0] } == "wide")
        let bad = try JSONParser.parse(#"{"template": "wide", "field79": -3}"#)
        #expect(check.accepts(JSONTape(bad)) == nil)
        #expect(check.findings(JSONTape(bad)) == [.error("$.field79", "out-of-range", "-3 is below the minimum of 0")])
    }

    /// `value` with the member at `path` set to `replacement`, or removed for nil. Missing objects
    /// on the way are made; a path through something that is not an object leaves it as it is.
    static func setting<Path: Collection<String>>(_ value: JSONValue, _ path: Path, to replacement: JSONValue?) -> JSONValue {
        guard let key = path.first else { return replacement ?? value }
        guard case .object(var object) = value else { return value }
        if path.count == 1 {
            object[key] = replacement
        } else if replacement != nil || object[key] != nil {
            object[key] = setting(object[key] ?? .object(JSONObject()), path.dropFirst(), to: replacement)
        }
        return .object(object)
    }
}
