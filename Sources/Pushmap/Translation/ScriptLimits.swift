internal import LuaHost

/// Limits every mapping script runs under, per call. The defaults stop an endless loop within
/// milliseconds and leave a mapping a thousand times the room it needs.
public struct ScriptLimits: Sendable, Hashable {
    /// Lua instructions per translation.
    public var instructions: Int
    /// Bytes one Lua state may hold.
    public var memoryBytes: Int
    /// Largest string a script may build with `string.rep`.
    public var maxStringBytes: Int
    /// Deepest nesting of a payload a script returns.
    public var maxValueDepth: Int
    /// Wall-clock milliseconds per translation, for the work the instruction count cannot see
    /// (the library's C functions on long strings); 0 for none. Like the instruction count, it
    /// holds for templates that run your Lua.
    public var timeMilliseconds: Int

    /// Limits with the defaults: 2,000,000 instructions, 32 MiB, 1 MiB strings, 32 levels, ten seconds.
    public init(
        instructions: Int = 2_000_000, memoryBytes: Int = 32 << 20, maxStringBytes: Int = 1 << 20, maxValueDepth: Int = 32,
        timeMilliseconds: Int = 10_000
    ) {
        self.instructions = instructions
        self.memoryBytes = memoryBytes
        self.maxStringBytes = maxStringBytes
        self.maxValueDepth = maxValueDepth
        self.timeMilliseconds = timeMilliseconds
    }

    var lua: LuaLimits {
        LuaLimits(instructions: instructions, memoryBytes: memoryBytes, maxStringBytes: maxStringBytes,
                  maxPatternSubjectBytes: max(maxStringBytes, 1 << 16), maxValueDepth: maxValueDepth, timeMilliseconds: timeMilliseconds)
    }
}
