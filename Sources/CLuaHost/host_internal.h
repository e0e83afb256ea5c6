// What the C host's files share and nothing outside sees: the host's state, the registry keys,
// the result walk's encoder, the short-key print and the member order. See CLuaHost.h for why
// the host is C at all.
#ifndef PMH_HOST_INTERNAL_H
#define PMH_HOST_INTERNAL_H

#include "CLuaHost.h"

#include <string.h>

// Small blocks (up to PMH_SMALL_MAX bytes) come in 16-byte classes; each class keeps up to
// PMH_FREE_KEEP freed blocks for reuse (allocator.c). Up to 1 KiB, not 256 bytes: a payload's
// tables grow hash parts of 512 bytes and 1 KiB each translation, which malloc served for 3,350
// instructions a batch line (callgrind, 4,000 lines of the basic seed, both platforms); a batch's
// peak resident memory did not move (20,000 lines, one or two workers), and a Lua state keeps
// about 70 KB more after translating (364 KB, from 295). Keeping fewer than 256 of the large
// classes gave most of that back (64: 2,300 a line more). 2,048, not 256: with the collector's
// minor multiplier at 40 (host.c), a young collection frees more blocks of a class than 256,
// and the rest went back to malloc: 217,500 to 214,500 instructions a batch line, 2.81 to 2.72 s
// for 200,000 intents on one core; a batch's peak resident memory did not move (20,000 lines),
// and a Lua state keeps 543 KB after translating (364 KB with 256). The lists only ever hold
// blocks the state once used, so the memory cap still bounds them.
#define PMH_SMALL_MAX 1024
#define PMH_SMALL_CLASSES (PMH_SMALL_MAX / 16)
#define PMH_FREE_KEEP 2048

struct pmh_free_block { struct pmh_free_block *next; };

// A string the string cache holds (values.c): its bytes are Lua's, alive while the cache table
// holds it. Object keys take the first PMH_CACHE_HALF slots, short string values the next as many.
#define PMH_CACHE_HALF 256
#define PMH_CACHE_SLOTS (2 * PMH_CACHE_HALF)
#define PMH_CACHED_MAX 40  // Lua's short strings: longer ones are not interned anyway
typedef struct pmh_cached_string {
    const char *bytes;
    size_t length;
    uint64_t first, last;  // pmh_key_print's words: a string of up to 16 bytes is equal by these
} pmh_cached_string;

// Members of the objects being read, one segment per open object, nested objects after their
// parents (members.c).
typedef struct pmh_member_list {
    pmh_member *members;
    size_t count;
    size_t capacity;
} pmh_member_list;

// An object's key order as sorted once, kept for the next object with the same keys met in the
// same order (members.c). Keys of up to PMH_KEPT_KEY_MAX bytes, told apart by three words.
#define PMH_KEPT_ORDER_SLOTS 8
#define PMH_KEPT_ORDER_MIN 8
#define PMH_KEPT_ORDER_MAX 48
#define PMH_KEPT_KEY_MAX 24
typedef struct pmh_kept_order {
    size_t count;  // 0: nothing kept
    uint64_t words[PMH_KEPT_ORDER_MAX][3];
    uint8_t lengths[PMH_KEPT_ORDER_MAX];
    uint8_t order[PMH_KEPT_ORDER_MAX];  // the sorted members, as positions in the order met
} pmh_kept_order;

struct pmh_host {
    lua_State *L;
    pmh_limits limits;
    size_t used;
    size_t peak;
    int cap_lifted;
    int memory_refused;
    // The host raised a memory limit in this call (not Lua): pcall and xpcall raise it again.
    int memory_raised;
    // A metered call's memory passed 15/16 of the cap: the next instruction's hook collects,
    // and raises the limit at the script's line if that did not bring it back under.
    int memory_near;
    int64_t budget_left;
    int hook_interval;
    int instructions_exceeded;
    // The running call is a metered one: the instruction budget and the time apply.
    int metered;
    // Its deadline on the monotonic clock, in nanoseconds (0: none), how many hook calls since
    // the clock was last read, and whether the deadline passed.
    int64_t deadline;
    int ticks;
    int time_exceeded;
    pmh_log_fn log;
    void *log_context;
    pmh_encode_fn encode;
    void *encode_context;
    pmh_json_encoder *json_encoder;
    int randomseed_ref;
    // math.random's generator state (the userdata it shares with randomseed), and a copy of it
    // as the last reseed left it: a call before which nothing was drawn skips reseeding.
    const void *random_state;
    size_t random_state_size;
    unsigned char seeded_state[64];
    int seeded;
    // Whether the error string.format's wrapper caught was raised in Lua's format itself (see
    // pmh_format in sandbox.c).
    int format_raised;
    // Keys and short values of the values passed in, kept between calls (see push_cached).
    int string_cache_ref;
    pmh_cached_string cached[PMH_CACHE_SLOTS];
    char library[64];
    // Freed small blocks by size class, reused last-in first-out (see pmh_alloc).
    struct pmh_free_block *free_lists[PMH_SMALL_CLASSES];
    unsigned free_counts[PMH_SMALL_CLASSES];
    // Members of the objects being read (pmh_collect_members).
    pmh_member_list members;
    // Key orders kept from earlier sorts (members.c).
    pmh_kept_order kept_orders[PMH_KEPT_ORDER_SLOTS];
};

