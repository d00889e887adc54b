"""Runs inside the rxe guest (tools/vs-perftest --cost): what each tool spends per message,
counted rather than timed, so that it says on any machine what rdmabench itself costs:
- user-space instructions: valgrind --tool=cachegrind's total without its cache simulation
  (every instruction the process runs in user space, its libraries and the verbs provider
  included; the kernel's work is not in it);
- system calls: perf stat's count of the kernel's raw_syscalls:sys_enter tracepoint (every
  thread; the process never stopped, where strace stops it at each call and moved how a blocking
  receiver's completions batch), less gettimeofday (perftest's clock calibration, NOT_COUNTED),
  with the commonest calls by name beside it.
Each side (client and server) of each tool runs under the counter at N and at 2N messages; the
difference over N leaves setup and teardown out. A difference below 0 is a failed measurement,
shown as such, never as a figure. Three tools per case: perftest (its default post path, the
extended API), rdmabench (--post-api auto, the extended API where the device has it) and
rdmabench --post-api classic (ibv_post_send). The cases: vs-perftest's for the guest, and 2 B
and 64 B sends with a post list of 32 (the small-message rate's best settings).

Usage: tools/lib/run-module rdmabench_guest.cost_guest BUILD [--messages N] [--match REGEX]
                                                         [--keep-profiles DIR]
                                                         [--boot I --save FILE]

--boot I: this guest is boot I of several (tools/vs-perftest --cost --boots): the tools take
their turns in an order rotated by I, so that over the boots each runs first, second and last.
--save FILE: the counts per message as JSON, for rdmabench_guest.cost_boots to take medians of.

--keep-profiles DIR keeps every count's file: the cachegrind file (DIR/CASE/TOOL-SIDE-ITERS, for
cg_annotate: where each side spends its instructions, by function) and perf stat's counts
(DIR/CASE/TOOL-SIDE-ITERS.syscalls: its system calls in all, and the commonest by name).

Busy polling counts its empty polls too: a spinning side's instructions per message include
the polls that found nothing, which depend on how fast the other side answers (in the
deterministic guest, reproducibly so).
"""
import argparse
import dataclasses
import json
import re
import shutil
import tempfile
from pathlib import Path

from rdmabench_tools import ratio_words, text_table
from rdmabench_guest import vs_perftest_guest as vs
from rdmabench_guest.rxe_guest import deterministic_guest

SIDES = ("client", "server")
# Issue 35 item 3: the small sends whose rate falls short of 1.5x perftest's, counted with the
# post list of their best settings (events, so the deterministic guest can run them).
LIST_32 = (("-l", "32"), ("--post-list", "32", "--signal-every", "32"))
SMALL_SENDS = [vs.Case(f"send bw {n}B -e -l 32", "ib_send_bw", "send", "bw", "event", n, *LIST_32)
               for n in (2, 64)]
CLASSIC = ("--post-api", "classic")
READY_TIMEOUT = 300.0  # s: a server under valgrind takes tens of seconds to listen
# The calls perf stat also counts by name, for a reader of a kept file. The count is every call
# but gettimeofday: perftest's clock calibration at start (get_clock.c, sample_get_cpu_mhz) reads
# it in a loop for a fixed 0.2 s, as many calls as the guest's speed allows whatever the messages
# (41,560 to 42,693 a run of its receiver in the deterministic guest, perf stat, 2026-12-06), which
# the N and 2N runs' difference does not cancel; rdmabench never calls it.
NOT_COUNTED = "gettimeofday"
NAMED_CALLS = (NOT_COUNTED, "read", "write", "ioctl", "poll", "ppoll", "epoll_wait",
               "clock_gettime", "futex", "sendto", "recvfrom", "sched_yield", "nanosleep",
               "clock_nanosleep")
ALL_CALLS = "raw_syscalls:sys_enter"


def perf_count(text, event):
    """The count perf stat -x , wrote for `event`, or None (absent, or "<not counted>")."""
    m = re.search(rf"^(\d+),[^,\n]*,{re.escape(event)},", text, re.M)
    return int(m.group(1)) if m else None


