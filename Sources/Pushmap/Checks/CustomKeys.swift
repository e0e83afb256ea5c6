@_spi(Engine) internal import PushmapJSON

/// The custom keys of a payload with where each sits: FCM's data map (`message.data` and
/// `message.android.data` together) or the APNS keys beside `aps`.
///
/// Each key is read once, when added: its bytes are matched against the keys the client rules
/// read (``Known``), so that a rule's lookup is one array access rather than a search or a hash.
/// Keys compare by their UTF-8 bytes, as JSON and the phones compare them.
struct CustomKeys {
    /// One key's value and the payload object it sits in; its location is built only when a
    /// finding needs it, since most keys never get one.
    struct Entry {
        /// The key's bytes, the payload's own.
        let key: UnsafeRawBufferPointer
        var value: JSONNode
        /// The payload path of the object it sits in (a literal: the entry holds no reference).
        var base: StaticString
        /// Whose code reads the key (``ClientPlatform/readerBit``): 0 for a key no phone reads;
        /// and ``Known/Table/ownedBit`` for a key some templates read and others do not.
        var readers: UInt8 = 0

        /// The key as a string, for messages.
        var name: String { String(decoding: key, as: UTF8.self) }
    }

    /// Where a key the payload lacks would go, for "missing" findings.
    let base: StaticString
    /// The keys in payload order, each once.
    private(set) var entries: [Entry] = []
    /// How many of them some templates read and others do not (`adb_items`): the other-template
    /// rules look no further when there is none, as in most payloads.
    private(set) var templateKeyCount = 0
    /// Each entry's key print, at the same index: scans read these plain words and copy no entry.
    private(set) var prints: [KeyPrint] = []
    /// For each ``Known`` key, its index in `entries`, or -1 when absent; held inline, so that a
    /// payload's keys cost no third allocation, and as 32-bit numbers, so that a copy is short.
    private var slots = SIMD32<Int32>(repeating: -1)
    /// The known keys' prints, read once here rather than through a lazy global at every key.
    private let known = Known.table
    /// Each entry's index by its bytes, made at the first search among more than
    /// ``searchedInPlace`` entries: a scan for each key of a second map (android.data beside data)
    /// was a square of the keys, minutes for a script's 300,000.
    private var indexByBytes: [[UInt8]: Int]?
    private static let searchedInPlace = 32

    init(base: StaticString) {
        self.base = base
    }

    var isEmpty: Bool { entries.isEmpty }

    /// Makes room for `count` more keys at once.
    mutating func reserve(_ count: Int) {
        entries.reserveCapacity(entries.count + count)
        prints.reserveCapacity(entries.count + count)
    }

    /// Adds a key found in the object at payload path `base`; a later entry for the same key
    /// wins, as `android.data` does over `data`, and keeps the first one's place. Gives the
    /// key's print, for the caller's own byte tests.
    /// - Parameter new: the caller knows no entry has this key (the first object added, with
    ///   each key once): no search for an earlier entry, which is a scan for keys no rule reads.
    @discardableResult
    mutating func add(_ key: UnsafeRawBufferPointer, _ value: JSONNode, in base: StaticString, new: Bool = false) -> KeyPrint {
        let print = KeyPrint(bytes: key)
        let (known, readers) = known.matching(key, print)
        let existing = new ? -1 : known.map { Int(slots[$0.rawValue]) } ?? unknownIndex(key, print)
        if existing >= 0 {
            entries[existing].value = value
            entries[existing].base = base
            return print
        }
        // A payload of more keys than 32 bits count is refused long before it gets here.
        if let known { slots[known.rawValue] = Int32(truncatingIfNeeded: entries.count) }
        if indexByBytes != nil { index(key, at: entries.count) }
        if readers & Known.Table.ownedBit != 0 { templateKeyCount += 1 }
        entries.append(Entry(key: key, value: value, base: base, readers: readers))
        prints.append(print)
        return print
    }

    /// The index of a key no rule reads by name, or -1.
    private mutating func unknownIndex(_ key: UnsafeRawBufferPointer, _ print: KeyPrint) -> Int {
        if entries.count > Self.searchedInPlace { return indexed(key) }
        for index in prints.indices where prints[index] == print && (print.isWhole || JSONItems.same(entries[index].key, key)) {
            return index
        }
        return -1
    }

    // The index's two paths stay out of line: inlined, they made `add` too large to be inlined
    // itself into the data maps' reads, 2,000 instructions more a batch line (one frozen seed).

    /// The entry of `key` through the index, made at the first call.
    @inline(never)
    private mutating func indexed(_ key: UnsafeRawBufferPointer) -> Int {
        if indexByBytes == nil {
            var index: [[UInt8]: Int] = [:]
            index.reserveCapacity(entries.count)
            // A later entry never repeats an earlier key: add keeps the first one's place.
            for (position, entry) in entries.enumerated() { index[Array(entry.key)] = position }
            indexByBytes = index
        }
        return indexByBytes?[Array(key)] ?? -1
    }

    @inline(never)
    private mutating func index(_ key: UnsafeRawBufferPointer, at position: Int) {
        indexByBytes?[Array(key)] = position
    }

    func value(_ key: Known) -> JSONNode? {
        let index = Int(slots[key.rawValue])
        return index >= 0 ? entries[index].value : nil
    }

    /// The value's bytes when it is a string; the clients read nothing else.
    func text(_ key: Known) -> UnsafeRawBufferPointer? {
        let index = Int(slots[key.rawValue])
        return index >= 0 ? entries[index].value.utf8 : nil
    }

    /// The value when it is a string, made anew (for messages and rare paths).
    func string(_ key: Known) -> String? {
        text(key).map { String(decoding: $0, as: UTF8.self) }
    }

