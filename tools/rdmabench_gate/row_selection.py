"""Which benchmark rows a suite runs, decided from what the engine says of its patterns and CQ
strategies (`rdmabench version --json`), never from a list of names kept here.

The deterministic guest (tools/rxe-vm --deterministic) runs its two vCPUs in turns on one host
thread, so a side that spins while its peer's user space has to act sees that peer's work only
when QEMU switches vCPUs (about 6 ms): such a row measures QEMU's time slice, not the software.
A side spins when its strategy never blocks (busy) or, in lat, when the pattern sees arrival by
polling memory for a marker (write), whatever the strategy. The peer acts unless the pattern
leaves the target passive in that mode (write and read bw, read lat). A row that spins against a
passive target holds only up to 64 KiB: measured over the demo's sweep at icount shift 2 and 3,
write and read bw busy scale with the guest's time per instruction up to 64 KiB (1.9-2.3x from
shift 2 to 3) and no further (4.2x at 128 KiB, 1.1-1.3x at 512 KiB and 1 MiB). docs/soft-roce.md,
"Choosing a mode". A device that sends from a kernel thread on the sender's CPU (siw's
siw_tx: `rdmabench devices --json` says sends_from_kernel_thread) is held off by any side that
spins there, passive target or not, until the scheduler's tick: every spinning row is left out
(siw write and read bw 64 KiB busy: one message a tick). With --this-device, the facts are those
of the device `rdmabench run` takes by default (the first), read from `rdmabench devices --json`,
and the datagram transports are those its port's fabric carries (the engine's "fabrics").

Usage: tools/lib/run-module rdmabench_gate.row_selection RDMABENCH deterministic [--bw-size N --lat-size N [--short-bw yes|no]] [--transport T] [--this-device]  (a Google Benchmark filter)
       tools/lib/run-module rdmabench_gate.row_selection RDMABENCH short-bw-messages                          (the messages a --short-bw yes row runs)
       tools/lib/run-module rdmabench_gate.row_selection RDMABENCH deterministic-sizes --bw-size N --lat-size N [--transport T] [--this-device]  (its --sizes list)
       tools/lib/run-module rdmabench_gate.row_selection RDMABENCH left-out [--this-device]                   (what the guest cannot measure, and why)
       tools/lib/run-module rdmabench_gate.row_selection RDMABENCH sizes --bw-size N --lat-size N             (every row, bw at one size, lat at another)
       tools/lib/run-module rdmabench_gate.row_selection RDMABENCH datagram-transports [--this-device]        (the registered transports without connections)
With --transport, only the patterns that run over T (every pattern otherwise).
"""

import argparse
import json
import subprocess
import sys

from rdmabench_tools import rdmabench_results as rr
from rdmabench_tools.printable_text import excerpt

CQS = ("busy", "event")  # what `--cq all` runs, and so what the gate and the demo run
MODES = ("bw", "lat")
SPIN_LIMIT = 65536  # the largest size a spinning row against a passive target holds
# Decimal sizes 1..65536, for a row limited to SPIN_LIMIT in a filter.
UP_TO_SPIN_LIMIT = r"([0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-6])"


