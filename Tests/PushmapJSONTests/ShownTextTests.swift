import PushmapJSON
import Testing

/// Source: ECMA-48 (C0 and C1 control functions; ESC starts a terminal's escape sequences) and
/// Unicode's bidirectional algorithm (UAX #9: the embedding, override and isolate controls).
@Suite("ShownText: untrusted text as a terminal shows it")
struct ShownTextTests {
    @Test("control characters, C1 and the bidi controls are escaped; other text, accents and emoji stay")
    func escapes() {
        #expect(ShownText.escaped("a\nb\r\tc\u{1B}[2J\u{7}\u{0}") == #"a\nb\r\tc\u001B[2J\u0007\u0000"#)
        #expect(ShownText.escaped("x\u{9B}y\u{85}") == #"x\u009By\u0085"#)
        #expect(ShownText.escaped("abc\u{202E}fed\u{202A}\u{2066}\u{2069}") == #"abc\u202Efed\u202A\u2066\u2069"#)
        #expect(ShownText.escaped("é日本🎉\u{200D}") == "é日本🎉\u{200D}")
        // The line and paragraph separators end a line for Python's splitlines, JavaScript and
        // many editors: one finding would read as two (the twenty-fifth audit, F7).
        #expect(ShownText.escaped("a\u{2028}b\u{2029}c") == #"a\u2028b\u2029c"#)
        #expect(ShownText.escaped("one\ntwo\u{1B}", keepingNewlines: true) == "one\ntwo\\u001B")
    }

    @Test("a cut keeps whole characters and escapes, and says how many bytes it left out")
    func cut() {
        let text = Array("ab\u{1B}é".utf8)
        let shown = text.withUnsafeBytes { ShownText.escaped($0, maxBytes: 7) }
        #expect(shown.text == "ab" && shown.leftOut == 3)
        let all = text.withUnsafeBytes { ShownText.escaped($0, maxBytes: 10) }
        #expect(all.text == #"ab\u001Bé"# && all.leftOut == 0)
    }
}
