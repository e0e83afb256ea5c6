// The walk over a script's result: one pass over the tables writes the value's compact JSON
// (keys sorted by their bytes, the same bytes as LuaValueReader + JSONWriter(.compact)) and, when
// asked, lists it as items that Swift reads in place. Why C: it runs for every payload and every
// json() a script makes, crossing into Lua for every value (type, string, next member); in C
// those crossings are plain calls, json() needs no trip through Swift, and the text is written
// on the same pass (the Swift reader it replaced cost about 10k instructions a translation
// more). See pmh_json_encode in CLuaHost.h.
//
// Nothing here may raise a Lua error: only lua_type, lua_next, lua_rawgeti, lua_rotate,
// lua_settop, lua_checkstack, lua_tolstring on strings, lua_topointer and the to* functions on
// values of the right type. Anything the Swift reader would refuse, and anything this file is
// not sure of, gives PMH_JSON_FALLBACK: the Swift path then encodes or explains the error.
#include "host_internal.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

// C recursion depth this file allows whatever the limits say: a state with a huge depth limit
// must not overflow the C stack here (the Swift path decides those values).
#define PMH_JSON_MAX_C_DEPTH 200
// A double needs at most 24 bytes in Swift's shortest form ("-2.2250738585072014e-308").
#define PMH_JSON_DOUBLE_ROOM 64

struct pmh_json_encoder {
    pmh_json_double_fn format;
    char *bytes;
    size_t length;
    size_t capacity;
    // Members of the objects being written (reused across calls).
    pmh_member_list members;
    // The values written, when asked for (pmh_json_encode_items).
    int recording;
    pmh_json_item *items;
    size_t item_count;
    size_t item_capacity;
    pmh_json_item scratch;
    // Tables on the current path, for cycles.
    const void *open[PMH_JSON_MAX_C_DEPTH];
    // Set per call.
    lua_State *L;
    pmh_host *host;
    int max_depth;
    // The most bytes the text, and the items, may each take: the state's memory limit. A
    // table met many times (t = {t, t}, twenty levels deep) is written each time, so a value of
    // a few kilobytes in Lua can have gigabytes of text; this bounds the walk's memory and time.
    size_t max_bytes;
    int too_large;
};

pmh_json_encoder *pmh_json_encoder_new(pmh_json_double_fn format) {
    pmh_json_encoder *e = (pmh_json_encoder *)calloc(1, sizeof(pmh_json_encoder));
    if (e == NULL) return NULL;
    e->format = format;
    return e;
}

void pmh_json_encoder_free(pmh_json_encoder *encoder) {
    if (encoder == NULL) return;
    free(encoder->bytes);
    free(encoder->members.members);
    free(encoder->items);
    free(encoder);
}

const char *pmh_json_encoder_bytes(const pmh_json_encoder *encoder, size_t *length) {
    *length = encoder->length;
    return encoder->bytes;
}

// MARK: output

// Grows the buffer for `extra` more bytes; 0 when memory runs out.
__attribute__((noinline, cold)) static int grow(pmh_json_encoder *e, size_t extra) {
    if (extra > SIZE_MAX / 2 - e->length) return 0;
    size_t needed = e->length + extra;
    if (needed > e->max_bytes) {
        e->too_large = 1;
        return 0;
    }
    size_t capacity = e->capacity > 0 ? e->capacity : 256;
    while (capacity < needed) capacity *= 2;
    char *bytes = (char *)realloc(e->bytes, capacity);
    if (bytes == NULL) return 0;
    e->bytes = bytes;
    e->capacity = capacity;
    return 1;
}

// Makes room for `extra` more bytes; 0 when memory runs out. Inline: it runs for every byte
// of punctuation, and almost never grows. Forced, with put_char and the growth out of line and
// cold: at -O2 clang kept put_char a call (about 54 a batch line); inlined, 239,066 to 236,975
// instructions a line (four seeds).
__attribute__((always_inline)) static inline int reserve(pmh_json_encoder *e, size_t extra) {
    if (extra <= e->capacity - e->length) return 1;
    return grow(e, extra);
}

static inline int put(pmh_json_encoder *e, const char *text, size_t n) {
    if (!reserve(e, n)) return 0;
    memcpy(e->bytes + e->length, text, n);
    e->length += n;
    return 1;
}

