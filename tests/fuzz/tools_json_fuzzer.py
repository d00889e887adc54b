"""A mutation fuzzer for the tools' JSON readers (tools/compare, tools/plot, the results
schema check): files rdmabench wrote (tests/host/fixtures), changed byte by byte and node by
node (a value of another type, a negative or huge number, NaN, a string that is not UTF-8,
nesting thousands deep, a cut), read as tools/compare and tools/plot read them. A reader's own
error (ResultsError, MeshError, SearchError: a one-line reason and an exit code) is the answer
to bad input; any other exception is a finding, written to the artifacts folder with its
traceback, and the exit status is 1. Beside them, the test command's machine probe file
(tools/rdmabench_dev/machine_speed.py), changed byte by byte, as the phase budget reads it.

Usage: PYTHONPATH=tools python3 tests/fuzz/tools_json_fuzzer.py [--seconds S] [--seed N]
           [--artifacts DIR]"""
import argparse
import copy
import functools
import json
import random
import sys
import tempfile
import time
import traceback
from pathlib import Path

from rdmabench_dev import machine_speed as ms
from rdmabench_tools import mesh_figures as mf
from rdmabench_tools import rdmabench_results as rr
from rdmabench_tools import search_figures as sef
from rdmabench_tools.report_kind import report_kind

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "host" / "fixtures"
EXPECTED = (rr.ResultsError, mf.MeshError, sef.SearchError, ms.ProbeFileError)
PROBE_SEED = b"1795808288.468 6.166\n1795808288.675 5.898\n1795808289.292 3.984\n"
ODD_VALUES = [None, True, -1, -1e300, 1e300, 0, "", "x" * 300, [], {}, [[[]]], float("nan"),
              float("inf"), 2 ** 70, "\u00e9", {"name": 5}]


def seeds():
    files = sorted(FIXTURES.glob("*.json")) + sorted(FIXTURES.glob("*/*.json"))
    return [f.read_bytes() for f in files]


def nodes(doc, depth=0):
    """Every (container, key) pair of `doc`, iteratively."""
    found, todo = [], [doc]
    while todo:
        node = todo.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node) \
            if isinstance(node, list) else ()
        for key, value in items:
            found.append((node, key))
            if isinstance(value, (dict, list)):
                todo.append(value)
    return found


def mutate_node(data, rng):
    doc = json.loads(data)
    places = nodes(doc)
    for _ in range(rng.randint(1, 4)):
        if not places:
            break
        container, key = rng.choice(places)
        choice = rng.random()
        if choice < 0.6:
            container[key] = copy.deepcopy(rng.choice(ODD_VALUES))  # never shared, or in itself
        elif choice < 0.8 and isinstance(container, dict):
            del container[key]
            places = nodes(doc)
        elif isinstance(container[key], (int, float)) and not isinstance(container[key], bool):
            container[key] = -container[key] if rng.random() < 0.5 else container[key] * 1e12
    return json.dumps(doc).encode()


def mutate_bytes(data, rng):
    data = bytearray(data)
    choice = rng.random()
    at = rng.randrange(len(data))
    if choice < 0.3:
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
    elif choice < 0.5:
        depth = rng.choice([10, 70, 3000, 200_000])
        data[at:at] = b"[" * depth + b"]" * depth
    elif choice < 0.7:
        del data[at:at + rng.randint(1, 2000)]
    elif choice < 0.85:
        data[at:at] = rng.choice([b"\xc3", b"\xff\xfe", b"NaN", b"-Infinity", b'"\\ud800"', b"\x00"])
    else:
        data = data[:at]  # cut
    return bytes(data)


@functools.lru_cache(maxsize=1)
def deterministic_baseline():
    return rr.load(FIXTURES / "rxe-deterministic.json")


def read_as_the_tools_do(path):
    """As tools/plot tells the kinds apart and reads each (tools/compare: rr.load alone); a
    probe file as the phase budget's median reads it."""
    if path.endswith(".txt"):
        ms.median_between(ms.read_probes(path), 0, 2e9)
        return
    kind = report_kind(path)
    if kind == "mesh":
        mf.load_mesh(path)
    elif kind == "search":
        sef.load_search(path)
    else:
        run = rr.load(path)
        # as tools/compare then judges it against a deterministic baseline: the stacks' values
        # (the file's text) go into its refusal
        deterministic = deterministic_baseline()
        rr.timing_mismatch([deterministic, run])
        rr.stack_mismatch(deterministic, run)


def one_case(data, path):
    """None when the readers answered as they should, else the traceback."""
    Path(path).write_bytes(data)
    try:
        read_as_the_tools_do(path)
    except EXPECTED:
        pass
    except Exception:  # a finding, whatever it is
        return traceback.format_exc()
    return None


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=20)
    p.add_argument("--seed", type=int, default=int(time.time()))
    p.add_argument("--artifacts", default=".")
    args = p.parse_args(argv)
    rng, corpus = random.Random(args.seed), seeds()
    end, runs, findings = time.monotonic() + args.seconds, 0, 0
    with tempfile.TemporaryDirectory() as scratch:
        json_path, probe_path = str(Path(scratch) / "input.json"), str(Path(scratch) / "probe.txt")
        while time.monotonic() < end:
            if rng.random() < 0.1:
                data, path = mutate_bytes(PROBE_SEED, rng), probe_path
            else:
                seed, path = rng.choice(corpus), json_path
                data = mutate_node(seed, rng) if rng.random() < 0.5 else mutate_bytes(seed, rng)
            found = one_case(data, path)
            runs += 1
            if found:
                findings += 1
                crash = Path(args.artifacts) / f"tools-json-crash-{args.seed}-{runs}"
                crash.write_bytes(data)
                Path(str(crash) + ".txt").write_text(found)
                print(f"tools_json_fuzzer: finding: {crash}\n{found}", file=sys.stderr)
    print(f"tools_json_fuzzer: {runs} executions in {args.seconds:g} s (seed {args.seed}), "
          f"{findings} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
