// The C half of the Lua host: sandbox, limits, protected entry points. See CLuaHost.h.
#include "CLuaHost.h"
#include "member_order.h"

#include <lualib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// A table.move over more elements than this runs in C where the count hook cannot stop it.
#define PMH_MAX_MOVE ((lua_Integer)1 << 22)
// Fixed seed: the same script on the same input gives the same output on every machine.
#define PMH_RANDOM_SEED 0x70757368

// Small blocks (up to PMH_SMALL_MAX bytes) come in 16-byte classes; each class keeps up to
// PMH_FREE_KEEP freed blocks for reuse.
#define PMH_SMALL_MAX 256
#define PMH_SMALL_CLASSES (PMH_SMALL_MAX / 16)
#define PMH_FREE_KEEP 256

struct pmh_free_block { struct pmh_free_block *next; };

// A string the string cache holds: its bytes are Lua's, alive while the cache table holds it.
// Object keys take the first PMH_CACHE_HALF slots, short string values the next as many.
#define PMH_CACHE_HALF 256
#define PMH_CACHE_SLOTS (2 * PMH_CACHE_HALF)
#define PMH_CACHED_MAX 40  // Lua's short strings: longer ones are not interned anyway
typedef struct pmh_cached_string {
    const char *bytes;
    size_t length;
    uint64_t first, last;  // as push_cached reads them: a string of up to 16 bytes is equal by these
} pmh_cached_string;

struct pmh_host {
    lua_State *L;
    pmh_limits limits;
    size_t used;
    size_t peak;
    int cap_lifted;
    int memory_refused;
    int64_t budget_left;
    int hook_interval;
    int instructions_exceeded;
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
    // Keys and short values of the values passed in, kept between calls (see push_cached).
    int string_cache_ref;
    pmh_cached_string cached[PMH_CACHE_SLOTS];
    char library[64];
    // Freed small blocks by size class, reused last-in first-out (see pmh_alloc).
    struct pmh_free_block *free_lists[PMH_SMALL_CLASSES];
    unsigned free_counts[PMH_SMALL_CLASSES];
    // Members of the objects being read (pmh_collect_members), nested objects after their parents.
    pmh_member *members;
    size_t member_capacity;
};

// Addresses used as unique registry keys and as the null sentinel.
static char pmh_null_token;
static char pmh_array_key;
static char pmh_object_key;
static char pmh_sealed_key;

static pmh_host *host_of(lua_State *L) { return *(pmh_host **)lua_getextraspace(L); }

// MARK: allocator

// A mapping call makes a few hundred small objects (strings, tables, their parts) that the
// collector frees in batches. Freed small blocks go on a per-size-class list and are handed out
// again last-in first-out: a block comes back while still in the cache, in a few instructions
// instead of malloc's bins, which missed the cache several hundred times a call. A small block
// is always malloc'd at its class's full size, so any block of a class serves any request of it.
// Under AddressSanitizer every block goes to malloc and free, so reuse after free is still seen.
#if defined(__has_feature)
#  if __has_feature(address_sanitizer)
#    define PMH_PLAIN_MALLOC 1
#  endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#  define PMH_PLAIN_MALLOC 1
#endif

static inline size_t small_class(size_t n) { return (n + 15) >> 4; }  // 1 ... PMH_SMALL_CLASSES

static void *small_take(pmh_host *h, size_t n) {
#ifndef PMH_PLAIN_MALLOC
    size_t c = small_class(n) - 1;
    struct pmh_free_block *b = h->free_lists[c];
    if (b != NULL) {
        h->free_lists[c] = b->next;
        h->free_counts[c]--;
        return b;
    }
#endif
    return malloc(small_class(n) << 4);
}

static void small_give(pmh_host *h, void *p, size_t n) {
#ifndef PMH_PLAIN_MALLOC
    size_t c = small_class(n) - 1;
    if (h->free_counts[c] < PMH_FREE_KEEP) {
        struct pmh_free_block *b = (struct pmh_free_block *)p;
        b->next = h->free_lists[c];
        h->free_lists[c] = b;
        h->free_counts[c]++;
        return;
    }
#else
    (void)h;
    (void)n;
#endif
    free(p);
}

static void free_kept_blocks(pmh_host *h) {
    for (size_t c = 0; c < PMH_SMALL_CLASSES; c++) {
        while (h->free_lists[c] != NULL) {
            struct pmh_free_block *b = h->free_lists[c];
            h->free_lists[c] = b->next;
            free(b);
        }
        h->free_counts[c] = 0;
    }
}

// Allocates `nsize` bytes for a block of `osize` at `ptr` (NULL: a new block), as Lua asks.
static void *resize_block(pmh_host *h, void *ptr, size_t osize, size_t nsize) {
    int old_small = ptr != NULL && osize <= PMH_SMALL_MAX;
    if (nsize <= PMH_SMALL_MAX) {
        if (ptr == NULL) return small_take(h, nsize);
        if (old_small && small_class(osize) == small_class(nsize)) return ptr;
        void *p = small_take(h, nsize);
        if (p == NULL) return NULL;
        memcpy(p, ptr, osize < nsize ? osize : nsize);
        if (old_small) small_give(h, ptr, osize); else free(ptr);
        return p;
    }
    if (ptr == NULL || !old_small) return realloc(ptr, nsize);
    void *p = malloc(nsize);
    if (p == NULL) return NULL;
    memcpy(p, ptr, osize);
    small_give(h, ptr, osize);
    return p;
}

