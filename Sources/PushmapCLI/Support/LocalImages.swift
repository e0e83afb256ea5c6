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
                found[url] = "data:\(mediaType(path));base64," + base64(bytes)
            } catch {
                StandardStream.note("pushmap: preview: \(error); drawn as a frame")
            }
        }
        return found
    }

    static func mediaType(_ path: String) -> String {
        let lower = path.lowercased()
        if lower.hasSuffix(".png") { return "image/png" }
        if lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") { return "image/jpeg" }
        if lower.hasSuffix(".gif") { return "image/gif" }
        if lower.hasSuffix(".webp") { return "image/webp" }
        if lower.hasSuffix(".svg") { return "image/svg+xml" }
        return "application/octet-stream"
    }

    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 2 < bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[Int((chunk >> UInt32(shift)) & 63)]) }
            index += 3
        }
        let left = bytes.count - index
        if left > 0 {
            let chunk = UInt32(bytes[index]) << 16 | (left == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
            out.append(alphabet[Int((chunk >> 18) & 63)])
            out.append(alphabet[Int((chunk >> 12) & 63)])
            out.append(left == 2 ? alphabet[Int((chunk >> 6) & 63)] : UInt8(ascii: "="))
            out.append(UInt8(ascii: "="))
        }
        return String(decoding: out, as: UTF8.self)
    }
}
