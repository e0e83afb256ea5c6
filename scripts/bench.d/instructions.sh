#!/usr/bin/env bash
# Instructions per call of pushmap-bench figures, counted by callgrind: unlike times, the same on
# a loaded machine. Each figure is the difference of two runs (100 and 300 calls, plus the bench's
# warm-up), so the set-up both share cancels out.
#   scripts/bench.d/instructions.sh BENCH_BINARY NAME...
set -euo pipefail
bench=$1; shift
if ! command -v valgrind >/dev/null 2>&1; then
  echo "(valgrind not installed: no instruction counts)"
  exit 0
fi
# valgrind 3.19 cannot read some of the DWARF the toolchain writes; counts do not need it.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if command -v objcopy >/dev/null 2>&1; then
  objcopy --strip-debug "$bench" "$work/bench"
  bench="$work/bench"
fi
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bench" "$1" "$2" 2>&1 \
    | awk '/Collected/ { print $4 }'
}
for name in "$@"; do
  small=$(count 100 "$name"); large=$(count 300 "$name")
  # 100 calls + 10 warm-up against 300 + 30: 220 calls apart.
  echo "$name: $(( (large - small) / 220 )) instructions per call"
done
