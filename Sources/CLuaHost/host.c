// The host's entry points: opening and closing a state, loading, calling under the limits,
// references. Why C: the count hook and the message handler run inside Lua and raise or take
// tracebacks, and every entry point that may raise wraps it in a protected call here, so no
// longjmp ever crosses a Swift frame. Swift calls only these and Lua functions that never raise.
#include "host_internal.h"

#include <time.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Fixed seed: the same script on the same input gives the same output on every machine.
#define PMH_RANDOM_SEED 0x70757368

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

static int64_t monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

static void pmh_hook(lua_State *L, lua_Debug *ar);

// Raises the error of the limit that was spent. From then on every instruction raises again,
// so pcall cannot swallow the limit.
// `level`: where the script's line is, 0 in the hook (the function it interrupted), 1 in a C
// function that charged (its caller). The stack traceback follows the message: met in pushmap's
// own Lua or a built-in template, the team's line that called into it is found there.
static void raise_limit(lua_State *L, pmh_host *h, int level) {
    lua_sethook(L, pmh_hook, LUA_MASKCOUNT, 1);
    luaL_where(L, level);
    if (h->time_exceeded) {
        lua_pushfstring(L, "time limit of %I ms exceeded", (lua_Integer)h->limits.time_ms);
    } else {
        lua_pushfstring(L, "instruction limit of %I exceeded", (lua_Integer)h->limits.instructions);
    }
    lua_concat(L, 2);
    h->cap_lifted = 1;  // a limit met near the memory cap still says where
    luaL_traceback(L, L, lua_tostring(L, -1), level);
    h->cap_lifted = 0;
    lua_error(L);
}

// The clock is read every fourth hook call (4,000 instructions), about 1% of a metered call.
static int past_deadline(pmh_host *h) {
    if (h->deadline == 0 || monotonic_ns() <= h->deadline) return 0;
    h->time_exceeded = 1;
    return 1;
}

// Setting a hook only sets fields of the state, and marks its running Lua frames: safe from
// inside the allocator (never while the stack moves, which the marking does not read).
void pmh_arm_memory_check(pmh_host *h) {
    h->memory_near = 1;
    lua_sethook(h->L, pmh_hook, LUA_MASKCOUNT, 1);
}

// Calls on the stack past which a memory limit is said to be the stack's.
#define PMH_DEEP_STACK 10000

// Memory near the cap (pmh_arm_memory_check): garbage collected, then still near it, the limit
// is raised as the instruction limit is, at the script's line. The count runs on from here.
static void check_memory(lua_State *L, pmh_host *h) {
    h->memory_near = 0;
    lua_sethook(L, pmh_hook, LUA_MASKCOUNT, h->hook_interval);
    h->cap_lifted = 1;
    lua_gc(L, LUA_GCCOLLECT);
    h->cap_lifted = 0;
    if (h->used <= h->limits.memory_bytes - h->limits.memory_bytes / 16) return;
    h->memory_refused = 1;
    h->memory_raised = 1;
    luaL_where(L, 0);
    lua_pushfstring(L, "memory limit of %I bytes exceeded", (lua_Integer)h->limits.memory_bytes);
    // Lua's own stack overflow comes at 200,000 calls, far past the memory they take: a deep
    // stack is the likely cause, and worth saying.
    lua_Debug deep;
    if (lua_getstack(L, PMH_DEEP_STACK, &deep)) {
        lua_pushfstring(L, " with over %d calls on the stack: does a function call itself without end?", PMH_DEEP_STACK);
        lua_concat(L, 2);
    }
    lua_concat(L, 2);
    h->cap_lifted = 1;
    luaL_traceback(L, L, lua_tostring(L, -1), 0);
    h->cap_lifted = 0;
    lua_error(L);
}

static void pmh_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    pmh_host *h = pmh_host_of(L);
    if (h->memory_near && !h->instructions_exceeded && !h->time_exceeded) {
        check_memory(L, h);
        return;
    }
    if (!h->instructions_exceeded && !h->time_exceeded) {
        h->budget_left -= h->hook_interval;
        if (h->budget_left > 0) {
            if ((++h->ticks & 3) != 0 || !past_deadline(h)) return;
        } else {
            h->instructions_exceeded = 1;
        }
    }
    raise_limit(L, h, 0);
}

void pmh_charge(lua_State *L, double cost) {
    pmh_host *h = pmh_host_of(L);
    if (!h->metered) return;
    if (!h->instructions_exceeded && !h->time_exceeded) {
        h->budget_left -= cost < (double)INT64_MAX / 2 ? (int64_t)cost : INT64_MAX / 2;
        if (h->budget_left > 0 && !past_deadline(h)) return;
        if (!h->time_exceeded) h->instructions_exceeded = 1;
    }
    raise_limit(L, h, 1);
}

// MARK: message handler

// The host's own chunks are named "=pushmap/NAME.lua", a script's file "@PATH" (LuaState.load).
static int own_chunk(const char *source) { return strncmp(source, "=pushmap/", 9) == 0; }

