internal import CLua
internal import CLuaHost
package import Logging
package import PushmapJSON

/// One sandboxed Lua 5.4 state: base, string, table, math and utf8 only, with an instruction
/// budget per call, a memory cap, capped `string.rep` and pattern functions, and JSON-like values
/// in and out.
///
/// A state is not thread-safe: use it from one thread at a time (``LuaStatePool`` lends states
/// out). Scripts are compiled once with ``load(_:name:)`` and called many times through their
/// ``LuaReference``.
package final class LuaState {
    /// The limits every call runs under.
    package let limits: LuaLimits
    let host: OpaquePointer
    let state: OpaquePointer
    private let logger: Logger
    /// `json()`'s name in messages: `pushmap.json`, as scripts call it.
    private let jsonName: String
    /// Names of the loaded chunks, to restore names Lua shortened in messages.
    private var chunkNames: [String] = []
    private let tape: LuaValueTape
    private let strings = LuaStringCache()
    /// Holds `json()`'s output between the Swift encoder and the C function that pushes it.
    private var encoded: UnsafeMutablePointer<UInt8>
    private var encodedCapacity: Int
    /// Writes values as compact JSON in C; nil when it could not be made (the Swift path then
    /// does all the work).
    private let jsonEncoder: OpaquePointer?
    /// Whether results are read by the C encoder first; tests turn it off to hold the two
    /// paths to the same values.
    var readsResultsInC = true

    /// Creates a state.
    /// - Parameters:
    ///   - limits: the limits of every call.
    ///   - library: the global table that receives the value helpers `null`, `array`, `object`,
    ///     `isarray`, `isobject` and `json`.
    ///   - logger: where `print` and `warn` from scripts go.
    package init(limits: LuaLimits = LuaLimits(), library: String = "json", logger: Logger) throws(LuaError) {
        self.limits = limits
        self.logger = logger
        self.jsonName = library + ".json"
        self.tape = LuaValueTape(maxDepth: limits.maxValueDepth)
        self.encodedCapacity = 1024
        self.encoded = UnsafeMutablePointer<UInt8>.allocate(capacity: 1024)
        self.jsonEncoder = pmh_json_encoder_new(luaHostFormatDouble)
        var cLimits = pmh_limits(
            memory_bytes: limits.memoryBytes > 0 ? limits.memoryBytes : 0,
            instructions: Int64(max(0, limits.instructions)),
            max_string_bytes: limits.maxStringBytes > 0 ? limits.maxStringBytes : 0,
            max_pattern_subject: limits.maxPatternSubjectBytes > 0 ? limits.maxPatternSubjectBytes : 0,
            pattern_cost: limits.patternCost,
            max_depth: Int32(clamping: limits.maxValueDepth),
            time_ms: Int64(max(0, limits.timeMilliseconds))
        )
        var message = [CChar](repeating: 0, count: 256)
        let made = withUnsafeMutablePointer(to: &cLimits) { pointer in
            pmh_open(pointer, library, nil, nil, &message, message.count)
        }
        guard let made else {
            encoded.deallocate()
            pmh_json_encoder_free(jsonEncoder)
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw LuaError(kind: .memoryLimit, message: text)
        }
        host = made
        state = pmh_state(made)
        let context = Unmanaged.passUnretained(self).toOpaque()
        pmh_set_log(made, luaHostLog, context)
        pmh_set_encoder(made, luaHostEncode, context)
        pmh_set_json_encoder(made, jsonEncoder)
    }

    deinit {
        pmh_close(host)
        encoded.deallocate()
        pmh_json_encoder_free(jsonEncoder)
    }

    /// Bytes the state holds now.
    package var memoryInUse: Int { pmh_memory_in_use(host) }

    /// The most bytes the state has held.
    package var memoryPeak: Int { pmh_memory_peak(host) }

    /// Bytes of freed small blocks kept for reuse: held by the state besides ``memoryInUse``,
    /// at most 256 blocks of each 16-byte class up to 256 bytes (about 560 KB).
    package var memoryKept: Int { pmh_memory_kept(host) }

    /// Runs a full garbage collection.
    package func collectGarbage() { pmh_collect(host) }

    /// Makes globals and library tables read-only. Run once, after the trusted preludes: from
    /// then on a script cannot change what another script sees.
    package func seal() throws(LuaError) {
        guard pmh_seal(host) == PMH_OK else {
            throw LuaError(kind: .memoryLimit, message: "cannot seal the globals: out of memory")
        }
    }

    /// Compiles `source` (text only; binary chunks are refused) into a function.
    /// - Parameters:
    ///   - name: the script's name in messages, such as `templates/basic.lua`.
    ///   - own: the host's own code (the prelude and its modules), named `=NAME` where a script is
    ///     `@NAME`: Lua prints both as NAME, and the first byte of a frame's source tells the
    ///     host's frames from a script's, whatever the script's folder is called. An error raised
    ///     in the host's code is blamed on the script line that called it (host.c), and reads and
    ///     writes on the script line that made them (intent.lua, trace.lua).
    package func load(_ source: String, name: String, own: Bool = false) throws(LuaError) -> LuaReference {
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        var source = source
        let status = source.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                pmh_load(host, chars.baseAddress, chars.count, (own ? "=" : "@") + name)
            }
        }
        if !chunkNames.contains(name) { chunkNames.append(name) }
        guard status == PMH_OK else {
            throw error(code: status, chunkName: name)
        }
        return try keepTop()
    }

    /// Calls `function` with `arguments` and converts its first `resultCount` results to JSON.
    ///
    /// - Parameter metered: false runs the call without the instruction budget, for trusted code
    ///   whose work is bounded by its input: Lua 5.4 runs the count hook's bookkeeping on every
    ///   instruction, a sixth of a short call's time. Memory, string and pattern caps still hold.
    package func call(_ function: LuaReference, _ arguments: [LuaArgument] = [], resultCount: Int = 1, metered: Bool = true) throws(LuaError) -> [JSONValue] {
        try callWithText(function, arguments, resultCount: resultCount, textFrom: resultCount, metered: metered).map(\.value)
    }

    /// As ``call(_:_:resultCount:metered:)``, and for the results from `textFrom` on (0-based),
    /// their compact JSON text too, written by the C walk that reads them: what
    /// `JSONWriter(style: .compact)` writes for the value. Results before `textFrom` have none.
    package func callWithText(
        _ function: LuaReference, _ arguments: [LuaArgument] = [], resultCount: Int, textFrom: Int, metered: Bool = true
    ) throws(LuaError) -> [(value: JSONValue, text: [UInt8]?)] {
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        try invoke(function, arguments, resultCount: resultCount, metered: metered)
        var results: [(value: JSONValue, text: [UInt8]?)] = []
        results.reserveCapacity(resultCount)
        for position in 0..<resultCount {
            results.append(try result(position, of: resultCount, above: top, withText: position >= textFrom))
        }
        return results
    }

    /// Result `position` of `count` (the first just above `top`) as a value, with its compact
    /// text when asked. C first: one walk over the tables writes the text and lists the values,
    /// which Swift then builds with no call into Lua. Anything C is unsure of (and every error,
    /// whose message the reader words) takes the reader's walk.
    private func result(
        _ position: Int, of count: Int, above top: Int32, withText: Bool
    ) throws(LuaError) -> (value: JSONValue, text: [UInt8]?) {
        let at = top + 1 + Int32(position)
        if let encoded = try encodedResult(at: at, withText: withText, position: position, of: count) { return encoded }
        let value = try readInSwift(at: at, root: Self.resultRoot(position, of: count))
        return (value, withText ? JSONWriter(style: .compact).write(value) : nil)
    }

    /// The reader's walk, for a value C gave up on: it words every error, and reads the rest.
    private func readInSwift(at index: Int32, root: String) throws(LuaError) -> JSONValue {
        var reader = LuaValueReader(host: host, maxDepth: limits.maxValueDepth, maxBytes: limits.memoryBytes)
        return try reader.read(at: index, root: root)
    }

    private func tooLarge(_ position: Int, of count: Int) -> LuaError {
        .tooLargeAsJSON(at: Self.resultRoot(position, of: count), limit: limits.memoryBytes)
    }

    /// How errors name result `position` of `count`: `$` for a single one.
    private static func resultRoot(_ position: Int, of count: Int) -> String {
        count == 1 ? "$" : "$result\(position + 1)"
    }

    /// As ``callWithText(_:_:resultCount:textFrom:metered:)``, but the results from `itemsFrom`
    /// on (0-based) are not built as values: each goes to `body` as a node, with its compact
    /// text, while it is still in the state. Node and text are valid only inside `body`; that is
    /// what makes them cheap (the strings are Lua's own bytes). Gives the results before
    /// `itemsFrom` as values.
    package func callWithItems(
        _ function: LuaReference, _ arguments: [LuaArgument] = [], resultCount: Int, itemsFrom: Int, metered: Bool = true,
        _ body: (_ position: Int, _ node: JSONNode, _ text: UnsafeRawBufferPointer) -> Void
    ) throws(LuaError) -> [JSONValue] {
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        try invoke(function, arguments, resultCount: resultCount, metered: metered)
        var values: [JSONValue] = []
        values.reserveCapacity(min(itemsFrom, resultCount))
        for position in 0..<resultCount {
            if position < itemsFrom {
                values.append(try result(position, of: resultCount, above: top, withText: false).value)
                continue
            }
            let at = top + 1 + Int32(position)
            if try withWalkInC(at: at, position: position, of: resultCount, { node, text in body(position, node, text) }) { continue }
            // The reader's walk: what C is unsure of, and every error, which the reader words.
            let value = try readInSwift(at: at, root: Self.resultRoot(position, of: resultCount))
            let text = JSONWriter(style: .compact).write(value)
            JSONItemStorage(value).withRoot { node in
                text.withUnsafeBytes { body(position, node, $0) }
            }
        }
        return values
    }

    /// Runs `body` on the value at `index` as the C walk lists it: its node, read where C wrote
    /// the items (`JSONItem` is C's item type, the strings Lua's own bytes), and its compact text;
    /// both valid only inside `body`. False, without running `body`, when C gives up: on what it
    /// is unsure of, and on every error, which the reader words.
    /// `position` of `count`: which result it is, to name it in an error.
    private func withWalkInC(
        at index: Int32, position: Int, of count: Int, _ body: (JSONNode, UnsafeRawBufferPointer) -> Void
    ) throws(LuaError) -> Bool {
        guard readsResultsInC, let jsonEncoder else { return false }
        let status = pmh_json_encode_items(jsonEncoder, host, index, Int32(clamping: limits.maxValueDepth))
        if status == PMH_JSON_TOO_LARGE { throw tooLarge(position, of: count) }
        guard status == PMH_JSON_OK else { return false }
        var count = 0
        guard let items = pmh_json_encoder_items(jsonEncoder, &count), count > 0 else { return false }
        var length = 0
        let text = UnsafeRawBufferPointer(start: pmh_json_encoder_bytes(jsonEncoder, &length), count: length)
        body(JSONNode(root: items), text)
        return true
    }

    /// The value at `at` (and its compact text) from the C walk, or nil when it gives up. The
    /// value is built from the walk's items with no call into Lua: the walk has already read the
    /// tables, sorted each object's keys and checked every string's UTF-8.
    private func encodedResult(
        at index: Int32, withText: Bool, position: Int, of count: Int
    ) throws(LuaError) -> (value: JSONValue, text: [UInt8]?)? {
        let storage = strings.storage
        var encoded: (value: JSONValue, text: [UInt8]?)?
        _ = try withWalkInC(at: index, position: position, of: count) { node, text in
            let value = node.value { bytes in
                bytes.baseAddress.flatMap { storage.string($0, bytes.count) } ?? String(decoding: bytes, as: UTF8.self)
            }
            encoded = (value, withText ? Array(text) : nil)
        }
        return encoded
    }

    /// Calls `function` and keeps its first result in the state, for values that are not JSON
    /// (a table of functions, say).
    package func callForReference(_ function: LuaReference, _ arguments: [LuaArgument] = []) throws(LuaError) -> LuaReference {
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        try invoke(function, arguments, resultCount: 1)
        return try keepTop()
    }

    /// As ``callForReference(_:_:)``, nil when the function returns nothing or nil.
    package func callForOptionalReference(_ function: LuaReference, _ arguments: [LuaArgument] = []) throws(LuaError) -> LuaReference? {
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        try invoke(function, arguments, resultCount: 1)
        if lua_type(state, -1) == LUA_TNIL { return nil }
        return try keepTop()
    }

    /// Keeps `value` in the state, for an argument passed again and again: pushed by reference,
    /// it is not made anew (a table, a string) at each call.
    package func keep(_ value: JSONValue) throws(LuaError) -> LuaReference {
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        tape.removeAll()
        try tape.append(value)
        try flushTape()
        return try keepTop()
    }

    /// The field `key` of the table `table` refers to, kept in the state (nil when absent).
    package func field(_ key: String, of table: LuaReference) throws(LuaError) -> LuaReference? {
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        pmh_getref(state, table.id)
        pmh_rawgetfield(host, -1, key)
        if lua_type(state, -1) == LUA_TNIL { return nil }
        return try keepTop()
    }

    /// The line where the function `function` refers to was defined, when it is a Lua function.
    package func definitionLine(of function: LuaReference) -> Int? {
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        pmh_getref(state, function.id)
        let line = pmh_function_line(host, -1)
        return line > 0 ? Int(line) : nil
    }

    /// Lets the state forget a value.
    package func release(_ reference: LuaReference) {
        pmh_unref(host, reference.id)
    }

    // MARK: internals

    private func invoke(_ function: LuaReference, _ arguments: [LuaArgument], resultCount: Int, metered: Bool = true) throws(LuaError) {
        guard lua_checkstack(state, Int32(arguments.count) + 8) != 0 else {
            throw LuaError(kind: .memoryLimit, message: "too many arguments")
        }
        pmh_getref(state, function.id)
        tape.removeAll()
        for argument in arguments {
            switch argument {
            case .value(let value):
                try tape.append(value)
            case .reference(let reference):
                try flushTape()
                pmh_getref(state, reference.id)
            case .tape(let parsed):
                tape.append(tape: parsed.bytes)
            }
        }
        try flushTape()
        let code = pmh_call(host, Int32(arguments.count), Int32(resultCount), metered ? 1 : 0)
        guard code == PMH_OK else { throw error(code: code, chunkName: nil) }
    }

    private func flushTape() throws(LuaError) {
        guard tape.count > 0 else { return }
        let count = tape.count
        defer { tape.removeAll() }
        let status = pmh_push_tape(host, tape.bytes, tape.length, count)
        guard status == PMH_OK else {
            if status == PMH_ERR_MEMORY {
                throw LuaError(kind: .memoryLimit, message: "memory limit of \(limits.memoryBytes) bytes exceeded while passing the input")
            }
            throw LuaError(kind: .badValue, message: topMessage() ?? "cannot pass the input")
        }
    }

    /// The C encoder's text for the first result of `function`, or nil when it falls back to the
    /// Swift path: lets tests tell the two paths apart (`json()` uses the encoder the same way).
    func compactJSONFromC(_ function: LuaReference, _ arguments: [LuaArgument] = []) throws(LuaError) -> [UInt8]? {
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        try invoke(function, arguments, resultCount: 1)
        guard let jsonEncoder,
              pmh_json_encode(jsonEncoder, host, top + 1, Int32(clamping: limits.maxValueDepth)) == PMH_JSON_OK
        else { return nil }
        var length = 0
        guard let bytes = pmh_json_encoder_bytes(jsonEncoder, &length) else { return length == 0 ? [] : nil }
        return Array(UnsafeRawBufferPointer(start: bytes, count: length))
    }

    private func keepTop() throws(LuaError) -> LuaReference {
        let id = pmh_ref(host)
        guard id != LUA_NOREF, id != LUA_REFNIL else {
            throw LuaError(kind: .memoryLimit, message: "memory limit of \(limits.memoryBytes) bytes exceeded")
        }
        return LuaReference(id: id)
    }

    private func topMessage() -> String? {
        guard lua_type(state, -1) == LUA_TSTRING else { return nil }
        var length = 0
        guard let bytes = pmh_tolstring(state, -1, &length) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
    }

    private func error(code: Int32, chunkName: String?) -> LuaError {
        let text = topMessage()
        switch Int(code) {
        case PMH_ERR_SYNTAX:
            return LuaError(kind: .syntax, luaMessage: text ?? "syntax error", chunks: chunkNames)
        case PMH_ERR_INSTRUCTIONS:
            var error = LuaError(kind: .instructionLimit, luaMessage: text ?? "", chunks: chunkNames)
            error.message = "instruction limit of \(limits.instructions) exceeded"
            return error
        case PMH_ERR_TIME:
            var error = LuaError(kind: .timeLimit, luaMessage: text ?? "", chunks: chunkNames)
            error.message = "time limit of \(limits.timeMilliseconds) ms exceeded (C functions and operators on long strings count by time)"
            return error
        case PMH_ERR_MEMORY:
            // Raised by the count hook near the cap (or table.create), the message has the
            // script's line; raised by Lua on a refused allocation, it has none, and the chunk
            // stands for the place.
            var error = LuaError(kind: .memoryLimit, luaMessage: text ?? "", chunks: chunkNames)
            // The hook's own words say more when the stack is deep (host.c); Lua's say less.
            if !error.message.hasPrefix("memory limit of ") { error.message = "memory limit of \(limits.memoryBytes) bytes exceeded" }
            if error.script == nil { error.script = chunkName }
            return error
        case PMH_ERR_HANDLER:
            return LuaError(kind: .runtime, message: "error while handling an error: " + LogLine(text ?? "unknown").description)
        default:
            return LuaError(kind: .runtime, luaMessage: text ?? "unknown error", chunks: chunkNames)
        }
    }

    // MARK: callbacks from C

    /// What a script prints or warns goes to the log as one line (``LogLine``), at debug level:
    /// shown with the command line's `--verbose` and the server's `--log-level debug`. A script's
    /// text is not the host's warning, and on every line of a batch or every request it would
    /// flood the log (a second audit: 1,274 lines from one request at the server's info level).
    fileprivate func log(level: Int32, text: UnsafeRawBufferPointer) {
        logger.debug("\(LogLine(text))", metadata: ["source": level == 0 ? "lua.print" : "lua.warn"])
    }

    fileprivate func encode(
        _ luaState: OpaquePointer,
        _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>,
        _ length: UnsafeMutablePointer<Int>
    ) -> Int32 {
        // Called when the C encoder (tried first by json() itself) is not sure of the value:
        // the reader and writer encode it, or word the error.
        let bytes: [UInt8]
        var failed: Int32 = 0
        do {
            bytes = JSONWriter(style: .compact).write(try readInSwift(at: 1, root: "argument"))
        } catch {
            bytes = Array("\(jsonName): \(error.message)".utf8)
            failed = -1
        }
        if bytes.count > encodedCapacity {
            encoded.deallocate()
            encodedCapacity = max(bytes.count, encodedCapacity * 2)
            encoded = UnsafeMutablePointer<UInt8>.allocate(capacity: encodedCapacity)
        }
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { encoded.update(from: base, count: source.count) }
        }
        out.pointee = UnsafeRawPointer(encoded).assumingMemoryBound(to: CChar.self)
        length.pointee = bytes.count
        return failed
    }
}

