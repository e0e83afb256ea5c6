@_spi(Engine) internal import PushmapJSON

/// The one walk of an FCM request against ``FCMModel``: every member of every object FCM reads
/// must be a field of that object, spelled once (camelCase or snake_case, not both), with a value
/// of the field's type and format. Data maps' members are strings; what is inside
/// `apns.payload` and `webpush.notification` is not FCM's to check (the document says any).
///
/// Each finding is an error, since FCM refuses the whole request, under one of these rule names:
/// `fcm-unknown-field`, `fcm-field-twice`, `fcm-field-type`, `fcm-enum-value`, `fcm-duration`,
/// `fcm-timestamp`, `fcm-int32`; but for `fcm-null-field`, a warning: protobuf's JSON reads a
/// field set to null as a field left out. Paths are built only for a finding.
enum FCMFieldWalk {
    static func run(_ root: JSONNode, _ report: inout CheckReport) {
        guard let object = root.objectValue else { return }  // fcm-message-object says so
        let model = FCMModel.compiled
        walk(object, schema: model.root, model, path: { "$" }, &report)
    }

    private static func walk(
        _ object: JSONObjectNode, schema: Int, _ model: FCMModel.Compiled, path: () -> String, _ report: inout CheckReport
    ) {
        let first = model.schemas[schema].fields.lowerBound
        var seen: UInt64 = 0
        for (keyNode, value) in object {
            guard let key = keyNode.utf8 else { continue }
            func memberPath() -> String { JSONPath.member(path(), String(decoding: key, as: UTF8.self)) }
            let index = model.field(key, in: schema)
            guard index >= 0 else {
                unknown(key, in: schema, model, at: location(of: key, in: path(), schema: schema, model), &report)
                continue
            }
            let bit: UInt64 = 1 << UInt64(index - first)
            let field = model.fields[index]
            if seen & bit != 0 {
                report.error(
                    location(of: key, in: path(), schema: schema, model),
                    "\(shortPath(path())) sets \(field.camelName) twice (as \(field.camelName) and \(field.snakeName), or the same name again): FCM refuses the message",
                    rule: "fcm-field-twice")
            }
            seen |= bit
            if value.isNull {
                if !FCMPayloadChecks.LightSettingsFields.requires(field, in: model.schemas[schema].name) {
                    nullField(path: memberPath, at: { location(of: key, in: path(), schema: schema, model) }, &report)
                }
                continue
            }
            if field.ownRule {
                if field.kind == .object, field.schema >= 0, let inner = value.objectValue {
                    walk(inner, schema: field.schema, model, path: memberPath, &report)
                }
                continue
            }
            check(value, field, model, path: memberPath, at: { location(of: key, in: path(), schema: schema, model) }, &report)
        }
    }

    /// A field's value; an array's, element by element.
    private static func check(
        _ value: JSONNode, _ field: FCMModel.CompiledField, _ model: FCMModel.Compiled, path: () -> String,
        at location: () -> CheckLocation, _ report: inout CheckReport
    ) {
        guard field.isArray else {
            checkOne(value, field, model, path: path, at: location, &report)
            return
        }
        guard let elements = value.arrayValue else {
            wrongType(value, expected: "an array", path: path, at: location, &report)
            return
        }
        for (number, element) in elements.enumerated() {
            func elementPath() -> String { JSONPath.element(path(), number) }
            checkOne(element, field, model, path: elementPath, at: { CheckLocation(payload: elementPath()) }, &report)
        }
    }