__attribute__((always_inline)) static inline int put_char(pmh_json_encoder *e, char c) {
    if (!reserve(e, 1)) return 0;
    e->bytes[e->length++] = c;
    return 1;
}

// The item for the value being written, with its kind and length set, or NULL when memory
// runs out. When the encode records no items, a scratch item takes what the caller sets.
static pmh_json_item *record(pmh_json_encoder *e, int kind, size_t length) {
    pmh_json_item *item = &e->scratch;
    if (e->recording) {
        if (e->item_count == e->item_capacity) {
            size_t capacity = e->item_capacity > 0 ? e->item_capacity * 2 : 128;
            if (capacity > SIZE_MAX / sizeof(pmh_json_item)) return NULL;
            if (capacity * sizeof(pmh_json_item) > e->max_bytes) {
                e->too_large = 1;
                return NULL;
            }
            pmh_json_item *items = (pmh_json_item *)realloc(e->items, capacity * sizeof(pmh_json_item));
            if (items == NULL) return NULL;
            e->items = items;
            e->item_capacity = capacity;
        }
        item = &e->items[e->item_count++];
    }
    item->kind = (uint8_t)kind;
    item->sorted = kind == PMH_TAPE_OBJECT;
    item->count = length;
    item->end = e->item_count;
    return item;
}

// The index of the item just recorded, for close_item.
static inline size_t last_item(const pmh_json_encoder *e) { return e->item_count - 1; }

// Sets a container's end once its elements are recorded.
static inline void close_item(pmh_json_encoder *e, size_t at) {
    if (e->recording) e->items[at].end = e->item_count;
}

// MARK: scalars

static int put_integer(pmh_json_encoder *e, lua_Integer value) {
    pmh_json_item *item = record(e, PMH_TAPE_INTEGER, 0);
    if (item == NULL) return 0;
    item->bits = (uint64_t)value;
    char digits[PMH_DECIMAL_ROOM];
    int i = pmh_decimal((int64_t)value, digits);
    return put(e, digits + i, (size_t)(PMH_DECIMAL_ROOM - i));
}

// The length of the well-formed UTF-8 sequence at s[i] (2 to 4), or 0: the same table as
// UTF8Validation.sequenceLength (RFC 3629), so C refuses exactly what the reader refuses.
static size_t sequence_length(const unsigned char *s, size_t i, size_t n) {
    unsigned char lead = s[i];
    size_t length;
    unsigned char low = 0x80, high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead == 0xE0) {
        length = 3;
        low = 0xA0;
    } else if ((lead >= 0xE1 && lead <= 0xEC) || lead == 0xEE || lead == 0xEF) {
        length = 3;
    } else if (lead == 0xED) {
        length = 3;
        high = 0x9F;
    } else if (lead == 0xF0) {
        length = 4;
        low = 0x90;
    } else if (lead >= 0xF1 && lead <= 0xF3) {
        length = 4;
    } else if (lead == 0xF4) {
        length = 4;
        high = 0x8F;
    } else {
        return 0;
    }
    if (length > n - i) return 0;
    if (s[i + 1] < low || s[i + 1] > high) return 0;
    for (size_t k = 2; k < length; k++) {
        if ((s[i + k] & 0xC0) != 0x80) return 0;
    }
    return length;
}

static const uint64_t ones = 0x0101010101010101u, tops = 0x8080808080808080u;

// Copies n bytes, inline for short runs (most keys and values): two overlapping words, where a
// call to memcpy costs more than the copy.
static inline void copy_bytes(char *out, const char *in, size_t n) {
    if (n > 16) {
        memcpy(out, in, n);
    } else if (n >= 8) {
        uint64_t head, tail;
        memcpy(&head, in, 8);
        memcpy(&tail, in + n - 8, 8);
        memcpy(out, &head, 8);
        memcpy(out + n - 8, &tail, 8);
    } else if (n >= 4) {
        uint32_t head, tail;
        memcpy(&head, in, 4);
        memcpy(&tail, in + n - 4, 4);
        memcpy(out, &head, 4);
        memcpy(out + n - 4, &tail, 4);
    } else if (n > 0) {
        // 1 to 3 bytes: the first, the middle one (or the first again) and the last.
        char first = in[0], middle = in[n / 2], last = in[n - 1];
        out[0] = first;
        out[n / 2] = middle;
        out[n - 1] = last;
    }
}