// The first Lua frame from `level` up (C functions, `error` among them, have no line), filled in
// with "Sl"; its level, or 0 when there is none.
static int lua_frame(lua_State *L, int level, lua_Debug *ar) {
    for (; lua_getstack(L, level, ar); level++) {
        if (!lua_getinfo(L, "Sl", ar)) return 0;
        if (ar->currentline > 0) return level;
    }
    return 0;
}

// The first frame of a script's from `level` up, as lua_frame.
static int script_frame(lua_State *L, int level, lua_Debug *ar) {
    while ((level = lua_frame(L, level, ar)) != 0 && ar->source[0] != '@') level++;
    return level;
}

// An error raised in the host's own Lua (an API function given what it cannot take), or in a
// chunk the script made with `load`, is put on the script line that called it, the other place
// after: `c/promo.lua:7: attempt to index a nil value (local 'into') (in customdata,
// pushmap/prelude.lua:176)`, `c/promo.lua:9: boom (in [string "chunk"]:1)`. Pushes that
// message, or nothing when the error is a script file's own or no script called into it.
static int push_blamed_on_script(lua_State *L, const char *message) {
    lua_Debug raised, script, called, first;
    // The frame whose place Lua put before the message; none when a script's own, as most are.
    // A script frame passed on the way raised it at a level beyond itself (`error(m, 2)` in a
    // mapping names the host's call of it): its line, and no place of the host's after.
    int level = 1, first_script = 0;
    size_t place = 0;
    for (;; level++) {
        if ((level = lua_frame(L, level, &raised)) == 0) return 0;
        place = strlen(raised.short_src);
        int placed_here = strncmp(message, raised.short_src, place) == 0 && message[place] == ':';
        if (raised.source[0] != '@' && placed_here) break;
        if (raised.source[0] == '@') {
            if (placed_here) return 0;
            if (first_script == 0) first_script = level, first = raised;
        }
    }
    const char *text = strstr(message + place, ": ");
    if (text == NULL) return 0;
    if (first_script != 0) {
        lua_pushfstring(L, "%s:%d: %s", first.short_src, first.currentline, text + 2);
        return 1;
    }
    if ((level = script_frame(L, level + 1, &script)) == 0) return 0;
    // The function the script called, by the name the call gave it, when Lua knows it.
    const char *name = lua_getstack(L, level - 1, &called) && lua_getinfo(L, "n", &called) ? called.name : NULL;
    lua_pushlstring(L, message, (size_t)(text - message));
    lua_pushfstring(L, "%s:%d: %s (in %s%s%s)", script.short_src, script.currentline, text + 2, name != NULL ? name : "",
                    name != NULL ? ", " : "", lua_tostring(L, -1));
    lua_remove(L, -2);
    return 1;
}

// Whether `message` begins with the place Lua puts before it, `chunk:LINE: `.
static int has_place(const char *message) {
    for (const char *c = message; *c != '\0' && *c != '\n'; c++) {
        if (*c != ':' || c == message || c[1] < '0' || c[1] > '9') continue;
        const char *d = c + 1;
        while (*d >= '0' && *d <= '9') d++;
        if (d[0] == ':' && d[1] == ' ') return 1;
    }
    return 0;
}

// An error with no place that a C function raised, or the host's Lua at a C function's level
// (setmetatable(_G, {}); table.insert(intent.data, x) on the read-only intent): Lua knows no
// line for it, but the script line that called the function is known. Pushes the message with
// that line's place before it, or nothing.
static int push_placed_on_script(lua_State *L, const char *message) {
    if (has_place(message)) return 0;
    lua_Debug frames[3], script;
    int n = 0;
    while (n < 3 && lua_getstack(L, n + 1, &frames[n]) && lua_getinfo(L, "Sn", &frames[n])) n++;
    if (n == 0) return 0;
    // error(message, 0) in a script leaves Lua's place out; the contract still names the line
    // that raised it (the forty-fourth audit, scripts F5), or in a chunk it loaded, its line
    // that called the chunk.
    if (frames[0].what[0] == 'C' && frames[0].name != NULL && strcmp(frames[0].name, "error") == 0 && n >= 2 &&
        !own_chunk(frames[1].source)) {
        if (script_frame(L, 2, &script) == 0) return 0;
        lua_pushfstring(L, "%s:%d: %s", script.short_src, script.currentline, message);
        return 1;
    }
    // The host's Lua raised it (through `error`): said as it chose, unless it raised at the level
    // of a C function the script called (the intent's __newindex under table.insert).
    int byHost = n >= 2 && frames[0].what[0] == 'C' && own_chunk(frames[1].source);
    int raisedInC = byHost ? n == 3 && frames[2].what[0] == 'C' : frames[0].what[0] == 'C';
    if (!raisedInC || script_frame(L, 1, &script) == 0) return 0;
    lua_pushfstring(L, "%s:%d: %s", script.short_src, script.currentline, message);
    return 1;
}

