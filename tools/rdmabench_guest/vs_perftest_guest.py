"""Runs inside the rxe guest (see tools/vs-perftest): perftest and rdmabench on the same rxe
device, alternating, with matching sizes, iterations, tx depth and signalling; prints
rdmabench/perftest ratios as the median and range over the rounds, each saying which way is
better (tools/rdmabench_tools/ratio_words.py).

Usage: tools/lib/run-module rdmabench_guest.vs_perftest_guest BUILD --rounds R --bw-iters N --lat-iters N [--scale-out]
                           [--match REGEX] [--fabric rxe|siw]

Figures, in the same units for both tools:
- bandwidth in MiB/s (perftest's "MB/sec" is 2^20 bytes per second);
- latency: perftest's t_typical (its median) against rdmabench's p50;
- CPU per message of the client and of the server process: total user+system CPU time
  (getrusage of each process), measured at N and at 2N messages; the difference divided by
  N leaves setup and teardown out for both tools alike. A difference below zero (the 2N run
  took less CPU than the N run: noise larger than the work) is a failed measurement, shown as
  such and never as a figure.
In the deterministic guest (tools/rxe-vm --deterministic) only the cases it can measure run:
no busy polling where the peer's user space must act (docs/soft-roce.md, "Choosing a mode").
--scale-out runs the scale-out cases instead: several QPs (-q 4 / --qps 4), both directions
(-b / --bidir; both tools report the sum) and a timed latency window (-D / --duration, with
the same margin: perftest's -f). A timed case is run once per round (no CPU figures: its
message count is not fixed), and compares perftest's t_avg, the only latency -D reports,
with our mean.
--fabric siw runs in the siw guest (tools/rxe-vm -m veth --fabric siw): both tools over rdma_cm
(perftest -R) from siw1 to siw0 at 10.99.0.1, the cases both carry there (rc send, write and
read; siw has no atomics, no immediate data, no UD or UC).
"""
import argparse
import dataclasses
import json
import math
import os
import re
import statistics
import subprocess
import tempfile
from pathlib import Path

from rdmabench_guest import server_harness
from rdmabench_tools import ratio_words, text_table
from rdmabench_tools.printable_text import excerpt
from rdmabench_guest.rxe_guest import deterministic_guest, lift_memlock
from rdmabench_tools.command_words import replacing

TX_DEPTH = 128
PERFTEST_SIGNAL_EVERY = 100  # perftest's default --cq-mod in bw tests
PERFTEST_MODERATION_LIMIT = 8192  # B: above it perftest signals every send (MSG_SIZE_CQ_MOD_LIMIT)
PERFTEST_PORT, OUR_PORT = 18750, 18760  # perftest's default 18515 is rdmabench's too
MIB = 1 << 20


@dataclasses.dataclass
class Case:
    label: str
    tool: str      # perftest binary
    pattern: str   # rdmabench pattern
    mode: str      # bw or lat
    cq: str        # busy or event (perftest -e)
    size: int
    perftest_args: tuple = ()  # what the case adds on each tool's command line
    our_args: tuple = ()
    duration: int = 0          # s: a timed window (-D / --duration) with DURATION_MARGIN
    tx_depth: int = TX_DEPTH   # bw: perftest -t, our --tx-depth


DURATION_MARGIN = 1  # s, perftest's -f (whole seconds) and our --margin


# The atomics: 8-byte operands, with the same reads and atomics in flight on both tools
# (perftest's -o defaults to the device's most, 128 on rxe; ours to at most 16).
FADD, CSWAP = ("-A", "FETCH_AND_ADD", "-o", "16"), ("-A", "CMP_AND_SWAP", "-o", "16")
OUTS = ("--outs", "16")
ATOMIC_BW = [
    Case("fetch_add bw 8B", "ib_atomic_bw", "fetch_add", "bw", "busy", 8, FADD, OUTS),
    Case("compare_swap bw 8B", "ib_atomic_bw", "compare_swap", "bw", "busy", 8, CSWAP, OUTS),
]