// The bytes of `w` that end a plain run (non-ASCII, a control character, a quote or a
// backslash), as their top bits: none for a plain word. With every byte below 0x80,
// subtracting sets a byte's top bit when it is below 0x20 (or, after the xor, equal to the quote
// or the backslash); borrows can mark a byte after a marked one, never before, so the lowest
// mark is exact: all a scan for the next such byte needs.
static inline uint64_t special_bytes(uint64_t w) {
    uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');
    return (w | (w - ones * 0x20) | (q - ones) | (b - ones)) & tops;
}

// Whether the string is ASCII with nothing to escape, as most keys and values are: eight bytes
// at a time, the last eight overlapping the ones before.
static inline int plain_string(const unsigned char *s, size_t n) {
    uint64_t w;
    if (n < 8) {
        // One word all the same: the bytes, overlapping, with 'a' (plain) in the spare ones.
        w = 0x6161616161616161u;
        if (n >= 4) {
            uint32_t head, tail;
            memcpy(&head, s, 4);
            memcpy(&tail, s + n - 4, 4);
            w = (uint64_t)head | ((uint64_t)tail << 32);
        } else if (n > 0) {
            w = (w & ~(uint64_t)0xFFFFFF) | (uint64_t)s[0] | ((uint64_t)s[n / 2] << 8) | ((uint64_t)s[n - 1] << 16);
        }
        return special_bytes(w) == 0;
    }
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        memcpy(&w, s + i, 8);
        if (special_bytes(w) != 0) return 0;
    }
    if (i == n) return 1;
    memcpy(&w, s + n - 8, 8);
    return special_bytes(w) == 0;
}

// Writes the string quoted and escaped as JSONWriter.escape does (U+2028 and U+2029 too),
// checking UTF-8 on the way.
// 0 on invalid UTF-8 (the reader's error) or memory.
static int put_string(pmh_json_encoder *e, const char *text, size_t n) {
    static const char hex[] = "0123456789abcdef";
    if (n > (SIZE_MAX - 2) / 6) return 0;
    pmh_json_item *item = record(e, PMH_TAPE_STRING, n);
    if (item == NULL) return 0;
    item->bytes = text;
    if (plain_string((const unsigned char *)text, n)) {
        if (!reserve(e, n + 2)) return 0;
        char *out = e->bytes + e->length;
        out[0] = '"';
        copy_bytes(out + 1, text, n);
        out[n + 1] = '"';
        e->length += n + 2;
        return 1;
    }
    // Room for the worst case (every byte as \u00XX) once, so the loop never checks.
    if (!reserve(e, n * 6 + 2)) return 0;
    const unsigned char *s = (const unsigned char *)text;
    char *out = e->bytes + e->length;
    *out++ = '"';
    size_t run = 0, i = 0;
    while (i < n) {
        // Eight bytes at a time: past a plain word, or straight to the first byte that is not.
        if (n - i >= 8) {
            uint64_t w;
            memcpy(&w, s + i, 8);
            uint64_t special = special_bytes(w);
            if (special == 0) {
                i += 8;
                continue;
            }
            i += (size_t)(__builtin_ctzll(special) >> 3);
        }
        unsigned char c = s[i];
        if (c >= 0x80) {
            size_t length = sequence_length(s, i, n);
            if (length == 0) return 0;
            // U+2028 and U+2029 are valid in JSON text but end a line for some readers
            // (JavaScript before ES2019, several NDJSON splitters): written escaped, as \u2028.
            if (c == 0xE2 && length == 3 && s[i + 1] == 0x80 && (s[i + 2] == 0xA8 || s[i + 2] == 0xA9)) {
                memcpy(out, s + run, i - run);
                out += i - run;
                memcpy(out, s[i + 2] == 0xA8 ? "\\u2028" : "\\u2029", 6);
                out += 6;
                i += 3;
                run = i;
                continue;
            }
            i += length;
            continue;
        }
        if (c >= 0x20 && c != '"' && c != '\\') {
            i++;
            continue;
        }
        memcpy(out, s + run, i - run);
        out += i - run;
        *out++ = '\\';
        switch (c) {
            case '"': *out++ = '"'; break;
            case '\\': *out++ = '\\'; break;
            case '\n': *out++ = 'n'; break;
            case '\r': *out++ = 'r'; break;
            case '\t': *out++ = 't'; break;
            case 0x08: *out++ = 'b'; break;
            case 0x0C: *out++ = 'f'; break;
            default:
                *out++ = 'u';
                *out++ = '0';
                *out++ = '0';
                *out++ = hex[c >> 4];
                *out++ = hex[c & 0xF];
        }
        i++;
        run = i;
    }
    memcpy(out, s + run, n - run);
    out += n - run;
    *out++ = '"';
    e->length = (size_t)(out - e->bytes);
    return 1;
}