static void *pmh_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    pmh_host *h = (pmh_host *)ud;
    if (ptr == NULL) osize = 0;  // osize is then a type tag, not a size
    if (nsize == 0) {
        if (ptr != NULL) {
            if (osize <= PMH_SMALL_MAX) small_give(h, ptr, osize); else free(ptr);
        }
        h->used -= osize;
        return NULL;
    }
    if (nsize > osize && h->limits.memory_bytes > 0 && !h->cap_lifted &&
        h->used - osize + nsize > h->limits.memory_bytes) {
        // Never raise here: Lua collects, retries and raises LUA_ERRMEM itself.
        h->memory_refused = 1;
        return NULL;
    }
    void *p = resize_block(h, ptr, osize, nsize);
    if (p == NULL) {
        if (nsize <= osize) return ptr;  // a shrink never fails
        h->memory_refused = 1;
        return NULL;
    }
    h->used = h->used - osize + nsize;
    if (h->used > h->peak) h->peak = h->used;
    return p;
}

static int pmh_panic(lua_State *L) {
    // Only reached if the host itself broke the rule "raise only in protected mode".
    const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(not a string)";
    fprintf(stderr, "pushmap: unprotected Lua error: %s\n", msg);
    return 0;
}

static void pmh_warnf(void *ud, const char *msg, int tocont) {
    pmh_host *h = (pmh_host *)ud;
    (void)tocont;
    if (h->log != NULL && msg[0] != '@') h->log(h->log_context, 1, msg, strlen(msg));
}

// MARK: count hook

static void pmh_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    pmh_host *h = host_of(L);
    if (!h->instructions_exceeded) {
        h->budget_left -= h->hook_interval;
        if (h->budget_left > 0) return;
        h->instructions_exceeded = 1;
        // From now on every instruction raises again, so pcall cannot swallow the limit.
        lua_sethook(L, pmh_hook, LUA_MASKCOUNT, 1);
    }
    // Level 0 is the Lua function the hook interrupted: its line is where the script stopped.
    luaL_where(L, 0);
    lua_pushfstring(L, "instruction limit of %I exceeded", (lua_Integer)h->limits.instructions);
    lua_concat(L, 2);
    lua_error(L);
}

// MARK: message handler

static int pmh_msgh(lua_State *L) {
    pmh_host *h = host_of(L);
    if (h->instructions_exceeded) return 1;
    h->cap_lifted = 1;  // a traceback must not fail for want of the memory the script used up
    if (lua_type(L, 1) == LUA_TSTRING) {
        luaL_traceback(L, L, lua_tostring(L, 1), 1);
    } else {
        // Never tostring() a foreign value: its __tostring is the script's code.
        lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
        luaL_traceback(L, L, lua_tostring(L, -1), 1);
    }
    h->cap_lifted = 0;
    return 1;
}

// MARK: sandboxed replacements

static int pmh_print(lua_State *L) {
    pmh_host *h = host_of(L);
    int n = lua_gettop(L);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 1; i <= n; i++) {
        size_t l;
        const char *s = luaL_tolstring(L, i, &l);
        if (i > 1) luaL_addchar(&b, '\t');
        luaL_addlstring(&b, s, l);
        lua_pop(L, 1);
    }
    luaL_pushresult(&b);
    size_t l;
    const char *s = lua_tolstring(L, -1, &l);
    if (h->log != NULL) h->log(h->log_context, 0, s, l);
    return 0;
}

static int pmh_warn(lua_State *L) {
    pmh_host *h = host_of(L);
    int n = lua_gettop(L);
    luaL_checkstring(L, 1);
    for (int i = 2; i <= n; i++) luaL_checkstring(L, i);
    lua_concat(L, n);
    size_t l;
    const char *s = lua_tolstring(L, -1, &l);
    if (h->log != NULL) h->log(h->log_context, 1, s, l);
    return 0;
}

static int pmh_collectgarbage(lua_State *L) {
    const char *opt = luaL_optstring(L, 1, "count");
    if (strcmp(opt, "count") != 0)
        return luaL_error(L, "collectgarbage: only \"count\" is allowed here (got \"%s\")", opt);
    int k = lua_gc(L, LUA_GCCOUNT);
    int b = lua_gc(L, LUA_GCCOUNTB);
    lua_pushnumber(L, (lua_Number)k + ((lua_Number)b / 1024));
    return 1;
}

// load(chunk [, name [, mode [, env]]]) with the mode forced to text: binary chunks can crash Lua.
static int pmh_load_text(lua_State *L) {
    int n = lua_gettop(L);
    if (n < 1) return luaL_error(L, "bad argument #1 to 'load' (value expected)");
    if (n < 2) lua_pushnil(L);
    if (n < 3) {
        lua_pushliteral(L, "t");
    } else {
        lua_pushliteral(L, "t");
        lua_replace(L, 3);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

// setmetatable refusing __gc: finalizers run with hooks off, so a looping one could not be stopped.
static int pmh_setmetatable(lua_State *L) {
    if (lua_type(L, 2) == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) != LUA_TNIL)
            return luaL_error(L, "setmetatable: '__gc' metamethods are not allowed here");
        lua_pop(L, 1);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

static int is_sealed(lua_State *L, int index) {
    if (!lua_getmetatable(L, index)) return 0;
    int sealed = lua_rawgetp(L, -1, &pmh_sealed_key) != LUA_TNIL;
    lua_pop(L, 2);
    return sealed;
}

static int pmh_rawset(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    if (is_sealed(L, 1)) return luaL_error(L, "rawset: this table is read-only");
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

// Calls the original function (upvalue 1) with the same arguments.
static int call_original(lua_State *L, int nresults) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, nresults);
    return lua_gettop(L);
}

static int pmh_rep(lua_State *L) {
    pmh_host *h = host_of(L);
    size_t l, lsep;
    luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &lsep);
    if (n <= 0 || l + lsep == 0) {
        // Lua's own rep loops n times even for empty pieces.
        lua_pushliteral(L, "");
        return 1;
    }
    double total = (double)l * (double)n + (double)lsep * (double)(n - 1);
    if (h->limits.max_string_bytes > 0 && total > (double)h->limits.max_string_bytes) {
        // Lua's %f would print "1073741824.0"; the size is a whole number of bytes.
        char size[64];
        snprintf(size, sizeof size, "%.0f", total);
        return luaL_error(L, "string.rep: a result of %s bytes exceeds the limit of %I bytes", size,
                          (lua_Integer)h->limits.max_string_bytes);
    }
    return call_original(L, 1);
}

