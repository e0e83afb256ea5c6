// Lua's allocator, with the memory cap and small-block reuse. Why C: Lua calls it from inside
// every allocation, mid-instruction, where no Swift frame may stand (a refusal makes Lua raise).
#include "host_internal.h"

#include <stdlib.h>
#include <string.h>

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

// A freed block of the class of `n` bytes from its list, or NULL when the list is empty (and
// always under AddressSanitizer).
__attribute__((always_inline)) static inline void *small_pop(pmh_host *h, size_t n) {
#ifndef PMH_PLAIN_MALLOC
    size_t c = small_class(n) - 1;
    struct pmh_free_block *b = h->free_lists[c];
    if (b != NULL) {
        h->free_lists[c] = b->next;
        h->free_counts[c]--;
    }
    return b;
#else
    (void)h;
    (void)n;
    return NULL;
#endif
}

// Keeps the block `p` of `n` bytes on its class's list; 0 when the list is full (and always
// under AddressSanitizer), for the caller to free it.
__attribute__((always_inline)) static inline int small_push(pmh_host *h, void *p, size_t n) {
#ifndef PMH_PLAIN_MALLOC
    size_t c = small_class(n) - 1;
    if (h->free_counts[c] >= PMH_FREE_KEEP) return 0;
    struct pmh_free_block *b = (struct pmh_free_block *)p;
    b->next = h->free_lists[c];
    h->free_lists[c] = b;
    h->free_counts[c]++;
    return 1;
#else
    (void)h;
    (void)p;
    (void)n;
    return 0;
#endif
}

static void *small_take(pmh_host *h, size_t n) {
    void *b = small_pop(h, n);
    return b != NULL ? b : malloc(small_class(n) << 4);
}

static void small_give(pmh_host *h, void *p, size_t n) {
    if (!small_push(h, p, n)) free(p);
}

// Whether growing a block of `osize` bytes to `nsize` would pass the state's memory cap.
__attribute__((always_inline)) static inline int over_cap(const pmh_host *h, size_t osize, size_t nsize) {
    return nsize > osize && h->limits.memory_bytes > 0 && !h->cap_lifted && h->used - osize + nsize > h->limits.memory_bytes;
}

void pmh_free_kept_blocks(pmh_host *h) {
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

// What pmh_alloc does not do itself: large blocks, resizes, empty lists, full lists, refusals.
__attribute__((noinline)) static void *alloc_rest(pmh_host *h, void *ptr, size_t osize, size_t nsize) {
    if (ptr == NULL) osize = 0;  // osize is then a type tag, not a size
    if (nsize == 0) {
        if (ptr != NULL) {
            if (osize <= PMH_SMALL_MAX) small_give(h, ptr, osize); else free(ptr);
        }
        h->used -= osize;
        return NULL;
    }
    if (over_cap(h, osize, nsize)) {
        // Never raise here: Lua collects, retries and raises LUA_ERRMEM itself. Nor read the
        // stack: Lua 5.4.6 asks for a new stack with the frames' pointers made offsets.
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
    // Near the cap in a metered call: the count hook looks at the next instruction, where the
    // script's line is known. A refusal here has no line: Lua raises it with no handler called.
    if (h->metered && !h->memory_near && !h->cap_lifted && h->limits.memory_bytes > 0 &&
        h->used > h->limits.memory_bytes - h->limits.memory_bytes / 16) {
        pmh_arm_memory_check(h);
    }
    return p;
}

// Lua's allocator. The cases most calls are (a new table's empty array part, a new small block
// taken from its list, a small block given back to it) are done here with no call and no
// register saved; the rest goes to alloc_rest (236,140 to 232,938 instructions a batch line,
// four seeds).
void *pmh_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    pmh_host *h = (pmh_host *)ud;
    if (ptr == NULL) {
        // A new block: osize is a type tag, not a size. Nothing asked (a new table's empty array
        // part, made at every table) is nothing given.
        if (nsize == 0) return NULL;
        void *b = nsize <= PMH_SMALL_MAX && !over_cap(h, 0, nsize) ? small_pop(h, nsize) : NULL;
        if (b != NULL) {
            h->used += nsize;
            if (h->used > h->peak) h->peak = h->used;
            return b;
        }
    } else if (nsize == 0 && osize <= PMH_SMALL_MAX && small_push(h, ptr, osize)) {
        h->used -= osize;
        return NULL;
    }
    return alloc_rest(h, ptr, osize, nsize);
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
