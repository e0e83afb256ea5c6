@_spi(Engine) internal import PushmapJSON

/// The built-in templates' descriptions, and the tables derived from them, each made once.
package enum BuiltinTemplates {
    /// In the intent schema's order; a key several templates write (adb_items) takes its intent
    /// field from the first.
    package static let all: [TemplateDescription] = [.plain, .basic, .carousel, .timer, .input, .zeroBezel, .catalog, .rating, .icons]

    /// The description of the template named `name`.
    package static func named(_ name: String) -> TemplateDescription? {
        all.first { $0.name == name }
    }

    /// The entry of `key` in `template`'s description, or else in the first that has one (the
    /// template it is built on).
    static func declaration(of key: AdobeKey, in template: TemplateDescription) -> TemplateDescription.Key? {
        template.key(key) ?? all.lazy.compactMap { $0.key(key) }.first
    }

    /// The template names by `adb_template_type`.
    static let namesByType: [String: String] = Dictionary(uniqueKeysWithValues: all.compactMap { template in template.type.map { ($0, template.name) } })

    /// Each template type's print, with the scope its client rules run under. Every type is at
    /// most 16 bytes, which a print holds whole: equal prints are equal words.
    static let scopesByType: [(print: KeyPrint, scope: RuleScope)] = all.compactMap { template in
        template.type.map { (KeyPrint($0), template.scope) }
    }

    /// The template types Android's notificationbuilder draws: every template's.
    package static let androidTypes = Set(all.compactMap(\.type))
    /// The template types iOS's content extension draws.
    package static let iOSTypes = Set(all.filter(\.onIOS).compactMap(\.type))

    /// The keys only one template writes, where that template is Android's alone: key -> type.
    package static let androidOnlyKeys: [String: String] = {
        var writers: [AdobeKey: [TemplateDescription]] = [:]
        for template in all {
            for key in template.keys { writers[key.key, default: []].append(template) }
        }
        var keys: [String: String] = [:]
        for (key, templates) in writers where templates.count == 1 && !templates[0].onIOS {
            if let type = templates[0].type { keys[key.name] = type }
        }
        return keys
    }()

    /// The templates whose code reads the Adobe key `name`: every one (``RuleScope/always``) for
    /// a key plain or basic declares, on which the others are built, and for a key no template
    /// writes; otherwise those that declare it (`adb_col_style`: zb's alone).
    static func readingTemplates(_ name: String) -> RuleScope {
        let declaring = all.filter { template in template.keys.contains { $0.key.name == name } }
        if declaring.isEmpty || declaring.contains(where: { $0.scope == .plain || $0.scope == .basic }) { return .always }
        return RuleScope(declaring.map(\.scope))
    }

    /// The keys the messaging SDK reads for a plain Android notification: plain's FCM keys.
    package static let plainFCMKeys = Set(TemplateDescription.plain.keys.filter { $0.platforms != .apns }.map(\.key.name))

    /// Keys the phones' code reads that no template writes: Android's 3.0.0 notification builder
    /// read the timer colour as adb_clr_timer, and its AJO templates read adb_template_properties.
    static let unwrittenAndroidKeys = ["adb_clr_timer", "adb_template_properties"]

    /// The Adobe keys each platform's code reads: every key a template declares for it (and, on
    /// Android, ``unwrittenAndroidKeys``), in ``AdobeKey``'s order.
    static let androidReadKeys = readKeys(.fcm) + unwrittenAndroidKeys
    static let iOSReadKeys = readKeys(.apns)

    private static func readKeys(_ own: TemplateDescription.Platforms) -> [String] {
        AdobeKey.allCases.map(\.name).filter { name in
            all.contains { template in template.keys.contains { $0.key.name == name && ($0.platforms == .both || $0.platforms == own) } }
        }
    }

    /// The keys whose value is a list (JSON-encoded on FCM, an array on APNS), on `platform`.
    static func listKeys(on platform: Platform) -> [AdobeKey] {
        let own: TemplateDescription.Platforms = platform == .fcm ? .fcm : .apns
        var keys: [AdobeKey] = []
        for template in all {
            for key in template.keys where key.format == .list && (key.platforms == .both || key.platforms == own) && !keys.contains(key.key) {
                keys.append(key.key)
            }
        }
        return keys
    }

    /// The intent path each key comes from, for blame: a finding at `adb_title` is the intent's
    /// `$.title`. One table for both platforms: a key means the same on each. By the key's name,
    /// as a finding has it: one hash, where making the case from the name compares every case.
    static let intentPaths: [String: String] = {
        var paths: [String: String] = [:]
        for template in all {
            for key in template.keys where paths[key.key.name] == nil { paths[key.key.name] = key.intentPath }
        }
        return paths
    }()

    /// For each template, the fields its own keys come from where ``intentPaths`` names another
    /// template's (a catalog's adb_items is `$.catalog.items`, a carousel's `$.carousel.items`):
    /// a finding about the key in that template's payload belongs at its own field (the
    /// forty-fifth audit, translate M1: an iOS catalog's item image was put in `$.carousel`).
    static let ownPaths: [String: [(shared: String, own: String)]] = {
        var renames: [String: [(shared: String, own: String)]] = [:]
        for template in all {
            for key in template.keys {
                guard let shared = intentPaths[key.key.name], shared != key.intentPath else { continue }
                renames[template.name, default: []].append((shared, key.intentPath))
            }
        }
        return renames
    }()

    /// `path` moved to `template`'s own field when it is under a field ``ownPaths`` renames.
    static func ownPath(_ path: String, template: String) -> String {
        for rename in ownPaths[template] ?? [] where path.hasPrefix(rename.shared) {
            let rest = path.dropFirst(rename.shared.count)
            if rest.isEmpty || rest.first == "." || rest.first == "[" { return rename.own + rest }
        }
        return path
    }

    /// The keys import reads through their format, on FCM and on APNS: the keys both platforms
    /// carry first, then the platform's own, each in ``AdobeKey``'s order.
    static let readableFCM = readable([.both, .fcm])
    static let readableAPNS = readable([.both, .apns])

    /// A key import reads, with the template whose object its field is in, if any: the field is
    /// read only for a payload of that template.
    struct ReadableKey {
        let key: AdobeKey
        let field: String
        let format: TemplateDescription.Format
        let owner: String?
    }

    private static func readable(_ groups: [TemplateDescription.Platforms]) -> [ReadableKey] {
        let order = Dictionary(uniqueKeysWithValues: AdobeKey.allCases.enumerated().map { ($1, $0) })
        var result: [ReadableKey] = []
        for group in groups {
            var seen: Set<AdobeKey> = []
            var keys: [ReadableKey] = []
            for template in all {
                for key in template.keys where key.platforms == group && seen.insert(key.key).inserted {
                    guard let format = key.format, format != .list else { continue }
                    keys.append(ReadableKey(key: key.key, field: key.field, format: format, owner: template.owns(key.field) ? template.name : nil))
                }
            }
            result += keys.sorted { order[$0.key, default: 0] < order[$1.key, default: 0] }
        }
        return result
    }
}
