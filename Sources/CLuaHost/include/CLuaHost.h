// The C side of pushmap's Lua host: what Swift calls. The files behind it, each for one concern:
// host.c (entry points, hook, message handler), allocator.c, sandbox.c (replacements, pairs,
// sealing), values.c (pushing from the tape, marks and helpers), result_walk.c (results as
// JSON text and items), members.c (objects' members in key order, for both walks over a
// result); host_internal.h holds what they share.
//
// A Lua error is a longjmp, and it must never cross a Swift frame. Everything that Lua calls back
// into (the count hook, the allocator, the message handler, the sandbox's replacement functions)
// and everything that may raise while the host works (pushing input values, taking references)
// lives here; Swift calls only the protected entry points below and Lua API functions that never
// raise.
#ifndef CLUAHOST_H
#define CLUAHOST_H

#include <stddef.h>
#include <stdint.h>
#include <lua.h>
#include <lauxlib.h>

#include "CJSONItem.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Per-state limits. Zero means "no limit" for the sizes; the instruction budget is per call.
typedef struct pmh_limits {
    size_t memory_bytes;            // cap on the bytes the state may hold
    int64_t instructions;           // instructions per call
    size_t max_string_bytes;        // cap on string.rep results
    size_t max_pattern_subject;     // cap on subjects given to find/match/gmatch/gsub
    double pattern_cost;            // cap on subject_length^(quantifiers+1)
    int max_depth;                  // nesting depth of values crossing the boundary
    int64_t time_ms;                // wall-clock time per metered call (0: none)
} pmh_limits;

/// Receives what scripts print (level 0) and warn (level 1). Must not call into Lua.
typedef void (*pmh_log_fn)(void *context, int level, const char *text, size_t length);

typedef struct pmh_host pmh_host;

/// Why the last protected call failed, from the host's own flags (they win over Lua's status).
enum {
    PMH_OK = 0,
    PMH_ERR_RUNTIME = 1,
    PMH_ERR_SYNTAX = 2,
    PMH_ERR_INSTRUCTIONS = 3,
    PMH_ERR_MEMORY = 4,
    PMH_ERR_HANDLER = 5,
    /// A metered call ran past its time (limits.time_ms).
    PMH_ERR_TIME = 6,
};

/// Creates a sandboxed state: base (without dofile, loadfile, load of binary chunks,
/// collectgarbage other than "count"), string (without dump; rep and the pattern functions
/// capped), table, math (random seeded with a constant), utf8. `library` names a global table
/// that receives the value helpers (null, array, object, isarray, isobject, json).
/// Returns NULL and writes a message to `error` when the state cannot be made.
pmh_host *pmh_open(const pmh_limits *limits, const char *library, pmh_log_fn log, void *log_context,
                   char *error, size_t error_length);

/// Closes the state and frees the host. Safe with NULL.
void pmh_close(pmh_host *host);

lua_State *pmh_state(pmh_host *host);

/// Makes every global table read-only (through proxies), makes the global table itself
/// read-only, and refuses rawset on them. Run after the trusted preludes.
int pmh_seal(pmh_host *host);

/// Compiles text (never binary) as a function on the top of the stack.
/// Returns PMH_OK, or an error code with the message on the top of the stack.
int pmh_load(pmh_host *host, const char *source, size_t length, const char *chunk_name);

/// Pushes the values encoded in `tape` (see pmh_tape_* below), in protected mode.
/// Returns PMH_OK with `count` values pushed, or an error code with the message on top.
int pmh_push_tape(pmh_host *host, const uint8_t *tape, size_t length, int count);

/// Calls the function below `nargs` arguments with the limits armed, and the instruction budget
/// too when `metered`; the results (exactly `nresults`) replace them. On failure one message value
/// is left on the top.
int pmh_call(pmh_host *host, int nargs, int nresults, int metered);

/// Pops the top value into the registry and returns its reference, in protected mode
/// (LUA_NOREF on failure: memory).
int pmh_ref(pmh_host *host);
void pmh_unref(pmh_host *host, int ref);

/// Pushes the field `key` of the table at `index` without metamethods (never raises for a
/// table; pushes nil for anything else).
void pmh_rawgetfield(pmh_host *host, int index, const char *key);

/// Value helpers for the reader.
int pmh_is_null(pmh_host *host, int index);
/// 1 when the table at index carries the array mark, 2 for the object mark, 0 otherwise.
int pmh_mark(pmh_host *host, int index);
/// When the table at index is a read-only view (`pushmap.rules` and its lists), pushes the
/// table it shows and returns 1: a view is empty itself, and is written as what it shows.
/// Returns 0, pushing nothing, for any other value.
int pmh_push_viewed(pmh_host *host, int index);

/// One member of an object being read: its key's bytes (valid while the table lives) and the
/// stack slot holding its value.
typedef struct pmh_member {
    const char *key;
    size_t length;
    uint64_t prefix;  // the key's first 8 bytes, big-endian: compares like the bytes
    int slot;
} pmh_member;

/// Collects the members of the table at `index` when every key is a string: pushes each value
/// (one slot each) and records the members from entry `first` of the host's member list, sorted
/// by the keys' bytes. Returns how many, or -1 (nothing pushed) when a key is not a string, the
/// stack cannot grow, or memory runs out: the caller then reads the table its own way. Lua's
/// iteration order follows a hash seeded anew in every state; this order does not.
int pmh_collect_members(pmh_host *host, int index, size_t first);