    private static func checkOne(
        _ value: JSONNode, _ field: FCMModel.CompiledField, _ model: FCMModel.Compiled, path: () -> String,
        at location: () -> CheckLocation, _ report: inout CheckReport
    ) {
        switch field.kind {
        case .string:
            if !value.isString { wrongType(value, expected: "a string", path: path, at: location, &report) }
        case .boolean:
            if value.boolValue == nil { wrongType(value, expected: "true or false", path: path, at: location, &report) }
        case .number:
            if ValueFormat.protobufNumber(value) == nil {
                wrongType(value, expected: "a number", path: path, at: location, &report)
            }
        case .int32:
            checkInt32(value, path: path, at: location, &report)
        case .duration:
            guard let text = value.utf8 else { return wrongType(value, expected: "a duration string such as \"3.5s\"", path: path, at: location, &report) }
            if ValueFormat.duration(text) == nil {
                // A negative duration is protobuf's, but none of FCM's: the Admin SDKs say so.
                let fault =
                    ValueFormat.isDurationPastRange(text)
                    ? "is past protobuf's duration range (315576000000s, 10,000 years)"
                    : ValueFormat.isNegativeDuration(text)
                        ? "is negative: a duration here must be 0s or more"
                        : "is not a duration: seconds with up to 9 decimals, then s (\"3.5s\")"
                report.error(location(), "\(shortPath(path())) \(ValueFormat.quoted(text)) \(fault): FCM refuses the message", rule: "fcm-duration")
            }
        case .timestamp:
            guard let text = value.utf8 else { return wrongType(value, expected: "an RFC 3339 time string", path: path, at: location, &report) }
            if !ValueFormat.isTimestamp(text) {
                report.error(
                    location(),
                    "\(shortPath(path())) \(ValueFormat.quoted(text)) is not an RFC 3339 time as protobuf reads it, such as \"2026-01-31T12:00:00Z\" (at most 9 decimals of a second): FCM refuses the message",
                    rule: "fcm-timestamp")
            }
        case .enumeration:
            checkEnumeration(value, field, model, path: path, at: location, &report)
        case .object:
            guard let object = value.objectValue else { return wrongType(value, expected: "an object", path: path, at: location, &report) }
            if field.schema >= 0 { walk(object, schema: field.schema, model, path: path, &report) }
        case .stringMap:
            guard let object = value.objectValue else {
                return wrongType(value, expected: "an object of string values", path: path, at: location, &report)
            }
            for (key, member) in object where !member.isString {
                func memberPath() -> String { JSONPath.member(path(), key.stringValue ?? "") }
                wrongType(member, expected: "a string", path: memberPath, at: { CheckLocation(payload: memberPath()) }, &report)
            }
        case .anyMap:
            if value.objectValue == nil { wrongType(value, expected: "an object", path: path, at: location, &report) }
        case .unknown:
            break
        }
    }

    /// An enum as protobuf's JSON reads it: a word of the enum, or its number. FCM takes a word
    /// in any case: every Firebase Admin SDK sends android.priority as `"high"`, whose enum word
    /// is HIGH (protobuf's JSON reader has an option that retries a word in upper case). So only
    /// a word the enum lacks in every case is refused. A number is the word's place in the
    /// document's list, which lists each enum in declaration order, numbered from 0 (true of
    /// every enum of the message). proto3's enums are open: a number past the list is read, not
    /// refused, and means nothing FCM documents, hence a warning. A number may come as a string
    /// of one, as protobuf's JSON readers take it ("1").
    private static func checkEnumeration(
        _ value: JSONNode, _ field: FCMModel.CompiledField, _ model: FCMModel.Compiled, path: () -> String,
        at location: () -> CheckLocation, _ report: inout CheckReport
    ) {
        // A whole number in any of protobuf's forms (1.0, "1e0"): the thirty-first audit, F2.
        if let number = ValueFormat.protobufWholeNumber(value) {
            if number >= 0, number < Int64(field.values.count) { return }
            guard number >= Int64(Int32.min), number <= Int64(Int32.max) else {
                return report.error(
                    location(), "\(shortPath(path())) \(number) is outside a 32-bit integer's range, so it is no enum number: FCM refuses the message",
                    rule: "fcm-enum-value")
            }
            report.add(
                .warning, rule: "fcm-enum-value", location(),
                "\(shortPath(path())) \(number) is not the number of one of \(words(field, model)) (0 to \(field.values.count - 1)): FCM reads it but it means nothing FCM documents; give the word")
            return
        }
        guard let text = value.utf8 else { return wrongType(value, expected: "one of \(words(field, model))", path: path, at: location, &report) }
        for index in field.values where ValueFormat.equalsIgnoringCase(text, model.values[index]) { return }
        report.error(
            location(), "\(shortPath(path())) \(ValueFormat.quoted(text)) is not one of \(words(field, model)): FCM refuses the message",
            rule: "fcm-enum-value")
    }