# Issue 19's new operations: UC, a post list, inline off (perftest -I 0; both tools inline a
# 2-byte payload by default).
# perftest -l N (N > 1) asks for a completion every N sends unless told (--cq-mod must divide
# N): rdmabench is given the same signalling.
UC = (("-c", "UC"), ("--transport", "uc"))
UD = (("-c", "UD"), ("--transport", "ud"))  # 4 KiB: one packet at the guest's 4096 MTU
SRQ = (("--use-srq",), ("--srq",))
POST_LIST_8 = (("-l", "8"), ("--post-list", "8", "--signal-every", "8"))
NO_INLINE = (("-I", "0"), ("--inline", "0"))
NEW_OPERATIONS = [
    Case("write bw 64K -c UC", "ib_write_bw", "write", "bw", "busy", 65536, *UC),
    Case("write bw 64B -l 8", "ib_write_bw", "write", "bw", "busy", 64, *POST_LIST_8),
]

ORDINARY = [
    Case("write bw 64K", "ib_write_bw", "write", "bw", "busy", 65536),
    Case("read bw 64K", "ib_read_bw", "read", "bw", "busy", 65536),
    Case("send bw 4K", "ib_send_bw", "send", "bw", "busy", 4096),
    Case("send lat 2B", "ib_send_lat", "send", "lat", "busy", 2),
    Case("write lat 2B", "ib_write_lat", "write", "lat", "busy", 2),
    # Issue 19 item 7: our samples on the TSC too, as perftest's always are (this guest's TSC is
    # not invariant by CPUID, so --clock auto keeps CLOCK_MONOTONIC, an emulated HPET here).
    Case("send lat 2B --clock tsc", "ib_send_lat", "send", "lat", "busy", 2, (), ("--clock", "tsc")),
    Case("write lat 2B --clock tsc", "ib_write_lat", "write", "lat", "busy", 2, (), ("--clock", "tsc")),
    *ATOMIC_BW,
    Case("fetch_add lat 8B", "ib_atomic_lat", "fetch_add", "lat", "busy", 8, FADD, OUTS),
    Case("compare_swap lat 8B", "ib_atomic_lat", "compare_swap", "lat", "busy", 8, CSWAP, OUTS),
    *NEW_OPERATIONS,
    Case("send lat 2B -I 0", "ib_send_lat", "send", "lat", "busy", 2, *NO_INLINE),
    Case("send bw 4K -c UD", "ib_send_bw", "send", "bw", "busy", 4096, *UD),
    Case("send bw 4K --use-srq", "ib_send_bw", "send", "bw", "busy", 4096, *SRQ),
]
# The target of write and read bw is passive, so busy polling is meaningful there; send needs
# the server's user space, so it runs with events on both tools.
DETERMINISTIC = [
    Case("write bw 64K", "ib_write_bw", "write", "bw", "busy", 65536),
    Case("read bw 64K", "ib_read_bw", "read", "bw", "busy", 65536),
    Case("send bw 4K -e", "ib_send_bw", "send", "bw", "event", 4096),
    Case("send lat 2B -e", "ib_send_lat", "send", "lat", "event", 2),
    Case("read lat 2B -e", "ib_read_lat", "read", "lat", "event", 2),
    *ATOMIC_BW,  # the target is passive, as for read
    Case("fetch_add lat 8B -e", "ib_atomic_lat", "fetch_add", "lat", "event", 8, FADD, OUTS),
    Case("compare_swap lat 8B -e", "ib_atomic_lat", "compare_swap", "lat", "event", 8, CSWAP,
         OUTS),
    *NEW_OPERATIONS,  # write's target is passive
    Case("send lat 2B -e -I 0", "ib_send_lat", "send", "lat", "event", 2, *NO_INLINE),
    Case("send bw 4K -e -c UD", "ib_send_bw", "send", "bw", "event", 4096, *UD),
    Case("send bw 4K -e --use-srq", "ib_send_bw", "send", "bw", "event", 4096, *SRQ),
]

# siw (iWARP): rc send, write and read only; busy polling where the ordinary guest allows it,
# events where the deterministic guest needs them (the target of write and read is passive).
# The latency cases also with our samples on the TSC, as perftest's always are (rxe's above):
# the siw guest's CLOCK_MONOTONIC is the HPET, a system call and an emulated read, twice a
# round trip.
SIW_ORDINARY = [c for c in ORDINARY if c.label in ("write bw 64K", "read bw 64K", "send bw 4K",
                                                   "send lat 2B", "write lat 2B",
                                                   "send lat 2B --clock tsc",
                                                   "write lat 2B --clock tsc")] + [
    Case("read lat 2B", "ib_read_lat", "read", "lat", "busy", 2),
    Case("read lat 2B --clock tsc", "ib_read_lat", "read", "lat", "busy", 2, (), ("--clock", "tsc"))]
