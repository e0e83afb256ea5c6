#!/usr/bin/env bash
# Instructions per call of pushmap-bench figures, counted by callgrind: unlike times, the same on
# a loaded machine. Each figure is the difference of two runs (100 and 300 calls, plus the bench's
# warm-up), so the set-up both share cancels out; the mean over the frozen times of callgrind.sh,
# whose header says why.
#   scripts/bench.d/instructions.sh BENCH_BINARY NAME...
set -euo pipefail
bench=$1; shift
if ! command -v valgrind >/dev/null 2>&1 || ! command -v faketime >/dev/null 2>&1; then
  echo "(valgrind or faketime not installed: no instruction counts; scripts/setup --test installs them)"
  exit 0
fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/callgrind.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stripped_copy "$bench" "$work/bench"
for name in "$@"; do
  total=0
  for time in "${frozen_times[@]}"; do
    small=$(counted_run "$work" "$time" ./bench 100 "$name"); large=$(counted_run "$work" "$time" ./bench 300 "$name")
    # 100 calls + 10 warm-up against 300 + 30: 220 calls apart.
    total=$(( total + (large - small) / 220 ))
  done
  echo "$name: $(( total / ${#frozen_times[@]} )) instructions per call"
done
