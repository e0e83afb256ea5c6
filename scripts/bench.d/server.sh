#!/usr/bin/env bash
# Load on one pushmap-server on loopback, measured (not a test): requests/s and p50/p99 latency of
# POST /v1/translate?platform=both at 16 and 64 connections (wrk, two threads), the same intents
# through `pushmap batch` and through POST /v1/batch, and the server's resident memory over the run.
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

"$server" --port 0 --log-level warning --max-concurrent-requests 1024 >"$work/stdout" 2>"$work/stderr" &
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
for connections in 16 64; do
  wrk -t2 -c"$connections" -d"${seconds}s" --latency -s "$work/post.lua" "$url/v1/translate?platform=both" > "$work/wrk-$connections"
  rps="$(awk '/Requests\/sec/ {print $2}' "$work/wrk-$connections")"
  p50="$(awk '$1 == "50%" {print $2}' "$work/wrk-$connections")"
  p99="$(awk '$1 == "99%" {print $2}' "$work/wrk-$connections")"
  requests="$(awk '/requests in/ {print $1}' "$work/wrk-$connections")"
  errors="$(grep -E 'Non-2xx|Socket errors' "$work/wrk-$connections" | tr '\n' ' ' || true)"
  echo "translate, $connections connections: $rps requests/s, p50 $p50, p99 $p99 ($requests requests${errors:+; $errors}); resident memory $(rss)"
done

lines=200000
for _ in $(seq 1 "$lines"); do echo "$body"; done > "$work/intents.ndjson"
start=$(date +%s.%N)
"$cli" batch --platform both "$work/intents.ndjson" > /dev/null 2>&1
end=$(date +%s.%N)
echo "pushmap batch, $lines intents, both cores: $(awk -v n="$lines" -v s="$start" -v e="$end" 'BEGIN {printf "%.0f intents/s", n / (e - s)}')"
start=$(date +%s.%N)
curl -s -H 'Expect:' -H 'Content-Type: application/x-ndjson' --data-binary "@$work/intents.ndjson" "$url/v1/batch?platform=both" -o "$work/batch.out"
end=$(date +%s.%N)
echo "POST /v1/batch, $lines intents in one stream: $(awk -v n="$lines" -v s="$start" -v e="$end" 'BEGIN {printf "%.0f intents/s", n / (e - s)}') ($(wc -l < "$work/batch.out") lines back); resident memory $(rss)"
echo "resident memory at the end: $(rss)"
