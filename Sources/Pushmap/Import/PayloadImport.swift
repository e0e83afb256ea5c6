internal import PushmapJSON

/// The work of ``Translator/importIntent(_:platform:)``: read the payload into intent fields,
/// translate them back, and report each key that does not come back as it was.
struct PayloadImport {
    let translator: Translator

    /// Rules of the findings.
    static let notKept = "import-not-kept"
    static let changed = "import-changed"
    static let added = "import-added"

    /// What a payload reads as: the template, the fields, and the payload's custom keys as one map
    /// with where each sits.
    struct Reading {
        var template: String
        var fields = ImportedFields()
        var diagnostics: [Diagnostic] = []
    }

    func run(_ payload: JSONValue, platform: Platform, text: [UInt8]? = nil) throws(TranslationError) -> (intent: JSONValue?, diagnostics: [Diagnostic]) {
        // Header names as HTTP reads them, whatever their case, found where written (APNSHeaderNames).
        let names = APNSHeaderNames(payload, platform: platform)
        // What the payload as given does on the phone, checked as validate checks it: on the text
        // when there is one (its size is the text's), with the header names as written.
        let asGiven = text.map { translator.validate($0, platform: platform) } ?? translator.validate(payload, platform: platform)
        let (intent, diagnostics) = try read(names.value, platform: platform, asGiven: asGiven)
        return (intent, names.restored(diagnostics))
    }