    /// protobuf's JSON reads an int32 from a number or from a string of one, and from a number
    /// written with a zero fraction or an exponent (1.0, 1e2) as the whole number it is: the
    /// protobuf conformance suite requires it of every reader (Int32FieldFloatTrailingZero,
    /// Int32FieldExponentialFormat).
    private static func checkInt32(_ value: JSONNode, path: () -> String, at location: () -> CheckLocation, _ report: inout CheckReport) {
        // Quoted too, in any of a number's forms (the thirty-first audit, F1: "1e5" was refused).
        let shown: String
        if let number = ValueFormat.protobufWholeNumber(value) {
            guard number < Int64(Int32.min) || number > Int64(Int32.max) else { return }
            shown = "\(number)"
        } else if let double = ValueFormat.protobufNumber(value), double.isFinite, double.rounded(.towardZero) == double {
            shown = "\(double)"
        } else {
            return wrongType(value, expected: "an integer", path: path, at: location, &report)
        }
        report.error(
            location(), "\(shortPath(path())) \(shown) is outside a 32-bit integer's range (-2147483648 to 2147483647): FCM refuses the message",
            rule: "fcm-int32")
    }

    /// protobuf's JSON takes null for any field and reads it as the field left out (the
    /// conformance suite's AllFieldAcceptNull): the message goes, without what the sender meant
    /// to set. (A null inside a list or a map is no field, and is refused as the wrong type.)
    private static func nullField(path: () -> String, at location: () -> CheckLocation, _ report: inout CheckReport) {
        report.add(
            .warning, rule: "fcm-null-field", location(),
            "\(shortPath(path())) is null, which FCM reads as the field left out: give it a value, or leave it out")
    }

    private static func wrongType(
        _ value: JSONNode, expected: String, path: () -> String, at location: () -> CheckLocation, _ report: inout CheckReport
    ) {
        report.error(
            location(), "\(shortPath(path())) must be \(expected), not \(ValueFormat.shown(value, literals: true)): FCM refuses the message",
            rule: "fcm-field-type")
    }

    private static func unknown(
        _ key: UnsafeRawBufferPointer, in schema: Int, _ model: FCMModel.Compiled, at location: CheckLocation, _ report: inout CheckReport
    ) {
        let name = String(decoding: key, as: UTF8.self)
        let fields = model.schemas[schema].fields.map { model.fields[$0] }
        let names = fields.flatMap { [ValueFormat.text($0.camelName), ValueFormat.text($0.snakeName)] }
        var hint = Suggestion.nearest(to: name, among: names, maxEdits: 2).map { " (did you mean \($0)?)" } ?? ""
        if hint.isEmpty, let owner = model.schemas.first(where: { other in other.fields.contains { model.fields[$0].matches(key, KeyPrint(bytes: key)) } }) {
            hint = " (it is a field of \(owner.name))"
        }
        report.error(
            location, "\(ShownText.clipped(name)) is not a field of \(model.schemas[schema].name) in FCM's v1 API\(hint): FCM refuses the message",
            rule: "fcm-unknown-field")
    }

    private static func words(_ field: FCMModel.CompiledField, _ model: FCMModel.Compiled) -> String {
        field.values.map { ValueFormat.text(model.values[$0]) }.joined(separator: ", ")
    }

    /// `message.android.ttl` for `$.message.android.ttl`: how a message names a place.
    private static func shortPath(_ path: String) -> String {
        path.hasPrefix("$.") ? String(path.dropFirst(2)) : path
    }

    /// Where the member `key` of an object of `schema` at `parent` is; members of `message` and
    /// `message.android` have intent fields of their own.
    private static func location(of key: UnsafeRawBufferPointer, in parent: String, schema: Int, _ model: FCMModel.Compiled) -> CheckLocation {
        let name = String(decoding: key, as: UTF8.self)
        let payload = JSONPath.member(parent, name)
        let schemaName = model.schemas[schema].name
        if ValueFormat.equals(schemaName, "Message"), parent == "$.message" {
            return CheckLocation(payload: payload, intent: IntentOrigin.messageKeys[name])
        }
        if ValueFormat.equals(schemaName, "AndroidConfig"), parent == "$.message.android" {
            return CheckLocation(payload: payload, intent: IntentOrigin.androidKeys[name])
        }
        return CheckLocation(payload: payload)
    }
}
