@_spi(Tools) public import Pushmap
internal import PushmapJSON

/// One translation written as `pushmap batch` writes a line, and as the server answers
/// `/v1/translate` (the same object without `line`): `{"line":N,"fcm":...,"apns":...,"warnings":[...]}`
/// or `{"line":N,"error":{...}}`.
public enum TranslationLine {
    /// A line's bytes (ending in a newline) and whether it translated.
    public struct Output: Sendable {
        public var bytes: [UInt8] = []
        public var ok = true
        /// Whether it failed because a mapping script did (a service counts these).
        public var scriptFailed = false

        public init(bytes: [UInt8] = [], ok: Bool = true, scriptFailed: Bool = false) {
            self.bytes = bytes
            self.ok = ok
            self.scriptFailed = scriptFailed
        }
    }

    /// Translates one batch line on `session`. `overlongLength` is the length of a line that was
    /// over the limit (and not kept); `number` is written as `line` unless nil.
    @_spi(Tools) public static func translate(
        _ intent: [UInt8], number: Int?, overlongLength: Int?, maxIntentBytes: Int,
        session: borrowing Translator.Session, platforms: [Platform], forms: Set<RequestForm> = []
    ) -> Output {
        func failure(_ error: JSONValue, scriptFailed: Bool = false, id: String? = nil) -> Output {
            Output(bytes: Self.failure(error, number: number, id: id), ok: false, scriptFailed: scriptFailed)
        }
        if let length = overlongLength {
            let message = "a line of \(length) bytes exceeds the limit of \(maxIntentBytes) bytes"
            return failure(DiagnosticJSON.json(kind: "invalid intent", diagnostics: [.error("$", "too-large", message)]))
        }
        // Blank only if it starts blank: an intent line is not walked to the end for this.
        let blank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        if intent.first.map(blank) ?? true, intent.allSatisfy(blank) {
            return failure(DiagnosticJSON.json(kind: "invalid intent", diagnostics: [.error("$", "empty-line", "empty line: expected a JSON intent")]))
        }
        do {
            let translation = try session.translate(intent, platforms: platforms, forms: forms)
            return Output(bytes: success(translation, number: number, platforms: platforms), ok: true)
        } catch {
            return failure(
                DiagnosticJSON.json(kind: error.kind.name, diagnostics: error.diagnostics, scriptError: error.scriptError),
                scriptFailed: error.kind == .scriptFailed, id: error.messageID)
        }
    }

    /// `{"line":N,"id":...,"error":{...}}` and a newline: a line that did not translate.
    package static func failure(_ error: JSONValue, number: Int?, id: String?) -> [UInt8] {
        var line = OutputBuffer(capacity: 512)
        start(&line, number: number, id: id)
        line.append(ascii: #""error":"#)
        JSONWriter(style: .compact).write(error, into: &line)
        line.append(ascii: "}\n")
        return line.finish()
    }

    /// `{"line":N,"id":...,` as a line starts: no `line` when `number` is nil, no `id` when the
    /// intent (or the campaign's recipient) has none.
    private static func start(_ line: inout OutputBuffer, number: Int?, id: String?) {
        line.append(UInt8(ascii: "{"))
        if let number {
            line.append(ascii: #""line":"#)
            DecimalText.withDigits(of: Int64(number)) { line.append(contentsOf: $0) }
            line.append(UInt8(ascii: ","))
        }
        if let id {
            line.append(ascii: #""id":"#)
            JSONWriter.escape(id, into: &line)
            line.append(UInt8(ascii: ","))
        }
    }

    /// `{"line":N,"id":...,"fcm":...,"apns":...,"warnings":[...]}` and a newline; no `line` when
    /// `number` is nil, no `id` when the intent has none.
    public static func success(_ translation: Translation, number: Int?, platforms: [Platform]) -> [UInt8] {
        // Each payload's text once: a translation made from values, not by the translator, writes
        // it at each call.
        let payloads = platforms.map { translation.bytes(for: $0, style: .compact) }
        let room = payloads.reduce(64 + 320 * translation.diagnostics.count) { $0 + $1.count + 16 }
        // Written straight into the array handed over, made with room for the payloads and a few
        // warnings; only a longer line is written on the heap and copied. Appending to the array
        // piece by piece, or a buffer of the line's own and a copy, cost ~1,000 to 2,000
        // instructions a batch line more.
        var longer: [UInt8]?
        let bytes = [UInt8](unsafeUninitializedCapacity: room) { memory, initialized in
            var line = OutputBuffer(scratch: UnsafeMutableRawBufferPointer(memory), capacity: room)
            write(translation, number: number, platforms: platforms, payloads: payloads, into: &line)
            if line.isInScratch { initialized = line.count } else { longer = line.finish() }
        }
        return longer ?? bytes
    }

    private static func write(
        _ translation: Translation, number: Int?, platforms: [Platform], payloads: [[UInt8]], into line: inout OutputBuffer
    ) {
        start(&line, number: number, id: translation.messageID)
        for (position, platform) in platforms.enumerated() {
            if position > 0 { line.append(UInt8(ascii: ",")) }
            line.append(UInt8(ascii: "\""))
            line.append(contentsOf: platform.name)
            line.append(ascii: #"":"#)
            line.append(contentsOf: payloads[position])
        }
        if !translation.diagnostics.isEmpty {
            line.append(ascii: #","warnings":"#)
            DiagnosticJSON.write(translation.diagnostics, into: &line)
        }
        line.append(ascii: "}\n")
    }
}