# The deterministic guest measures siw's event latency only. Its busy bw rows are the
# scheduler's, not the software's: siw sends from a kernel thread on the sender's CPU (siw_tx),
# which a busy-polling sender holds until the tick, so write and read bw 64 KiB came out at
# 11.62 MiB/s for perftest (one 64 KiB message a tick, read and write alike) and 21.5-45.0 for
# rdmabench (measured 2026-11-26); perftest has no events for write and read (-e is refused),
# and its ib_send_bw -e -R client never finished there pinned as placement() pins both tools
# (server CPU 0, client CPU 1; killed after 300 s, 50 messages; unpinned it finished, and so
# did rdmabench pinned). Bandwidth on siw: the ordinary guest, over alternating rounds.
SIW_DETERMINISTIC = [
    Case("send lat 2B -e", "ib_send_lat", "send", "lat", "event", 2),
    Case("read lat 2B -e", "ib_read_lat", "read", "lat", "event", 2),
]

# --post-list-curve: 2-byte writes (busy; the target is passive) chained 1 to 32 per post on
# both tools (perftest -l), with perftest's signalling on both: a completion every N sends for
# a list of N > 1, every 100 without one.
POST_LIST_CURVE = [
    Case(f"write bw 2B -l {n}", "ib_write_bw", "write", "bw", "busy", 2,
         ("-l", str(n)) if n > 1 else (),
         ("--post-list", str(n), "--signal-every", str(n)) if n > 1 else ())
    for n in (1, 2, 4, 8, 16, 32)
]


SCALE_OUT = [
    Case("write bw 64K -q 4", "ib_write_bw", "write", "bw", "busy", 65536, ("-q", "4"),
         ("--qps", "4")),
    Case("write bw 64K -b", "ib_write_bw", "write", "bw", "busy", 65536, ("-b",), ("--bidir",)),
    Case("send bw 4K -b", "ib_send_bw", "send", "bw", "busy", 4096, ("-b",), ("--bidir",)),
    Case("write lat 2B -D 4", "ib_write_lat", "write", "lat", "busy", 2, (), (), 4),
]


@dataclasses.dataclass(frozen=True)
class Fabric:
    """Where both tools run in the guest, and how each connects there."""
    host: str            # the server's address
    server_device: str   # perftest -d on each side
    client_device: str
    perftest_connect: tuple  # perftest: a GID index (RoCE) or rdma_cm (-R)
    our_connect: tuple       # rdmabench run: its bootstrap


# rxe on lo (one device, out of band: rdma_cm cannot route 127.0.0.1), and siw between the veth
# guest's two hosts (iWARP connects through rdma_cm only).
FABRICS = {"rxe": Fabric("127.0.0.1", "rxe0", "rxe0", ("-x", "1"), ("--cm", "oob")),
           "siw": Fabric("10.99.0.1", "siw0", "siw1", ("-R",), ("--cm", "rdmacm"))}
FABRIC = FABRICS["rxe"]  # main() sets the one asked for


class ToolExited(RuntimeError):
    """A run that exited with an error: its exit status and the end of its standard error."""

    def __init__(self, proc, said):
        super().__init__(f"{' '.join(map(str, proc.args))} exited {proc.returncode}"
                         + (":\n" + said if said else ""))
        self.returncode, self.said = proc.returncode, said

    def last_words(self):
        """The last three lines it wrote to its standard error, joined and made printable."""
        last = " / ".join(l.strip() for l in self.said.splitlines()[-3:] if l.strip())
        return excerpt(last or "nothing", 200)


def cpu_seconds(proc, errors=None):
    """Waits for proc; returns its user+system CPU seconds (and checks its exit status; a
    failure, ToolExited, quotes the end of `errors`, the file its standard error went to)."""
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        said = ""
        if errors is not None:
            errors.seek(0)
            said = errors.read()[-2000:]
        raise ToolExited(proc, said)
    return usage.ru_utime + usage.ru_stime