def registry(rdmabench):
    out = subprocess.run([rdmabench, "version", "--json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


KERNEL_SENDER = ("a side spins on the CPU whose kernel thread sends for the device "
                 "(sends_from_kernel_thread): it measures the scheduler's tick")


def this_device(rdmabench):
    """(sends from a kernel thread, fabric of its first ACTIVE port or None) of the device
    `rdmabench run` takes by default: the first `rdmabench devices --json` lists."""
    out = subprocess.run([rdmabench, "devices", "--json"], capture_output=True, text=True, check=True)
    devices = json.loads(out.stdout)["devices"]
    if not devices:
        return False, None
    first = devices[0]
    active = [p for p in first["ports"] if p["state"] == "ACTIVE"]
    return bool(first.get("sends_from_kernel_thread")), (active[0]["fabric"] if active else None)


def judge(pattern, mode, strategy, kernel_sender=False):
    """(kept, largest size or None, reason when left out) for one row in the deterministic guest."""
    spins = not strategy["blocks"] or (mode == "lat" and pattern["arrival"] == "marker")
    if not spins:
        return True, None, ""
    if kernel_sender:
        return False, None, KERNEL_SENDER
    if pattern["passive_target"][mode]:
        return True, SPIN_LIMIT, ""
    if mode == "lat" and pattern["arrival"] == "marker" and strategy["blocks"]:
        return False, None, "polls memory for the peer's marker whatever --cq, so it spins like busy"
    if mode == "lat":
        return False, None, "busy-CQ ping-pong measures QEMU's time slice (about 6 ms)"
    return False, None, "both sides spin, each paced by QEMU's vCPU switch"


def over(reg, transport):
    """The patterns that run over `transport` (None: every pattern, as over the default)."""
    if transport is None:
        return reg["patterns"]
    names = [t["name"] for t in reg["transports"]]
    if transport not in names:
        print(f"row_selection: no transport '{transport}' (registered: {', '.join(names)})",
              file=sys.stderr)
        raise SystemExit(2)
    return [p for p in reg["patterns"] if transport in p["transports"]]


# Measured 2026-11-25 (tools/gate reproducibility --deterministic): an event ping-pong over a
# transport without connections (ud) takes about 85 or about 107 us a message in this guest,
# and which most take moved with the port readings around the run (85, 107, then 86-93 us p50;
# send_imm 8 % between three boots), so its p50 cannot be judged at 2 %.
DATAGRAM_LAT = "an event ping-pong without connections is bimodal here (85 or 107 us a message): its p50 moves 8 % between boots"


def deterministic_rows(reg, transport=None, kernel_sender=False):
    """[(pattern, mode, cq, largest size or None)] and [(row, reason)] left out."""
    strategies = {s["name"]: s for s in reg["strategies"]}
    patterns = over(reg, transport)  # an unknown transport ends here, exit 2
    datagram = transport is not None and not next(
        t for t in reg["transports"] if t["name"] == transport)["connected"]
    kept, left_out = [], []
    for p in patterns:
        for mode in MODES:
            for cq in CQS:
                ok, limit, why = judge(p, mode, strategies[cq], kernel_sender)
                if ok and datagram and mode == "lat":
                    ok, limit, why = False, None, DATAGRAM_LAT
                row = f"{p['name']}/{mode}/{cq}"
                if ok:
                    kept.append((p["name"], mode, cq, limit))
                else:
                    left_out.append((row, why))
    return kept, left_out


def size_for(pattern, size):
    """`size`, or the nearest size the pattern accepts (the atomics take 8 bytes only)."""
    biggest = pattern["max_size"] if pattern["max_size"] is not None else size
    return min(max(size, pattern["min_size"]), biggest)


def deterministic_sizes(reg, bw_size, lat_size, transport=None, kernel_sender=False):
    """Every size the sized deterministic suite runs: bw_size and lat_size, or the nearest each
    pattern accepts, in increasing order (for --sizes)."""
    kept = deterministic_rows(reg, transport, kernel_sender)[0]
    patterns = {p["name"]: p for p in reg["patterns"]}
    return sorted({size_for(patterns[name], bw_size if mode == "bw" else lat_size)
                   for name, mode, _, _ in kept})


# Measured 2026-11-27 (four boots of the deterministic guest, the atomics' bw rows, three
# repetitions each): 200 messages of 8 bytes take about 18 ms of guest time, and a row's median
# moved up to 1.9 % between boots, against the gate's 2 %; 2000 messages (about 180 ms) moved
# it 0.4 % at most. A repetition now and then stalls (0.050 against 0.085 MiB/s): the median of
# three leaves one out.
SHORT_BW_MESSAGES = 2000


def short_bw(pattern, mode, bw_size):
    """Whether a bw row carries less than bw_size a message: its pattern cannot (the atomics'
    8 bytes), so the suite's message count moves too few bytes for a steady figure."""
    return mode == "bw" and size_for(pattern, bw_size) < bw_size


def deterministic_filter(reg, bw_size=None, lat_size=None, transport=None, kernel_sender=False,
                         short=None, ran=None):
    """A --benchmark_filter for the rows the deterministic guest can measure; with sizes, only
    bw rows of bw_size and lat rows of lat_size (each at most SPIN_LIMIT), or for a pattern that
    refuses it, the nearest size it accepts. With short True or False, only the rows that are
    (or are not) short_bw ones; with ran (a set of pattern names), only those patterns' rows;
    an empty string when no row is left."""
    rows = []
    patterns = {p["name"]: p for p in reg["patterns"]}
    for pattern, mode, cq, limit in deterministic_rows(reg, transport, kernel_sender)[0]:
        if ran is not None and pattern not in ran:
            continue
        if bw_size is not None:
            if short is not None and short_bw(patterns[pattern], mode, bw_size) != short:
                continue
            size = size_for(patterns[pattern], bw_size if mode == "bw" else lat_size)
            rows.append(f"{pattern}/{mode}/{cq}/{size}")
        else:
            rows.append(f"{pattern}/{mode}/{cq}/{UP_TO_SPIN_LIMIT if limit else '[0-9]+'}")
    return "^(" + "|".join(rows) + ")/" if rows else ""


def study_strategies(reg, patterns=None, mode="lat", kernel_sender=False):
    """The CQ choices of the polling study (`rdmabench study polling`'s own, as the engine reports
    them) that the deterministic guest can measure for every one of `patterns` (names; None: the
    study's own) in `mode`, as --cq spells them, and [(choice, reason)] for those left out: a
    choice is kept where each side's strategy is."""
    study = reg["polling_study"]
    patterns = study["patterns"] if patterns is None else patterns
    by_name = {p["name"]: p for p in reg["patterns"]}
    unknown = [name for name in patterns if name not in by_name]
    if unknown:
        print(f"row_selection: no pattern {', '.join(unknown)} (registered: "
              f"{', '.join(by_name)})", file=sys.stderr)
        raise SystemExit(2)
    strategies = {s["name"]: s for s in reg["strategies"]}
    kept, left_out = [], []
    for choice in study["cq"]:
        reasons = [why for name in patterns for side in ("client", "server")
                   for ok, _, why in [judge(by_name[name], mode, strategies[choice[side]],
                                            kernel_sender)] if not ok]
        if reasons:
            left_out.append((choice["choice"], reasons[0]))
        else:
            kept.append(choice["choice"])
    return kept, left_out


def sizes_filter(reg, bw_size, lat_size):
    """Every pattern and CQ choice, bw rows at bw_size and lat rows at lat_size."""
    names = "|".join(p["name"] for p in reg["patterns"])
    return f"^({names})/(bw/[^/]+/{bw_size}|lat/[^/]+/{lat_size})/"


def patterns_in(results):
    """The patterns a results file (rdmabench run --out) holds rows of, read and checked as
    tools/compare reads one; its one-line error, made printable, and exit code otherwise."""
    try:
        return set(rr.load(results).patterns)
    except rr.ResultsError as e:
        print(f"row_selection: {excerpt(str(e), 500)}", file=sys.stderr)
        raise SystemExit(e.exit_code) from None


def datagram_transports(reg, fabric=None):
    """The registered transports without connections; with `fabric`, those it carries."""
    return [t["name"] for t in reg["transports"]
            if not t["connected"] and (fabric is None or fabric in t["fabrics"])]


def left_out_lines(reg, kernel_sender=False, datagram=()):
    """What the deterministic guest cannot measure, a line each with the reason: the rows left
    out, each datagram transport's bimodal lat rows, and the size spinning rows stop at."""
    lines = [f"{row}: {why}" for row, why in deterministic_rows(reg, None, kernel_sender)[1]]
    for t in datagram:
        lines += [f"{row}/{t}: {why}" for row, why in deterministic_rows(reg, t, kernel_sender)[1]
                  if why == DATAGRAM_LAT]
    if any(limit for *_, limit in deterministic_rows(reg, None, kernel_sender)[0]):
        lines.append(f"spinning rows against a passive target above {SPIN_LIMIT // 1024} KiB: "
                     "no longer scale with the guest's time per instruction")
    return lines


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rdmabench")
    parser.add_argument("what", choices=("deterministic", "deterministic-sizes", "left-out", "sizes",
                                         "datagram-transports", "short-bw-messages",
                                         "study-strategies"))
    parser.add_argument("--bw-size", type=int)
    parser.add_argument("--lat-size", type=int)
    parser.add_argument("--transport")
    parser.add_argument("--short-bw", choices=("yes", "no"),
                        help="deterministic with sizes: only the bw rows whose pattern cannot carry "
                             "--bw-size (yes), or every other row (no)")
    parser.add_argument("--ran", metavar="RESULTS",
                        help="only the patterns this results file holds rows of (those the device "
                             "ran: siw has no atomics, which the engine leaves out)")
    parser.add_argument("--patterns",
                        help="study-strategies: the study's patterns (default: rdmabench study "
                             "polling's own)")
    parser.add_argument("--this-device", action="store_true",
                        help="judge by the facts of the device rdmabench run takes here")
    args = parser.parse_args(argv)
    if (args.bw_size is None) != (args.lat_size is None) or \
            (args.what in ("sizes", "deterministic-sizes") and args.bw_size is None):
        parser.error("give --bw-size and --lat-size together")
    for size in (args.bw_size, args.lat_size):
        if size is not None and not 1 <= size <= SPIN_LIMIT and args.what.startswith("deterministic"):
            parser.error(f"sizes must be 1..{SPIN_LIMIT} in the deterministic guest")
    if args.what == "short-bw-messages":  # the suite's own figure: nothing to ask the engine
        print(SHORT_BW_MESSAGES)
        return 0
    reg = registry(args.rdmabench)
    kernel_sender, fabric = this_device(args.rdmabench) if args.this_device else (False, None)
    datagram = datagram_transports(reg, fabric)
    if args.short_bw and (args.what != "deterministic" or args.bw_size is None):
        parser.error("--short-bw goes with deterministic --bw-size N --lat-size N")
    if args.what == "deterministic":
        short = None if args.short_bw is None else args.short_bw == "yes"
        print(deterministic_filter(reg, args.bw_size, args.lat_size, args.transport, kernel_sender,
                                   short, patterns_in(args.ran) if args.ran else None))
    elif args.what == "deterministic-sizes":
        print(",".join(map(str, deterministic_sizes(reg, args.bw_size, args.lat_size, args.transport,
                                                    kernel_sender))))
    elif args.what == "study-strategies":
        patterns = args.patterns.split(",") if args.patterns else None
        kept, left_out = study_strategies(reg, patterns, "lat", kernel_sender)
        for name, why in left_out:
            print(f"{name}: {why}", file=sys.stderr)
        print(";".join(kept))
    elif args.what == "datagram-transports":
        print(" ".join(datagram))
    elif args.what == "sizes":
        print(sizes_filter(reg, args.bw_size, args.lat_size))
    else:
        for line in left_out_lines(reg, kernel_sender, datagram):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
