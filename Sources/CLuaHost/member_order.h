// The order of an object's members that both table walks give (pmh_collect_members for the Swift
// reader, the JSON encoder): the keys' bytes, a shorter key first when it is a prefix of the
// other. Lua's own iteration order follows a hash seeded anew in every state; this one does not.
#ifndef PMH_MEMBER_ORDER_H
#define PMH_MEMBER_ORDER_H

#include "CLuaHost.h"

#include <string.h>

// A key's first eight bytes, big-endian (zeros past its end): compares like the bytes. Read
// without a call to memcpy for a short key.
static inline uint64_t pmh_key_prefix(const char *key, size_t length) {
    uint64_t prefix = 0;
    if (length >= 8) {
        memcpy(&prefix, key, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        prefix = __builtin_bswap64(prefix);  // the first byte most significant
#endif
        return prefix;
    }
    for (size_t i = 0; i < length; i++) prefix |= (uint64_t)(unsigned char)key[i] << (56 - 8 * i);
    return prefix;
}

// Whether `a` comes before `b`: most keys are told apart by their prefixes alone.
static inline int pmh_member_before(const pmh_member *a, const pmh_member *b) {
    if (a->prefix != b->prefix) return a->prefix < b->prefix;
    size_t n = a->length < b->length ? a->length : b->length;
    int c = n > 0 ? memcmp(a->key, b->key, n) : 0;
    return c != 0 ? c < 0 : a->length < b->length;
}

#endif