static int put_double(pmh_json_encoder *e, lua_Number value) {
    // The reader refuses NaN and infinities; without the Swift formatter C cannot match it.
    if (!isfinite(value) || e->format == NULL) return 0;
    pmh_json_item *item = record(e, PMH_TAPE_DOUBLE, 0);
    if (item == NULL) return 0;
    double number = (double)value;
    memcpy(&item->bits, &number, sizeof number);
    char text[PMH_JSON_DOUBLE_ROOM];
    size_t n = e->format((double)value, text, sizeof text);
    if (n == 0 || n > sizeof text) return 0;
    return put(e, text, n);
}

// MARK: tables

static int put_value(pmh_json_encoder *e, int index, int depth);

// `depth` counts the containers above this one, as the reader's path does.
static int put_table(pmh_json_encoder *e, int t, int depth) {
    lua_State *L = e->L;
    if (depth >= e->max_depth || depth >= PMH_JSON_MAX_C_DEPTH) return 0;
    if (!lua_checkstack(L, 4)) return 0;
    const void *identity = lua_topointer(L, t);
    if (identity == NULL) return 0;
    for (int i = 0; i < depth; i++) {
        if (e->open[i] == identity) return 0;  // a cycle
    }
    e->open[depth] = identity;
    // Most tables have no metatable: only those can carry a mark, or be a read-only view
    // (pushmap.rules), written as the table it shows.
    // The shown table is read in the view's place, not by a call of this function: a recursive
    // call kept the compiler from inlining it into put_value, 3,800 instructions a batch line.
    int mark = 0, viewed = 0;
    if (lua_getmetatable(L, t)) {
        lua_settop(L, -2);
        if (pmh_push_viewed(e->host, t)) {
            viewed = 1;
            t = lua_gettop(L);
        }
        mark = pmh_mark(e->host, t);
    }
    int top = lua_gettop(L);
    size_t first = e->members.count;
    lua_Integer integer_keys = 0, largest = 0;
    int ok = 1;

    // One pass over the keys as the reader makes: string members stay on the stack (key and
    // value, with a copy of the key above them for lua_next, cheaper than moving the value
    // below it) to be written in key order afterwards; integer keys are counted and read in
    // order afterwards.
    // Stack room is checked once per 16 members, and the top is counted here: each call into
    // Lua the loop saves is one per member of every payload.
    int room = 0;
    int value_slot = top + 2;  // where lua_next leaves the next value
    lua_pushnil(L);
    while (lua_next(L, t)) {
        int key_type = lua_type(L, -2);
        if (key_type == LUA_TSTRING && integer_keys == 0) {
            size_t length;
            const char *key = lua_tolstring(L, -2, &length);  // a string: no conversion
            if (room == 0) {
                if (!lua_checkstack(L, 34)) {
                    ok = 0;
                    break;
                }
                room = 16;
            }
            room--;
            if (key == NULL || !pmh_add_member(&e->members, key, length, value_slot)) {
                ok = 0;
                break;
            }
            value_slot += 2;
            lua_pushvalue(L, -2);  // the key's copy goes on to lua_next
        } else if (key_type == LUA_TNUMBER && lua_isinteger(L, -2) && e->members.count == first) {
            lua_Integer key = lua_tointegerx(L, -2, NULL);
            if (key < 1) {
                ok = 0;
                break;
            }
            integer_keys++;
            if (key > largest) largest = key;
            lua_settop(L, -2);
        } else {
            ok = 0;  // mixed keys or a key of another type
            break;
        }
    }

    size_t count = e->members.count - first;
    if (!ok) {
        // nothing more to write
    } else if (integer_keys > 0) {
        ok = mark != 2 && largest == integer_keys && record(e, PMH_TAPE_ARRAY, (size_t)integer_keys) != NULL && put_char(e, '[');
        size_t at = last_item(e);
        for (lua_Integer i = 1; ok && i <= integer_keys; i++) {
            if (i > 1 && !put_char(e, ',')) ok = 0;
            lua_rawgeti(L, t, i);
            if (ok) ok = put_value(e, lua_gettop(L), depth + 1);
            lua_settop(L, -2);
        }
        if (ok) ok = put_char(e, ']');
        if (ok) close_item(e, at);
    } else if (count == 0) {
        ok = mark == 1 ? record(e, PMH_TAPE_ARRAY, 0) != NULL && put(e, "[]", 2) : record(e, PMH_TAPE_OBJECT, 0) != NULL && put(e, "{}", 2);
    } else if (mark == 1) {
        ok = 0;  // marked as an array but has string keys
    } else {
        pmh_sort_members(e->host, e->members.members + first, count);
        ok = record(e, PMH_TAPE_OBJECT, count) != NULL && put_char(e, '{');
        size_t at = last_item(e);
        // By index: nested objects may move the members array as they add their own.
        for (size_t i = 0; ok && i < count; i++) {
            pmh_member m = e->members.members[first + i];
            ok = (i == 0 || put_char(e, ',')) && put_string(e, m.key, m.length) && put_char(e, ':') &&
                 put_value(e, m.slot, depth + 1);
        }
        if (ok) ok = put_char(e, '}');
        if (ok) close_item(e, at);
    }
    e->members.count = first;
    lua_settop(L, top - viewed);
    return ok;
}