    func contains(_ key: Known) -> Bool { slots[key.rawValue] >= 0 }

    /// The payload path of the object the key is in, or would go in when absent.
    func base(of key: Known) -> StaticString {
        let index = Int(slots[key.rawValue])
        return index >= 0 ? entries[index].base : base
    }

    /// Where the key is, or where it would go when absent.
    func location(_ key: Known) -> CheckLocation {
        Self.location(key, in: base(of: key))
    }

    /// Where the key is in the object at payload path `base`.
    static func location(_ key: Known, in base: StaticString) -> CheckLocation {
        // FCM's data map, where most findings are, from a table: the path built each time cost a
        // batch line's remind-later warning 700 instructions.
        let payload = ValueFormat.equals(base, "$.message.data") ? Known.dataPaths[key.rawValue] : JSONPath.member(ValueFormat.text(base), key.name)
        return CheckLocation(payload: payload, intent: Known.intentPaths[key.rawValue])
    }

    /// Where the key at `index` is.
    func location(at index: Int) -> CheckLocation {
        IntentOrigin.customKeyLocation(base: ValueFormat.text(entries[index].base), key: entries[index].name)
    }
}

extension CustomKeys {
    /// The keys the client rules read by name; at most 32, the slots ``CustomKeys`` holds.
    enum Known: Int, CaseIterable {
        case version, templateType, title, body, titleEx, bodyEx, image, media, mediaAlt, uri, linkType, actions
        case remindText, remindAt, remindAfter, badgeCount, sticky, displayPriority, visibility
        case carouselLayout, carouselMode, items, timerDuration, timerEnd, titleAlt

        var name: String { key.rawValue }

        /// The intent field each known key comes from, by raw value: read once, not hashed per finding.
        static let intentPaths: [String] = allCases.map { IntentOrigin.customKey($0.name) }
        /// Each key's path in FCM's data map, by raw value.
        static let dataPaths: [String] = allCases.map { JSONPath.member("$.message.data", $0.name) }

        /// The key in the vocabulary.
        var key: AdobeKey {
            switch self {
            case .version: .version
            case .templateType: .templateType
            case .title: .title
            case .body: .body
            case .titleEx: .titleEx
            case .bodyEx: .bodyEx
            case .image: .image
            case .media: .media
            case .mediaAlt: .mediaAlt
            case .uri: .uri
            case .linkType: .linkType
            case .actions: .actions
            case .remindText: .remindText
            case .remindAt: .remindAt
            case .remindAfter: .remindAfter
            case .badgeCount: .badgeCount
            case .sticky: .sticky
            case .displayPriority: .displayPriority
            case .visibility: .visibility
            case .carouselLayout: .carouselLayout
            case .carouselMode: .carouselMode
            case .items: .items
            case .timerDuration: .timerDuration
            case .timerEnd: .timerEnd
            case .titleAlt: .titleAlt
            }
        }

        static let table = Table()

        /// Every Adobe key, to match added keys against: the known keys first, in their order, so
        /// that a word's index is its ``Known`` case when there is one; then the rest, whose
        /// readers the unknown-key rules ask, found by the same one lookup.
        struct Table {
            private let words: WordTable
            /// For each word, whose code reads it (``ClientPlatform/readerBit``).
            private let readers: [UInt8]
            /// For each word, the templates whose code reads it.
            private let templates: [RuleScope]
            /// In a word's readers: some templates read it and others do not. A bit rather than
            /// the templates, so that adding a key costs no second load (the templates are
            /// looked up again for the few keys that have it).
            static let ownedBit: UInt8 = 4

            init() {
                var names = Known.allCases.map(\.name)
                for name in AdobeKey.allCases.map(\.name) + BuiltinTemplates.unwrittenAndroidKeys where !names.contains(name) {
                    names.append(name)
                }
                words = WordTable(names)
                let android = Set(BuiltinTemplates.androidReadKeys), iOS = Set(BuiltinTemplates.iOSReadKeys)
                let templates = names.map(BuiltinTemplates.readingTemplates)
                self.templates = templates
                readers = names.indices.map { index in
                    (android.contains(names[index]) ? ClientPlatform.android.readerBit : 0) | (iOS.contains(names[index]) ? ClientPlatform.iOS.readerBit : 0)
                        | (templates[index] == .always ? 0 : Self.ownedBit)
                }
            }

            /// The known key whose bytes `key` has, and whose code reads it.
            func matching(_ key: UnsafeRawBufferPointer, _ print: KeyPrint) -> (known: Known?, readers: UInt8) {
                // Every Adobe key starts with adb_: most other keys are settled by that alone.
                guard print.hasPrefix(AdobeKeyPrefix.adobe, length: 4), let index = words.index(of: key, print: print) else { return (nil, 0) }
                return (Known(rawValue: index), readers[index])
            }

            /// The templates whose code reads `key` (every one for a key that is no word).
            func templates(of key: UnsafeRawBufferPointer) -> RuleScope {
                words.index(of: key).map { templates[$0] } ?? .always
            }
        }
    }
}

extension KeyPrint {
    /// Whether the key starts with `adb_`: the keys the phones' SDKs read.
    var isAdobeKey: Bool { hasPrefix(AdobeKeyPrefix.adobe, length: 4) }
    /// Whether the key starts with `adb_clr_`: a colour.
    var isColour: Bool { hasPrefix(AdobeKeyPrefix.colour, length: 8) }
}

/// "adb_" and "adb_clr_", packed little-endian as ``KeyPrint/head`` is: written out, so that
/// reading them costs no lazy initialisation (a test holds them to the words).
enum AdobeKeyPrefix {
    static let adobe: UInt64 = 0x5f62_6461
    static let colour: UInt64 = 0x5f72_6c63_5f62_6461
}