// The message at index 1, a string, on the script line it belongs to (either of the above), or
// as it is.
static void push_placed(lua_State *L) {
    // The message goes in as a Lua string, not a C one: a NUL in it would end it there.
    if (!push_blamed_on_script(L, lua_tostring(L, 1)) && !push_placed_on_script(L, lua_tostring(L, 1))) lua_pushvalue(L, 1);
}

int pmh_place(lua_State *L) {
    pmh_host *h = pmh_host_of(L);
    lua_settop(L, 1);
    if (h->instructions_exceeded || h->time_exceeded || lua_type(L, 1) != LUA_TSTRING) return 1;
    h->cap_lifted = 1;
    push_placed(L);
    h->cap_lifted = 0;
    return 1;
}

static int pmh_msgh(lua_State *L) {
    pmh_host *h = pmh_host_of(L);
    // A limit's message is whole as raise_limit made it.
    if (h->instructions_exceeded || h->time_exceeded) return 1;
    h->cap_lifted = 1;  // a traceback must not fail for want of the memory the script used up
    if (lua_type(L, 1) == LUA_TSTRING) {
        push_placed(L);
        lua_pushliteral(L, "\n");
        luaL_traceback(L, L, NULL, 1);
        lua_concat(L, 3);
    } else {
        // Never tostring() a foreign value: its __tostring is the script's code. Lua places only
        // a string, so the place is said here: the script line that raised it.
        lua_Debug ar;
        const char *advice = "not a message: raise a string, error(\"...\")";
        if (script_frame(L, 1, &ar) != 0) {
            lua_pushfstring(L, "%s:%d: the error raised is a %s, %s", ar.short_src, ar.currentline, luaL_typename(L, 1), advice);
        } else {
            lua_pushfstring(L, "the error raised is a %s, %s", luaL_typename(L, 1), advice);
        }
        luaL_traceback(L, L, lua_tostring(L, -1), 1);
    }
    h->cap_lifted = 0;
    return 1;
}

// MARK: opening and closing

static int pmh_setup(lua_State *L) {
    pmh_host *h = pmh_host_of(L);
    pmh_open_sandbox(L, h);
    pmh_open_values(L, h);
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
        pmh_free_kept_blocks(h);
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
    // A young collection after the heap grows by 40%, not the default 20%: half as many
    // collections, each marking the same old objects (with PMH_FREE_KEEP, see host_internal.h;
    // 100% kept more garbage than the free lists hold and cost more).
    lua_gc(L, LUA_GCGEN, 40, 0);
    lua_pushcfunction(L, pmh_setup);
    if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
        snprintf(error, error_length, "cannot set up the Lua state: %s",
                 lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "unknown error");
        lua_close(L);
        pmh_free_kept_blocks(h);
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
    pmh_free_kept_blocks(host);
    free(host->members.members);
    free(host);
}

lua_State *pmh_state(pmh_host *host) { return host->L; }

// MARK: loading and calling

int pmh_load(pmh_host *host, const char *source, size_t length, const char *chunk_name) {
    host->memory_refused = 0;
    int status = luaL_loadbufferx(host->L, source, length, chunk_name, "t");
    if (status == LUA_OK) return PMH_OK;
    if (status == LUA_ERRMEM || host->memory_refused) return PMH_ERR_MEMORY;
    return PMH_ERR_SYNTAX;
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
    host->memory_raised = 0;
    host->memory_near = 0;
    host->instructions_exceeded = 0;
    host->time_exceeded = 0;
    host->cap_lifted = 0;
    host->metered = metered && host->limits.instructions > 0;
    if (host->metered) {
        host->budget_left = host->limits.instructions;
        host->hook_interval = host->limits.instructions < 1000 ? (int)host->limits.instructions : 1000;
        host->ticks = 0;
        host->deadline = host->limits.time_ms > 0 ? monotonic_ns() + host->limits.time_ms * 1000000 : 0;
        lua_sethook(L, pmh_hook, LUA_MASKCOUNT, host->hook_interval);
    }
    int status = lua_pcall(L, nargs, nresults, base);
    lua_sethook(L, NULL, 0, 0);
    // The deadline once more: one C call (a pattern that backtracks, under the pattern bound)
    // can run past it with no instruction after to see it (the forty-fourth audit, scripts F1).
    if (host->metered && status == LUA_OK && host->deadline != 0 && !host->instructions_exceeded) past_deadline(host);
    host->metered = 0;
    host->cap_lifted = 0;
    lua_remove(L, base);

    int code = PMH_OK;
    if (host->time_exceeded) {
        code = PMH_ERR_TIME;  // the host's flags win over whatever came back
    } else if (host->instructions_exceeded) {
        code = PMH_ERR_INSTRUCTIONS;
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

int pmh_function_line(pmh_host *host, int index) {
    lua_State *L = host->L;
    if (lua_type(L, index) != LUA_TFUNCTION) return -1;
    lua_Debug ar;
    lua_pushvalue(L, index);
    if (!lua_getinfo(L, ">S", &ar)) return -1;
    return ar.linedefined;
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
