@_spi(Tools) internal import Pushmap

/// `--images`: local image files named by an intent, embedded as data URIs so the page stays
/// self-contained. A URL with a scheme other than `file://` is never fetched.
enum LocalImages {
    /// Largest file embedded.
    static let limit = 8 << 20

    /// Data URIs by URL for every image in `urls` that is a readable local file: a `file://`
    /// URL, or a path, tried as given and then beside `baseFolder`. Unreadable ones are noted.
    static func dataURIs(for urls: Set<String>, baseFolder: String?) -> [String: String] {
        var found: [String: String] = [:]
        for url in urls.sorted() {
            var candidates: [String] = []
            if url.hasPrefix("file://") {
                candidates = [String(url.dropFirst("file://".count))]
            } else if !url.contains("://") {
                candidates = [url]
                if let baseFolder, !url.hasPrefix("/") { candidates.append(baseFolder + "/" + url) }
            }
            guard let path = candidates.first(where: { FileSystem.exists($0) && !FileSystem.isDirectory($0) }) else {
                if url.hasPrefix("file://") { StandardStream.note("pushmap: preview: \(url): no such file; drawn as a frame") }
                continue
            }
            do {
                let bytes = try FileSystem.readFile(path, limit: limit)
                // The intent is not trusted and the page is made to be passed around: only a file
                // that is an image goes in (the audit got /etc/shadow embedded, named as an image).
                guard let type = mediaType(bytes) else {
                    StandardStream.note("pushmap: preview: \(url): not a PNG, JPEG, GIF, WebP or SVG image; drawn as a frame")
                    continue
                }
                found[url] = "data:\(type);base64," + Base64.encode(bytes)
            } catch {
                StandardStream.note("pushmap: preview: \(error); drawn as a frame")
            }
        }
        return found
    }

    /// The image type the bytes start as, by their signature; nil for anything else.
    static func mediaType(_ bytes: [UInt8]) -> String? {
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + signature.count && Array(bytes[offset..<(offset + signature.count)]) == signature
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
        // SVG is text: an svg element near the start, after any XML declaration or comment.
        let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
        let trimmed = head.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if (trimmed.hasPrefix("<svg") || trimmed.hasPrefix("<?xml") || trimmed.hasPrefix("<!--")), head.contains("<svg") {
            return "image/svg+xml"
        }
        return nil
    }
}
