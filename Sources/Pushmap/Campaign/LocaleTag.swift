/// A BCP 47 language tag as campaigns match it: `fr-CA`, `zh-Hant-TW`. Case and `_` are
/// forgiven (`fr_ca` is `fr-CA`), since recipient data writes tags every way.
public struct LocaleTag: Hashable, Sendable, CustomStringConvertible {
    /// The subtags in their usual case: language lower, script title, region upper.
    public let subtags: [String]

    /// The tag, or nil when `text` is no language tag (a language of 2 to 8 letters, then
    /// subtags of 1 to 8 letters or digits, no variant or singleton twice: RFC 5646 2.2.5 and
    /// 2.2.6).
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
        guard let language = parts.first, (2...8).contains(language.utf8.count),
              language.utf8.allSatisfy(Self.isLetter) else { return nil }
        var subtags = [language.lowercased()]
        // Subtags before the first singleton (variants), and singletons, are each given once;
        // what follows a singleton is the extension's or private use's own.
        // Private use (after `x`) is the sender's own, repeats and all.
        var once = Set<String>(), inExtension = false, privateUse = false
        for part in parts.dropFirst() {
            guard (1...8).contains(part.utf8.count), part.utf8.allSatisfy({ Self.isLetter($0) || (0x30...0x39).contains($0) }) else {
                return nil
            }
            if !privateUse {
                if part.utf8.count == 1 { inExtension = true }
                if part.utf8.count == 1 || !inExtension {
                    guard once.insert(part.lowercased()).inserted else { return nil }
                }
                privateUse = part == "x" || part == "X"
            }
            switch part.utf8.count {
            case 2 where part.utf8.allSatisfy(Self.isLetter): subtags.append(part.uppercased())
            case 4 where part.utf8.allSatisfy(Self.isLetter): subtags.append(part.prefix(1).uppercased() + part.dropFirst().lowercased())
            default: subtags.append(part.lowercased())
            }
        }
        self.subtags = subtags
    }

    private init(subtags: [String]) { self.subtags = subtags }

    /// The tag and its truncations, most specific first: `fr-CA`, `fr`. A truncation that ends
    /// in a singleton (`en-US-x`) is no tag, and is left out (RFC 4647 3.4).
    public var chain: [LocaleTag] {
        (1...subtags.count).reversed().filter { $0 == 1 || subtags[$0 - 1].utf8.count > 1 }.map { LocaleTag(subtags: Array(subtags.prefix($0))) }
    }

    public var description: String { subtags.joined(separator: "-") }

    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
}
