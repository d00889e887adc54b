"""Runs inside the rxe guest (tools/vs-perftest --message-rate): the small-message rate each tool
reaches at its best settings, its CPU per message, and where the time per message goes.

Usage: tools/lib/run-module rdmabench_guest.message_rate_guest BUILD --rounds R [--messages M] [--match REGEX]

For 2 B and 64 B writes and sends (busy polling):
1. Selection: every candidate setting of each tool runs once with M messages (perftest: -l, -q
   and -t; rdmabench: --post-list, --qps, --threads and the server's CQ); each tool's fastest is
   its best.
2. Rounds: the two bests alternate (which goes first swaps each round), each run with 2M and with
   M messages. The rate is the 2M run's. CPU per message is the difference of the two runs over
   M, which leaves setup and teardown out:
   - of each process (getrusage at its exit; both tools);
   - of the whole guest, from /proc/stat (user, system, softirq and irq, idle: both CPUs), which
     shows where the time goes, kernel work in softirq included;
   - and for rdmabench also its own counters (client_cpu_us_per_msg, server_cpu_us_per_msg: its
     threads' CPU in the timed window), since its server's process CPU is mostly waiting that
     does not scale with M (the 2M-minus-M figure of `serve --once` came out negative).
   A difference is a measurement only when it is at least 0; below it (the 2M run took less
   than the M run: noise larger than the work) the report says the measurement failed and
   prints no figure. Beside it, the whole run's figure (the 2M run over its messages, setup
   included): never below 0, an upper bound.
3. The floor: at the best setting, the kernel's work per message (system + softirq + irq, whole
   guest) bounds the rate at CPUs / that work, whatever user space does; the report says how close
   each best comes to it, or that the measurement failed where the rate came out above it.
Every figure is the median over the rounds with its range; every ratio is rdmabench/perftest
and says which way is better (ratio_words.py).
"""
import argparse
import dataclasses
import os
import re
import statistics
from pathlib import Path

from rdmabench_tools import ratio_words
from rdmabench_guest import vs_perftest_guest as vs

WORKLOADS = [("write", "ib_write_bw", 2), ("write", "ib_write_bw", 64),
             ("send", "ib_send_bw", 2), ("send", "ib_send_bw", 64)]
LIST = 32  # the longest post list tried (perftest -l, our --post-list), signalled once per list
KINDS = ("user", "system", "softirq", "idle")


@dataclasses.dataclass
class Setting:
    tool: str       # "perftest" or "rdmabench"
    case: vs.Case   # its label is the setting's command-line text
    qps: int = 1
    chain: int = 1  # requests per post (perftest -l, our --post-list)


def perftest_settings(pattern, tool, size):
    """perftest's candidates: its defaults, then post lists and QPs with a deeper send queue."""
    def setting(qps, chain, tx_depth=512):
        args = (("-q", str(qps)) if qps > 1 else ()) + (("-l", str(chain)) if chain > 1 else ())
        label = " ".join(args + ("-t", str(tx_depth)))
        return Setting("perftest", vs.Case(label, tool, pattern, "bw", "busy", size, args, (),
                                           tx_depth=tx_depth), qps, chain)
    return [setting(1, 1, vs.TX_DEPTH), setting(4, 1), setting(1, LIST), setting(4, 8),
            setting(4, LIST)]


def our_settings(pattern, tool, size, post_api="auto"):
    """rdmabench's candidates: its defaults, then post lists, QPs and a second thread per side
    (also with the server sleeping on events, so two threads per side need not share two CPUs,
    and with the client yielding its CPU when a poll finds nothing, to the kernel's deferred
    work: rxe's tasklets and softirqs, which a busy poller holds off until the tick), each
    posting through `post_api` (--post-api)."""
    def setting(qps, threads, chain, cq="busy", tx_depth=512):
        args = (("--post-api", post_api) if post_api != "auto" else ()) + \
            (("--qps", str(qps)) if qps > 1 else ()) + \
            (("--threads", str(threads)) if threads > 1 else ()) + \
            (("--post-list", str(chain), "--signal-every", str(chain)) if chain > 1 else ())
        label = " ".join(args + (("--cq", cq) if cq != "busy" else ()) +
                         ("--tx-depth", str(tx_depth)))
        return Setting("rdmabench", vs.Case(label, tool, pattern, "bw", cq, size, (), args,
                                            tx_depth=tx_depth), qps, chain)
    return [setting(1, 1, 1, tx_depth=vs.TX_DEPTH), setting(1, 1, LIST), setting(4, 1, LIST),
            setting(2, 2, LIST), setting(4, 2, LIST),
            setting(4, 2, LIST, cq="client=busy,server=event"),
            setting(4, 2, LIST, cq="client=yield,server=event")]


