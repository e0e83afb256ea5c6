#!/usr/bin/env bash
# Instructions per `pushmap batch --platform both --jobs 1` line, counted by callgrind: the figure
# the speed budget holds (scripts/bench.d/instruction-budget, checked by scripts/test). Runs of
# 2,000 and 6,000 lines of the basic seed with a changing title, so the start-up both share cancels
# out; the mean over the frozen times of callgrind.sh, whose header says why.
#   scripts/bench.d/batch-instructions.sh PUSHMAP_BINARY     prints the instructions per line
set -euo pipefail
binary=$1
command -v valgrind >/dev/null 2>&1 || { echo "batch-instructions: valgrind is not installed (scripts/setup --test)" >&2; exit 3; }
command -v faketime >/dev/null 2>&1 || { echo "batch-instructions: faketime is not installed (scripts/setup --test)" >&2; exit 3; }
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/callgrind.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stripped_copy "$binary" "$work/pushmap"
for count in 2000 6000; do python3 "$here/seed_intents.py" "$work/$count.ndjson" "$count"; done
total=0
for time in "${frozen_times[@]}"; do
  small=$(counted_run "$work" "$time" ./pushmap batch --platform both --jobs 1 2000.ndjson)
  large=$(counted_run "$work" "$time" ./pushmap batch --platform both --jobs 1 6000.ndjson)
  [ -n "$small" ] && [ -n "$large" ] || { echo "batch-instructions: callgrind gave no count at $time" >&2; exit 1; }
  total=$(( total + (large - small) / 4000 ))
done
echo $(( total / ${#frozen_times[@]} ))
