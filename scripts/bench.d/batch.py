"""Times `pushmap batch --platform both` over N generated intents; reports intents/s and peak RSS."""
import json, os, resource, subprocess, sys, tempfile, time

binary, count = sys.argv[1], int(sys.argv[2])
base = json.load(open("examples/seeds/basic-fcm.json"))
with tempfile.NamedTemporaryFile("w", suffix=".ndjson", delete=False) as f:
    for i in range(count):
        base["title"] = f"game request {i}"
        f.write(json.dumps(base) + "\n")
    path = f.name
size = os.path.getsize(path)
start = time.perf_counter()
with open(os.devnull, "wb") as sink:
    proc = subprocess.run([binary, "batch", "--platform", "both", path], stdout=sink, stderr=subprocess.PIPE)
elapsed = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
os.unlink(path)
print(f"{count} intents ({size / 1e6:.0f} MB) in {elapsed:.2f} s: {count / elapsed:,.0f} intents/s; "
      f"peak RSS {usage.ru_maxrss / 1024:.1f} MiB; exit {proc.returncode}; {proc.stderr.decode().strip()}")