// Repetition items in a Lua pattern; each can multiply the matcher's work by the subject length.
static int pattern_quantifiers(const char *p, size_t lp) {
    int q = 0;
    size_t i = 0;
    while (i < lp) {
        char c = p[i];
        if (c == '%') {
            if (i + 1 < lp && p[i + 1] == 'b') {
                q++;
                i += 4;
            } else {
                i += 2;
            }
            continue;
        }
        if (c == '[') {
            i++;
            if (i < lp && p[i] == '^') i++;
            if (i < lp) i++;  // a ']' first is literal
            while (i < lp && p[i] != ']') {
                if (p[i] == '%') i++;
                i++;
            }
            i++;
            continue;
        }
        if (c == '*' || c == '+' || c == '-' || c == '?') q++;
        i++;
    }
    return q;
}

static int guard_pattern(lua_State *L, const char *name, int plain_arg) {
    pmh_host *h = host_of(L);
    size_t ls, lp;
    luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    if (h->limits.max_pattern_subject > 0 && ls > h->limits.max_pattern_subject)
        return luaL_error(L, "string.%s: a subject of %I bytes exceeds the limit of %I bytes", name,
                          (lua_Integer)ls, (lua_Integer)h->limits.max_pattern_subject);
    if (plain_arg > 0 && lua_toboolean(L, plain_arg)) return 0;
    int q = pattern_quantifiers(p, lp);
    double cost = pow((double)ls + 1.0, (double)q + 1.0);
    if (h->limits.pattern_cost > 0 && cost > h->limits.pattern_cost)
        return luaL_error(L,
                          "string.%s: a pattern with %d repetition items may take too long on a subject "
                          "of %I bytes (limit: subject length ^ (items + 1) <= %f)",
                          name, q, (lua_Integer)ls, h->limits.pattern_cost);
    return 0;
}

static int pmh_find(lua_State *L) { guard_pattern(L, "find", 4); return call_original(L, LUA_MULTRET); }
static int pmh_match(lua_State *L) { guard_pattern(L, "match", 0); return call_original(L, LUA_MULTRET); }
static int pmh_gmatch(lua_State *L) { guard_pattern(L, "gmatch", 0); return call_original(L, LUA_MULTRET); }
static int pmh_gsub(lua_State *L) { guard_pattern(L, "gsub", 0); return call_original(L, LUA_MULTRET); }

static int pmh_move(lua_State *L) {
    lua_Integer f = luaL_checkinteger(L, 2);
    lua_Integer e = luaL_checkinteger(L, 3);
    if (e >= f && (e - f >= PMH_MAX_MOVE || e - f < 0))
        return luaL_error(L, "table.move: moving more than %I elements is not allowed here", PMH_MAX_MOVE);
    return call_original(L, 1);
}

// MARK: deterministic pairs

// Lua's string hash seed is random per state, so next() visits keys in a different order on each
// run; pairs() visits them sorted (numbers, then strings by bytes, then booleans, then the rest).
typedef struct sort_key {
    int rank;
    lua_Number number;
    const char *bytes;
    size_t length;
    int boolean;
    const void *pointer;
    lua_Integer position;  // index in the keys table
} sort_key;

static int key_rank(int type) {
    switch (type) {
        case LUA_TNUMBER: return 0;
        case LUA_TSTRING: return 1;
        case LUA_TBOOLEAN: return 2;
        default: return 3;
    }
}

static int compare_keys(const void *a, const void *b) {
    const sort_key *x = (const sort_key *)a, *y = (const sort_key *)b;
    if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
    switch (x->rank) {
        case 0: return x->number < y->number ? -1 : (x->number > y->number ? 1 : 0);
        case 1: {
            size_t n = x->length < y->length ? x->length : y->length;
            int c = memcmp(x->bytes, y->bytes, n);
            if (c != 0) return c;
            return x->length < y->length ? -1 : (x->length > y->length ? 1 : 0);
        }
        case 2: return x->boolean - y->boolean;
        default: return x->pointer < y->pointer ? -1 : (x->pointer > y->pointer ? 1 : 0);
    }
}

static int pairs_next(lua_State *L) {
    // upvalues: 1 table, 2 sorted keys, 3 position
    lua_Integer i = lua_tointeger(L, lua_upvalueindex(3)) + 1;
    for (;;) {
        if (lua_rawgeti(L, lua_upvalueindex(2), i) == LUA_TNIL) return 1;  // nil ends the loop
        lua_pushvalue(L, -1);
        if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) break;
        lua_pop(L, 2);  // removed while iterating: skip it
        i++;
    }
    lua_pushinteger(L, i);
    lua_replace(L, lua_upvalueindex(3));
    return 2;
}