def guest_cpu_seconds():
    """The whole guest's CPU seconds so far by kind (the first line of /proc/stat)."""
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    user, nice, system, idle, iowait, irq, softirq, steal = (int(f) for f in fields[:8])
    tick = os.sysconf("SC_CLK_TCK")
    return {"user": (user + nice) / tick, "system": system / tick,
            "softirq": (softirq + irq) / tick, "idle": (idle + iowait + steal) / tick}


@dataclasses.dataclass
class Run:
    rate: float       # messages per second
    client_s: float   # process CPU seconds
    server_s: float
    guest_s: dict     # whole-guest CPU seconds by kind
    row: dict = None  # rdmabench's result row


def one_run(build, setting, messages):
    """One run of `setting` with about `messages` messages in all (whole post lists per QP)."""
    per_qp = -(-messages // (setting.qps * setting.chain)) * setting.chain
    before = guest_cpu_seconds()
    row = None
    if setting.tool == "perftest":
        figure, client, server = vs.perftest(setting.case, per_qp)
    else:
        row, client, server = vs.our_row(build, setting.case, per_qp)
        figure = row["bytes_per_second"] / vs.MIB
    after = guest_cpu_seconds()
    guest = {k: after[k] - before[k] for k in KINDS}
    return Run(figure * vs.MIB / setting.case.size, client, server, guest, row), per_qp * setting.qps


@dataclasses.dataclass
class Sample:
    rate: float        # messages per second (the 2M run)
    client_us: float   # process CPU per message, 2M minus M
    server_us: float
    guest_us: dict     # whole-guest CPU per message by kind, 2M minus M
    engine_us: tuple   # rdmabench's client and server counters (None for perftest)
    whole_us: tuple    # client and server process CPU per message over the whole 2M run


def sample(build, setting, messages):
    """The 2M and M runs of `setting`, as per-message figures."""
    big, big_msgs = one_run(build, setting, 2 * messages)
    small, small_msgs = one_run(build, setting, messages)
    extra = (big_msgs - small_msgs) / 1e6
    engine = (big.row["client_cpu_us_per_msg"], big.row["server_cpu_us_per_msg"]) \
        if big.row else (None, None)
    return Sample(big.rate, (big.client_s - small.client_s) / extra,
                  (big.server_s - small.server_s) / extra,
                  {k: (big.guest_s[k] - small.guest_s[k]) / extra for k in KINDS}, engine,
                  (big.client_s / big_msgs * 1e6, big.server_s / big_msgs * 1e6))


def select_best(build, workload, messages, post_api):
    """Each tool's fastest candidate for `workload`, after one run of each (printed)."""
    pattern, tool, size = workload
    best = {}
    for settings in (perftest_settings(pattern, tool, size),
                     our_settings(pattern, tool, size, post_api)):
        one_run(build, settings[0], 1000)  # a binary's first run reads its pages over 9p
        for s in settings:
            try:
                rate = one_run(build, s, messages)[0].rate
            except vs.ToolFailed as e:
                print(f"  {s.tool:<9} {s.case.label:<72} not measured: {e}", flush=True)
                continue
            print(f"  {s.tool:<9} {s.case.label:<72} {rate / 1e3:8.1f}k msg/s", flush=True)
            if s.tool not in best or rate > best[s.tool][1]:
                best[s.tool] = (s, rate)
        if settings[0].tool not in best:
            raise SystemExit(f"vs-perftest: no {settings[0].tool} candidate measured anything")
    return best["perftest"][0], best["rdmabench"][0]


def spread(values, digits=3):
    """Median (range) of the rounds' figures; a figure below 0 is a failed measurement."""
    if any(v < 0 for v in values):
        return "measurement failed (the 2M run took less than the M run)"
    return f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"


def cpu_lines(tool, runs):
    """Process CPU per message of one tool: 2M minus M, and over the whole 2M run."""
    line = (f"  process CPU us/msg, {tool:<9}: client {spread([s.client_us for s in runs], 2)}, "
            f"server {spread([s.server_us for s in runs], 2)}; whole run client "
            f"{spread([s.whole_us[0] for s in runs], 2)}, server "
            f"{spread([s.whole_us[1] for s in runs], 2)}")
    if runs[0].engine_us[0] is not None:
        line += (f"; its own counters client {spread([s.engine_us[0] for s in runs], 2)}, "
                 f"server {spread([s.engine_us[1] for s in runs], 2)}")
    return [line]


def floor_text(runs):
    """The kernel floor of one tool's best (the guest's CPUs over system + softirq per message)
    and how close its rate came, or why that could not be measured."""
    kernel = [s.guest_us["system"] + s.guest_us["softirq"] for s in runs]
    if min(kernel) <= 0:
        return "kernel floor: measurement failed (kernel time per message not above 0)"
    cpus = len(os.sched_getaffinity(0))
    reached = [s.rate / (cpus / k * 1e6) for s, k in zip(runs, kernel)]
    if max(reached) > 1:
        return (f"kernel floor: measurement failed (a round's rate came out at {max(reached):.0%}"
                " of its floor: the guest's CPU time undercounted the kernel's work)")
    floor = cpus / statistics.median(kernel) * 1e6
    return f"kernel floor {floor / 1e3:.1f}k msg/s, reached {spread(reached, 2)} of it"


def alternate_rounds(build, best, rounds, messages):
    """({workload: {tool: [Sample]}}, {workload: [why a round was left out]}): the two bests of
    each workload taking turns first. A round in which a tool measured nothing (ToolFailed) is
    left out of its workload, both tools' samples of it, said, and the rounds go on."""
    samples = {name: {"perftest": [], "rdmabench": []} for name in best}
    left_out = {name: [] for name in best}
    for r in range(rounds):
        for name, pair in best.items():
            order = list(pair) if r % 2 == 0 else list(reversed(pair))
            try:
                got = {s.tool: sample(build, s, messages) for s in order}
            except vs.ToolFailed as e:
                left_out[name].append(vs.missed(r, e))
                print(f"round {r + 1} {name}: not measured: {e}", flush=True)
                continue
            for tool, s in got.items():
                samples[name][tool].append(s)
            print(f"round {r + 1} {name}: perftest {got['perftest'].rate / 1e3:.1f}k, "
                  f"rdmabench {got['rdmabench'].rate / 1e3:.1f}k msg/s", flush=True)
    return samples, {name: why for name, why in left_out.items() if why}


def report_workload(name, best, samples, left_out=(), rounds=None):
    """The rate ratio, CPU per message and where the time goes, for one workload, over the
    rounds it measured (`left_out`: why the others were not); False when it measured none."""
    theirs, mine = samples["perftest"], samples["rdmabench"]
    if not theirs:
        print(f"\n{name}: not measured in any round ({'; '.join(map(str, left_out))})")
        return False
    ratios = [m.rate / t.rate for t, m in zip(theirs, mine)]
    counted = f", {len(ratios)} of {rounds} rounds" if rounds and len(ratios) < rounds else ""
    print(f"\n{name}: perftest `{best[0].case.label}`, rdmabench `{best[1].case.label}`")
    print(f"  rate, k msg/s: perftest {spread([s.rate / 1e3 for s in theirs], 1)}, rdmabench "
          f"{spread([s.rate / 1e3 for s in mine], 1)}; "
          f"{ratio_words.label('message rate', True)} {spread(ratios)}{counted}")
    for why in left_out:
        print(f"  left out: {why}")
    for tool, runs in samples.items():
        print("\n".join(cpu_lines(tool, runs)))
    for tool, runs in samples.items():
        parts = ", ".join(f"{k} {spread([s.guest_us[k] for s in runs], 2)}" for k in KINDS)
        print(f"  whole guest us/msg, {tool:<9}: {parts}; {floor_text(runs)}")
    return True


def main():
    p = argparse.ArgumentParser()
    p.add_argument("build", type=Path)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--messages", type=int, default=100000)
    p.add_argument("--match", default="", help="only the workloads whose name this regex finds")
    p.add_argument("--post-api", default="auto", choices=("auto", "ex", "classic"),
                   help="how rdmabench posts in every candidate (its --post-api)")
    args = p.parse_args()
    workloads = {f"{pat} bw {size}B": (pat, tool, size) for pat, tool, size in WORKLOADS
                 if re.search(args.match, f"{pat} bw {size}B")}
    if not workloads:
        raise SystemExit(f"vs-perftest: no message-rate workload matches --match {args.match!r}")
    print(f"ordinary guest; busy polling; rdmabench --post-api {args.post_api}; "
          f"{args.messages} messages per selection run, "
          f"{2 * args.messages}/{args.messages} per round; {args.rounds} alternating rounds",
          flush=True)
    best = {}
    for name, workload in workloads.items():
        print(f"selection, {name}:", flush=True)
        best[name] = select_best(args.build, workload, args.messages, args.post_api)
    samples, left_out = alternate_rounds(args.build, best, args.rounds, args.messages)
    measured = [report_workload(name, best[name], samples[name], left_out.get(name, ()),
                                args.rounds) for name in workloads]
    print("\nCPU per message: the run with 2M messages minus the one with M, over M. Whole guest:"
          " /proc/stat over both runs' client, server and kernel alike (softirq includes irq;"
          " idle includes iowait and steal); the kernel floor is the CPUs over system + softirq"
          " per message, the rate no user space can pass on this guest.")
    if not all(measured):
        raise SystemExit("vs-perftest: a workload was not measured in any round (see above)")
    if vs.failed_ours(left_out):
        raise SystemExit(f"vs-perftest: rdmabench failed in {vs.failed_ours(left_out)} round(s) "
                         "(see 'left out' above)")


if __name__ == "__main__":
    main()
