@_spi(Tools) package import Pushmap
internal import PushmapJSON
internal import PushmapTooling

/// Every intent and fixture in a folder, previewed for one page: the folder's `*.json` files
/// (an intent, or a fixture: an object with "intent" and "fcm", "apns" or "error") and its
/// fixture folders' files (`NAME.test/*.json`), in path order.
package struct PreviewGallery: Sendable {
    package let previewer: Previewer
    package let platforms: [Platform]

    package init(previewer: Previewer, platforms: [Platform]) {
        self.previewer = previewer
        self.platforms = platforms
    }

    /// The paths the gallery draws, sorted.
    package static func files(in folder: String) throws(FileError) -> [String] {
        let base = folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        guard FileSystem.isDirectory(base) else { throw FileError(path: base, reason: "not a folder") }
        var paths: [String] = []
        for entry in try FileSystem.list(base, ending: ".json", ".test") {
            let path = base + "/" + entry
            if entry.hasSuffix(".json"), !FileSystem.isDirectory(path) {
                paths.append(path)
            } else if entry.hasSuffix(".test"), FileSystem.isDirectory(path) {
                for file in try FileSystem.list(path, ending: ".json") { paths.append(path + "/" + file) }
            }
        }
        return paths.sorted()
    }

    /// One preview per file; a file that does not translate is an entry with its failure.
    package func previews(of paths: [String]) -> [NotificationPreview] {
        paths.map(preview)
    }

    /// Whether an entry failed where it should have drawn (an intent, or a fixture that expects payloads).
    package static func isUnexpectedFailure(_ preview: NotificationPreview) -> Bool {
        preview.failure.map { !$0.expected } ?? false
    }

    private func preview(_ path: String) -> NotificationPreview {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(path, limit: 1 << 20)
        } catch {
            return failed(path, kind: "unreadable", lines: [error.reason])
        }
        let input: PreviewInput
        do {
            input = try PreviewInput.read(path: path, bytes: bytes)
        } catch {
            return failed(path, kind: "unreadable", lines: [error.description])
        }
        switch input {
        case .fixture(let fixture):
            let expectsError = fixture.expectedError != nil
            if input.platforms(platforms).isEmpty {
                // Nothing asked for is the fixture's: shown as such, not as a failure.
                var preview = failed(path, kind: "not drawn", lines: [input.uncovered(platforms)], template: fixture.intent["template"]?.stringValue)
                preview.failure?.expected = true
                preview.now = fixture.now
                return preview
            }
            do {
                return try previewer.preview(fixture.intent, name: path, platforms: input.platforms(platforms), now: fixture.now)
            } catch {
                var preview = failed(path, error, expected: expectsError, template: fixture.intent["template"]?.stringValue ?? "plain")
                preview.now = fixture.now
                return preview
            }
        case .intent:
            do {
                return try previewer.preview(bytes, name: path, platforms: platforms)
            } catch {
                let template = (try? JSONParser.parse(bytes))?["template"]?.stringValue ?? "plain"
                return failed(path, error, expected: false, template: template)
            }
        }
    }

    private func failed(_ path: String, _ error: TranslationError, expected: Bool, template: String?) -> NotificationPreview {
        .failed(path, error, expected: expected, template: template, now: previewer.translator.options.clock())
    }

    private func failed(_ path: String, kind: String, lines: [String], template: String? = nil) -> NotificationPreview {
        NotificationPreview(
            name: path, template: template ?? "?", now: previewer.translator.options.clock(), platforms: [], diagnostics: [],
            failure: .init(kind: kind, lines: lines, expected: false))
    }
}
