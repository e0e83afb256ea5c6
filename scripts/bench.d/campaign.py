"""Times `pushmap campaign` over N recipients of one templated intent against `pushmap batch`
over the same N intents already rendered, whole processes, same run; prints both throughputs
and their ratio (the goal: the campaign at 0.80 of batch or better).

The intent is examples/seeds/basic-fcm.json with a name, a number and a city in its texts; each
recipient has a token of their own, as a campaign's audience does."""
import json, os, resource, subprocess, sys, tempfile, time

binary, count = sys.argv[1], int(sys.argv[2])
intent = json.load(open("examples/seeds/basic-fcm.json"))
intent["title"] = "{{ first_name }}, game request {{ game }}"
intent["expandedBody"] = "{{ friend }} wants to play a game of chess with you in {{ city }}. Click 'accept' to start!"
intent["buttons"][0]["uri"] = "https://chess.com/games/{{ game }}"
names = ["Ann", "Bob", "Chloé", "Dmitri", "Ẽmil", "Fatima", "Gus", "李"]
folder = tempfile.mkdtemp()
intent_path = os.path.join(folder, "intent.json")
recipients_path = os.path.join(folder, "recipients.ndjson")
rendered_path = os.path.join(folder, "rendered.ndjson")
json.dump(intent, open(intent_path, "w"))
with open(recipients_path, "w") as recipients, open(rendered_path, "w") as rendered:
    for i in range(count):
        name, friend, city = names[i % 8], names[(i + 3) % 8], f"city {i % 97}"
        token = f"token-{i:08d}"
        recipients.write(json.dumps({"id": f"u-{i}", "target": {"token": token},
                                     "vars": {"first_name": name, "friend": friend, "city": city, "game": i}}) + "\n")
        one = json.loads(json.dumps(intent))
        one["id"] = f"u-{i}"
        one["title"] = f"{name}, game request {i}"
        one["expandedBody"] = f"{friend} wants to play a game of chess with you in {city}. Click 'accept' to start!"
        one["buttons"][0]["uri"] = f"https://chess.com/games/{i}"
        one["target"] = {"token": token}
        rendered.write(json.dumps(one) + "\n")


def timed(arguments):
    """Wall seconds, CPU seconds (user and system), status, the summary line."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open(os.devnull, "wb") as sink:
        proc = subprocess.run([binary] + arguments, stdout=sink, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu, proc.returncode, proc.stderr.decode().strip().splitlines()[0]


# Interleaved, best of three each: on a shared machine the other load comes and goes.
runs = {"batch (rendered)": [], "campaign": []}
for _ in range(3):
    runs["batch (rendered)"].append(timed(["batch", "--platform", "both", "--now", "1700000000", rendered_path]))
    runs["campaign"].append(timed(["campaign", "--platform", "both", "--now", "1700000000", intent_path, recipients_path]))
best = {name: min(results) for name, results in runs.items()}
for name, (elapsed, cpu, status, note) in best.items():
    print(f"{name}: {count} in {elapsed:.2f} s ({cpu:.2f} s of CPU): {count / elapsed:,.0f}/s; exit {status}; {note}")
batch, campaign = best["batch (rendered)"], best["campaign"]
print(f"campaign / batch throughput: {batch[0] / campaign[0]:.2f} by the clock, {batch[1] / campaign[1]:.2f} by CPU time (goal: 0.80 or more)")
for path in (intent_path, recipients_path, rendered_path):
    os.unlink(path)
os.rmdir(folder)