/// The host's member list; it may move when members are collected.
const pmh_member *pmh_members(pmh_host *host);
/// Line where the function at index was defined, or -1.
int pmh_function_line(pmh_host *host, int index);

/// The bytes the state holds now and at its peak.
size_t pmh_memory_in_use(pmh_host *host);
size_t pmh_memory_peak(pmh_host *host);
/// Bytes of freed small blocks the host keeps for reuse: held by the state, not in Lua's count.
size_t pmh_memory_kept(pmh_host *host);

/// Runs a full garbage collection with the memory cap lifted for its duration.
void pmh_collect(pmh_host *host);

/// Swift-side encoder for `json()`: given the value at stack index 1, write its JSON text
/// into a buffer owned by the host and return 0, or return -1 with a message in the buffer.
/// Must only use Lua API functions that never raise.
typedef int (*pmh_encode_fn)(void *context, lua_State *L, const char **out, size_t *out_length);
void pmh_set_encoder(pmh_host *host, pmh_encode_fn encode, void *context);

/// Where print() and warn() go; installed after pmh_open so the context can be the owner.
void pmh_set_log(pmh_host *host, pmh_log_fn log, void *context);

// Inline shims for Lua's function-like macros, which Swift does not import.
static inline void pmh_pop(lua_State *L, int n) { lua_settop(L, -(n)-1); }
static inline int pmh_upvalueindex(int i) { return LUA_REGISTRYINDEX - i; }
static inline const char *pmh_tolstring(lua_State *L, int i, size_t *len) { return lua_tolstring(L, i, len); }
static inline int pmh_isinteger(lua_State *L, int i) { return lua_isinteger(L, i); }
static inline lua_Integer pmh_tointeger(lua_State *L, int i) { return lua_tointegerx(L, i, NULL); }
static inline lua_Number pmh_tonumber(lua_State *L, int i) { return lua_tonumberx(L, i, NULL); }
static inline int pmh_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline void pmh_getref(lua_State *L, int ref) { lua_rawgeti(L, LUA_REGISTRYINDEX, ref); }

// Tape opcodes: how Swift hands JSON values to C for protected pushing.
// Integers and lengths are little-endian; a string is its u32 length and bytes.
enum {
    PMH_TAPE_NULL = 'n',
    PMH_TAPE_TRUE = 't',
    PMH_TAPE_FALSE = 'f',
    PMH_TAPE_INTEGER = 'i',   // + int64
    PMH_TAPE_DOUBLE = 'd',    // + float64 bits
    PMH_TAPE_STRING = 's',    // + u32 length + bytes
    PMH_TAPE_ARRAY = 'a',     // + u32 count, then count values
    PMH_TAPE_OBJECT = 'o',    // + u32 count, then count (string, value) pairs
};


// MARK: JSON in C

/// Formats one finite double exactly as the Swift JSONWriter does; returns the bytes written,
/// or 0 when they do not fit in `capacity`. Must not call into Lua.
typedef size_t (*pmh_json_double_fn)(double value, char *out, size_t capacity);

/// Writes Lua values as compact JSON (keys sorted by their bytes) into a malloc'd buffer it
/// owns and reuses, byte for byte as LuaValueReader + JSONWriter(.compact) would. Never raises.
typedef struct pmh_json_encoder pmh_json_encoder;

enum {
    PMH_JSON_OK = 0,
    /// The value is one the Swift reader would refuse, or one this encoder is not sure of, or
    /// memory ran out: encode it on the Swift path, which also gives the proper message.
    PMH_JSON_FALLBACK = 1,
    /// The text, or its items, would take more than the state's memory limit: an error, with no
    /// second try on the Swift path (a table met many times is written each time it is met).
    PMH_JSON_TOO_LARGE = 2,
};

/// A new encoder (NULL when out of memory). Without `format`, every double falls back.
pmh_json_encoder *pmh_json_encoder_new(pmh_json_double_fn format);
void pmh_json_encoder_free(pmh_json_encoder *encoder);

/// Encodes the value at `index` of the host's stack, tables nested at most `max_depth` deep
/// (as LuaLimits.maxValueDepth). Leaves the stack as it was. PMH_JSON_OK, PMH_JSON_FALLBACK or
/// PMH_JSON_TOO_LARGE.
int pmh_json_encode(pmh_json_encoder *encoder, pmh_host *host, int index, int max_depth);

/// The C encoder `json()` tries before the Swift one (NULL: none), owned by the caller, who
/// keeps it alive as long as the host.
void pmh_set_json_encoder(pmh_host *host, pmh_json_encoder *encoder);

/// The text of the last successful encode, valid until the next encode or free.
const char *pmh_json_encoder_bytes(const pmh_json_encoder *encoder, size_t *length);

/// As pmh_json_encode, recording the value as items too (pmh_json_encoder_items): a reader
/// builds it from them without another walk over the tables and no call into Lua. The items are
/// pmh_json_item (CJSONItem.h), the very type Swift reads them as; a string's bytes are Lua's
/// own, valid while the encoded value is on the stack, unchanged, and nothing runs in the state.
int pmh_json_encode_items(pmh_json_encoder *encoder, pmh_host *host, int index, int max_depth);

/// The items of the last successful pmh_json_encode_items, valid as its text is.
const pmh_json_item *pmh_json_encoder_items(const pmh_json_encoder *encoder, size_t *count);

#ifdef __cplusplus
}
#endif

#endif
