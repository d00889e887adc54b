#!/usr/bin/python3
"""Adds the rows of other rdmabench results files to one (in place), for a suite that needs
several `rdmabench run`s: the gate's rows over a datagram transport run apart from the rest,
since they take another bootstrap (`--cm auto` goes out of band for them). The first file's
context stays the file's; each added run's own context keys that differ from it are kept in
context.merged_runs[] with the names of its rows, and the counter catalogue becomes the union
of the files' catalogues. Runs whose timing differs (deterministic or not, icount shift) or
that name a row twice are refused.

Usage: merge_results.py INTO FROM...
exit status: 0 merged; 2 an unreadable or foreign file, or runs that cannot share a file
"""
import json
import sys
from pathlib import Path

import rdmabench_results as rr

# What every run of one file must share: the figures mean the same only then.
SHARED = ("timing_mode", "icount_shift", "rdmabench_revision", "client_host", "server_host")


def merged(into, extra, extra_path):
    ctx, ext = into["context"], extra["context"]
    for key in SHARED:
        if ctx.get(key) != ext.get(key):
            raise rr.ResultsError(f"{extra_path}: context.{key} is {ext.get(key)!r}, not "
                                  f"{ctx.get(key)!r}: its rows cannot share a file with the others")
    names = {b["name"] for b in into["benchmarks"]}
    twice = sorted(names & {b["name"] for b in extra["benchmarks"]})
    if twice:
        raise rr.ResultsError(f"{extra_path}: rows already in the file: {', '.join(twice[:3])}")
    catalogue = {c["name"]: c for c in ext["rdmabench_counters"]}
    catalogue.update({c["name"]: c for c in ctx["rdmabench_counters"]})
    ctx["rdmabench_counters"] = sorted(catalogue.values(), key=lambda c: c["name"])
    own = {k: v for k, v in ext.items()
           if k not in ("rdmabench_counters", "merged_runs", "date") and ctx.get(k) != v}
    rows = sorted({b["rdmabench_spec"]["name"] for b in extra["benchmarks"] if "rdmabench_spec" in b})
    ctx.setdefault("merged_runs", []).append({"rows": rows, "context": own})
    into["benchmarks"] += extra["benchmarks"]
    return into


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        for path in argv:
            rr.load(path)  # a readable rdmabench results file, or ResultsError
        into = json.loads(Path(argv[0]).read_text())
        for path in argv[1:]:
            into = merged(into, json.loads(Path(path).read_text()), path)
    except rr.ResultsError as e:
        print(f"merge_results: {e}", file=sys.stderr)
        return 2
    Path(argv[0]).write_text(json.dumps(into, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
