// The sandbox: the libraries a script gets, the replacements that cap or refuse what could
// escape the limits, pairs in a fixed order, and sealing of the globals. Why C: Lua calls these
// functions and they raise (luaL_error, luaL_check*), a longjmp no Swift frame may stand in.
#include "host_internal.h"

#include <lualib.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// A table.move over more elements than this runs in C where the count hook cannot stop it.
#define PMH_MAX_MOVE ((lua_Integer)1 << 22)

// Its address marks a sealed table's metatable (a unique registry-style key).
static char pmh_sealed_key;

// MARK: sandboxed replacements

static int pmh_print(lua_State *L) {
    pmh_host *h = pmh_host_of(L);
    int n = lua_gettop(L);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 1; i <= n; i++) {
        // The buffer may keep a box on the stack: each piece is added from the top with
        // luaL_addvalue, the one call that takes a value pushed since the last buffer call.
        // (Popping the piece after luaL_addlstring popped the box once the text outgrew the
        // buffer's own room, and the text was read after the collector freed it.)
        if (i > 1) luaL_addchar(&b, '\t');
        luaL_tolstring(L, i, NULL);
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    size_t l;
    const char *s = lua_tolstring(L, -1, &l);
    if (h->log != NULL) h->log(h->log_context, 0, s, l);
    return 0;
}

