#!/usr/bin/env bash
# Load on one pushmap-server on loopback, measured (not a test): requests/s and p50/p99 latency of
# POST /v1/translate?platform=both at 16 and 64 connections (wrk, two threads), the server's
# resident memory after the requests so far (no MALLOC_ARENA_MAX: the binary bounds its arenas),
# and 50,000 intents of seed_intents.py through `pushmap batch` and through POST /v1/batch (the
# best of three each, the same bytes out), with the route's share of the command line's rate.
# `scripts/bench.d/server.sh [SECONDS per wrk run, default 15]`; builds with scripts/build first.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
seconds="${1:-15}"
cd "$root"
scripts/setup --test >/dev/null
scripts/build --product pushmap >/dev/null
scripts/build --product pushmap-server >/dev/null
server="$root/Server/.build/release/pushmap-server"
cli="$root/.build/release/pushmap"
seed="$root/examples/seeds/basic-fcm.json"
work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# A fixed time, so that the route's lines and the command line's are the same bytes.
now=1700000000
env -u MALLOC_ARENA_MAX "$server" --port 0 --now "$now" --log-level warning --max-concurrent-requests 1024 >"$work/stdout" 2>"$work/stderr" &
server_pid=$!
for _ in $(seq 1 100); do grep -q "listening on" "$work/stdout" 2>/dev/null && break; sleep 0.1; done
url="$(grep -o 'http://[0-9.]*:[0-9]*' "$work/stdout")"
rss() { awk '/VmRSS/ {printf "%.1f MiB", $2 / 1024}' "/proc/$server_pid/status"; }

# wrk posts the seed (one line of JSON) to translate.
body="$(tr -d '\n' < "$seed")"
cat > "$work/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = [==[$body]==]
LUA
echo "pushmap-server on $url, $(nproc) cores; basic intent (${#body} bytes) to both platforms"
echo "resident memory at start: $(rss)"
curl -s -o /dev/null -X POST -H 'Content-Type: application/json' --data-binary "@$seed" "$url/v1/translate"
echo "resident memory after one request: $(rss)"
answered=1
for connections in 16 64; do
  wrk -t2 -c"$connections" -d"${seconds}s" --latency -s "$work/post.lua" "$url/v1/translate?platform=both" > "$work/wrk-$connections"
  rps="$(awk '/Requests\/sec/ {print $2}' "$work/wrk-$connections")"
  p50="$(awk '$1 == "50%" {print $2}' "$work/wrk-$connections")"
  p99="$(awk '$1 == "99%" {print $2}' "$work/wrk-$connections")"
  requests="$(awk '/requests in/ {print $1}' "$work/wrk-$connections")"
  errors="$(grep -E 'Non-2xx|Socket errors' "$work/wrk-$connections" | tr '\n' ' ' || true)"
  answered=$((answered + requests))
  echo "translate, $connections connections: $rps requests/s, p50 $p50, p99 $p99 ($requests requests${errors:+; $errors}); resident memory after $answered requests: $(rss)"
done

lines=50000
python3 "$root/scripts/bench.d/seed_intents.py" "$work/intents.ndjson" "$lines"
# The best of three runs each, interleaved, so that a burst of other work on the machine does
# not decide the ratio.
seconds_of() { local start end; start=$(date +%s.%N); "$@"; end=$(date +%s.%N); awk -v s="$start" -v e="$end" 'BEGIN {printf "%.3f", e - s}'; }
cli_best=""; route_best=""
for _ in 1 2 3; do
  t=$(seconds_of sh -c '"$0" batch --platform both --now "$1" "$2" > "$3" 2>/dev/null || true' "$cli" "$now" "$work/intents.ndjson" "$work/cli.out")
  cli_best=$(awk -v a="$cli_best" -v b="$t" 'BEGIN {print (a == "" || b < a) ? b : a}')
  t=$(seconds_of curl -s -H 'Expect:' -H 'Content-Type: application/x-ndjson' --data-binary "@$work/intents.ndjson" "$url/v1/batch?platform=both" -o "$work/batch.out")
  route_best=$(awk -v a="$route_best" -v b="$t" 'BEGIN {print (a == "" || b < a) ? b : a}')
done
same=$(cmp -s "$work/cli.out" "$work/batch.out" && echo "the same bytes" || echo "DIFFERENT bytes")
echo "pushmap batch, $lines intents, both cores: $(awk -v n="$lines" -v t="$cli_best" 'BEGIN {printf "%.0f intents/s (%.2f s)", n / t, t}')"
echo "POST /v1/batch, the same $lines in one stream: $(awk -v n="$lines" -v t="$route_best" 'BEGIN {printf "%.0f intents/s (%.2f s)", n / t, t}'), $same; $(awk -v c="$cli_best" -v r="$route_best" 'BEGIN {printf "%.0f%%", 100 * c / r}') of the command line's rate; resident memory $(rss)"
echo "resident memory at the end: $(rss)"