static int pmh_pairs(lua_State *L) {
    luaL_checkany(L, 1);
    if (luaL_getmetafield(L, 1, "__pairs") != LUA_TNIL) {
        lua_pushvalue(L, 1);
        lua_call(L, 1, 3);
        return 3;
    }
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    lua_Integer n = 0;
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        n++;
    }
    lua_createtable(L, (int)(n < 1 << 24 ? n : 0), 0);  // 2: keys in visit order
    sort_key *keys = (sort_key *)lua_newuserdatauv(L, sizeof(sort_key) * (size_t)(n > 0 ? n : 1), 0);  // 3
    lua_Integer k = 0;
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        k++;
        lua_pushvalue(L, -1);
        lua_rawseti(L, 2, k);  // keeps the key alive, so its bytes stay valid
        sort_key *s = &keys[k - 1];
        int t = lua_type(L, -1);
        s->rank = key_rank(t);
        s->position = k;
        s->number = t == LUA_TNUMBER ? lua_tonumber(L, -1) : 0;
        s->bytes = t == LUA_TSTRING ? lua_tolstring(L, -1, &s->length) : NULL;
        if (t != LUA_TSTRING) s->length = 0;
        s->boolean = t == LUA_TBOOLEAN ? lua_toboolean(L, -1) : 0;
        s->pointer = lua_topointer(L, -1);
    }
    qsort(keys, (size_t)n, sizeof(sort_key), compare_keys);
    lua_createtable(L, (int)(n < 1 << 24 ? n : 0), 0);  // 4: sorted keys
    for (lua_Integer i = 0; i < n; i++) {
        lua_rawgeti(L, 2, keys[i].position);
        lua_rawseti(L, 4, i + 1);
    }
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 4);
    lua_pushinteger(L, 0);
    lua_pushcclosure(L, pairs_next, 3);
    lua_pushnil(L);
    lua_pushnil(L);
    return 3;
}

// MARK: value helpers

static void push_mark(lua_State *L, void *key) { lua_rawgetp(L, LUA_REGISTRYINDEX, key); }

static int set_mark(lua_State *L, void *key, const char *name) {
    luaL_checktype(L, 1, LUA_TTABLE);
    if (lua_getmetatable(L, 1)) {
        push_mark(L, key);
        if (lua_rawequal(L, -1, -2)) {
            lua_settop(L, 1);
            return 1;
        }
        return luaL_error(L, "%s: the table already has a metatable", name);
    }
    push_mark(L, key);
    lua_setmetatable(L, 1);
    lua_settop(L, 1);
    return 1;
}

static int has_mark(lua_State *L, int index, void *key) {
    if (lua_type(L, index) != LUA_TTABLE || !lua_getmetatable(L, index)) return 0;
    push_mark(L, key);
    int same = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
    return same;
}

static int lib_array(lua_State *L) { return set_mark(L, &pmh_array_key, "array"); }
static int lib_object(lua_State *L) { return set_mark(L, &pmh_object_key, "object"); }
static int lib_isarray(lua_State *L) { lua_pushboolean(L, has_mark(L, 1, &pmh_array_key)); return 1; }
static int lib_isobject(lua_State *L) { lua_pushboolean(L, has_mark(L, 1, &pmh_object_key)); return 1; }

static int lib_json(lua_State *L) {
    pmh_host *h = host_of(L);
    luaL_checkany(L, 1);
    lua_settop(L, 1);
    const char *out = NULL;
    size_t length = 0;
    // C first, with no trip through Swift: most values need neither the reader nor the writer.
    // Anything it is not sure of (and every error, whose message the reader words) goes on to
    // the Swift encoder.
    if (h->json_encoder != NULL &&
        pmh_json_encode(h->json_encoder, h, 1, h->limits.max_depth) == PMH_JSON_OK &&
        (out = pmh_json_encoder_bytes(h->json_encoder, &length)) != NULL) {
        lua_pushlstring(L, out, length);
        return 1;
    }
    if (h->encode == NULL) return luaL_error(L, "json: no encoder installed");
    out = NULL;
    length = 0;
    int status = h->encode(h->encode_context, L, &out, &length);
    lua_settop(L, 1);
    if (status != 0) {
        lua_pushlstring(L, out != NULL ? out : "cannot encode the value", out != NULL ? length : 23);
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
        return lua_error(L);
    }
    lua_pushlstring(L, out, length);
    return 1;
}

// MARK: set-up

static void replace_with_closure(lua_State *L, int table, const char *name, lua_CFunction f) {
    lua_getfield(L, table, name);
    lua_pushcclosure(L, f, 1);
    lua_setfield(L, table, name);
}

