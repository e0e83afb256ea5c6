import Foundation
import Testing

/// The real headless Chromium the preview tests open pages in (`scripts/setup` installs it).
enum HeadlessChromium {
    /// The browser: $PUSHMAP_CHROMIUM, else the first of the usual names on PATH.
    static let executable: String? = {
        if let named = ProcessInfo.processInfo.environment["PUSHMAP_CHROMIUM"], !named.isEmpty { return named }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            for name in ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] {
                let candidate = "\(folder)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }()

    struct Missing: Error, CustomStringConvertible {
        var description: String { "no headless Chromium on PATH: run scripts/setup (apt-get install chromium)" }
    }

    /// The DOM Chromium builds from the page at `file`, serialised.
    static func dumpDOM(_ file: URL) throws -> DOM {
        guard let executable else { throw Missing() }
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("pushmap-chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile.path)",
            "--dump-dom", file.absoluteString,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return DOM(html: String(decoding: data, as: UTF8.self))
    }

    /// The number of different colours in a PNG (up to `cap`), decoded by Python's zlib: a
    /// blank screenshot has one.
    static func colourCount(_ png: URL, cap: Int = 64) throws -> Int {
        let script = #"""
        import struct, sys, zlib
        data = open(sys.argv[1], 'rb').read()
        assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
        pos, idat, header = 8, b'', None
        while pos < len(data):
            length, kind = struct.unpack('>I4s', data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + length]
            if kind == b'IHDR': header = struct.unpack('>IIBBBBB', body)
            if kind == b'IDAT': idat += body
            pos += 12 + length
        width, height, depth, colour = header[0], header[1], header[2], header[3]
        assert depth == 8 and colour in (2, 6), 'unexpected PNG format'
        channels = 3 if colour == 2 else 4
        raw, stride = zlib.decompress(idat), width * channels
        previous, colours, offset = bytearray(stride), set(), 0
        for y in range(height):
            kind, line = raw[offset], bytearray(raw[offset + 1:offset + 1 + stride])
            offset += 1 + stride
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                up = previous[i]
                corner = previous[i - channels] if i >= channels else 0
                if kind == 1: line[i] = (line[i] + left) & 255
                elif kind == 2: line[i] = (line[i] + up) & 255
                elif kind == 3: line[i] = (line[i] + (left + up) // 2) & 255
                elif kind == 4:
                    p = left + up - corner
                    pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                    line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
            if y % 7 == 0:
                for x in range(0, stride, channels * 5):
                    colours.add(bytes(line[x:x + 3]))
            if len(colours) >= int(sys.argv[2]): break
            previous = line
        print(len(colours))
        """#
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, png.path, String(cap)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }
}

/// A dumped DOM, with the few look-ups the tests make on the preview's `data-*` attributes.
struct DOM {
    let html: String

    /// The part of the page drawn for one platform (`fcm`, `apns`); in a gallery, the first one.
    func platform(_ name: String) -> DOM {
        guard let start = html.range(of: "data-platform=\"\(name)\"") else { return DOM(html: "") }
        let rest = html[start.upperBound...]
        let end = rest.range(of: "data-platform=")?.lowerBound ?? rest.range(of: "data-role=\"diagnostics\"")?.lowerBound ?? rest.endIndex
        return DOM(html: String(rest[..<end]))
    }

    /// The part drawn for one view (`collapsed`, `expanded-rated`...), both appearances.
    func view(_ id: String) -> DOM {
        guard let start = html.range(of: "data-view=\"\(id)\"") else { return DOM(html: "") }
        let rest = html[start.upperBound...]
        let end = rest.range(of: "data-view=")?.lowerBound ?? rest.range(of: "data-role=\"keys\"")?.lowerBound ?? rest.endIndex
        return DOM(html: String(rest[..<end]))
    }

    /// The text of every element with `data-role="role"` (texts are plain in the preview's markup).
    func texts(_ role: String) -> [String] {
        matches(#"data-role="\#(role)"[^>]*>([^<]*)<"#).map(Self.unescape)
    }

    /// Every value of the attribute `name`, in order.
    func values(of name: String) -> [String] {
        matches(#"\#(name)="([^"]*)""#).map(Self.unescape)
    }

    /// The keys of the table rows with `data-verdict="verdict"`.
    func keys(_ verdict: String) -> [String] {
        matches(#"<tr data-key="([^"]*)" data-verdict="\#(verdict)""#).map(Self.unescape)
    }

    func count(_ text: String) -> Int { html.components(separatedBy: text).count - 1 }
    func contains(_ text: String) -> Bool { html.contains(text) }

    private func matches(_ pattern: String) -> [String] {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(html.startIndex..., in: html)
        return expression.matches(in: html, range: range).compactMap { match in
            Range(match.range(at: 1), in: html).map { String(html[$0]) }
        }
    }

    private static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&nbsp;", with: "\u{A0}").replacingOccurrences(of: "&amp;", with: "&")
    }
}

/// Runs `pushmap preview ARGUMENTS --output page.html` and opens the page in Chromium.
func drawnPreview(_ arguments: [String], input: Data? = nil) throws -> DOM {
    let page = try temporaryFolder().appendingPathComponent("page.html")
    let result = try CommandRunner.run(["preview", "--output", page.path] + arguments, input: input)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.isEmpty)
    let dom = try HeadlessChromium.dumpDOM(page)
    #expect(dom.contains("data-page="), "Chromium built no page from \(page.path)")
    return dom
}