static int put_value(pmh_json_encoder *e, int index, int depth) {
    lua_State *L = e->L;
    switch (lua_type(L, index)) {
        case LUA_TNIL: return record(e, PMH_TAPE_NULL, 0) != NULL && put(e, "null", 4);
        case LUA_TBOOLEAN:
            if (lua_toboolean(L, index)) return record(e, PMH_TAPE_TRUE, 0) != NULL && put(e, "true", 4);
            return record(e, PMH_TAPE_FALSE, 0) != NULL && put(e, "false", 5);
        case LUA_TNUMBER:
            if (lua_isinteger(L, index)) return put_integer(e, lua_tointegerx(L, index, NULL));
            return put_double(e, lua_tonumberx(L, index, NULL));
        case LUA_TSTRING: {
            size_t length;
            const char *text = lua_tolstring(L, index, &length);
            return text != NULL && put_string(e, text, length);
        }
        case LUA_TTABLE: return put_table(e, index, depth);
        case LUA_TLIGHTUSERDATA: return pmh_is_null(e->host, index) && record(e, PMH_TAPE_NULL, 0) != NULL && put(e, "null", 4);
        default: return 0;  // functions, userdata, threads
    }
}

static int encode(pmh_json_encoder *encoder, pmh_host *host, int index, int max_depth, int recording) {
    lua_State *L = pmh_state(host);
    encoder->recording = recording;
    encoder->item_count = 0;
    encoder->L = L;
    encoder->host = host;
    encoder->max_depth = max_depth;
    encoder->length = 0;
    encoder->members.count = 0;
    encoder->max_bytes = host->limits.memory_bytes > 0 ? host->limits.memory_bytes : SIZE_MAX;  // 0: no limit
    encoder->too_large = 0;
    int top = lua_gettop(L);
    int ok = put_value(encoder, lua_absindex(L, index), 0);
    lua_settop(L, top);
    encoder->L = NULL;
    encoder->host = NULL;
    if (!ok) {
        encoder->length = 0;
        encoder->item_count = 0;
        return encoder->too_large ? PMH_JSON_TOO_LARGE : PMH_JSON_FALLBACK;
    }
    return PMH_JSON_OK;
}

int pmh_json_encode(pmh_json_encoder *encoder, pmh_host *host, int index, int max_depth) {
    return encode(encoder, host, index, max_depth, 0);
}

int pmh_json_encode_items(pmh_json_encoder *encoder, pmh_host *host, int index, int max_depth) {
    return encode(encoder, host, index, max_depth, 1);
}

const pmh_json_item *pmh_json_encoder_items(const pmh_json_encoder *encoder, size_t *count) {
    *count = encoder->item_count;
    return encoder->items;
}
