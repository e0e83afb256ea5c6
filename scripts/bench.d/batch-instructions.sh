#!/usr/bin/env bash
# Instructions per `pushmap batch --platform both --jobs 1` line, counted by callgrind: the figure
# the speed budget holds (scripts/bench.d/instruction-budget, checked by scripts/test). Runs of
# 2,000 and 6,000 lines of the basic seed with a changing title, so the start-up both share cancels
# out.
#   scripts/bench.d/batch-instructions.sh PUSHMAP_BINARY     prints the instructions per line
#
# Why faketime and an empty environment: Lua seeds its string hashes from time(NULL) and from
# addresses, so each run lays its tables out differently and one binary's count moved by about 2%
# from run to run. With the clock frozen and the same environment, arguments and path lengths, a
# run repeats its count to within a few instructions per line. Each frozen time is one hash seed;
# the figure is the mean over four of them, so it is neither a lucky nor an unlucky seed.
set -euo pipefail
binary=$1
command -v valgrind >/dev/null 2>&1 || { echo "batch-instructions: valgrind is not installed (scripts/setup --test)" >&2; exit 3; }
command -v faketime >/dev/null 2>&1 || { echo "batch-instructions: faketime is not installed (scripts/setup --test)" >&2; exit 3; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 cannot read some of the DWARF the toolchain writes; counts do not need it.
objcopy --strip-debug "$binary" "$work/pushmap" 2>/dev/null || cp "$binary" "$work/pushmap"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
python3 - "$root/examples/seeds/basic-fcm.json" "$work" <<'PY'
import json, sys
base = json.load(open(sys.argv[1]))
for count in (2000, 6000):
    with open(f"{sys.argv[2]}/{count}.ndjson", "w") as f:
        for i in range(count):
            base["title"] = f"game request {i}"
            f.write(json.dumps(base) + "\n")
PY
# count TIME LINES: the instructions of one run at the frozen TIME. Relative paths from the work
# folder, and an environment of two variables, keep what precedes the Lua states the same.
count() {
  (cd "$work" && env -i PATH=/usr/bin:/bin SWIFT_DETERMINISTIC_HASHING=1 FAKETIME_DONT_FAKE_MONOTONIC=1 faketime -m -f "$1" \
    valgrind --tool=callgrind --callgrind-out-file=/dev/null ./pushmap batch --platform both --jobs 1 "$2.ndjson" 2>&1 >/dev/null) |
    awk '/Collected/ { print $4 }'
}
total=0
seeds=("2026-01-01 00:00:00" "2026-04-01 06:00:01" "2026-07-01 12:00:02" "2026-10-01 18:00:03")
for time in "${seeds[@]}"; do
  small=$(count "$time" 2000); large=$(count "$time" 6000)
  [ -n "$small" ] && [ -n "$large" ] || { echo "batch-instructions: callgrind gave no count at $time" >&2; exit 1; }
  total=$(( total + (large - small) / 4000 ))
done
echo $(( total / ${#seeds[@]} ))