static int pmh_warn(lua_State *L) {
    pmh_host *h = pmh_host_of(L);
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
    // A chunk too deep to compile fails inside the host's protected call, whose handler added a
    // traceback of pushmap's frames to the message load returns: cut at it, one line as every
    // other error (the twenty-sixth audit, F17).
    if (lua_gettop(L) == 2 && lua_isnil(L, 1) && lua_type(L, 2) == LUA_TSTRING) {
        size_t length;
        const char *message = lua_tolstring(L, 2, &length);
        const char *traceback = strstr(message, "\nstack traceback:");
        if (traceback != NULL) {
            lua_pushlstring(L, message, (size_t)(traceback - message));
            lua_replace(L, 2);
        }
    }
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

void pmh_seal_metatable(lua_State *L, int index, const char *why) {
    index = lua_absindex(L, index);
    if (why != NULL) lua_pushstring(L, why); else lua_pushboolean(L, 1);
    lua_rawsetp(L, index, &pmh_sealed_key);
}

static int pmh_rawset(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    if (lua_getmetatable(L, 1)) {
        // A sealed table's reason, when its metatable gives one (the intent's guards).
        int kind = lua_rawgetp(L, -1, &pmh_sealed_key);
        if (kind == LUA_TSTRING) return luaL_error(L, "rawset: %s", lua_tostring(L, -1));
        if (kind != LUA_TNIL) return luaL_error(L, "rawset: this table is read-only");
        lua_pop(L, 2);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

// type(v), with the nine type names kept as upvalues. Lua's own pushes the name as a C string,
// which goes through the API's string cache keyed by the literal's address: mappings call type()
// about eleven times a batch line, and whether two hot literals share a cache slot depended on
// where the linker put them (measured: 800 instructions a line more after an unrelated change,
// nearly all in strcmp). Pushing an interned string costs the same whatever the layout.
static int pmh_type(lua_State *L) {
    int t = lua_type(L, 1);
    luaL_argcheck(L, t != LUA_TNONE, 1, "value expected");
    lua_pushvalue(L, lua_upvalueindex(t + 1));
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
    pmh_host *h = pmh_host_of(L);
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
    // Charged by what it builds, 64 bytes an instruction (about what copying them costs), so
    // that a loop of 1 MiB results ends in some 120 calls, where it ran 20 minutes on the count.
    pmh_charge(L, total / 64);
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
    pmh_host *h = pmh_host_of(L);
    size_t ls, lp;
    luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    if (h->limits.max_pattern_subject > 0 && ls > h->limits.max_pattern_subject)
        return luaL_error(L, "string.%s: a subject of %I bytes exceeds the limit of %I bytes", name,
                          (lua_Integer)ls, (lua_Integer)h->limits.max_pattern_subject);
    if (plain_arg > 0 && lua_toboolean(L, plain_arg)) {
        pmh_charge(L, (double)ls / 64);  // a plain search scans the subject once
        return 0;
    }
    int q = pattern_quantifiers(p, lp);
    // An anchored pattern is tried at the subject's start only, not at each of its bytes, so one
    // factor of the length less (not for gmatch, which reads '^' as a character): the trim idiom
    // "^%s*(.-)%s*$" on a 153-byte body was refused (the twenty-sixth audit, F13).
    int anchored = lp > 0 && p[0] == '^' && strcmp(name, "gmatch") != 0;
    double cost = pow((double)ls + 1.0, (double)q + (anchored ? 0.0 : 1.0));
    if (h->limits.pattern_cost > 0 && cost > h->limits.pattern_cost) {
        // Lua's %f would print "10000000000.0"; the limit is a whole number.
        char limit[64];
        snprintf(limit, sizeof limit, "%.0f", h->limits.pattern_cost);
        return luaL_error(L,
                          "string.%s: a pattern with %d repetition items may take too long on a subject "
                          "of %I bytes (limit: (subject length + 1) ^ (items + 1, or items when anchored with ^) <= %s)",
                          name, q, (lua_Integer)ls, limit);
    }
    // Charged for a scan of the subject per repetition item, what a pattern that does not
    // backtrack costs: deterministic, as the count is, and small for what mappings do. What
    // backtracking adds (".-b" on 9,000 bytes: 0.36 s a call, under the cap) is the time
    // limit's to stop: a loop of such calls ran for hours on the count alone.
    pmh_charge(L, (double)ls / 16 * (q + 1));
    return 0;
}

// table.sort without a comparator compares in C (strcoll for strings), out of the count's
// sight: 20,000 references to 1 MiB strings took 8 seconds on 60,000 instructions. A metered
// call is charged n log n comparisons, each by the longest string's length in 64-byte steps.
static int pmh_sort(lua_State *L) {
    pmh_host *h = pmh_host_of(L);
    if (h->metered && lua_type(L, 1) == LUA_TTABLE && lua_isnoneornil(L, 2)) {
        lua_Integer n = (lua_Integer)lua_rawlen(L, 1);
        size_t longest = 0;
        for (lua_Integer i = 1; i <= n; i++) {
            if (lua_rawgeti(L, 1, i) == LUA_TSTRING && lua_rawlen(L, -1) > longest) longest = lua_rawlen(L, -1);
            lua_pop(L, 1);
        }
        pmh_charge(L, (double)n * log2((double)n + 2.0) * (1.0 + (double)longest / 64));
    }
    return call_original(L, 0);
}

static int pmh_find(lua_State *L) { guard_pattern(L, "find", 4); return call_original(L, LUA_MULTRET); }
static int pmh_match(lua_State *L) { guard_pattern(L, "match", 0); return call_original(L, LUA_MULTRET); }
static int pmh_gmatch(lua_State *L) { guard_pattern(L, "gmatch", 0); return call_original(L, LUA_MULTRET); }
static int pmh_gsub(lua_State *L) { guard_pattern(L, "gsub", 0); return call_original(L, LUA_MULTRET); }

// string.format, answering "%d" with one integer itself: Lua's own parses the format, fills a
// buffer and calls snprintf, about 1,200 instructions a call, and the built-in templates make
// three a translation of the basic seed (FCM's data values are strings). The same text.
//
// Any other call goes to Lua's own, whose errors must read as if the script had called it: Lua
// places an error raised in a function at its caller's line, and names a function called from C
// '?'. So an error raised in format's own frame (format_msgh says which) is raised again from
// this one, which the script called: an argument error through luaL_argerror, for the name the
// script used and a method call's numbering, any other with the script's place in front. Errors
// from deeper (a __tostring of the script's) already carry their place and go on as they are.
static int format_msgh(lua_State *L) {
    lua_Debug ar;
    pmh_host *h = pmh_host_of(L);
    // Level 0 is this handler; level 1 raised the error.
    h->format_raised = lua_getstack(L, 1, &ar) && lua_getinfo(L, "f", &ar) && lua_rawequal(L, -1, lua_upvalueindex(1));
    lua_settop(L, 1);
    return 1;
}

static int pmh_format(lua_State *L) {
    if (lua_type(L, 1) == LUA_TSTRING && lua_isinteger(L, 2)) {
        size_t lf;
        const char *f = lua_tolstring(L, 1, &lf);
        if (lf == 2 && f[0] == '%' && f[1] == 'd') {
            char digits[PMH_DECIMAL_ROOM];
            int i = pmh_decimal((int64_t)lua_tointegerx(L, 2, NULL), digits);
            lua_pushlstring(L, digits + i, (size_t)(PMH_DECIMAL_ROOM - i));
            return 1;
        }
    }
    pmh_host *h = pmh_host_of(L);
    int n = lua_gettop(L);
    luaL_checkstack(L, 2, NULL);
    lua_pushvalue(L, lua_upvalueindex(2));  // format_msgh, made once with the original
    lua_insert(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 2);
    h->format_raised = 0;
    int status = lua_pcall(L, n, 1, 1);
    if (status == LUA_OK) return 1;
    size_t length;
    const char *message = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &length) : NULL;
    if (status != LUA_ERRRUN || !h->format_raised || message == NULL) return lua_error(L);
    // lauxlib words an argument error "bad argument #N to 'NAME' (WHY)".
    static const char prefix[] = "bad argument #", unnamed[] = " to '?' (";
    if (length > sizeof prefix && memcmp(message, prefix, sizeof prefix - 1) == 0) {
        const char *p = message + sizeof prefix - 1, *end = message + length;
        int arg = 0;
        while (p < end && *p >= '0' && *p <= '9' && arg < 1000) arg = arg * 10 + (*p++ - '0');
        if (arg > 0 && (size_t)(end - p) > sizeof unnamed && memcmp(p, unnamed, sizeof unnamed - 1) == 0 && end[-1] == ')') {
            p += sizeof unnamed - 1;
            lua_pushlstring(L, p, (size_t)(end - p - 1));
            return luaL_argerror(L, arg, lua_tostring(L, -1));
        }
    }
    luaL_where(L, 1);
    lua_insert(L, -2);
    lua_concat(L, 2);
    return lua_error(L);
}

static int pmh_move(lua_State *L) {
    lua_Integer f = luaL_checkinteger(L, 2);
    lua_Integer e = luaL_checkinteger(L, 3);
    if (e >= f && (e - f >= PMH_MAX_MOVE || e - f < 0))
        return luaL_error(L, "table.move: moving more than %I elements is not allowed here", PMH_MAX_MOVE);
    return call_original(L, 1);
}

// table.create(nseq [, nrec]), as Lua 5.5 has it: an empty table with room for nseq list items
// and nrec other keys. A table that outgrows its room is rebuilt, every key placed again: the
// plain template's FCM data map and APNS payload, made with room for the keys the templates
// built on it add, took a batch line of the basic seed from 225,309 to 218,955 instructions.
// Room past the memory limit is refused here, as the limit, at the script's line: asked of the
// allocator, Lua raises it with no line (the thirty-second audit, F4: table.create(1e9)).
static int pmh_table_create(lua_State *L) {
    lua_Integer sequence = luaL_checkinteger(L, 1);
    lua_Integer rest = luaL_optinteger(L, 2, 0);
    luaL_argcheck(L, sequence >= 0 && sequence <= INT_MAX, 1, "out of range");
    luaL_argcheck(L, rest >= 0 && rest <= INT_MAX, 2, "out of range");
    pmh_host *h = pmh_host_of(L);
    // A list item is a 16-byte TValue; the other keys' 24-byte nodes come in a power of two.
    size_t nodes = 1;
    while (nodes < (size_t)rest) nodes <<= 1;
    size_t bytes = (size_t)sequence * 16 + (rest > 0 ? nodes * 24 : 0);
    if (h->limits.memory_bytes > 0 && !h->cap_lifted && bytes > h->limits.memory_bytes - (h->used < h->limits.memory_bytes ? h->used : h->limits.memory_bytes)) {
        h->memory_refused = 1;
        h->memory_raised = 1;
        return luaL_error(L, "memory limit of %I bytes exceeded", (lua_Integer)h->limits.memory_bytes);
    }
    lua_createtable(L, (int)sequence, (int)rest);
    return 1;
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

// MARK: sealing

static int readonly_newindex(lua_State *L) {
    if (lua_type(L, 2) == LUA_TSTRING)
        return luaL_error(L, "cannot assign '%s': global names and library tables are read-only here (use local)",
                          lua_tostring(L, 2));
    return luaL_error(L, "cannot assign: global names and library tables are read-only here (use local)");
}

static int proxy_len(lua_State *L) {
    lua_getmetatable(L, 1);
    lua_getfield(L, -1, "__index");
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, -1));
    return 1;
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
    lua_createtable(L, 0, 6);
    lua_pushvalue(L, index);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, readonly_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushcfunction(L, proxy_pairs);
    lua_setfield(L, -2, "__pairs");
    lua_pushcfunction(L, proxy_len);  // `#` of a list seen through the proxy
    lua_setfield(L, -2, "__len");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pushboolean(L, 1);
    lua_rawsetp(L, -2, &pmh_sealed_key);
    lua_setmetatable(L, -2);
}

int pmh_push_viewed(pmh_host *host, int index) {
    lua_State *L = host->L;
    if (lua_type(L, index) != LUA_TTABLE || !lua_getmetatable(L, index)) return 0;
    // A view's seal is `true`; the intent's guards give a reason, and are their own table.
    if (lua_rawgetp(L, -1, &pmh_sealed_key) != LUA_TBOOLEAN) {
        lua_pop(L, 2);
        return 0;
    }
    lua_pushliteral(L, "__index");
    if (lua_rawget(L, -3) != LUA_TTABLE) {
        lua_pop(L, 3);
        return 0;
    }
    lua_replace(L, -3);  // the table shown, where the metatable was
    lua_pop(L, 1);
    return 1;
}

int pmh_lib_readonly(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    push_proxy(L, 1);
    return 1;
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

// MARK: pcall

// Raises again a memory limit that `status` caught: Lua's own (LUA_ERRMEM) or the host's (the
// hook's collect that did not help, table.create past the cap). A script that caught it ran on
// at its cap, and its translation passed (the forty-fourth audit, scripts F2), where the
// instruction and time limits cannot be caught: their hook raises again at every instruction.
static void raise_memory_again(lua_State *L, int status) {
    pmh_host *h = pmh_host_of(L);
    if (status != LUA_ERRMEM && !h->memory_raised) return;
    h->memory_refused = 1;  // the call ends with the memory limit's code, whatever the object
    lua_error(L);           // the error object is on top
}

// Lua's pcall and xpcall, each a protected call, with a memory limit raised again. Without
// continuations: the sandbox has no coroutines, so nothing yields across them.
static int pmh_pcall(lua_State *L) {
    luaL_checkany(L, 1);
    lua_pushboolean(L, 1);  // the first result, when no error
    lua_insert(L, 1);
    int status = lua_pcall(L, lua_gettop(L) - 2, LUA_MULTRET, 0);
    if (status == LUA_OK) return lua_gettop(L);
    raise_memory_again(L, status);
    lua_pushboolean(L, 0);
    lua_pushvalue(L, -2);
    return 2;
}

static int pmh_xpcall(lua_State *L) {
    int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushboolean(L, 1);  // the first result, when no error
    lua_pushvalue(L, 1);    // the function
    lua_rotate(L, 3, 2);    // both under the arguments: f, handler, true, f, args...
    int status = lua_pcall(L, n - 2, LUA_MULTRET, 2);
    if (status == LUA_OK) return lua_gettop(L) - 2;
    raise_memory_again(L, status);
    lua_pushboolean(L, 0);
    lua_pushvalue(L, -2);
    return 2;
}

// MARK: set-up

static void replace_with_closure(lua_State *L, int table, const char *name, lua_CFunction f) {
    lua_getfield(L, table, name);
    lua_pushcclosure(L, f, 1);
    lua_setfield(L, table, name);
}

void pmh_open_sandbox(lua_State *L, pmh_host *h) {
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
    lua_pushcfunction(L, pmh_pcall);
    lua_setfield(L, g, "pcall");
    lua_pushcfunction(L, pmh_xpcall);
    lua_setfield(L, g, "xpcall");
    for (int t = 0; t < LUA_NUMTYPES; t++) lua_pushstring(L, lua_typename(L, t));
    lua_pushcclosure(L, pmh_type, LUA_NUMTYPES);
    lua_setfield(L, g, "type");
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
    // format's wrapper holds Lua's format and the message handler its slow path runs under.
    lua_getfield(L, s, "format");
    lua_pushvalue(L, -1);
    lua_pushcclosure(L, format_msgh, 1);
    lua_pushcclosure(L, pmh_format, 2);
    lua_setfield(L, s, "format");
    lua_pop(L, 1);
    // Lock the string metatable: getmetatable("") must not hand out the real library.
    lua_pushliteral(L, "");
    lua_getmetatable(L, -1);
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 2);

    lua_getfield(L, g, LUA_TABLIBNAME);
    replace_with_closure(L, lua_gettop(L), "move", pmh_move);
    replace_with_closure(L, lua_gettop(L), "sort", pmh_sort);
    lua_pushcfunction(L, pmh_table_create);
    lua_setfield(L, -2, "create");
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
    lua_pop(L, 2);  // math and the global table
}