private func luaHostLog(_ context: UnsafeMutableRawPointer?, _ level: Int32, _ text: UnsafePointer<CChar>?, _ length: Int) {
    guard let context, let text else { return }
    let state = Unmanaged<LuaState>.fromOpaque(context).takeUnretainedValue()
    state.log(level: level, text: UnsafeRawBufferPointer(start: text, count: length))
}

private func luaHostEncode(
    _ context: UnsafeMutableRawPointer?,
    _ luaState: OpaquePointer?,
    _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
    _ length: UnsafeMutablePointer<Int>?
) -> Int32 {
    guard let context, let luaState, let out, let length else { return -1 }
    let state = Unmanaged<LuaState>.fromOpaque(context).takeUnretainedValue()
    return state.encode(luaState, out, length)
}

/// Formats one double for the C encoder with the writer's own function, so both agree on every
/// double without a second implementation.
private func luaHostFormatDouble(_ value: Double, _ out: UnsafeMutablePointer<CChar>?, _ capacity: Int) -> Int {
    guard let out else { return 0 }
    let bytes = JSONWriter(style: .compact).write(.double(value))
    guard bytes.count <= capacity else { return 0 }
    bytes.withUnsafeBytes { source in
        if let base = source.baseAddress { UnsafeMutableRawPointer(out).copyMemory(from: base, byteCount: source.count) }
    }
    return bytes.count
}
