# Sourced by the instruction-count scripts: one way to count a run's instructions.
#
# Lua seeds its string hashes from time(NULL) and from addresses, and Swift its hashing from random
# bytes, so each run lays its tables out differently and a binary's count moved by about 2% from
# run to run. counted_run freezes the clock with faketime, fixes Swift's hashing, and runs from the
# work folder with relative paths and an environment of a few variables, so what happens before
# the Lua states are made is the same on every machine; a run then repeats its count to within a
# few instructions per call. Each frozen time is one Lua hash seed: callers take the mean over
# `frozen_times`, so the figure is neither a lucky nor an unlucky seed.

frozen_times=("2026-01-01 00:00:00" "2026-04-01 06:00:01" "2026-07-01 12:00:02" "2026-10-01 18:00:03")

# counted_run DIR TIME COMMAND [ARGS...]: prints the instructions callgrind counted when COMMAND
# (a path relative to DIR) ran in DIR at the frozen TIME.
counted_run() {
  local dir=$1 time=$2; shift 2
  (cd "$dir" && env -i PATH=/usr/bin:/bin SWIFT_DETERMINISTIC_HASHING=1 FAKETIME_DONT_FAKE_MONOTONIC=1 \
    faketime -m -f "$time" valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null) |
    awk '/Collected/ { print $4 }'
}

# A copy of BINARY in DIR without debug information (valgrind 3.19 cannot read some of the DWARF
# the toolchain writes; counts do not need it).
stripped_copy() {
  objcopy --strip-debug "$1" "$2" 2>/dev/null || cp "$1" "$2"
}