def placement():
    """(server prefix, client prefix): in the deterministic guest, both tools' servers run on
    CPU 0 and their clients on CPU 1, like two hosts. Left to the scheduler, client and server
    shared a CPU in some boots only, and event-CQ round trips moved by about 7 %; and sharing
    one changes the two tools' latency differently (send lat 2B -e: perftest 123 us, rdmabench
    91 us, both on CPU 0), so a ratio means something only with the same placement."""
    if not deterministic_guest():
        return [], []
    return ["taskset", "-c", "0"], ["taskset", "-c", "1"]


def run_pair(server_cmd, client_cmd, port, ready_timeout=10.0):
    """(client stdout, client CPU s, server CPU s) of one server/client pair; the server ends
    by itself after its one run (perftest; rdmabench serve --once)."""
    server_pin, client_pin = placement()
    with server_harness.Server(server_pin + server_cmd, port, ready_timeout=ready_timeout) as server, \
            tempfile.TemporaryFile(mode="w+") as errors:
        client = subprocess.Popen(client_pin + client_cmd, stdout=subprocess.PIPE,
                                  stderr=errors, text=True)
        out = client.stdout.read()
        client_cpu = cpu_seconds(client, errors)
        return out, client_cpu, cpu_seconds(server.proc)


def perftest_args(case, iters, device):
    """perftest's command line for `case` on `device` (the server's; the client adds the host)."""
    args = [case.tool, "-d", device, *FABRIC.perftest_connect, "-s", str(case.size), "-F",
            "-p", str(PERFTEST_PORT), *case.perftest_args]
    args += ["-D", str(case.duration), "-f", str(DURATION_MARGIN)] if case.duration else \
        ["-n", str(iters)]
    if case.mode == "bw":
        args += ["-t", str(case.tx_depth)]
    if case.cq == "event":
        args += ["-e"]
    return args


class ToolFailed(Exception):
    """One run of a tool that measured nothing: its round of the case is left out, and said."""


class RdmabenchFailed(ToolFailed):
    """A run of rdmabench that measured nothing: its round is left out like perftest's, and the
    script still ends in error after its table, since a failure of ours is a bug to look at."""


@dataclasses.dataclass(frozen=True)
class Missed:
    """A round of a case left out: which, why, and whether rdmabench was the tool that failed."""
    round: int  # from 1
    why: str
    ours: bool = False

    def __str__(self):
        return f"round {self.round}: {self.why}"


def missed(round_index, failure):
    """The Missed of round `round_index` (from 0) for `failure` (a ToolFailed)."""
    return Missed(round_index + 1, str(failure), isinstance(failure, RdmabenchFailed))


def failed_ours(left_out):
    """How many rounds rdmabench itself failed in, over `left_out` ({name: [Missed]})."""
    return sum(m.ours for why in left_out.values() for m in why)


def perftest(case, iters):
    """(figure, client CPU s, server CPU s); figure is MiB/s (bw) or median us (lat)."""
    def cmd(device):
        return ["timeout", "300", "stdbuf", "-oL", *perftest_args(case, iters, device)]
    try:
        out, client_cpu, server_cpu = run_pair(cmd(FABRIC.server_device),
                                               cmd(FABRIC.client_device) + [FABRIC.host],
                                               PERFTEST_PORT)
    except ToolExited as e:  # measured nothing (ib_read_lat -e on siw once: "Bad wc status 2")
        raise ToolFailed(f"{case.tool} exited {e.returncode}: {e.last_words()}") from e
    return perftest_figure(case, out), client_cpu, server_cpu


def perftest_figure(case, out):
    """The figure of perftest's output: MiB/s (bw) or median us (lat). ToolFailed when it
    printed no result line, or a figure that is not a number (ib_send_lat on siw once printed
    inf for every latency)."""
    number = r"(?:[\d.]+|-?inf|-?nan)"
    rows = [l.split() for l in out.splitlines()
            if re.match(rf"^\s*\d+\s+\d+\s+{number}(?:\s|$)", l)]
    if not rows:
        last = ([l for l in out.splitlines() if l.strip()] or ["nothing"])[-1]
        raise ToolFailed(f"{case.tool} printed no result line (its last: {excerpt(last, 200)})")
    # bw: from the column printed finer. MsgRate[Mpps] has 6 decimals, a step of one message a
    # second (size/2^20 MiB/s: 0.17 % of read bw 64 KiB's rate in the deterministic guest), BW
    # average[MB/sec] 2 decimals of MiB/s (perftest's MB is 2^20 bytes), a step of 2.5 % at 2 B:
    # the average is the finer above 0.01 x 2^20 bytes. lat: t_typical, or with -D t_avg (the
    # only latency it reports)
    if case.mode == "bw":
        average_finer = case.size / MIB > 0.01  # a message a second is more than its step
        figure = float(rows[-1][3]) if average_finer else float(rows[-1][4]) * 1e6 * case.size / MIB
    else:
        figure = float(rows[-1][2 if case.duration else 4])
    if not math.isfinite(figure) or figure <= 0:  # a rate of 0 measured nothing, as inf
        raise ToolFailed(f"{case.tool} printed {figure} as its figure")
    return figure


