import Logging
import LuaHost
import PushmapJSON
import Synchronization
import Testing

/// A state with one compiled function, as a translator would hold it.
final class SquareRuntime {
    let state: LuaState
    let square: LuaReference
    init() throws {
        state = try makeState()
        square = try state.load("local n = ... if n < 0 then error('negative') end return n * n", name: "square.lua")
    }
}

@Suite("The pool")
struct PoolTests {
    @Test("lends states to many tasks at once, each result right, failures included")
    func concurrentUse() async throws {
        let made = Atomic<Int>(0)
        let pool = LuaStatePool<SquareRuntime>(capacity: 2) {
            made.add(1, ordering: .relaxed)
            return try SquareRuntime()
        }
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for n in -50..<500 {
                group.addTask {
                    try pool.withElement { runtime in
                        do {
                            let result = try runtime.state.call(runtime.square, [.value(.integer(Int64(n)))])
                            return n >= 0 && result == [.integer(Int64(n * n))]
                        } catch let error as LuaError {
                            return n < 0 && error.message == "negative"
                        }
                    }
                }
            }
            for try await ok in group { #expect(ok) }
        }
        // States are reused, not made per call.
        #expect(made.load(ordering: .relaxed) < 50)
    }
}
