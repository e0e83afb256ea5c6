"""Times `pushmap batch --platform both` over N generated intents; reports intents/s and memory.

Memory is sampled from /proc every 0.2 s while the batch runs, so that "flat" is a measurement:
the resident size after the first tenth of the run, and at the end."""
import os, resource, subprocess, sys, tempfile, time

import seed_intents

binary, count = sys.argv[1], int(sys.argv[2])
with tempfile.NamedTemporaryFile("w", suffix=".ndjson", delete=False) as f:
    path = f.name
seed_intents.write(path, count)
size = os.path.getsize(path)


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


samples = []
start = time.perf_counter()
with open(os.devnull, "wb") as sink:
    proc = subprocess.Popen([binary, "batch", "--platform", "both", path], stdout=sink, stderr=subprocess.PIPE)
    while proc.poll() is None:
        rss = rss_kib(proc.pid)
        if rss is not None:
            samples.append((time.perf_counter() - start, rss))
        time.sleep(0.2)
    stderr = proc.stderr.read().decode().strip()
elapsed = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
os.unlink(path)
print(f"{count} intents ({size / 1e6:.0f} MB) in {elapsed:.2f} s: {count / elapsed:,.0f} intents/s; "
      f"peak RSS {usage.ru_maxrss / 1024:.1f} MiB; exit {proc.returncode}; {stderr}")
if len(samples) >= 10:
    tenth = [rss for t, rss in samples if t >= elapsed / 10]
    if tenth:
        print(f"resident memory: {tenth[0] / 1024:.1f} MiB after a tenth of the run, "
              f"{min(tenth) / 1024:.1f} to {max(tenth) / 1024:.1f} MiB from then on, {tenth[-1] / 1024:.1f} MiB at the end "
              f"({len(samples)} samples)")
