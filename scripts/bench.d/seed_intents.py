"""The intents the batch figures run on: examples/seeds/basic-fcm.json, one a line, each with a
title of its own (so no line is a copy of another). One generator for batch.py, node-peer.py and
batch-instructions.sh, so that every figure is over the same lines.
    python3 seed_intents.py FILE COUNT     writes COUNT intents to FILE"""
import json, os, sys

SEED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../examples/seeds/basic-fcm.json")


def write(path, count):
    base = json.load(open(SEED))
    with open(path, "w") as f:
        for i in range(count):
            base["title"] = f"game request {i}"
            f.write(json.dumps(base) + "\n")


if __name__ == "__main__":
    write(sys.argv[1], int(sys.argv[2]))
