import PushmapJSON
import PushmapTestSupport
import Testing

/// Values laid out as items, as the payload checks read them, against the values themselves.
@Suite("JSON values read in place")
struct JSONItemsTests {
    @Test("a value laid out as items reads back as itself, and its compact length is the writer's")
    func itemsReadBackAndCount() {
        var random = RandomJSON(seed: 0x17E5)
        for round in 0..<400 {
            let value = random.value()
            JSONItemStorage(value).withRoot { node in
                #expect(node.value() == value, "round \(round)")
                let written = JSONWriter(style: .compact).write(value).count
                #expect(JSONWriter.compactByteCount(node) == written, "round \(round)")
                #expect(JSONWriter.compactByteCount(value) == written, "round \(round)")
            }
        }
    }
}
