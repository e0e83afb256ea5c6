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

    /// Limits with the defaults: 2,000,000 instructions, 32 MiB, 1 MiB strings, 32 levels.
    public init(instructions: Int = 2_000_000, memoryBytes: Int = 32 << 20, maxStringBytes: Int = 1 << 20, maxValueDepth: Int = 32) {
        self.instructions = instructions
        self.memoryBytes = memoryBytes
        self.maxStringBytes = maxStringBytes
        self.maxValueDepth = maxValueDepth
    }

    var lua: LuaLimits {
        LuaLimits(instructions: instructions, memoryBytes: memoryBytes, maxStringBytes: maxStringBytes,
                  maxPatternSubjectBytes: max(maxStringBytes, 1 << 16), maxValueDepth: maxValueDepth)
    }
}
