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
void pmh_sort_members(pmh_member *m, size_t n) {
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
    pmh_sort_members(list->members + first, list->count - first);
    return (int)(list->count - first);
}

const pmh_member *pmh_members(pmh_host *host) { return host->members.members; }