static inline pmh_host *pmh_host_of(lua_State *L) { return *(pmh_host **)lua_getextraspace(L); }

// MARK: what one file gives another

// allocator.c: Lua's allocator (ud is the host), and freeing the blocks kept for reuse.
void *pmh_alloc(void *ud, void *ptr, size_t osize, size_t nsize);
void pmh_free_kept_blocks(pmh_host *h);

// sandbox.c: opens the allowed libraries and puts the sandbox's replacements in place.
void pmh_open_sandbox(lua_State *L, pmh_host *h);

// host.c: charges a metered call `cost` instructions for work a C function does that the count
// hook cannot see (a pattern's backtracking, a long string built or compared), and looks at the
// clock; raises the limit's error when either is spent. Nothing for an unmetered call.
void pmh_charge(lua_State *L, double cost);

// sandbox.c: a read-only view of the table argument, sealed as the globals' library tables are
// (reads go through, writes and rawset raise, pairs and # see the table). For the prelude alone.
int pmh_lib_readonly(lua_State *L);
// host.c: arms the count hook for the next instruction, whose call sees memory_near.
void pmh_arm_memory_check(pmh_host *h);
// host.c: the message handler's placing of an error on the script line it belongs to, without
// the traceback: a handler for the prelude's own protected call (pushmap._hostdebug.place).
int pmh_place(lua_State *L);
// Marks the metatable at `index` as the sandbox's rawset refuses to write through, with `why`
// (a string, or NULL for the generic words) as the refusal's reason.
void pmh_seal_metatable(lua_State *L, int index, const char *why);

// members.c: growing a member list (0 when memory runs out), sorting a segment in the member order.
int pmh_member_list_grow(pmh_member_list *list);
void pmh_sort_members(pmh_host *host, pmh_member *m, size_t n);

// values.c: the string cache, the array and object marks and the scripts' value helpers.
void pmh_open_values(lua_State *L, pmh_host *h);

// MARK: integers as text

// Room for any lua_Integer in decimal: 19 digits and a sign.
#define PMH_DECIMAL_ROOM 24

// Writes `value` in decimal at the end of `digits` (PMH_DECIMAL_ROOM bytes) and gives where the
// text starts: as JSONWriter.writeInteger and Lua's "%d" write it. The magnitude as unsigned also
// covers the smallest integer.
static inline int pmh_decimal(int64_t value, char *digits) {
    int i = PMH_DECIMAL_ROOM;
    uint64_t magnitude = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
    do {
        digits[--i] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude > 0);
    if (value < 0) digits[--i] = '-';
    return i;
}

// MARK: the short-key print

// A string's first and last eight bytes as words (fewer, zero-filled, for a shorter string;
// `last` is then 0), read inline with no call to memcpy: with the length, two strings of up
// to 16 bytes are equal when their prints are, and `first` orders keys (pmh_key_prefix).
typedef struct pmh_key_print {
    uint64_t first, last;
} pmh_key_print;

static inline pmh_key_print pmh_key_print_of(const char *bytes, size_t length) {
    pmh_key_print print = {0, 0};
    if (length >= 8) {
        memcpy(&print.first, bytes, 8);
        memcpy(&print.last, bytes + length - 8, 8);
        return print;
    }
    // The bytes as memcpy would lay them in the word, for any byte order.
    for (size_t i = 0; i < length; i++) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        print.first |= (uint64_t)(unsigned char)bytes[i] << (56 - 8 * i);
#else
        print.first |= (uint64_t)(unsigned char)bytes[i] << (8 * i);
#endif
    }
    return print;
}

// MARK: the member order

// The order of an object's members that both table walks give (pmh_collect_members for the
// Swift reader, the result walk): the keys' bytes, a shorter key first when it is a prefix of
// the other. Lua's own iteration order follows a hash seeded anew in every state; this one does not.

// A key's first eight bytes, big-endian (zeros past its end): compares like the bytes.
static inline uint64_t pmh_key_prefix(const char *key, size_t length) {
    uint64_t first = pmh_key_print_of(key, length).first;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    first = __builtin_bswap64(first);  // the first byte most significant
#endif
    return first;
}

// Whether `a` comes before `b`: most keys are told apart by their prefixes alone.
static inline int pmh_member_before(const pmh_member *a, const pmh_member *b) {
    if (a->prefix != b->prefix) return a->prefix < b->prefix;
    size_t n = a->length < b->length ? a->length : b->length;
    int c = n > 0 ? memcmp(a->key, b->key, n) : 0;
    return c != 0 ? c < 0 : a->length < b->length;
}

// Adds a member to the list (0 when memory runs out). Inline: it runs for every key of a result.
static inline int pmh_add_member(pmh_member_list *list, const char *key, size_t length, int slot) {
    if (list->count == list->capacity && !pmh_member_list_grow(list)) return 0;
    list->members[list->count++] = (pmh_member){key, length, pmh_key_prefix(key, length), slot};
    return 1;
}

#endif