static int pmh_setup(lua_State *L) {
    pmh_host *h = host_of(L);
    static const luaL_Reg libs[] = {
        {LUA_GNAME, luaopen_base},       {LUA_STRLIBNAME, luaopen_string}, {LUA_TABLIBNAME, luaopen_table},
        {LUA_MATHLIBNAME, luaopen_math}, {LUA_UTF8LIBNAME, luaopen_utf8},  {NULL, NULL},
    };
    for (const luaL_Reg *lib = libs; lib->func != NULL; lib++) {
        luaL_requiref(L, lib->name, lib->func, 1);
        lua_pop(L, 1);
    }
    lua_pushglobaltable(L);
    int g = lua_gettop(L);
    lua_pushnil(L);
    lua_setfield(L, g, "dofile");
    lua_pushnil(L);
    lua_setfield(L, g, "loadfile");
    lua_pushcfunction(L, pmh_collectgarbage);
    lua_setfield(L, g, "collectgarbage");
    lua_pushcfunction(L, pmh_print);
    lua_setfield(L, g, "print");
    lua_pushcfunction(L, pmh_warn);
    lua_setfield(L, g, "warn");
    lua_pushcfunction(L, pmh_pairs);
    lua_setfield(L, g, "pairs");
    replace_with_closure(L, g, "load", pmh_load_text);
    replace_with_closure(L, g, "setmetatable", pmh_setmetatable);
    replace_with_closure(L, g, "rawset", pmh_rawset);

    // The real string table: scripts also reach it through ("x"):rep, so patch it in place.
    lua_getfield(L, g, LUA_STRLIBNAME);
    int s = lua_gettop(L);
    lua_pushnil(L);
    lua_setfield(L, s, "dump");
    replace_with_closure(L, s, "rep", pmh_rep);
    replace_with_closure(L, s, "find", pmh_find);
    replace_with_closure(L, s, "match", pmh_match);
    replace_with_closure(L, s, "gmatch", pmh_gmatch);
    replace_with_closure(L, s, "gsub", pmh_gsub);
    lua_pop(L, 1);
    // Lock the string metatable: getmetatable("") must not hand out the real library.
    lua_pushliteral(L, "");
    lua_getmetatable(L, -1);
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 2);

    lua_getfield(L, g, LUA_TABLIBNAME);
    replace_with_closure(L, lua_gettop(L), "move", pmh_move);
    lua_pop(L, 1);

    // math.random: fixed seed, reseeded before each call; scripts cannot reseed from the clock.
    lua_getfield(L, g, LUA_MATHLIBNAME);
    lua_getfield(L, -1, "randomseed");
    if (lua_getupvalue(L, -1, 1) != NULL) {
        if (lua_type(L, -1) == LUA_TUSERDATA && lua_rawlen(L, -1) <= sizeof h->seeded_state) {
            h->random_state = lua_touserdata(L, -1);  // alive while randomseed is, in the registry
            h->random_state_size = lua_rawlen(L, -1);
        }
        lua_pop(L, 1);
    }
    h->randomseed_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_pushnil(L);
    lua_setfield(L, -2, "randomseed");
    lua_pop(L, 1);

    // The string cache: one slot per PMH_CACHE_SLOTS, filled as keys and values come.
    lua_createtable(L, PMH_CACHE_SLOTS, 0);
    for (int i = 1; i <= PMH_CACHE_SLOTS; i++) {
        lua_pushboolean(L, 0);
        lua_rawseti(L, -2, i);
    }
    h->string_cache_ref = luaL_ref(L, LUA_REGISTRYINDEX);

    // Marks for empty arrays and objects; their metatables cannot be read or replaced by scripts.
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "array");
    lua_setfield(L, -2, "__metatable");
    lua_rawsetp(L, LUA_REGISTRYINDEX, &pmh_array_key);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "object");
    lua_setfield(L, -2, "__metatable");
    lua_rawsetp(L, LUA_REGISTRYINDEX, &pmh_object_key);

    static const luaL_Reg helpers[] = {
        {"array", lib_array},     {"object", lib_object}, {"isarray", lib_isarray},
        {"isobject", lib_isobject}, {"json", lib_json},     {NULL, NULL},
    };
    luaL_newlib(L, helpers);
    lua_pushlightuserdata(L, &pmh_null_token);
    lua_setfield(L, -2, "null");
    lua_setfield(L, g, h->library);
    lua_pop(L, 1);
    return 0;
}

pmh_host *pmh_open(const pmh_limits *limits, const char *library, pmh_log_fn log, void *log_context,
                   char *error, size_t error_length) {
    pmh_host *h = (pmh_host *)calloc(1, sizeof(pmh_host));
    if (h == NULL) {
        snprintf(error, error_length, "out of memory");
        return NULL;
    }
    h->limits = *limits;
    h->log = log;
    h->log_context = log_context;
    h->randomseed_ref = LUA_NOREF;
    h->string_cache_ref = LUA_NOREF;
    snprintf(h->library, sizeof h->library, "%s", library);
    h->cap_lifted = 1;  // the set-up is the host's own and must not stop halfway on the cap
    lua_State *L = lua_newstate(pmh_alloc, h);
    if (L == NULL) {
        snprintf(error, error_length, "cannot create a Lua state");
        free_kept_blocks(h);
        free(h);
        return NULL;
    }
    h->L = L;
    *(pmh_host **)lua_getextraspace(L) = h;
    // lua_newstate installs neither of these, unlike luaL_newstate.
    lua_atpanic(L, pmh_panic);
    lua_setwarnf(L, pmh_warnf, h);
    // A mapping call makes a few hundred short-lived objects over long-lived scripts: the
    // generational collector leaves the old ones alone instead of re-marking them every cycle.
    lua_gc(L, LUA_GCGEN, 0, 0);
    lua_pushcfunction(L, pmh_setup);
    if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
        snprintf(error, error_length, "cannot set up the Lua state: %s",
                 lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "unknown error");
        lua_close(L);
        free_kept_blocks(h);
        free(h);
        return NULL;
    }
    h->cap_lifted = 0;
    return h;
}

void pmh_close(pmh_host *host) {
    if (host == NULL) return;
    host->cap_lifted = 1;
    lua_sethook(host->L, NULL, 0, 0);
    lua_close(host->L);  // no finalizers can exist: __gc is refused
    free_kept_blocks(host);
    free(host->members);
    free(host);
}