@dataclasses.dataclass(frozen=True)
class Counter:
    name: str    # what the table calls it
    unit: str

    def prefix(self, out):
        """The command that runs a process under this counter, its count to file `out`."""
        if self.name == "instructions":
            return ["valgrind", "--tool=cachegrind", "--cache-sim=no",
                    f"--cachegrind-out-file={out}", "-q"]
        named = [a for call in NAMED_CALLS for a in ("-e", f"syscalls:sys_enter_{call}")]
        return ["perf", "stat", "-x", ",", "-o", str(out), "-e", ALL_CALLS, *named, "--"]

    def read(self, out):
        """The count the counter left in `out`."""
        text = Path(out).read_text()
        if self.name == "instructions":
            m = re.search(r"^summary:\s+(\d+)", text, re.M)
            if not m:
                raise RuntimeError(f"no total in {out}:\n{text[-1500:]}")
            return int(m.group(1))
        total = perf_count(text, ALL_CALLS)
        if total is None:
            raise RuntimeError(f"no total in {out}:\n{text[-1500:]}")
        left_out = perf_count(text, f"syscalls:sys_enter_{NOT_COUNTED}")
        if left_out is None:
            raise RuntimeError(f"no count of {NOT_COUNTED} in {out}:\n{text[-1500:]}")
        return total - left_out


COUNTERS = (Counter("instructions", "user-space instructions/msg"),
            Counter("syscalls", "system calls/msg"))


TOOL_NAMES = ("perftest", "rdmabench", "rdmabench classic")  # tools() in this order


def tools(build):
    """(name, commands(case, iters, tmp) -> (server, client, port)) of the three tools."""
    def perftest(case, iters, tmp):
        fabric = vs.FABRIC
        return (vs.perftest_args(case, iters, fabric.server_device),
                vs.perftest_args(case, iters, fabric.client_device) + [fabric.host], vs.PERFTEST_PORT)

    def ours(extra):
        def commands(case, iters, tmp):
            c = dataclasses.replace(case, our_args=case.our_args + extra)
            return (*vs.our_commands(build, c, iters, Path(tmp) / "out.json"), vs.OUR_PORT)
        return commands
    return list(zip(TOOL_NAMES, (perftest, ours(()), ours(CLASSIC))))


def slug(text):
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")


def counted_run(commands, case, iters, counter, keep=None):
    """{side: count} of one server/client pair, each side under `counter`; `keep`: (directory,
    tool name) where the counts' files are kept."""
    with tempfile.TemporaryDirectory() as tmp:
        server, client, port = commands(case, iters, tmp)
        out = {side: Path(tmp) / f"{side}.count" for side in SIDES}
        vs.run_pair(["timeout", "1200", *counter.prefix(out["server"]), *server],
                    ["timeout", "1200", *counter.prefix(out["client"]), *client], port,
                    ready_timeout=READY_TIMEOUT)
        if keep is not None:
            where = keep[0] / slug(case.label)
            where.mkdir(parents=True, exist_ok=True)
            suffix = "" if counter.name == "instructions" else f".{counter.name}"
            for side in SIDES:
                shutil.copy(out[side], where / f"{slug(keep[1])}-{side}-{iters}{suffix}")
        return {side: counter.read(out[side]) for side in SIDES}


@dataclasses.dataclass(frozen=True)
class Failed:
    """A count per message that cannot be: the 2N run counted fewer than the N run (a side
    whose own work does not grow with the messages, left with the runs' differences)."""
    short_per_message: float  # how far below 0 the difference fell, per message
    short: float  # the same in all: how many fewer the 2N run counted than the N run


def per_message(commands, case, messages, counter, keep=None):
    """{side: count per message} from the 2N and N runs (Failed: the difference came out below
    0, a failed measurement)."""
    iters = vs.whole_chains(case, messages)
    big = counted_run(commands, case, 2 * iters, counter, keep)
    small = counted_run(commands, case, iters, counter, keep)
    return {side: (big[side] - small[side]) / iters if big[side] >= small[side]
            else Failed((small[side] - big[side]) / iters, small[side] - big[side])
            for side in SIDES}


