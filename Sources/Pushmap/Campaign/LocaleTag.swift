internal import PushmapJSON

/// A BCP 47 language tag as campaigns match it: `fr-CA`, `zh-Hant-TW`. Case and `_` are
/// forgiven (`fr_ca` is `fr-CA`), since recipient data writes tags every way.
public struct LocaleTag: Hashable, Sendable, CustomStringConvertible {
    /// The subtags in their usual case: language lower, script title, region upper.
    public let subtags: [String]

    /// What a finding says of `text`, which is no tag: the campaign's recipients and layers,
    /// and the layers `translate` warns of.
    static func notATag(_ text: String) -> String {
        "'\(ShownText.clipped(text))' is not a language tag such as fr or fr-CA"
    }

    /// The tag, or nil when `text` is no well-formed language tag (RFC 5646 2.1: language and
    /// extended language, script, region, variants, extensions, private use, in that order; no
    /// variant or singleton twice, 2.2.5 and 2.2.6), a private-use tag (`x-klingon`) or one of
    /// the irregular tags the RFC keeps (`i-klingon`). Each subtag in its usual case (2.1.1):
    /// region upper, script title, the rest lower. Before, any subtags of 1 to 8 letters or
    /// digits passed (`fr-12`, `en-a`) and a private-use tag failed, and an extension's
    /// two-letter subtags were written as regions (the thirty-seventh audit, F4 and F7).
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
            .map { $0.lowercased() }
        guard parts.allSatisfy({ (1...8).contains($0.utf8.count) && $0.utf8.allSatisfy(Self.isAlphanumeric) }) else { return nil }
        if let tag = Self.irregular.first(where: { $0.lowercased() == parts.joined(separator: "-") }) {
            subtags = tag.split(separator: "-").map(String.init)
            return
        }
        var subtags: [String] = []
        var at = 0
        func next(_ test: (String) -> Bool) -> String? {
            guard at < parts.count, test(parts[at]) else { return nil }
            at += 1
            return parts[at - 1]
        }
        if parts[0] != "x" {
            guard let language = next({ (2...8).contains($0.utf8.count) && Self.isAlpha($0) }) else { return nil }
            subtags.append(language)
            if language.utf8.count <= 3 {
                for _ in 0..<3 {
                    guard let extended = next({ $0.utf8.count == 3 && Self.isAlpha($0) }) else { break }
                    subtags.append(extended)
                }
            }
            if let script = next({ $0.utf8.count == 4 && Self.isAlpha($0) }) { subtags.append(script.prefix(1).uppercased() + script.dropFirst()) }
            if let region = next({ ($0.utf8.count == 2 && Self.isAlpha($0)) || ($0.utf8.count == 3 && $0.utf8.allSatisfy(Self.isDigit)) }) {
                subtags.append(region.uppercased())
            }
            var once = Set<String>()
            while let variant = next({ $0.utf8.count >= 5 || ($0.utf8.count == 4 && Self.isDigit($0.utf8.first ?? 0)) }) {
                guard once.insert(variant).inserted else { return nil }
                subtags.append(variant)
            }
            while let singleton = next({ $0.utf8.count == 1 && $0 != "x" }) {
                guard once.insert(singleton).inserted else { return nil }
                subtags.append(singleton)
                let first = subtags.count
                while let part = next({ $0.utf8.count >= 2 }) { subtags.append(part) }
                guard subtags.count > first else { return nil }
            }
        }
        if next({ $0 == "x" }) != nil {
            subtags.append("x")
            let first = subtags.count
            while let part = next({ _ in true }) { subtags.append(part) }
            guard subtags.count > first else { return nil }
        }
        guard at == parts.count, !subtags.isEmpty else { return nil }
        self.subtags = subtags
    }

    /// RFC 5646's irregular grandfathered tags (2.2.8), as its registry writes them: tags of their
    /// own, which no truncation matches (`en-GB-oed` is no English of Britain to fall back to).
    private static let irregular: [String] = [
        "en-GB-oed", "i-ami", "i-bnn", "i-default", "i-enochian", "i-hak", "i-klingon", "i-lux", "i-mingo", "i-navajo", "i-pwn",
        "i-tao", "i-tay", "i-tsu", "sgn-BE-FR", "sgn-BE-NL", "sgn-CH-DE",
    ]

    private init(subtags: [String]) { self.subtags = subtags }

    /// The tag and its truncations, most specific first: `fr-CA`, `fr`. A truncation that ends
    /// in a singleton (`en-US-x`) is no tag, and is left out (RFC 4647 3.4).
    public var chain: [LocaleTag] {
        if subtags.first == "x" || Self.irregular.contains(description) { return [self] }
        return (1...subtags.count).reversed().filter { $0 == subtags.count || subtags[$0 - 1].utf8.count > 1 }.map { LocaleTag(subtags: Array(subtags.prefix($0))) }
    }

    public var description: String { subtags.joined(separator: "-") }

    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    private static func isAlphanumeric(_ byte: UInt8) -> Bool { isLetter(byte) || isDigit(byte) }
    private static func isAlpha(_ part: String) -> Bool { part.utf8.allSatisfy(isLetter) }
}
