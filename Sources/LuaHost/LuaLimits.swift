/// Limits that bound what a script may do in one call, so that any script returns in time and
/// the process survives.
///
/// The defaults suit mapping scripts: a mapping takes a few thousand instructions and a few
/// kilobytes, far below these figures, while an endless loop stops within milliseconds.
package struct LuaLimits: Sendable, Hashable {
    /// Lua VM instructions per call. Once spent, every further instruction raises again, so a
    /// script cannot swallow the limit with `pcall`.
    package var instructions: Int
    /// Bytes the whole state may hold (scripts, their data and the values of a call).
    package var memoryBytes: Int
    /// Largest string `string.rep` may build: C functions run without the instruction count.
    package var maxStringBytes: Int
    /// Largest subject the pattern functions (`find`, `match`, `gmatch`, `gsub`) accept.
    package var maxPatternSubjectBytes: Int
    /// A pattern with `q` repetition items is refused on a subject of `n` bytes when
    /// `(n + 1) ^ (q + 1)` (`^ q` for a pattern anchored with `^`) exceeds this: it bounds the
    /// matcher's backtracking, with a clear error before the time limit would end it. 10^10, not
    /// 10^8: the trim idiom `^%s*(.-)%s*$` then takes a body of 2,000 bytes, where 10^8 refused
    /// 100 (the twenty-sixth audit, F13); a bomb of five items still fails at once on 100 bytes.
    package var patternCost: Double
    /// Deepest nesting of values passed in or returned.
    package var maxValueDepth: Int
    /// Wall-clock milliseconds per metered call (0: none): the count sees Lua's instructions, not
    /// what a C function or an operator on long strings does in one of them.
    package var timeMilliseconds: Int

    package init(
        instructions: Int = 2_000_000,
        memoryBytes: Int = 32 << 20,
        maxStringBytes: Int = 1 << 20,
        maxPatternSubjectBytes: Int = 1 << 20,
        patternCost: Double = 1e10,
        maxValueDepth: Int = 64,
        timeMilliseconds: Int = 10_000
    ) {
        self.instructions = instructions
        self.memoryBytes = memoryBytes
        self.maxStringBytes = maxStringBytes
        self.maxPatternSubjectBytes = maxPatternSubjectBytes
        self.patternCost = patternCost
        self.maxValueDepth = maxValueDepth
        self.timeMilliseconds = timeMilliseconds
    }
}