lua_State *pmh_state(pmh_host *host) { return host->L; }

// MARK: sealing

static int readonly_newindex(lua_State *L) {
    if (lua_type(L, 2) == LUA_TSTRING)
        return luaL_error(L, "cannot assign '%s': global names and library tables are read-only here (use local)",
                          lua_tostring(L, 2));
    return luaL_error(L, "cannot assign: global names and library tables are read-only here (use local)");
}

static int proxy_pairs(lua_State *L) {
    lua_getmetatable(L, 1);
    lua_getfield(L, -1, "__index");
    lua_replace(L, 1);
    lua_settop(L, 1);
    return pmh_pairs(L);
}

// Replaces the table at `index` by an empty proxy reading through to it; leaves the proxy on top.
static void push_proxy(lua_State *L, int index) {
    index = lua_absindex(L, index);
    lua_createtable(L, 0, 0);
    lua_createtable(L, 0, 5);
    lua_pushvalue(L, index);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, readonly_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushcfunction(L, proxy_pairs);
    lua_setfield(L, -2, "__pairs");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pushboolean(L, 1);
    lua_rawsetp(L, -2, &pmh_sealed_key);
    lua_setmetatable(L, -2);
}

static int seal_fn(lua_State *L) {
    lua_pushglobaltable(L);
    int g = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, g)) {
        if (lua_type(L, -1) == LUA_TTABLE && !lua_rawequal(L, -1, g)) {
            push_proxy(L, -1);
            lua_pushvalue(L, -3);  // key
            lua_insert(L, -2);
            lua_rawset(L, g);  // assigning an existing field keeps lua_next valid
        }
        lua_pop(L, 1);
    }
    push_proxy(L, g);
    lua_pushvalue(L, -1);
    lua_setfield(L, g, "_G");
    lua_rawseti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    return 0;
}

int pmh_seal(pmh_host *host) {
    lua_State *L = host->L;
    host->cap_lifted = 1;
    lua_pushcfunction(L, seal_fn);
    int status = lua_pcall(L, 0, 0, 0);
    host->cap_lifted = 0;
    if (status != LUA_OK) {
        lua_pop(L, 1);
        return PMH_ERR_MEMORY;
    }
    return PMH_OK;
}

// MARK: loading, pushing, calling

int pmh_load(pmh_host *host, const char *source, size_t length, const char *chunk_name) {
    host->memory_refused = 0;
    int status = luaL_loadbufferx(host->L, source, length, chunk_name, "t");
    if (status == LUA_OK) return PMH_OK;
    if (status == LUA_ERRMEM || host->memory_refused) return PMH_ERR_MEMORY;
    return PMH_ERR_SYNTAX;
}

typedef struct tape_reader {
    const uint8_t *p;
    const uint8_t *end;
    int count;
    int max_depth;
    pmh_host *host;
    int strings;  // stack index of the string cache table, or 0
} tape_reader;

static uint32_t read_u32(lua_State *L, tape_reader *r) {
    if (r->end - r->p < 4) luaL_error(L, "corrupt value tape");
    uint32_t v;
    memcpy(&v, r->p, 4);
    r->p += 4;
    return v;
}

// Pushes `n` bytes as a string through the string cache. Intents use the same few dozen field
// names call after call, and many of the same values ("WEBURL", a channel, a colour): a string
// found in the cache is pushed from there, where lua_pushlstring would hash its bytes and
// search Lua's string table. The slot (from `base`: keys and values apart) is picked from the
// length and the first and last eight bytes; the bytes are then compared in full.
static void push_cached(lua_State *L, tape_reader *r, const char *bytes, uint32_t n, size_t base) {
    if (r->strings == 0 || n > PMH_CACHED_MAX) {
        lua_pushlstring(L, bytes, n);
        return;
    }
    // The first and last eight bytes (fewer, zero-filled, for a shorter string), read inline.
    uint64_t first = 0, last = 0;
    if (n >= 8) {
        memcpy(&first, bytes, 8);
        memcpy(&last, bytes + n - 8, 8);
    } else {
        for (uint32_t i = 0; i < n; i++) first |= (uint64_t)(unsigned char)bytes[i] << (8 * i);
    }
    uint64_t mixed = (first ^ (last * 0x9E3779B97F4A7C15u) ^ n) * 0xFF51AFD7ED558CCDu;
    size_t slot = base + (size_t)(mixed >> 56) % PMH_CACHE_HALF;
    pmh_cached_string *kept = &r->host->cached[slot];
    if (kept->bytes != NULL && kept->length == n && kept->first == first && kept->last == last &&
        (n <= 16 || memcmp(kept->bytes + 8, bytes + 8, n - 16) == 0)) {
        lua_rawgeti(L, r->strings, (lua_Integer)slot + 1);
        return;
    }
    lua_pushlstring(L, bytes, n);
    lua_pushvalue(L, -1);
    lua_rawseti(L, r->strings, (lua_Integer)slot + 1);  // the array part exists: no allocation
    kept->bytes = lua_tostring(L, -1);
    kept->length = n;
    kept->first = first;
    kept->last = last;
}

// Pushes an object key from the tape.
static void push_key(lua_State *L, tape_reader *r) {
    if (r->p >= r->end || *r->p != PMH_TAPE_STRING) luaL_error(L, "corrupt value tape");
    r->p++;
    uint32_t n = read_u32(L, r);
    if ((size_t)(r->end - r->p) < n) luaL_error(L, "corrupt value tape");
    const char *bytes = (const char *)r->p;
    r->p += n;
    push_cached(L, r, bytes, n, 0);
}