    private func read(_ payload: JSONValue, platform: Platform, asGiven findings: [Diagnostic]) throws(TranslationError) -> (intent: JSONValue?, diagnostics: [Diagnostic]) {
        var reading: Reading
        var requestForm = false
        switch platform {
        case .fcm:
            guard let message = payload["message"]?.objectValue else {
                return failure("an FCM payload is a JSON object holding an object `message`", at: "$.message", platform)
            }
            reading = Self.readFCM(message)
        case .apns:
            if let request = Self.request(payload) {
                // `{"headers", "payload"}`, as translate --request writes it and validate takes it.
                reading = Self.readAPNS(request.payload, pushType: request.headers["apns-push-type"]?.stringValue)
                Self.readHeaders(request.headers, payload: request.payload, into: &reading, now: translator.options.clock())
                reading.fields.rebase(onto: "$.payload", except: "$.headers")
                requestForm = true
            } else if let root = payload.objectValue, case let mdm = Self.isMDM(root), root["aps"]?.objectValue != nil || mdm {
                reading = Self.readAPNS(root, pushType: mdm ? "mdm" : nil)
            } else {
                return failure(
                    "an APNS payload is a JSON object holding an object `aps` (an MDM push: only `mdm`), or a request `{\"headers\", \"payload\"}`, whose apns-push-type says what a payload without aps is",
                    at: "$.aps", platform)
            }
        default:
            return failure("pushmap imports FCM and APNS payloads", at: "$", platform)
        }

        // What the payload as given does on the phone: a fault there is said as validate says
        // it, not as a neutral change the import makes (the thirty-sixth audit, F1, F2, F9).
        let asGiven = Faults(findings)
        let refusals = asGiven.errors

        // Translate back; a field the translation refuses is taken out, reported by its key.
        var translated: JSONValue?
        var leftOutUnderFault: Set<String> = []
        for _ in 0..<8 {
            let intent = reading.fields.intent(template: reading.template)
            do {
                translated = try translator.translate(
                    intent, platforms: [platform], now: translationTime(intent), forms: requestForm ? [.apnsRequest] : []).payloads[platform]
                break
            } catch {
                // A script that fails says nothing of the payload: taking fields out would hide it.
                if error.kind == .scriptFailed { throw error }
                var removedAny = false
                // Keys left out for a fault of the object holding them (a message with a token
                // and a topic): one finding at the fault, naming them all (the forty-fifth
                // audit, import F2: a warning for each key, and the fault's "the intent keeps it").
                var underFault: [(fault: Diagnostic, names: [String])] = []
                for finding in error.diagnostics where finding.severity == .error {
                    for source in reading.fields.remove(under: finding.path) {
                        removedAny = true
                        if let fault = asGiven.at(source).flatMap({ $0.severity == .error ? $0 : nil }) ?? asGiven.errorInside(source) {
                            // Refused as given too, there or inside it: said as validate says it
                            // (the thirty-eighth audit, F5; the fortieth, F5).
                            reading.diagnostics.append(.warning(fault.path, fault.rule, "as given, \(fault.message); the intent leaves \(ImportDifference.name(source)) out", platform: platform))
                        } else if let fault = asGiven.errorAbove(source) {
                            if let index = underFault.firstIndex(where: { $0.fault.path == fault.path }) {
                                underFault[index].names.append(ImportDifference.name(source))
                            } else {
                                underFault.append((fault, [ImportDifference.name(source)]))
                            }
                            leftOutUnderFault.insert(source)
                        } else {
                            reading.diagnostics.append(.warning(
                                source, Self.notKept, "\(ImportDifference.name(source)) is not kept: the intent made from it is refused (\(finding.message))",
                                platform: platform))
                        }
                    }
                }
                for (fault, names) in underFault {
                    let listed = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
                    reading.diagnostics.append(.warning(fault.path, fault.rule, "as given, \(fault.message); the intent leaves \(listed) out", platform: platform))
                }
                if !removedAny {
                    guard !refusals.isEmpty else {
                        // validate passes the payload, but the intent made from it is refused as a
                        // whole: a string alert, written back as a dictionary, takes a payload of
                        // 4,096 bytes past APNs' limit; an aps with nothing to show, which validate
                        // warns of (a VoIP push reads the payload's own keys), gives no alert. The
                        // intent is still the payload's: made, with why it does not translate as it
                        // is (the forty-third audit, F1 and F2: import refused both).
                        return (intent, reading.diagnostics + error.diagnostics.map(Self.untranslated))
                    }
                    // The payload's own faults are why it does not come back: said once each, with
                    // no word at their paths of what the tries took out (the thirty-eighth audit, F6).
                    let faulted = refusals.map(\.path)
                    let aside = reading.diagnostics.filter { finding in !faulted.contains { $0 == finding.path || Self.isInside($0, finding.path) } }
                    return (intent, aside + refusals)
                }
            }
        }
        let intent = reading.fields.intent(template: reading.template)
        guard let translated else {
            return (intent, reading.diagnostics)
        }
        var reported = Set(reading.diagnostics.map(\.path)).union(leftOutUnderFault)
        let differences = platform == .fcm
            ? Self.fcmDifferences(payload, translated)
            : requestForm ? Self.requestDifferences(payload, translated) : Self.apnsDifferences(payload, translated)
        for difference in differences where reported.insert(difference.path).inserted {
            if let fault = asGiven.at(difference.path) {
                reported.insert(fault.path)
                reading.diagnostics.append(Self.said(difference, fault, platform, template: reading.template))
            } else if let inside = asGiven.errorInside(difference.path), difference.kind != .notKept {
                // A fault inside a key the intent rewrites (a rating action): said once, at the
                // fault, with what the intent writes there.
                reported.insert(inside.path)
                reading.diagnostics.append(Self.said(difference, inside, platform, template: reading.template))
            } else {
                // A key left out whole says so at its path, and a fault inside it below (the
                // fortieth audit, F1: the drop of message.apns went unsaid).
                reading.diagnostics.append(difference.diagnostic(platform, template: reading.template))
            }
        }
        // A fault of the payload as given not said above: inside a key said already, with what
        // the intent does with that key; else one the intent keeps (a timer over at --now).
        for refusal in refusals + asGiven.dropped where reported.insert(refusal.path).inserted {
            let key = differences.first { Self.isInside(refusal.path, $0.path) }
            let kept = refusal.path == "$" ? "the intent's own payload is checked when it is translated" : "the intent keeps it"
            let outcome = key.map { $0.kind == .notKept ? "the intent leaves \(ImportDifference.name($0.path)) out" : $0.outcome } ?? kept
            reading.diagnostics.append(.warning(refusal.path, refusal.rule, "as given, \(refusal.message); \(outcome)", platform: platform))
        }
        return (intent, reading.diagnostics)
    }

    /// One finding for a key that does not come back: said as the fault it mends when the
    /// payload as given has one there or inside it (a warning: the intent is made), at the
    /// fault's path; a key left out for a reason validate gives (a colour the phone ignores)
    /// with that reason; a colour the phone ignores that the intent applies (a catalog's button
    /// colour, which the template needs) as what it is (the thirty-eighth audit, F4, F7).
    private static func said(_ difference: ImportDifference, _ fault: Diagnostic?, _ platform: Platform, template: String) -> Diagnostic {
        guard let fault else { return difference.diagnostic(platform, template: template) }
        if fault.severity == .warning, difference.kind == .notKept {
            return .warning(difference.path, notKept, "\(ImportDifference.name(difference.path)) is not kept: \(fault.message)", platform: platform)
        }
        if fault.severity == .error || fault.rule == "android-color" {
            return .warning(fault.path, fault.rule, "as given, \(fault.message); \(difference.outcome)", platform: platform)
        }
        return difference.diagnostic(platform, template: template)
    }