def perftest_option(case, *names):
    """The value `case` gives perftest for the option spelt any of `names`, or None."""
    args = case.perftest_args
    return next((value for word, value in zip(args, args[1:]) if word in names), None)


def perftest_signal_every(case):
    """A completion every how many sends perftest asks for in `case`: what its -Q says, else
    every send for a message above 8 KiB on a connected transport without events (perftest
    turns its moderation off there: on siw, ib_write_bw -s 65536 -n 3000 completed 3,032
    signalled writes), else every 100."""
    if (told := perftest_option(case, "-Q", "--cq-mod")) is not None:
        return int(told)
    if (case.size > PERFTEST_MODERATION_LIMIT and case.cq != "event"
            and perftest_option(case, "-c", "--connection") != "UD"):
        return 1
    return PERFTEST_SIGNAL_EVERY


def our_commands(build, case, iters, out):
    """(server, client) command lines of one rdmabench run of `case`, its results to `out`."""
    exe = str(build / "rdmabench")
    server = [exe, "serve", "--port", str(OUR_PORT), "--once", "--timeout", "60"]
    client = [exe, "run", FABRIC.host, *replacing(
        ["--port", OUR_PORT, *FABRIC.our_connect, "--timeout", "60", "--pattern", case.pattern,
         "--mode", case.mode, "--cq", case.cq, "--sizes", case.size, "--tx-depth", case.tx_depth,
         "--signal-every", perftest_signal_every(case), "--out", out], case.our_args)]
    client += ["--duration", str(case.duration), "--margin", str(DURATION_MARGIN)] \
        if case.duration else ["--iters", str(iters)]
    return server, client


def our_row(build, case, iters):
    """(result row, client CPU s, server CPU s) of one rdmabench run; RdmabenchFailed when it
    exited with an error, wrote no row, or its row says an error."""
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        server, client = our_commands(build, case, iters, f.name)
        try:
            _, client_cpu, server_cpu = run_pair(server, client, OUR_PORT)
        except ToolExited as e:
            raise RdmabenchFailed(f"rdmabench exited {e.returncode}: {e.last_words()}") from e
        try:
            row = json.load(open(f.name))["benchmarks"][0]
        except (ValueError, LookupError, TypeError) as e:
            raise RdmabenchFailed("rdmabench wrote no result row") from e
    if row.get("error_occurred"):
        raise RdmabenchFailed(f"rdmabench: {excerpt(str(row.get('error_message')), 200)}")
    return row, client_cpu, server_cpu


def ours(build, case, iters):
    """(figure, client CPU s, server CPU s); figure is MiB/s (bw) or median us (lat)."""
    row, client_cpu, server_cpu = our_row(build, case, iters)
    if case.mode == "bw":
        figure = row["bytes_per_second"] / MIB
    else:
        figure = row["lat_mean_us" if case.duration else "lat_p50_us"]
    return figure, client_cpu, server_cpu


def chain_of(case):
    """perftest's -l of a case (1 without): its iterations must be a multiple of it."""
    args = list(case.perftest_args)
    return int(args[args.index("-l") + 1]) if "-l" in args else 1