static void push_tape_value(lua_State *L, tape_reader *r, int depth) {
    if (r->p >= r->end) luaL_error(L, "corrupt value tape");
    uint8_t op = *r->p++;
    // Containers are the levels (as for the reader); the Swift side has checked this already.
    // Only a container takes stack slots beyond its own (a key and a value): push_tape_fn made
    // room for every top-level value.
    if (op == PMH_TAPE_ARRAY || op == PMH_TAPE_OBJECT) {
        if (depth > r->max_depth) luaL_error(L, "value nested deeper than %d levels", r->max_depth);
        luaL_checkstack(L, 4, "value nested too deeply");
    }
    switch (op) {
        case PMH_TAPE_NULL: lua_pushlightuserdata(L, &pmh_null_token); return;
        case PMH_TAPE_TRUE: lua_pushboolean(L, 1); return;
        case PMH_TAPE_FALSE: lua_pushboolean(L, 0); return;
        case PMH_TAPE_INTEGER: {
            int64_t v;
            if (r->end - r->p < 8) luaL_error(L, "corrupt value tape");
            memcpy(&v, r->p, 8);
            r->p += 8;
            lua_pushinteger(L, (lua_Integer)v);
            return;
        }
        case PMH_TAPE_DOUBLE: {
            double v;
            if (r->end - r->p < 8) luaL_error(L, "corrupt value tape");
            memcpy(&v, r->p, 8);
            r->p += 8;
            lua_pushnumber(L, (lua_Number)v);
            return;
        }
        case PMH_TAPE_STRING: {
            uint32_t n = read_u32(L, r);
            if ((size_t)(r->end - r->p) < n) luaL_error(L, "corrupt value tape");
            push_cached(L, r, (const char *)r->p, n, PMH_CACHE_HALF);
            r->p += n;
            return;
        }
        case PMH_TAPE_ARRAY: {
            uint32_t n = read_u32(L, r);
            lua_createtable(L, n < (1u << 24) ? (int)n : 0, 0);
            for (uint32_t i = 1; i <= n; i++) {
                push_tape_value(L, r, depth + 1);
                lua_rawseti(L, -2, (lua_Integer)i);
            }
            if (n == 0) {
                push_mark(L, &pmh_array_key);
                lua_setmetatable(L, -2);
            }
            return;
        }
        case PMH_TAPE_OBJECT: {
            uint32_t n = read_u32(L, r);
            lua_createtable(L, 0, n < (1u << 24) ? (int)n : 0);
            for (uint32_t i = 0; i < n; i++) {
                push_key(L, r);
                push_tape_value(L, r, depth + 1);
                lua_rawset(L, -3);
            }
            if (n == 0) {
                push_mark(L, &pmh_object_key);
                lua_setmetatable(L, -2);
            }
            return;
        }
        default: luaL_error(L, "corrupt value tape");
    }
}

static int push_tape_fn(lua_State *L) {
    tape_reader *r = (tape_reader *)lua_touserdata(L, 1);
    lua_pop(L, 1);
    luaL_checkstack(L, r->count + 5, "too many values");
    if (r->host->string_cache_ref != LUA_NOREF) {
        if (lua_rawgeti(L, LUA_REGISTRYINDEX, r->host->string_cache_ref) == LUA_TTABLE) {
            r->strings = lua_gettop(L);  // below the values: the function returns only those
        } else {
            lua_pop(L, 1);
        }
    }
    for (int i = 0; i < r->count; i++) push_tape_value(L, r, 1);
    if (r->p != r->end) luaL_error(L, "corrupt value tape");
    return r->count;
}

int pmh_push_tape(pmh_host *host, const uint8_t *tape, size_t length, int count) {
    lua_State *L = host->L;
    tape_reader r = {tape, tape + length, count, host->limits.max_depth > 0 ? host->limits.max_depth : 1000, host, 0};
    host->memory_refused = 0;
    int top = lua_gettop(L);
    lua_pushcfunction(L, push_tape_fn);
    lua_pushlightuserdata(L, &r);
    int status = lua_pcall(L, 1, LUA_MULTRET, 0);
    if (status == LUA_OK) return PMH_OK;
    (void)top;
    if (status == LUA_ERRMEM || host->memory_refused) return PMH_ERR_MEMORY;
    return PMH_ERR_RUNTIME;
}