    /// A finding of translating the intent back, where the payload as given has none: a warning,
    /// as the intent is made, saying that it is the intent's translation that is refused.
    private static func untranslated(_ finding: Diagnostic) -> Diagnostic {
        guard finding.severity == .error else { return finding }
        var said = finding
        said.severity = .warning
        said.message = "the intent made from the payload is refused when translated: \(finding.message)"
        return said
    }

    /// Whether the JSON path `path` is below `parent` (`$.a[0]` and `$.a.b` are below `$.a`).
    static func isInside(_ path: String, _ parent: String) -> Bool {
        path.hasPrefix(parent + "[") || path.hasPrefix(parent + ".")
    }

    /// What validate finds in the payload as given, by path.
    struct Faults {
        let all: [Diagnostic]
        let errors: [Diagnostic]

        /// Warnings that Android drops the payload as given, which the intent keeps: an end
        /// already past is a fault of when a timer is sent (a warning), but one import says.
        let dropped: [Diagnostic]

        init(_ findings: [Diagnostic]) {
            all = findings
            errors = findings.filter { $0.severity == .error }
            dropped = findings.filter { $0.severity == .warning && $0.rule == "\(AndroidClientChecks.TimerExpired.name)" }
        }

        /// The finding at `path`, an error before a warning.
        func at(_ path: String) -> Diagnostic? {
            errors.first { $0.path == path } ?? all.first { $0.path == path }
        }

        /// The first error inside the value at `path` (`adb_rate_act[0]` in `adb_rate_act`).
        func errorInside(_ path: String) -> Diagnostic? {
            errors.first { PayloadImport.isInside($0.path, path) }
        }

        /// The error of an object holding `path`, below the payload's root (whose errors, its
        /// size, are of the whole payload, not of one member).
        func errorAbove(_ path: String) -> Diagnostic? {
            errors.first { $0.path != "$" && PayloadImport.isInside(path, $0.path) }
        }
    }

    /// The time to translate back at: now, or just before the timer's end when that has passed.
    /// A timer already over is a fault of sending the payload now (said once, as given), not of
    /// the intent it reads as, which keeps its endsAt.
    private func translationTime(_ intent: JSONValue) -> Int64 {
        let now = translator.options.clock()
        guard let end = intent["timer"]?["endsAt"]?.integerValue, end <= now, end > .min else { return now }
        return end - 1
    }

    private func failure(_ message: String, at path: String, _ platform: Platform) -> (intent: JSONValue?, diagnostics: [Diagnostic]) {
        (nil, [.error(path, "import-payload", message + ": there is nothing to import", platform: platform)])
    }

    // MARK: reading

