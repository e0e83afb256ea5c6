// An object's members in key order, for both walks over a result: the result walk and
// pmh_collect_members, which lists them for the Swift reader. Why C: the members are collected
// with lua_next, a call into Lua per key, and sorted as Lua's own bytes, with no copy.
#include "host_internal.h"

#include <stdlib.h>

int pmh_member_list_grow(pmh_member_list *list) {
    size_t capacity = list->capacity > 0 ? list->capacity * 2 : 64;
    if (capacity > SIZE_MAX / sizeof(pmh_member)) return 0;
    pmh_member *members = (pmh_member *)realloc(list->members, capacity * sizeof(pmh_member));
    if (members == NULL) return 0;
    list->members = members;
    list->capacity = capacity;
    return 1;
}

// The member order, as qsort wants it.
static int compare_members(const void *a, const void *b) {
    const pmh_member *x = (const pmh_member *)a, *y = (const pmh_member *)b;
    return pmh_member_before(x, y) ? -1 : (pmh_member_before(y, x) ? 1 : 0);
}

// Lua table keys are unique, so an unstable sort gives the one order there is.
static void sort_members(pmh_member *m, size_t n) {
    if (n > 48) {
        qsort(m, n, sizeof(pmh_member), compare_members);
        return;
    }
    // Payload objects have a few dozen keys at most, most told apart by their first eight
    // bytes: an insertion sort on those beats qsort's calls.
    for (size_t i = 1; i < n; i++) {
        pmh_member item = m[i];
        size_t j = i;
        while (j > 0 && pmh_member_before(&item, &m[j - 1])) {
            m[j] = m[j - 1];
            j--;
        }
        m[j] = item;
    }
}

// The key's bytes past its first eight as two words (zeros when absent), which with its length
// and prefix tell apart keys of up to PMH_KEPT_KEY_MAX bytes: the next eight (keys of more than
// 16 bytes) and the last eight (keys of more than 8), read as they lie.
static inline uint64_t key_middle(const pmh_member *member) {
    uint64_t word = 0;
    if (member->length > 16) memcpy(&word, member->key + 8, 8);
    return word;
}

static inline uint64_t key_last(const pmh_member *member) {
    uint64_t word = 0;
    if (member->length > 8) memcpy(&word, member->key + member->length - 8, 8);
    return word;
}

// Whether the members' keys are those of `kept`, position by position.
static int matches(const pmh_kept_order *kept, const pmh_member *m, size_t n) {
    if (kept->count != n) return 0;
    for (size_t i = 0; i < n; i++) {
        const uint64_t *words = kept->words[i];
        if (kept->lengths[i] != m[i].length || words[0] != m[i].prefix) return 0;
        if (m[i].length > 8 && (words[2] != key_last(&m[i]) || words[1] != key_middle(&m[i]))) return 0;
    }
    return 1;
}

// A payload's objects have the same keys line after line, met in the same order (lua_next
// follows the table's layout, the same for tables built alike), so an order once sorted is
// kept, one per key count, and an object whose keys match it position by position takes it
// in one pass: about 1,500 instructions a batch line of the basic seed, whose 24-key data map
// took most of the sorting. The keys are compared by their bytes, never by address, so a
// kept order cannot outlive its keys. Objects of fewer keys sort faster than they compare.
void pmh_sort_members(pmh_host *host, pmh_member *m, size_t n) {
    if (n < PMH_KEPT_ORDER_MIN || n > PMH_KEPT_ORDER_MAX) {
        sort_members(m, n);
        return;
    }
    pmh_kept_order *kept = &host->kept_orders[n % PMH_KEPT_ORDER_SLOTS];
    pmh_member sorted[PMH_KEPT_ORDER_MAX];
    if (!matches(kept, m, n)) {
        for (size_t i = 0; i < n; i++) {
            if (m[i].length > PMH_KEPT_KEY_MAX) {
                sort_members(m, n);
                return;
            }
        }
        // Sorted with each member's position in place of its slot, to learn the order.
        for (size_t i = 0; i < n; i++) {
            sorted[i] = m[i];
            sorted[i].slot = (int)i;
            kept->lengths[i] = (uint8_t)m[i].length;
            kept->words[i][0] = m[i].prefix;
            kept->words[i][1] = key_middle(&m[i]);
            kept->words[i][2] = key_last(&m[i]);
        }
        sort_members(sorted, n);
        for (size_t i = 0; i < n; i++) kept->order[i] = (uint8_t)sorted[i].slot;
        kept->count = n;
    }
    for (size_t i = 0; i < n; i++) sorted[i] = m[kept->order[i]];
    memcpy(m, sorted, n * sizeof(pmh_member));
}

int pmh_collect_members(pmh_host *host, int index, size_t first) {
    lua_State *L = host->L;
    int top = lua_gettop(L);
    index = lua_absindex(L, index);
    pmh_member_list *list = &host->members;
    list->count = first;
    lua_pushnil(L);
    while (lua_next(L, index)) {
        // A string key only: lua_tolstring would turn a number key into a string in place.
        if (lua_type(L, -2) != LUA_TSTRING || !lua_checkstack(L, 3)) {
            lua_settop(L, top);
            return -1;
        }
        size_t length;
        const char *key = lua_tolstring(L, -2, &length);
        // The value stays below the key, which goes on to lua_next.
        lua_rotate(L, -2, 1);
        if (!pmh_add_member(list, key, length, lua_gettop(L) - 1)) {
            lua_settop(L, top);
            return -1;
        }
    }
    pmh_sort_members(host, list->members + first, list->count - first);
    return (int)(list->count - first);
}

const pmh_member *pmh_members(pmh_host *host) { return host->members.members; }
