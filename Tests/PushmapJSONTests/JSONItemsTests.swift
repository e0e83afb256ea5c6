import CJSONItem
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

    @Test("an item is C's five-word item (CJSONItem.h), which the host's walk writes and nodes read in place")
    func itemIsTheCType() {
        #expect(MemoryLayout<JSONItem>.size == 40)
        #expect(MemoryLayout<JSONItem>.stride == 40)
        let item = JSONItem(kind: JSONTape.Op.integer, sorted: false, count: 0, end: 1, bytes: nil, bits: UInt64(bitPattern: -7))
        withUnsafePointer(to: item) { #expect(JSONNode(root: $0).integerValue == -7) }
    }
}