def count_text(value):
    """A count per message: one decimal, or three significant digits below 1 (a side that made a
    handful of system calls in the whole run prints them, not 0.0 beside a ratio of 3)."""
    return f"{value:.3g}" if 0 < abs(value) < 1 else f"{value:.1f}"


def ratio_text(value):
    return f"{value:.3f}"


def cell(value):
    if isinstance(value, Failed):
        return (f"measurement failed (2N counted {value.short:g} fewer than N, "
                f"{count_text(value.short_per_message)}/msg)")
    return count_text(value)


def ratio_cell(mine, theirs):
    if isinstance(mine, Failed) or isinstance(theirs, Failed) or theirs == 0:
        return "-"
    return ratio_text(mine / theirs)


def rotated(named, boot):
    """The tools in the order of boot `boot`: the list turned by `boot` places."""
    k = boot % len(named)
    return named[k:] + named[:k]


def saved(value):
    """A count per message as the saved JSON holds it: a number, or {"failed": how far below 0}."""
    return {"failed": value.short_per_message} if isinstance(value, Failed) else value


def table_head(names):
    """The cost table's column titles: the case, side and counter, each tool, the two ratios."""
    return ["case", "side", "counted", *names, f"rdmabench/perftest ({ratio_words.BELOW})",
            f"rdmabench/rdmabench classic ({ratio_words.BELOW})"]


def table(results, names):
    body = []
    for label, by_counter in results.items():
        for counter in COUNTERS:
            counts = by_counter[counter.name]
            for side in SIDES:
                figures = [counts[n][side] for n in names]
                body.append([label, side, counter.unit, *map(cell, figures),
                             ratio_cell(figures[1], figures[0]), ratio_cell(figures[1], figures[2])])
    return text_table.render(table_head(names), body)


def main():
    p = argparse.ArgumentParser(prog="cost_guest", description=__doc__.split("\n\n")[0])
    p.add_argument("build", type=Path)
    p.add_argument("--messages", type=int, default=1000)
    p.add_argument("--match", default="", help="only the cases whose label this regex finds")
    p.add_argument("--keep-profiles", type=Path, metavar="DIR",
                   help="keep each count's file under DIR (cachegrind's; perf stat's counts)")
    p.add_argument("--boot", type=int, default=0, help="this boot's number (turns the tools' order)")
    p.add_argument("--save", type=Path, metavar="FILE", help="the counts per message as JSON")
    args = p.parse_args()
    deterministic = deterministic_guest()
    cases = [c for c in (vs.DETERMINISTIC if deterministic else vs.ORDINARY) + SMALL_SENDS
             if re.search(args.match, c.label) and not c.duration]
    if not cases:
        raise SystemExit(f"vs-perftest: no case matches --match {args.match!r}")
    named = rotated(tools(args.build), args.boot)
    print(f"{'deterministic guest (icount)' if deterministic else 'ordinary guest'}; "
          f"{len(cases)} cases, each tool's both sides counted at {args.messages} and "
          f"{2 * args.messages} messages", flush=True)
    results = {}
    for case in cases:
        results[case.label] = {c.name: {} for c in COUNTERS}
        for counter in COUNTERS:
            for name, commands in named:
                keep = (args.keep_profiles, name) if args.keep_profiles else None
                got = per_message(commands, case, args.messages, counter, keep)
                results[case.label][counter.name][name] = got
                print(f"{case.label}, {name}, {counter.unit}: client {cell(got['client'])}, "
                      f"server {cell(got['server'])}", flush=True)
    if args.save:
        args.save.write_text(json.dumps(
            {"boot": args.boot, "messages": args.messages, "cases": {
                label: {counter: {tool: {side: saved(v) for side, v in sides.items()}
                                  for tool, sides in by_tool.items()}
                        for counter, by_tool in by_counter.items()}
                for label, by_counter in results.items()}}, indent=1))
    print("\n" + table(results, list(TOOL_NAMES)))
    print(f"\nCounted at N and 2N messages, the difference over N. Every ratio is "
          f"rdmabench/perftest or rdmabench/rdmabench classic: {ratio_words.BELOW}.")


if __name__ == "__main__":
    main()
