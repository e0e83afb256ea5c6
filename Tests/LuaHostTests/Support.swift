import Logging
import LuaHost
import PushmapJSON

/// A state with small limits, so limit tests run fast.
func makeState(_ limits: LuaLimits = LuaLimits(instructions: 200_000, memoryBytes: 8 << 20)) throws -> LuaState {
    try LuaState(limits: limits, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
}

/// Compiles `source` as `name` and calls it with `arguments`, returning its first result.
func evaluate(_ state: LuaState, _ source: String, name: String = "test.lua", _ arguments: [JSONValue] = []) throws -> JSONValue {
    let chunk = try state.load(source, name: name)
    defer { state.release(chunk) }
    return try state.call(chunk, arguments.map { .value($0) })[0]
}

/// The error `body` throws, as a LuaError.
func luaError(_ body: () throws -> Void) -> LuaError? {
    do {
        try body()
        return nil
    } catch let error as LuaError {
        return error
    } catch {
        return nil
    }
}

/// The state still works after a failure: a small script gives the right answer.
func stillWorks(_ state: LuaState) throws -> Bool {
    try evaluate(state, "local t = {} for i = 1, 10 do t[i] = i * i end return t[10] + #t", name: "check.lua") == .integer(110)
}
