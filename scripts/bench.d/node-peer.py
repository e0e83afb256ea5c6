"""pushmap batch against the Node peer (node-peer.js) on the same intents, as whole processes on one
core, alternating pair by pair; prints each side's median and the ratio pushmap/Node (issue 28's
goal: at most 1.0). Both outputs are compared first: the same fcm and apns payloads on every line.
    python3 node-peer.py PUSHMAP_BINARY [INTENTS] [PAIRS]"""
import json, os, statistics, subprocess, sys, tempfile, time

import seed_intents

binary = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 200_000
pairs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
here = os.path.dirname(os.path.abspath(__file__))
peer = os.path.join(here, "node-peer.js")

work = tempfile.mkdtemp()
intents = os.path.join(work, "intents.ndjson")
seed_intents.write(intents, count)

commands = {
    "pushmap": ["taskset", "-c", "0", binary, "batch", "--platform", "both", "--jobs", "1", intents],
    "node": ["taskset", "-c", "0", "node", peer],
}


def run(name, output):
    with open(intents, "rb") as stdin, open(output, "wb") as stdout:
        start = time.perf_counter()
        subprocess.run(commands[name], stdin=stdin, stdout=stdout, stderr=subprocess.DEVNULL, check=False)
        return time.perf_counter() - start


outputs = {name: os.path.join(work, f"{name}.ndjson") for name in commands}
for name in commands:
    run(name, outputs[name])
with open(outputs["pushmap"]) as ours, open(outputs["node"]) as theirs:
    lines = 0
    for a, b in zip(ours, theirs):
        a, b = json.loads(a), json.loads(b)
        if a.get("fcm") != b.get("fcm") or a.get("apns") != b.get("apns"):
            sys.exit(f"node-peer: line {a.get('line')}: the payloads differ; the peer is not the same mapping")
        lines += 1
if lines != count:
    sys.exit(f"node-peer: {lines} lines compared, {count} expected")

times = {name: [] for name in commands}
for _ in range(pairs):
    for name in commands:
        times[name].append(run(name, os.devnull))
for name in commands:
    os.unlink(outputs[name])
os.unlink(intents)
os.rmdir(work)
median = {name: statistics.median(values) for name, values in times.items()}
for name, values in times.items():
    print(f"{name:8} {median[name]:.2f} s median of {pairs} ({count / median[name]:,.0f} intents/s; runs {', '.join(f'{v:.2f}' for v in values)})")
print(f"ratio pushmap/node {median['pushmap'] / median['node']:.2f} (goal: at most 1.00)")
