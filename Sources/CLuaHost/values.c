// Values crossing the boundary: JSON values pushed from Swift's tape (through the string
// cache), the null sentinel and the array and object marks, and the scripts' value helpers. Why C: pushing allocates, and an allocation may raise
// (memory), so it runs in a protected call; the helpers are called by Lua and raise.
#include "host_internal.h"

#include <lualib.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

// Addresses used as unique registry keys and as the null sentinel.
static char pmh_null_token;
static char pmh_array_key;
static char pmh_object_key;

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
        // A metatable that cannot be read is a guard's: the intent's tables under strict access
        // (the twenty-sixth audit, F20: the message named a metatable the team never set).
        lua_pop(L, 2);
        if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL) {
            return luaL_error(L, "%s: the table is read-only (an intent's table, or pushmap's): copy its values into a new table", name);
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

// pushmap.date(epoch, format): the time `epoch` (integer seconds) as UTC text through strftime,
// limited to the conversions that read the same on every machine: numbers, the C locale's
// English names, and no local time zone. Default: ISO 8601, "2024-01-01T00:00:00Z".
static int lib_date(lua_State *L) {
    // Its own words for a wrong argument, which Lua's checks put as "bad argument #1 to 'date'",
    // and a number as the format is refused, not taken as its digits (the twenty-sixth audit, F22).
    int is_integer = 0;
    lua_Integer epoch = lua_tointegerx(L, 1, &is_integer);
    if (!is_integer || lua_type(L, 1) != LUA_TNUMBER) {
        const char *got = luaL_typename(L, 1);
        if (lua_type(L, 1) == LUA_TNUMBER) {
            // A float that is no integer: NaN, beyond 64 bits, or a true fraction.
            lua_Number n = lua_tonumber(L, 1);
            got = n != n ? "not a number (nan)" : (n >= 0x1p63 || n < -0x1p63) ? "a number beyond 64 bits" : "a fraction";
        }
        return luaL_error(L, "pushmap.date: the time must be whole epoch seconds, got %s", got);
    }
    if (!lua_isnoneornil(L, 2) && lua_type(L, 2) != LUA_TSTRING) {
        return luaL_error(L, "pushmap.date: the format must be a string such as \"%%Y-%%m-%%d\", got %s", luaL_typename(L, 2));
    }
    size_t length;
    const char *format = luaL_optlstring(L, 2, "%Y-%m-%dT%H:%M:%SZ", &length);
    if (length > 128) return luaL_error(L, "pushmap.date: the format is longer than 128 bytes");
    if (strlen(format) != length) return luaL_error(L, "pushmap.date: the format contains a NUL byte");
    for (size_t i = 0; i < length; i++) {
        if (format[i] != '%') continue;
        char c = i + 1 < length ? format[i + 1] : '\0';
        if (c == '\0') return luaL_error(L, "pushmap.date: the format ends in a lone '%%' (write %%%% for a percent sign)");
        if (strchr("YmdHMSyjaAbBpeIFTuwz%", c) == NULL) {
            return luaL_error(L, "pushmap.date: unsupported conversion '%%%c' (use %%Y %%m %%d %%H %%M %%S %%y %%j "
                                 "%%a %%A %%b %%B %%p %%e %%I %%F %%T %%u %%w %%z %%%%)", c);
        }
        i++;
    }
    // Years 0 to 9999: what every conversion writes in its usual width.
    if (epoch < -62167219200LL || epoch > 253402300799LL) {
        return luaL_error(L, "pushmap.date: the time %I is outside the years 0 to 9999", epoch);
    }
    time_t t = (time_t)epoch;
    struct tm tm;
    if (gmtime_r(&t, &tm) == NULL) return luaL_error(L, "pushmap.date: the time %I cannot be converted", epoch);
    // The year in four digits, as ISO 8601 writes it: glibc's %Y and %F write year 999 as "999"
    // (the forty-fourth audit, scripts F9). Each is put in the format as its digits.
    char year[8], padded[1024];
    snprintf(year, sizeof year, "%04d", tm.tm_year + 1900);
    size_t at = 0;
    for (size_t i = 0; i < length && at + 16 < sizeof padded; i++) {
        if (format[i] == '%' && (format[i + 1] == 'Y' || format[i + 1] == 'F')) {
            at += (size_t)snprintf(padded + at, sizeof padded - at, format[i + 1] == 'Y' ? "%s" : "%s-%%m-%%d", year);
            i++;
        } else if (format[i] == '%') {
            padded[at++] = format[i++];
            padded[at++] = format[i];
        } else {
            padded[at++] = format[i];
        }
    }
    padded[at] = '\0';
    char out[1024];
    size_t n = strftime(out, sizeof out, padded, &tm);
    lua_pushlstring(L, out, n);
    return 1;
}

static int lib_json(lua_State *L) {
    pmh_host *h = pmh_host_of(L);
    luaL_checkany(L, 1);
    lua_settop(L, 1);
    const char *out = NULL;
    size_t length = 0;
    // C first, with no trip through Swift: most values need neither the reader nor the writer.
    // Anything it is not sure of (and every error, whose message the reader words) goes on to
    // the Swift encoder.
    int encoded = h->json_encoder != NULL ? pmh_json_encode(h->json_encoder, h, 1, h->limits.max_depth) : PMH_JSON_FALLBACK;
    if (encoded == PMH_JSON_OK && (out = pmh_json_encoder_bytes(h->json_encoder, &length)) != NULL) {
        lua_pushlstring(L, out, length);
        return 1;
    }
    if (encoded == PMH_JSON_TOO_LARGE) {
        return luaL_error(L, "%s.json: the value takes more than %I bytes, the memory limit, as JSON: its text, or the list of its values, a few dozen bytes a value (a table used in many places is written in each)",
                          h->library, (LUA_INTEGER)h->limits.memory_bytes);
    }
    if (h->encode == NULL) return luaL_error(L, "%s.json: no encoder installed", h->library);
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

// MARK: strict intent access (host-only)

// Guards table `t` (stack index) described by `spec` (stack index, 0 for free-form): its metatable
// becomes guards[spec] for an object spec, `open` for a list or a free-form map, unless it has one
// (an empty table's mark); each entry goes into `kept` as table, key, value from index n + 1.
// Stack: 1 intent, 2 spec, 3 guards, 4 open, 5 kept. Returns the new n.
static lua_Integer guard_table(lua_State *L, int t, int spec, lua_Integer n, int depth) {
    if (depth > 200) return n;  // the intent's nesting was checked when it was read
    luaL_checkstack(L, 8, "intent nested too deeply");
    if (lua_getmetatable(L, t)) {
        lua_pop(L, 1);
        return n;
    }
    int list = 0;
    if (spec != 0) {
        list = lua_rawgeti(L, spec, 1) == LUA_TTABLE;
        lua_pop(L, 1);
    }
    if (spec != 0 && !list) {
        lua_pushvalue(L, spec);
        if (lua_rawget(L, 3) != LUA_TTABLE) {
            lua_pop(L, 1);
            lua_pushvalue(L, 4);
        }
    } else {
        lua_pushvalue(L, 4);
    }
    lua_setmetatable(L, t);
    lua_pushnil(L);
    while (lua_next(L, t)) {
        int key = lua_gettop(L) - 1, value = key + 1;
        lua_pushvalue(L, t);
        lua_rawseti(L, 5, ++n);
        lua_pushvalue(L, key);
        lua_rawseti(L, 5, ++n);
        lua_pushvalue(L, value);
        lua_rawseti(L, 5, ++n);
        if (lua_type(L, value) == LUA_TTABLE) {
            if (spec == 0) {
                lua_pushnil(L);
            } else if (list) {
                lua_rawgeti(L, spec, 1);
            } else {
                lua_pushvalue(L, key);
                lua_rawget(L, spec);
            }
            int inner = lua_type(L, -1) == LUA_TTABLE ? lua_gettop(L) : 0;
            n = guard_table(L, value, inner, n, depth + 1);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    return n;
}

// guard(intent, spec, guards, open, kept, n): guards the intent and every table in it; returns
// the count of `kept`'s items. In C: as Lua, under a team's instruction meter, the walk cost more
// than the team's own mapping.
static int host_guard(lua_State *L) {
    for (int i = 1; i <= 5; i++) luaL_checktype(L, i, LUA_TTABLE);
    lua_Integer n = luaL_checkinteger(L, 6);
    lua_settop(L, 6);
    lua_pushinteger(L, guard_table(L, 1, 2, n, 0));
    return 1;
}

// changed(kept, n, from): the index in `kept` of the first table, key, value whose table holds
// another value now (compared raw), from index `from`; nil when none.
static int host_changed(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer count = luaL_checkinteger(L, 2);
    for (lua_Integer i = luaL_checkinteger(L, 3); i + 2 <= count; i += 3) {
        lua_rawgeti(L, 1, i);
        if (lua_type(L, -1) != LUA_TTABLE) return luaL_error(L, "changed: kept[%I] is not a table", i);
        lua_rawgeti(L, 1, i + 1);
        lua_rawget(L, -2);
        lua_rawgeti(L, 1, i + 2);
        int same = lua_rawequal(L, -1, -2);
        lua_pop(L, 3);
        if (!same) {
            lua_pushinteger(L, i);
            return 1;
        }
    }
    lua_pushnil(L);
    return 1;
}

// seal(mt): the sandbox's rawset refuses the tables `mt` guards, as the intent's: a rawset went
// around __newindex, and a key it added went unseen (the twenty-sixth audit, F3).
static int host_seal(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    pmh_seal_metatable(L, 1, "the intent is read-only (it is the sender's): write to the payload, or copy the value into a local");
    return 0;
}

// rawset(t, key, value), unguarded: intent.lua's own writes to the guarded tables.
static int host_rawset(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    luaL_checkany(L, 3);
    lua_settop(L, 3);
    lua_rawset(L, 1);
    return 1;
}

void pmh_open_values(lua_State *L, pmh_host *h) {
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
        {"isobject", lib_isobject}, {"json", lib_json},     {"date", lib_date}, {NULL, NULL},
    };
    luaL_newlib(L, helpers);
    lua_pushlightuserdata(L, &pmh_null_token);
    lua_setfield(L, -2, "null");
    // For the prelude alone, which takes them out before any script loads: the three debug
    // functions its tracer needs to say which line wrote a payload key (never the library), and
    // the message handler's placing of an error, for its own protected call.
    luaL_requiref(L, LUA_DBLIBNAME, luaopen_debug, 0);
    lua_createtable(L, 0, 4);
    static const char *const traced[] = {"sethook", "getinfo", "getlocal", NULL};
    for (const char *const *name = traced; *name != NULL; name++) {
        lua_getfield(L, -2, *name);
        lua_setfield(L, -2, *name);
    }
    lua_pushcfunction(L, pmh_place);
    lua_setfield(L, -2, "place");
    lua_setfield(L, -3, "_hostdebug");
    lua_pop(L, 1);
    // For intent.lua alone, which takes them out before any script loads: strict access's walks.
    lua_createtable(L, 0, 4);
    lua_pushcfunction(L, host_guard);
    lua_setfield(L, -2, "guard");
    lua_pushcfunction(L, host_changed);
    lua_setfield(L, -2, "changed");
    lua_pushcfunction(L, host_seal);
    lua_setfield(L, -2, "seal");
    lua_pushcfunction(L, host_rawset);
    lua_setfield(L, -2, "rawset");
    lua_setfield(L, -2, "_hostintent");
    // For the prelude alone, which takes it out: read-only views of what scripts may read only.
    lua_pushcfunction(L, pmh_lib_readonly);
    lua_setfield(L, -2, "_hostreadonly");
    lua_setglobal(L, h->library);
}

// MARK: pushing from the tape

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
// length and the first and last eight bytes; the bytes are then compared in full. Forced
// inline into its two callers, once for every key and value of an intent (236,975 to 236,140
// instructions a batch line, four seeds).
__attribute__((always_inline)) static inline void push_cached(lua_State *L, tape_reader *r, const char *bytes, uint32_t n, size_t base) {
    if (r->strings == 0 || n > PMH_CACHED_MAX) {
        lua_pushlstring(L, bytes, n);
        return;
    }
    pmh_key_print print = pmh_key_print_of(bytes, n);
    uint64_t mixed = (print.first ^ (print.last * 0x9E3779B97F4A7C15u) ^ n) * 0xFF51AFD7ED558CCDu;
    size_t slot = base + (size_t)(mixed >> 56) % PMH_CACHE_HALF;
    pmh_cached_string *kept = &r->host->cached[slot];
    if (kept->bytes != NULL && kept->length == n && kept->first == print.first && kept->last == print.last &&
        (n <= 16 || memcmp(kept->bytes + 8, bytes + 8, n - 16) == 0)) {
        lua_rawgeti(L, r->strings, (lua_Integer)slot + 1);
        return;
    }
    lua_pushlstring(L, bytes, n);
    lua_pushvalue(L, -1);
    lua_rawseti(L, r->strings, (lua_Integer)slot + 1);  // the array part exists: no allocation
    kept->bytes = lua_tostring(L, -1);
    kept->length = n;
    kept->first = print.first;
    kept->last = print.last;
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
    lua_pushcfunction(L, push_tape_fn);
    lua_pushlightuserdata(L, &r);
    int status = lua_pcall(L, 1, LUA_MULTRET, 0);
    if (status == LUA_OK) return PMH_OK;
    if (status == LUA_ERRMEM || host->memory_refused) return PMH_ERR_MEMORY;
    return PMH_ERR_RUNTIME;
}

// MARK: reading

int pmh_is_null(pmh_host *host, int index) {
    return lua_type(host->L, index) == LUA_TLIGHTUSERDATA && lua_touserdata(host->L, index) == &pmh_null_token;
}

int pmh_mark(pmh_host *host, int index) {
    if (has_mark(host->L, index, &pmh_array_key)) return 1;
    if (has_mark(host->L, index, &pmh_object_key)) return 2;
    return 0;
}
