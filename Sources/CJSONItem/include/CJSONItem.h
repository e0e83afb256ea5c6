// One value of the item list that the C host's result walk writes and Swift's payload checks
// read in place (PushmapJSON's JSONItem is this type). Defined once, here, so the two cannot
// disagree on its layout: the compiler lays it out for both. The asserts hold it to the size and
// offsets the readers were tuned for on the 64-bit platforms pushmap builds for.
//
// Only a type: this target holds no logic (as jpsim/Yams's CYaml holds only what must be C).
#ifndef CJSONITEM_H
#define CJSONITEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// A container's item comes first with its count, then an array's items, or an object's keys
/// (strings) and values in order, each followed by what is inside it.
typedef struct pmh_json_item {
    /// The value's op, as JSONTape.Op (and PMH_TAPE_*) spell it.
    uint8_t kind;
    /// For an object: its keys are in byte order, each once, so no search for duplicates.
    bool sorted;
    /// A string's length in bytes; an array's elements or an object's members.
    size_t count;
    /// The index just past this value and everything inside it: its next sibling's.
    size_t end;
    /// A string's bytes, valid as long as the list is.
    const void *bytes;
    /// An integer, or a double's bit pattern.
    uint64_t bits;
} pmh_json_item;

_Static_assert(sizeof(size_t) == 8 && sizeof(void *) == 8, "pmh_json_item is laid out for 64-bit platforms");
_Static_assert(offsetof(pmh_json_item, kind) == 0 && offsetof(pmh_json_item, sorted) == 1, "kind, sorted");
_Static_assert(offsetof(pmh_json_item, count) == 8 && offsetof(pmh_json_item, end) == 16, "count, end");
_Static_assert(offsetof(pmh_json_item, bytes) == 24 && offsetof(pmh_json_item, bits) == 32, "bytes, bits");
_Static_assert(sizeof(pmh_json_item) == 40, "five words an item");

#endif