    /// An FCM data value as Android's code reads it: a string, or a boolean or whole number
    /// as the text it stands for.
    private static func dataText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .integer(let number): String(number)
        default: nil
        }
    }

    static func readFCM(_ message: JSONObject) -> Reading {
        // data and android.data are one map; android.data wins.
        var data = message["data"]?.objectValue ?? JSONObject()
        var sources: [String: String] = [:]
        for (key, _) in data { sources[key] = JSONPath.member("$.message.data", key) }
        if let android = message["android"]?.objectValue?["data"]?.objectValue {
            for (key, value) in android {
                data[key] = value
                sources[key] = JSONPath.member("$.message.android.data", key)
            }
        }
        let type = data[AdobeKey.templateType.name]?.stringValue
        // Without a type, Campaign Classic's extension (its ids say it is the reader) draws a
        // basic notification, and the messaging SDK a plain one (intent.md; the forty-fifth
        // audit, import F3: read as plain, its basic keys were all "not kept").
        let campaignClassic = data[TemplateKey.messageID.name] != nil || data[TemplateKey.deliveryID.name] != nil
        var reading = Reading(template: type.map { BuiltinTemplates.namesByType[$0] ?? "basic" } ?? (campaignClassic ? "basic" : "plain"))
        let template = reading.template
        var used: Set<String> = [AdobeKey.templateType.name]

        // adb_rem_sec wins over adb_rem_ts when positive, and the intent holds one of them.
        if let after = data[AdobeKey.remindAfter.name]?.stringValue, (Int64(after) ?? 0) > 0 { used.insert(AdobeKey.remindAt.name) }
        used.formUnion(outranked(data, android: true))
        let requires = Set(BuiltinTemplates.named(template)?.androidRequires ?? [])
        for key in BuiltinTemplates.readableFCM where !used.contains(key.key.name) {
            // A boolean or a whole number is read as its text, as Adobe's own test maps have it
            // (timer-05's "adb_sticky": true; the thirty-fourth audit, F7): FCM takes only text
            // there, which the comparison then says of the key.
            guard let text = data[key.key.name].flatMap(Self.dataText), key.owner == nil || key.owner == template,
                  let value = PayloadReading.convert(text, key.format, android: true, required: requires.contains(key.key)) else { continue }
            reading.fields.set(key.field, value, from: sources[key.key.name] ?? key.key.name)
            used.insert(key.key.name)
        }
        readLists(data, platform: .fcm, base: "$.message.data", into: &reading, used: &used)
        readCustomKeys(data, sources: sources, used: &used, into: &reading)

        // The message's own members.
        if let label = message["fcm_options"]?.objectValue?["analytics_label"]?.stringValue {
            reading.fields.set("analyticsLabel", .string(label), from: "$.message.fcm_options.analytics_label")
        }
        for target in ["token", "topic", "condition", "fid"] {
            if let text = message[target]?.stringValue { reading.fields.set("target." + target, .string(text), from: "$.message." + target) }
        }
        if let android = message["android"]?.objectValue {
            if let key = android["collapse_key"]?.stringValue { reading.fields.set("android.collapseKey", .string(key), from: "$.message.android.collapse_key") }
            if let priority = android["priority"]?.stringValue, let delivery = ["NORMAL": "normal", "HIGH": "high"][priority.uppercased()] {
                reading.fields.set("android.delivery", .string(delivery), from: "$.message.android.priority")
            }
            if let ttl = android["ttl"]?.stringValue, ttl.hasSuffix("s"), let seconds = Int64(ttl.dropLast()), String(seconds) + "s" == ttl {
                reading.fields.set("android.ttl", .integer(seconds), from: "$.message.android.ttl")
            }
        }
        return reading
    }

    /// The request form's payload and headers: an object of `payload` (an object) and
    /// `headers`, and nothing else.
    static func request(_ value: JSONValue) -> (payload: JSONObject, headers: JSONObject)? {
        guard let root = value.objectValue, root["aps"] == nil, let payload = root["payload"]?.objectValue,
              root.allSatisfy({ $0.key == "payload" || ($0.key == "headers" && $0.value.objectValue != nil) }) else { return nil }
        return (payload, root["headers"]?.objectValue ?? JSONObject())
    }

    /// An MDM push, `{"mdm": PushMagic}`: that key, and at most an empty aps (sideshow/apns2's
    /// builder writes one).
    static func isMDM(_ root: JSONObject) -> Bool {
        guard root["mdm"]?.stringValue != nil else { return false }
        return root.allSatisfy { $0.key == "mdm" || ($0.key == "aps" && $0.value.objectValue?.isEmpty == true) }
    }

    /// The request headers as intent fields: the push type (alert and background are what a
    /// translation infers), the topic without the push type's suffix, a normal priority, the
    /// collapse id and the expiration as a time to live from `now`. apns-id has no field: it
    /// is reported as not kept.
    static func readHeaders(_ headers: JSONObject, payload: JSONObject, into reading: inout Reading, now: Int64) {
        let type = headers["apns-push-type"]?.stringValue
        if let type, type != "alert", type != "background" {
            reading.fields.set("ios.pushType", .string(type), from: #"$.headers["apns-push-type"]"#)
        }
        if var topic = headers["apns-topic"]?.stringValue {
            let suffix = type.flatMap { name in APNSModel.pushTypes.first { ValueFormat.text($0.type) == name }?.topicSuffix }.map(ValueFormat.text) ?? ""
            if !suffix.isEmpty, topic.hasSuffix(suffix) { topic.removeLast(suffix.count) }
            reading.fields.set("ios.topic", .string(topic), from: #"$.headers["apns-topic"]"#)
        }
        // 10 is what a translation writes unless told; a background push is always 5.
        let silent = payload["aps"]?.objectValue?["content-available"]?.integerValue == 1 && payload["aps"]?.objectValue?["alert"] == nil
        if headers["apns-priority"]?.stringValue == "5", type != "background", !silent {
            reading.fields.set("delivery", .string("normal"), from: #"$.headers["apns-priority"]"#)
        }
        if let collapse = headers["apns-collapse-id"]?.stringValue {
            reading.fields.set("collapseKey", .string(collapse), from: #"$.headers["apns-collapse-id"]"#)
        }
        // A time past 64 bits from now (a clock of the library's far from 1970) gives no ttl.
        if let expiration = headers["apns-expiration"]?.stringValue, let at = Int64(expiration), at == 0 || at > now {
            let (ttl, overflow) = at == 0 ? (0, false) : at.subtractingReportingOverflow(now)
            if !overflow { reading.fields.set("ttl", .integer(ttl), from: #"$.headers["apns-expiration"]"#) }
        }
    }

    /// The keys the phone does not read beside another that wins: adb_tmr_end beside a valid
    /// adb_tmr_dur, on both platforms (client-rules.md, timer). The intent holds one of the two.
    private static func outranked(_ keys: JSONObject, android: Bool) -> Set<String> {
        guard let duration = keys[AdobeKey.timerDuration.name]?.stringValue,
            PayloadReading.convert(duration, .integer(minimum: 1), android: android) != nil
        else { return [] }
        return [AdobeKey.timerEnd.name]
    }

    static func readAPNS(_ root: JSONObject, pushType: String? = nil) -> Reading {
        var sources: [String: String] = [:]
        var keys = JSONObject()
        for (key, value) in root where key != "aps" {
            keys[key] = value
            sources[key] = JSONPath.member("$", key)
        }
        let type = keys[AdobeKey.templateType.name]?.stringValue
        var reading = Reading(template: type.map { BuiltinTemplates.namesByType[$0] ?? "basic" } ?? "plain")
        let template = reading.template
        var used: Set<String> = [AdobeKey.templateType.name]
        used.formUnion(outranked(keys, android: false))
        for key in BuiltinTemplates.readableAPNS where !used.contains(key.key.name) {
            guard let text = keys[key.key.name]?.stringValue, key.owner == nil || key.owner == template,
                  let value = PayloadReading.convert(text, key.format, android: false) else { continue }
            reading.fields.set(key.field, value, from: sources[key.key.name] ?? key.key.name)
            used.insert(key.key.name)
        }
        readLists(keys, platform: .apns, base: "$", into: &reading, used: &used)
        readCustomKeys(keys, sources: sources, used: &used, into: &reading)

        let aps = root["aps"]?.objectValue ?? JSONObject()
        if let alert = aps["alert"] {
            if let body = alert.stringValue {
                reading.fields.set("body", .string(body), from: "$.aps.alert")
            } else if let alert = alert.objectValue {
                for field in ["title", "subtitle", "body"] {
                    if let text = alert[field]?.stringValue { reading.fields.set(field, .string(text), from: "$.aps.alert." + field) }
                }
                // A Live Activity's alert carries its sound (translate writes the intent's sound there).
                if aps["event"] != nil, let sound = alert["sound"]?.stringValue {
                    reading.fields.set("sound", .string(sound), from: "$.aps.alert.sound")
                }
                let localized = [
                    ("title-loc-key", "titleKey"), ("title-loc-args", "titleArgs"), ("subtitle-loc-key", "subtitleKey"),
                    ("subtitle-loc-args", "subtitleArgs"), ("loc-key", "bodyKey"), ("loc-args", "bodyArgs"),
                ]
                for (key, field) in localized {
                    guard let value = alert[key], value.stringValue != nil || value.arrayValue?.allSatisfy({ $0.stringValue != nil }) == true else { continue }
                    reading.fields.set("ios.localized." + field, value, from: JSONPath.member("$.aps.alert", key))
                }
            }
        }
        if let sound = aps["sound"]?.stringValue { reading.fields.set("sound", .string(sound), from: "$.aps.sound") }
        // A critical alert's sound: its name is the intent's sound, its volume the critical sound's.
        if let sound = aps["sound"]?.objectValue, sound["critical"]?.integerValue == 1, let name = sound["name"]?.stringValue {
            reading.fields.set("sound", .string(name), from: "$.aps.sound")
            var critical = JSONObject()
            if let volume = sound["volume"], volume.doubleValue != nil || volume.integerValue != nil { critical["volume"] = volume }
            reading.fields.set("ios.criticalSound", .object(critical), from: "$.aps.sound")
        }
        if let badge = aps["badge"]?.integerValue, badge >= 0 { reading.fields.set("badge", .integer(badge), from: "$.aps.badge") }
        let strings = [("thread-id", "ios.threadId"), ("interruption-level", "ios.interruptionLevel"), ("target-content-id", "ios.targetContentId")]
        for (key, field) in strings {
            if let text = aps[key]?.stringValue { reading.fields.set(field, .string(text), from: "$.aps." + key) }
        }
        if let score = aps["relevance-score"], score.doubleValue != nil || score.integerValue != nil {
            reading.fields.set("ios.relevanceScore", score, from: "$.aps.relevance-score")
        }
        if aps["content-available"]?.integerValue == 1 { reading.fields.set("ios.contentAvailable", .bool(true), from: "$.aps.content-available") }
        // A Live Activity's aps, each key as its ios.liveActivity field.
        if aps["event"]?.stringValue != nil {
            let activity = [
                ("event", "event"), ("content-state", "contentState"), ("timestamp", "timestamp"), ("stale-date", "staleDate"),
                ("dismissal-date", "dismissalDate"), ("attributes-type", "attributesType"), ("attributes", "attributes"),
            ]
            for (key, field) in activity {
                if let value = aps[key] { reading.fields.set("ios.liveActivity." + field, value, from: JSONPath.member("$.aps", key)) }
            }
            reading.fields.set("ios.pushType", .string("liveactivity"), from: "$.aps.event")
        }
        if pushType == "mdm" {
            reading.fields.set("ios.pushType", .string("mdm"), from: "$.mdm")
        }
        // WidgetKit's push: aps.content-changed true says what it is (APNSwift's widgets payload),
        // unless the request's header says it is for the controls.
        if aps["content-changed"] == .bool(true), aps["event"] == nil, pushType != "controls" {
            reading.fields.set("ios.pushType", .string("widgets"), from: "$.aps.content-changed")
        }
        // Templates always write their category and mutable-content; plain says them.
        if template == "plain" {
            if let category = aps["category"]?.stringValue { reading.fields.set("ios.category", .string(category), from: "$.aps.category") }
            if aps["mutable-content"]?.integerValue == 1 { reading.fields.set("ios.mutableContent", .bool(true), from: "$.aps.mutable-content") }
        }
        return reading
    }

    /// The template's lists (adb_act, adb_items, adb_rate_act), as its description reads them;
    /// `platform`'s payload carries the keys in `keys`.
    private static func readLists(_ keys: JSONObject, platform: TemplateDescription.Platforms, base: String, into reading: inout Reading, used: inout Set<String>) {
        guard let template = BuiltinTemplates.named(reading.template) else { return }
        for list in template.lists {
            guard let carried = BuiltinTemplates.declaration(of: list.key, in: template)?.platforms,
                  carried == .both || carried == platform,
                  let entries = PayloadReading.list(keys[list.key.name]) else { continue }
            // The entries the phone reads, then the first it shows: a button Android skips
            // takes no place of one it shows, and the items after one without an image are lost.
            let built = platform == .apns ? entries : list.androidReads(entries)
            let values: [JSONValue] = built.prefix(list.maxItems).compactMap { entry in
                if let required = list.required, entry[required]?.stringValue == nil { return nil }
                var object = JSONObject()
                for member in list.members {
                    switch member {
                    case .text(let payload, let intent): if let text = entry[payload]?.stringValue { object[intent] = .string(text) }
                    case .tapType: if let type = PayloadReading.tapType(entry) { object["type"] = type }
                    }
                }
                // With no type the intent can say (NONE), an empty uri would make a DEEPLINK of
                // it: it opens nothing, so it is read as none.
                if object["type"] == nil, object["uri"] == .string("") { object["uri"] = nil }
                return .object(object)
            }
            reading.fields.set(list.field, .array(values), from: JSONPath.member(base, list.key.name))
            used.insert(list.key.name)
        }
    }

    /// Campaign Classic's ids, and every key that is not Adobe's, into `data`.
    private static func readCustomKeys(_ keys: JSONObject, sources: [String: String], used: inout Set<String>, into reading: inout Reading) {
        if let message = keys["_mId"]?.stringValue, let delivery = keys["_dId"]?.stringValue {
            reading.fields.set("campaignClassic.messageId", .string(message), from: sources["_mId"] ?? "_mId")
            reading.fields.set("campaignClassic.deliveryId", .string(delivery), from: sources["_dId"] ?? "_dId")
            used.formUnion(["_mId", "_dId"])
        }
        for (key, value) in keys where !used.contains(key) && !key.hasPrefix(AdobeKey.prefix) {
            reading.fields.setData(key, value, from: sources[key] ?? key)
        }
    }
}
