"""Adds the rows of other rdmabench results files to one (in place), for a suite that needs
several `rdmabench run`s: the gate's rows over a datagram transport run apart from the rest,
since they take another bootstrap (`--cm auto` goes out of band for them). The first file's
context stays the file's; each added run's own context keys that differ from it are kept in
context.merged_runs[] with the names of its rows, and the counter catalogue becomes the union
of the files' catalogues. Runs whose timing differs (deterministic or not, icount shift) or
that name a row twice are refused.

Usage: tools/lib/run-module rdmabench_gate.merge_results INTO FROM...
exit status: 0 merged; 2 an unreadable or foreign file, or runs that cannot share a file
"""
import json
import sys
from pathlib import Path

from rdmabench_tools import json_input, rdmabench_results as rr
from rdmabench_tools import results_upgrade

# What every run of one file must share: the figures mean the same only then.
SHARED = (("client", "timing_mode"), ("client", "icount_shift"), ("rdmabench_revision",),
          ("client", "host"), ("server", "host"))


def value_at(context, path):
    for key in path:
        context = context.get(key) if isinstance(context, dict) else None
    return context


def as_schema_5(path):
    """The file's document in schema 5's layout (rr.load has checked it)."""
    doc = json_input.read_json(path)
    if doc["context"].get("rdmabench_schema") != results_upgrade.SCHEMA:
        doc = results_upgrade.upgrade(doc, rr.catalogue_entry)
    return doc


def merged(into, extra, extra_path):
    ctx, ext = into["context"], extra["context"]
    for path in SHARED:
        if value_at(ctx, path) != value_at(ext, path):
            raise rr.ResultsError(f"{extra_path}: context.{'.'.join(path)} is {value_at(ext, path)!r}, "
                                  f"not {value_at(ctx, path)!r}: its rows cannot share a file with the others")
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
        into = as_schema_5(argv[0])
        for path in argv[1:]:
            into = merged(into, as_schema_5(path), path)
    except rr.ResultsError as e:
        print(f"merge_results: {e}", file=sys.stderr)
        return 2
    Path(argv[0]).write_text(json.dumps(into, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