def whole_chains(case, iters):
    """`iters` rounded up to whole post lists, the same on both tools."""
    chain = chain_of(case)
    return -(-iters // chain) * chain


# A CPU-per-message figure that could not be measured: the 2N run took less CPU than the N run.
FAILED = float("nan")


def per_message(big_s, small_s, messages):
    """CPU us per message from the 2N and N runs' seconds; FAILED where it came out negative."""
    us = (big_s - small_s) / messages * 1e6
    return us if us >= 0 else FAILED


def measure(tool, case, iters):
    """figure at 2N messages, and client/server CPU us per message from N and 2N (a timed
    window: the figure alone)."""
    if case.duration:
        return tool(case, 0)[0], None, None
    fig, c2, s2 = tool(case, 2 * iters)
    _, c1, s1 = tool(case, iters)
    return fig, per_message(c2, c1, iters), per_message(s2, s1, iters)


# Below this CPU per message a side is passive (the target of write and read bw): its figure is
# setup noise, and a ratio of two such figures means nothing.
PASSIVE_CPU_US = 5.0


def failed(*figures):
    """Whether any of these CPU figures is a failed measurement (None: not measured)."""
    return any(f is not None and f != f for f in figures)


def cpu_ratio(theirs, mine):
    """rdmabench/perftest of one side's CPU per message: FAILED where either measurement
    failed, None where either side is passive (or a timed window measured none)."""
    if failed(theirs, mine):
        return FAILED
    if theirs is None or min(theirs, mine) < PASSIVE_CPU_US:
        return None
    return mine / theirs


def ratios(case, theirs, mine):
    """rdmabench/perftest of the figure and of each side's CPU per message."""
    return mine[0] / theirs[0], *(cpu_ratio(theirs[i], mine[i]) for i in (1, 2))


def spread_text(values):
    if failed(*values):
        return "measurement failed (2N run took less CPU than N)"
    if any(v is None for v in values):
        return "- (passive side)"
    return f"{statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f})"


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("build", type=Path)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--bw-iters", type=int, default=1000)
    p.add_argument("--lat-iters", type=int, default=1000)
    p.add_argument("--scale-out", action="store_true")
    p.add_argument("--post-list-curve", action="store_true")
    p.add_argument("--match", default="", help="only the cases whose label this regex finds")
    p.add_argument("--fabric", choices=sorted(FABRICS), default="rxe")
    return p.parse_args()


def alternate_rounds(args, cases):
    """({case label: [(perftest's figures, ours, ratios)]}, {case label: [why a round was left
    out, Missed]}), the two tools taking turns first. A round in which either tool measured
    nothing (ToolFailed) is left out of its case, said, and the rounds go on."""
    results = {c.label: [] for c in cases}
    left_out = {c.label: [] for c in cases}
    for r in range(args.rounds):
        for case in cases:
            iters = whole_chains(case, args.bw_iters if case.mode == "bw" else args.lat_iters)
            order = [perftest, lambda c, n: ours(args.build, c, n)]
            if r % 2:
                order.reverse()  # alternate which tool goes first
            try:
                first, second = [measure(t, case, iters) for t in order]
            except ToolFailed as e:
                left_out[case.label].append(missed(r, e))
                print(f"round {r + 1} {case.label}: not measured: {e}", flush=True)
                continue
            theirs, mine = (first, second) if r % 2 == 0 else (second, first)
            results[case.label].append((theirs, mine, ratios(case, theirs, mine)))
            print(f"round {r + 1} {case.label}: perftest {theirs[0]:.2f}, rdmabench {mine[0]:.2f}",
                  flush=True)
    return results, {label: why for label, why in left_out.items() if why}


def print_ratios(cases, results, left_out=None):
    """The table of ratios over the rounds each case measured (a round left out is said under
    it, and the case's rounds cell counts what was measured)."""
    left_out = left_out or {}
    head = ["test", "unit", "rounds", "perftest", "rdmabench", "rdmabench/perftest, median (range)",
            "which way", f"client CPU/msg rdmabench/perftest ({ratio_words.BELOW})",
            f"server CPU/msg rdmabench/perftest ({ratio_words.BELOW})"]
    body = []
    for case in cases:
        rows, missed = results[case.label], left_out.get(case.label, [])
        unit = "MiB/s" if case.mode == "bw" else "mean us" if case.duration else "p50 us"
        rounds = f"{len(rows)} of {len(rows) + len(missed)} rounds" if missed else str(len(rows))
        if not rows:
            body.append([case.label, unit, rounds, "-", "-", "not measured in any round",
                         ratio_words.better(case.mode == "bw"), "-", "-"])
            continue
        theirs = statistics.median(t[0][0] for t in rows)
        mine = statistics.median(t[1][0] for t in rows)
        cells = [spread_text([t[2][i] for t in rows]) for i in range(3)]
        body.append([case.label, unit, rounds, f"{theirs:.2f}", f"{mine:.2f}", cells[0],
                     ratio_words.better(case.mode == "bw"), cells[1], cells[2]])
    print("\n" + text_table.render(head, body))
    for label, why in left_out.items():
        for w in why:
            print(f"left out: {label} {w}")
    print("\nEvery ratio is rdmabench/perftest: bandwidth above 1 is better, latency and CPU per "
          "message below 1 is better. CPU per message: process CPU time at 2N minus at N messages,"
          f" over N; no ratio where either tool's side stays under {PASSIVE_CPU_US:g} us (a "
          "passive target).")


def print_rates_and_cpu(cases, results):
    small = [c for c in cases if c.mode == "bw" and c.size <= 64 and results[c.label]]
    if small:
        print("\nmessage rate (medians, thousand messages per second):")
    for case in small:
        rows = results[case.label]
        rate = [statistics.median(t[i][0] for t in rows) * MIB / case.size / 1e3 for i in (0, 1)]
        print(f"  {case.label:<20} perftest {rate[0]:9.2f}  rdmabench {rate[1]:9.2f}")
    for case in cases:
        rows = results[case.label]
        if case.duration or not rows:
            continue  # no CPU figures for a timed window, nor for a case never measured
        cpu = [[cpu_text([t[k][i] for t in rows]) for k in (0, 1)] for i in (1, 2)]
        print(f"  {case.label:<15} CPU us/msg, perftest and rdmabench: client {cpu[0][0]} and "
              f"{cpu[0][1]}, server {cpu[1][0]} and {cpu[1][1]}")


def cpu_text(values):
    """The median of one tool's CPU per message over the rounds, or that it failed."""
    if any(v != v for v in values):
        return "failed"
    return f"{statistics.median(values):.2f}"


def cases_of(args, deterministic):
    if args.fabric == "siw":
        if args.post_list_curve or args.scale_out:
            raise SystemExit("vs-perftest: --fabric siw runs the ordinary cases only")
        return SIW_DETERMINISTIC if deterministic else SIW_ORDINARY
    return POST_LIST_CURVE if args.post_list_curve else SCALE_OUT if args.scale_out \
        else DETERMINISTIC if deterministic else ORDINARY


def warm_up(build, cases):
    """One unmeasured run of every case with both tools: the first run of a binary reads its
    pages over 9p, which costs system time (and warps guest time in the deterministic guest).
    A warm-up that measured nothing (ToolFailed) is said and the rest go on: it is not a
    figure, and a round of the same case says whether the tool fails again."""
    for case in cases:
        warm = dataclasses.replace(case, duration=0)  # by count, however the case runs
        for name, tool in (("perftest", perftest), ("rdmabench", lambda c, n: ours(build, c, n))):
            try:
                tool(warm, whole_chains(case, 50))
            except ToolFailed as e:
                print(f"warm-up {case.label}: {name} measured nothing: {e}", flush=True)


def main():
    global FABRIC
    args = parse_args()
    FABRIC = FABRICS[args.fabric]
    if args.fabric == "siw":
        lift_memlock()  # both tools' runs register more than the guest's default limit
    deterministic = deterministic_guest()
    cases = cases_of(args, deterministic)
    cases = [c for c in cases if re.search(args.match, c.label)]
    if not cases:
        raise SystemExit(f"vs-perftest: no case matches --match {args.match!r}")
    warm_up(args.build, cases)
    print(f"{args.fabric}, {'deterministic guest (icount)' if deterministic else 'ordinary guest'}; "
          f"{args.rounds} alternating rounds; bw {args.bw_iters}/{2 * args.bw_iters} and lat "
          f"{args.lat_iters}/{2 * args.lat_iters} messages; tx depth {TX_DEPTH}, a completion "
          f"every {PERFTEST_SIGNAL_EVERY} sends on both, every send above "
          f"{PERFTEST_MODERATION_LIMIT // 1024} KiB (perftest's defaults)", flush=True)
    results, left_out = alternate_rounds(args, cases)
    print_ratios(cases, results, left_out)
    print_rates_and_cpu(cases, results)
    if any(not rows for rows in results.values()):
        raise SystemExit("vs-perftest: a case was not measured in any round (see above)")
    if failed_ours(left_out):
        raise SystemExit(f"vs-perftest: rdmabench failed in {failed_ours(left_out)} round(s) "
                         "(see 'left out' above)")


if __name__ == "__main__":
    main()
