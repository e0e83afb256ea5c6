#if canImport(Glibc)
internal import Glibc
#endif

/// What the server sets up for itself before its first thread starts, so that it needs nothing
/// from its environment to run lean.
enum ProcessStart {
    /// The malloc arenas glibc may make, where it would make up to eight per core: one for each
    /// thread that allocates while another holds an arena, each keeping the pages freed in it.
    /// A guard more than a saving today: the server's tasks run on two event loops and a batch's
    /// runs on Dispatch's threads, and after four 50,000-line batches and 150,000 requests at 64
    /// connections it held 39.9 MiB with the cap and 39.8 MiB with MALLOC_ARENA_MAX=16 (six
    /// threads in all). (The 110 MiB after two million requests that issue
    /// 28 put on the arenas were the request time limit's cancelled sleeps, each kept until its
    /// deadline; see ``withTimeLimit(_:_:)`` and docs/internals.md.)
    static let mallocArenas: Int32 = 2

    /// Caps glibc's arenas at ``mallocArenas``, unless the environment already set a cap
    /// (`MALLOC_ARENA_MAX`, or the tunable in `GLIBC_TUNABLES`), which glibc applied at start-up
    /// and which wins. Only before any thread starts: an arena a thread already took stays.
    static func boundMallocArenas() {
        #if canImport(Glibc)
        if getenv("MALLOC_ARENA_MAX") != nil { return }
        if let tunables = getenv("GLIBC_TUNABLES"), String(cString: tunables).contains("glibc.malloc.arena_max") { return }
        // Swift's Glibc module leaves out malloc.h, so mallopt is looked up by name; -8 is
        // M_ARENA_MAX there.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: Mallopt.self)(-8, mallocArenas)
        #endif
    }
}
