"""Size the gate's test slowdown (meson -Dinject_post_work, -Dinject_post_work_per_kib).

Usage: tools/lib/run-module rdmabench_gate.calibrate_slowdown BASELINE.json [--percent 5] [--json FILE]

BASELINE must come from the deterministic guest, where guest time counts instructions
(2^shift ns each, whichever vCPU runs them). Every benchmark of the gate suite posts exactly
one message per unit it reports: one per message in bw, one per half round trip in
send/write_imm lat (each side posts its reply), one per full round trip in read lat. So work
of W ns added to each post adds W to that unit, and the slowdown of a row is predictable:
W / (its time per unit).

The injected work is N + M * size / 1024 iterations of a two-instruction loop. N is chosen
to make it PERCENT of the median small-message (lat) row, M to make it PERCENT of the median
64 KiB (bw) row. Prints "N M" on stdout, and on stderr each row's predicted slowdown; --json
writes the predictions for the test that checks them.
"""

import argparse
import json
import statistics
import sys
from pathlib import Path


from rdmabench_tools import rdmabench_results as rr

INSTRUCTIONS_PER_ITERATION = 2


def time_per_post_ns(bench):
    """Guest ns per posted message of this benchmark (see the module text)."""
    if bench.mode == "bw":
        return 1e9 / bench.median(rr.MSG_RATE)
    return bench.median(rr.LATENCY["p50"]) * 1e3


def calibrate(run, percent):
    mode, shift = run.timing
    if mode != "icount":
        raise rr.ResultsError(f"{run.path}: not from the deterministic guest; the slowdown is "
                              "sized in instructions, which only that guest's time counts")
    ns_per_iteration = INSTRUCTIONS_PER_ITERATION * 2 ** int(shift)
    benches = [b for b in run.benchmarks.values() if b.ok]
    small = [time_per_post_ns(b) for b in benches if b.mode == "lat"]
    large = [(time_per_post_ns(b), b.size) for b in benches if b.mode == "bw"]
    if not small or not large:
        raise rr.ResultsError(f"{run.path}: needs both lat and bw benchmarks to calibrate")
    fixed = percent / 100 * statistics.median(small) / ns_per_iteration
    size_kib = statistics.median(s for _, s in large) / 1024
    per_kib = max(0.0, (percent / 100 * statistics.median(t for t, _ in large) / ns_per_iteration
                        - fixed) / size_kib)
    fixed, per_kib = round(fixed), round(per_kib)
    return fixed, per_kib, predict(run, fixed, per_kib)


def predict(run, fixed, per_kib):
    """{benchmark: slowdown} that work of `fixed` + `per_kib` loop iterations per posted message
    adds to each row of `run`, a deterministic run of the build without it: the gate's test
    judges the slowdown build against this build's own run of the same suite run, so its
    prediction is made from that run's figures, not the committed baseline's (whose stack can
    differ)."""
    mode, shift = run.timing
    if mode != "icount":
        raise rr.ResultsError(f"{run.path}: not from the deterministic guest; the slowdown is "
                              "predicted in instructions, which only that guest's time counts")
    ns_per_iteration = INSTRUCTIONS_PER_ITERATION * 2 ** int(shift)
    return {b.name: 1 + (fixed + per_kib * b.size // 1024) * ns_per_iteration / time_per_post_ns(b)
            for b in run.benchmarks.values() if b.ok}


def main(argv):
    p = argparse.ArgumentParser(prog="calibrate_slowdown", description=__doc__.split("\n\n")[0])
    p.add_argument("baseline", metavar="BASELINE.json")
    p.add_argument("--percent", type=float, default=5.0)
    p.add_argument("--json", metavar="FILE", help="write {fixed, per_kib, predicted slowdowns}")
    args = p.parse_args(argv)
    try:
        fixed, per_kib, predicted = calibrate(rr.load(args.baseline), args.percent)
    except rr.ResultsError as e:
        print(f"calibrate_slowdown: {e}", file=sys.stderr)
        return 2
    print(f"calibrate_slowdown: {fixed} + {per_kib}/KiB loop iterations per posted message; "
          "predicted slowdown per row:", file=sys.stderr)
    for name, slowdown in predicted.items():
        print(f"  {name:<26} {slowdown:.3f}x", file=sys.stderr)
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"fixed": fixed, "per_kib": per_kib, "percent": args.percent, "predicted": predicted},
            indent=1))
    print(fixed, per_kib)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
