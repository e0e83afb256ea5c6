"""Median wall time of a command, start to exit, over 50 runs."""
import statistics, subprocess, sys, time

runs = []
for _ in range(50):
    start = time.perf_counter()
    subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    runs.append((time.perf_counter() - start) * 1000)
print(f"{' '.join(sys.argv[1:3])}: median {statistics.median(runs):.1f} ms, min {min(runs):.1f} ms")
