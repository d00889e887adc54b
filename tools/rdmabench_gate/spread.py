"""How far the same benchmarks moved between runs (tools/gate reproducibility).

Usage: tools/lib/run-module rdmabench_gate.spread RUN.json RUN.json [...] [--format text|markdown]

For every benchmark and every counter the engine wrote, takes each run's median over its
repetitions and prints the spread between runs: (max - min) / median, in percent. A counter
that is zero in every run shows 0; each side's raw port counters (client_dev_*, server_dev_*)
are left out, their wire_* sums kept. The last lines give, per counter, the largest spread over
all benchmarks: the noise a regression threshold must clear.
"""

import argparse
import statistics
import sys


from rdmabench_tools import rdmabench_results as rr
from rdmabench_tools import text_table

# Google Benchmark's own fields in an iteration row: bookkeeping, not measurements.
NOT_COUNTERS = {"family_index", "per_family_instance_index", "repetitions", "repetition_index",
                "threads", "iterations", "cpu_time", "half_round_trip"}

SHORT = {"_per_second": "/s", "_per_msg": "/msg", "lat_": "", "bytes": "B", "msgs": "msg"}


def counters_of(bench):
    keys = []
    for row in bench.samples:
        for key, value in row.items():
            if key not in NOT_COUNTERS and key not in keys and isinstance(value, (int, float)) \
                    and not isinstance(value, bool):
                keys.append(key)
    return keys


def port_counter(run, key):
    """One side's raw port counter (the catalogue's client_dev_{name}, ...): dozens per row,
    moved by whatever else uses the port; the row's wire_* figures sum them up."""
    entry = run.counter(key)
    return entry is not None and "{name}" in entry["name"]


def spread_pct(values):
    mid = statistics.median(values)
    if mid == 0:
        return 0.0 if max(values) == min(values) else float("inf")
    return (max(values) - min(values)) / abs(mid) * 100


def short(key):
    for long, brief in SHORT.items():
        key = key.replace(long, brief)
    return key


def spreads(runs):
    """{benchmark name: {counter: spread %}} over the runs' per-run medians."""
    out = {}
    for name, first in runs[0].benchmarks.items():
        benches = [run.benchmarks.get(name) for run in runs]
        if not all(b is not None and b.ok for b in benches):
            out[name] = None
            continue
        row = {}
        for key in counters_of(first):
            if port_counter(runs[0], key):
                continue
            medians = [statistics.median(r[key] for r in b.samples if key in r) for b in benches]
            row[key] = spread_pct(medians)
        out[name] = row
    return out


def render(table, counters, markdown):
    head = ["benchmark", *map(short, counters)]
    body = []
    for name, row in table.items():
        cells = ["failed or missing in a run"] if row is None else \
            [f"{row[c]:.2f}" if c in row else "-" for c in counters]
        body.append([name, *cells])
    worst = ["largest"]
    for c in counters:
        vals = [row[c] for row in table.values() if row and c in row]
        worst.append(f"{max(vals):.2f}" if vals else "-")
    body.append(worst)
    return text_table.render(head, body, markdown)


def main(argv):
    p = argparse.ArgumentParser(prog="spread", description=__doc__.split("\n\n")[0])
    p.add_argument("runs", nargs="+", metavar="RUN.json")
    p.add_argument("--format", choices=["text", "markdown"], default="text")
    args = p.parse_args(argv)
    if len(args.runs) < 2:
        p.error("give at least two runs")
    try:
        runs = rr.load_all(args.runs, [f"run {i + 1}" for i in range(len(args.runs))])
    except rr.ResultsError as e:
        print(f"spread: {e}", file=sys.stderr)
        return 2
    table = spreads(runs)
    counters = []
    for row in table.values():
        counters += [c for c in (row or {}) if c not in counters]
    timing = runs[0].side("client").get("timing") or "unknown timing"
    print(f"spread between {len(runs)} runs, in % of the median ((max - min) / median of the "
          f"per-run medians); {timing}")
    print(render(table, counters, args.format == "markdown"))
    return 0 if all(row is not None for row in table.values()) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