// `metered` 0 runs trusted code without the instruction budget: Lua 5.4 calls the count hook's
// bookkeeping on every instruction once a count hook is set, whatever its interval.
int pmh_call(pmh_host *host, int nargs, int nresults, int metered) {
    lua_State *L = host->L;
    int base = lua_gettop(L) - nargs;  // the function's index
    // Reseed before every call: output must not depend on what earlier calls drew. A generator
    // still as the last reseed left it needs none (the protected call costs more than the check).
    if (!host->seeded || host->random_state == NULL ||
        memcmp(host->random_state, host->seeded_state, host->random_state_size) != 0) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, host->randomseed_ref);
        lua_pushinteger(L, PMH_RANDOM_SEED);
        if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
            lua_pop(L, 1);
            host->seeded = 0;
        } else if (host->random_state != NULL) {
            memcpy(host->seeded_state, host->random_state, host->random_state_size);
            host->seeded = 1;
        }
    }

    lua_pushcfunction(L, pmh_msgh);
    lua_insert(L, base);
    host->memory_refused = 0;
    host->instructions_exceeded = 0;
    host->cap_lifted = 0;
    if (metered && host->limits.instructions > 0) {
        host->budget_left = host->limits.instructions;
        host->hook_interval = host->limits.instructions < 1000 ? (int)host->limits.instructions : 1000;
        lua_sethook(L, pmh_hook, LUA_MASKCOUNT, host->hook_interval);
    }
    int status = lua_pcall(L, nargs, nresults, base);
    lua_sethook(L, NULL, 0, 0);
    host->cap_lifted = 0;
    lua_remove(L, base);

    int code = PMH_OK;
    if (host->instructions_exceeded) {
        code = PMH_ERR_INSTRUCTIONS;  // the host's flag wins over whatever came back
    } else if (status == LUA_ERRMEM || (status != LUA_OK && host->memory_refused)) {
        code = PMH_ERR_MEMORY;
    } else if (status == LUA_ERRERR) {
        code = PMH_ERR_HANDLER;
    } else if (status != LUA_OK) {
        code = PMH_ERR_RUNTIME;
    }
    if (code != PMH_OK && status == LUA_OK) {
        lua_settop(L, base - 1);
        lua_pushnil(L);  // no allocation: the caller builds the message from the code
    }
    // Keep a reused state lean: garbage left by one call must not starve the next.
    if (host->limits.memory_bytes > 0 && host->used > host->limits.memory_bytes / 2) pmh_collect(host);
    return code;
}

static int ref_fn(lua_State *L) {
    int r = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_pushinteger(L, r);
    return 1;
}

int pmh_ref(pmh_host *host) {
    lua_State *L = host->L;
    lua_pushcfunction(L, ref_fn);
    lua_insert(L, -2);
    if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
        lua_pop(L, 1);
        return LUA_NOREF;
    }
    int r = (int)lua_tointegerx(L, -1, NULL);
    lua_pop(L, 1);
    return r;
}

void pmh_unref(pmh_host *host, int ref) { luaL_unref(host->L, LUA_REGISTRYINDEX, ref); }

void pmh_rawgetfield(pmh_host *host, int index, const char *key) {
    lua_State *L = host->L;
    index = lua_absindex(L, index);
    if (lua_type(L, index) != LUA_TTABLE) {
        lua_pushnil(L);
        return;
    }
    host->cap_lifted = 1;  // interning the key allocates
    lua_pushstring(L, key);
    host->cap_lifted = 0;
    lua_rawget(L, index);
}

int pmh_is_null(pmh_host *host, int index) {
    return lua_type(host->L, index) == LUA_TLIGHTUSERDATA && lua_touserdata(host->L, index) == &pmh_null_token;
}

int pmh_collect_members(pmh_host *host, int index, size_t first) {
    lua_State *L = host->L;
    int top = lua_gettop(L);
    index = lua_absindex(L, index);
    size_t count = 0;
    lua_pushnil(L);
    while (lua_next(L, index)) {
        // A string key only: lua_tolstring would turn a number key into a string in place.
        if (lua_type(L, -2) != LUA_TSTRING || !lua_checkstack(L, 3)) {
            lua_settop(L, top);
            return -1;
        }
        if (first + count == host->member_capacity) {
            size_t capacity = host->member_capacity > 0 ? host->member_capacity * 2 : 64;
            pmh_member *grown = (pmh_member *)realloc(host->members, capacity * sizeof(pmh_member));
            if (grown == NULL) {
                lua_settop(L, top);
                return -1;
            }
            host->members = grown;
            host->member_capacity = capacity;
        }
        size_t length;
        const char *key = lua_tolstring(L, -2, &length);
        // The value stays below the key, which goes on to lua_next.
        lua_rotate(L, -2, 1);
        pmh_member item = {key, length, pmh_key_prefix(key, length), lua_gettop(L) - 1};
        // Insertion sort as the members come: objects have a few dozen keys.
        size_t j = first + count;
        while (j > first && pmh_member_before(&item, &host->members[j - 1])) {
            host->members[j] = host->members[j - 1];
            j--;
        }
        host->members[j] = item;
        count++;
    }
    return (int)count;
}

const pmh_member *pmh_members(pmh_host *host) { return host->members; }

int pmh_mark(pmh_host *host, int index) {
    if (has_mark(host->L, index, &pmh_array_key)) return 1;
    if (has_mark(host->L, index, &pmh_object_key)) return 2;
    return 0;
}

int pmh_function_line(pmh_host *host, int index) {
    lua_State *L = host->L;
    if (lua_type(L, index) != LUA_TFUNCTION) return -1;
    lua_Debug ar;
    lua_pushvalue(L, index);
    if (!lua_getinfo(L, ">S", &ar)) return -1;
    return ar.linedefined;
}

size_t pmh_memory_in_use(pmh_host *host) { return host->used; }
size_t pmh_memory_peak(pmh_host *host) { return host->peak; }

size_t pmh_memory_kept(pmh_host *host) {
    size_t bytes = 0;
    for (size_t c = 0; c < PMH_SMALL_CLASSES; c++) bytes += (size_t)host->free_counts[c] * ((c + 1) << 4);
    return bytes;
}

void pmh_collect(pmh_host *host) {
    host->cap_lifted = 1;
    lua_gc(host->L, LUA_GCCOLLECT);
    host->cap_lifted = 0;
}

void pmh_set_encoder(pmh_host *host, pmh_encode_fn encode, void *context) {
    host->encode = encode;
    host->encode_context = context;
}

void pmh_set_json_encoder(pmh_host *host, pmh_json_encoder *encoder) { host->json_encoder = encoder; }

void pmh_set_log(pmh_host *host, pmh_log_fn log, void *context) {
    host->log = log;
    host->log_context = context;
}
