"""The test command's time budget: each phase of ./tools/test against the seconds recorded for
it in tests/phase-budget.json, printed as a table and written as JUnit (one test case per
phase), so that a phase that grows past its budget fails the run. Growth is then a decision
written in the budget file, not drift.

Usage: tools/lib/run-module rdmabench_dev.phase_budget BUDGET.json PHASES.tsv [--junit FILE]
       tools/lib/run-module rdmabench_dev.phase_budget sample ROOT_PID STATE (prints "BUSY OWN WANTED": seconds, see below;
                                                               STATE: a file it keeps between samples)
       tools/lib/run-module rdmabench_dev.phase_budget other BUSY0 OWN0 WANTED0 BUSY1 OWN1 WANTED1
                                                              (prints OTHER between two samples)
PHASES.tsv: one line per phase that ran, "KEY<TAB>SECONDS[<TAB>OTHER[<TAB>PROBE_MS[<TAB>CPU]]]", OTHER the CPU seconds
that work outside the test command used meanwhile (busy CPU in /proc/stat, steal included,
less what ROOT_PID's process tree used), or wanted: a niced busy loop beside a build that
fills both cores runs little (under 15 % of a core) but is runnable the whole time, so a loaded
run's phases were judged as a quiet machine's; the sample also gives what every task outside the tree ran and waited to run
(/proc/PID/task/*/schedstat), and tools/test takes the larger. A budget is a quiet machine's:
a phase during which other work used more than busy_fraction of a core is shown as "not judged (machine busy)", and
then so is the total (a phase shorter than margin_min_seconds is judged as if it took that
long: what little other work a short phase sees cannot push it past its limit). A phase fails
when it took more
than its budget plus the margin: margin_percent of the budget, and never less than
margin_min_seconds (a 2-second phase may well take 10 on a loaded machine). The judged phases
together fail when they took more than total_seconds plus total_margin_percent. Phases the budget
file marks "judged": false (installing packages, which waits on a mirror) are shown, not judged.
A phase it marks "alone": false counts in the total and has no verdict of its own: the main
line's wait for that lane, whose length is the lane's stages less the guests' phases beside
them, each judged on its own (that difference of two sums of about 1,300 s was 209 s in one run
of a tree and 296 s in the next).
Phases it marks "beside": true ran in a lane beside the others (the host tests beside a guest):
each is judged against its own budget in CPU seconds, on the CPU its own processes used (CPU,
which its line must give): its wall time is what it shared its core with (one tree's lint stage
took 224 s and 292 s beside the guests of two runs), its CPU what it did. It is left out of the
total, which the main line's wait for the lane is part of.

A budget is also a machine's as fast as the one it was measured on: PROBE_MS is the median time
of the fixed piece of work tools/rdmabench_dev/machine_speed.py timed over the phase, and where
the budget gives the phase's "probe_ms" (that median in the run the budget came from), a phase
whose probe ran slower has its limit scaled by how much (the table's "machine" column: 1.40x is
a machine 40 % slower; never below 1x, since a faster machine does not shorten a wait), and the
total by its phases' budgets so scaled.

exit status: 0 every phase within its budget, 12 a phase over it, 2 bad input.
"""
import argparse
import json
import os
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from rdmabench_tools import exit_codes, text_table

EXIT_OK, EXIT_OVER, EXIT_BAD_INPUT = exit_codes.OK, exit_codes.REGRESSION, exit_codes.USAGE


class BudgetError(Exception):
    pass


@dataclass
class Verdict:
    key: str
    title: str
    seconds: float
    budget: float | None
    limit: float | None
    over: bool
    busy: bool = False
    beside: bool = False
    slower: float | None = None  # how much slower the machine ran than the budget's (machine_speed)
    wall: float | None = None  # a beside phase's wall seconds (`seconds` is then its CPU)
    alone: bool = True  # False: judged within the total only


def load_budget(path):
    try:
        doc = json.loads(Path(path).read_text())
        margin, floor = float(doc["margin_percent"]), float(doc["margin_min_seconds"])
        total, total_margin = float(doc["total_seconds"]), float(doc["total_margin_percent"])
        float(doc["busy_fraction"])
        phases = doc["phases"]
        if not isinstance(phases, dict) or min(margin, floor, total, total_margin) < 0:
            raise ValueError("phases must be an object and the margins not negative")
        for key, p in phases.items():
            if not isinstance(p.get("title"), str) or (p.get("judged", True) and p["seconds"] <= 0):
                raise ValueError(f"phase {key} needs a title and a positive 'seconds'")
            for flag in ("beside", "alone"):
                if not isinstance(p.get(flag, flag == "alone"), bool):
                    raise ValueError(f"phase {key}: '{flag}' is true or false")
            if p.get("beside", False) and not p.get("alone", True):
                raise ValueError(f"phase {key}: a phase beside the others is outside the total, "
                                 "so it is judged alone")
            if "probe_ms" in p and not (isinstance(p["probe_ms"], (int, float)) and p["probe_ms"] > 0):
                raise ValueError(f"phase {key}: 'probe_ms' is a positive number")
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise BudgetError(f"{path}: not a phase budget ({e})") from e
    return doc


def load_phases(path):
    """[(key, seconds, other_cpu_seconds, probe_ms or None, own CPU seconds or None)] in the
    order the phases ran."""
    try:
        lines = Path(path).read_text().splitlines()
    except OSError as e:
        raise BudgetError(f"{path}: {e.strerror}") from e
    out = []
    for n, line in enumerate(lines, 1):
        fields = line.split("\t")
        try:
            figures = [float(x) for x in fields[1:3]]
            probe = None if len(fields) < 4 or fields[3] == "-" else float(fields[3])
            cpu = float(fields[4]) if len(fields) == 5 else None
            if (len(fields) not in (2, 3, 4, 5) or figures[0] < 0 or any(x != x for x in figures)
                    or (probe is not None and not 0 < probe < 1e6)
                    or (cpu is not None and not 0 <= cpu < 1e7)):
                raise ValueError
        except ValueError:
            raise BudgetError(f"{path}, line {n}: not 'KEY<TAB>SECONDS[<TAB>OTHER[<TAB>PROBE_MS"
                              f"[<TAB>CPU]]]': {line[:80]!r}") from None
        out.append((fields[0], figures[0], figures[1] if len(figures) == 2 else 0.0, probe, cpu))
    return out


def cpu_seconds_busy():
    """All CPUs' busy time since boot (/proc/stat: user, nice, system, irq, softirq, steal)."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def process_table():
    """{pid: (parent pid, CPU ticks)} of every live process, from one pass over /proc: its CPU
    with what it has reaped of its children (utime, stime, cutime, cstime of /proc/PID/stat)."""
    table = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        rest = stat[stat.rindex(")") + 2:].split()
        table[int(entry.name)] = (int(rest[1]), sum(int(x) for x in rest[11:15]))
    return table


def cpu_seconds_of_tree(tree, table):
    """CPU time of the processes of `tree` (tree_of; `table` from process_table)."""
    return sum(table[pid][1] for pid in tree if pid in table) / os.sysconf("SC_CLK_TCK")


def tree_of(root, table):
    """`root` and every live descendant (`table` from process_table)."""
    parent = {pid: ppid for pid, (ppid, _) in table.items()}
    tree, grew = {root}, True
    while grew:
        grew = False
        for pid, ppid in parent.items():
            if ppid in tree and pid not in tree:
                tree.add(pid)
                grew = True
    return tree


def tasks_outside(tree, table):
    """{(tid, start time): nanoseconds run and waited to run} of every live task outside `tree`
    (/proc/PID/task/TID/stat's start time, its schedstat's first two figures; `table` from
    process_table)."""
    out = {}
    for pid in table.keys() - tree - {os.getpid()}:
        try:
            tasks = list(Path(f"/proc/{pid}/task").iterdir())
        except OSError:
            continue
        for task in tasks:
            try:
                stat = (task / "stat").read_text()
                ran, waited = (int(x) for x in (task / "schedstat").read_text().split()[:2])
            except (OSError, ValueError):
                continue
            out[f"{task.name}:{stat[stat.rindex(')') + 2:].split()[19]}"] = ran + waited
    return out


def seconds_wanted_outside(tree, table, state_path):
    """What tasks outside `tree` have run and waited to run, in seconds, summed since the
    first sample that wrote `state_path`: each live task's growth since the last sample (all of
    it for a task that started since). A task that ended since adds nothing more; one that both
    started and ended between two samples is missed (busy CPU counts what it ran)."""
    state = Path(state_path)
    try:
        before = json.loads(state.read_text())
    except (OSError, ValueError):
        before = {"total_ns": 0, "tasks": {}}
    now = tasks_outside(tree, table)
    grown = sum(ns - before["tasks"].get(key, 0) for key, ns in now.items()
                if ns >= before["tasks"].get(key, 0))
    total = before["total_ns"] + (grown if before["tasks"] else 0)
    state.write_text(json.dumps({"total_ns": total, "tasks": now}))
    return total / 1e9


def judge(budget, phases):
    """A verdict per phase that ran, then one for the judged phases together ("total")."""
    margin, floor = budget["margin_percent"] / 100, budget["margin_min_seconds"]
    verdicts = []
    for key, seconds, other, probe, cpu in phases:
        entry = budget["phases"].get(key)
        if entry is None:
            raise BudgetError(f"phase '{key}' ran but has no budget: add it to the budget file")
        if not entry.get("judged", True):
            verdicts.append(Verdict(key, entry["title"], seconds, None, None, False))
            continue
        wall = None
        if entry.get("beside", False):
            if cpu is None:
                raise BudgetError(f"phase '{key}' ran beside the others, and is judged on its own "
                                  "CPU seconds, which its line does not give")
            wall, seconds = seconds, cpu
        slower = machine_slower(entry, probe)
        limit = (entry["seconds"] + max(entry["seconds"] * margin, floor)) * (slower or 1.0)
        # Other work is judged over the phase's time, and never over less than the shortest
        # margin: a second-long phase cannot be pushed past its limit by a fifth of a second
        # of other work (the sampling's own noise in a run of a quiet machine).
        busy = other > budget["busy_fraction"] * max(wall or seconds, floor)
        alone = entry.get("alone", True)
        verdicts.append(Verdict(key, entry["title"], seconds, entry["seconds"], limit if alone else None,
                                alone and seconds > limit and not busy, busy, wall is not None, slower,
                                wall, alone))
    judged = [v for v in verdicts if v.budget is not None and not v.beside]
    if judged:
        took = sum(v.seconds for v in judged)
        slower = total_slower(judged)
        limit = budget["total_seconds"] * (1 + budget["total_margin_percent"] / 100) * (slower or 1.0)
        busy = any(v.busy for v in judged)
        verdicts.append(Verdict("total", "total (judged phases)", took, budget["total_seconds"], limit,
                                took > limit and not busy, busy, slower=slower))
    return verdicts


def machine_slower(entry, probe_ms):
    """How much slower the machine ran the probe over the phase than in the run its budget came
    from (at least 1), or None when either figure is missing."""
    if probe_ms is None or "probe_ms" not in entry:
        return None
    return max(1.0, probe_ms / entry["probe_ms"])


def total_slower(judged):
    """The judged phases' slowdown weighted by their budgets (a phase without one counts as 1x),
    or None when no phase had one."""
    if all(v.slower is None for v in judged):
        return None
    return sum(v.budget * (v.slower or 1.0) for v in judged) / sum(v.budget for v in judged)


def verdict_text(v):
    if v.budget is None:
        return "not judged"
    if v.busy:
        return "not judged (machine busy)"
    if not v.alone:
        return "in the total only"
    return "OVER BUDGET" if v.over else "ok"


def table(verdicts, budget):
    head = ("phase", "took [s]", "budget [s]", "machine", "fails above [s]", "verdict")
    rows = [(v.title + (f" (beside: its CPU seconds, in {v.wall:.0f} s)" if v.beside else ""),
             f"{v.seconds:.0f}", "-" if v.budget is None else f"{v.budget:.0f}",
             "-" if v.slower is None else f"{v.slower:.2f}x",
             "-" if v.limit is None else f"{v.limit:.0f}",
             verdict_text(v)) for v in verdicts]
    lines = [text_table.render(head, rows)]
    lines.append(f"a phase fails above its budget plus {budget['margin_percent']:g} % (at least "
                 f"{budget['margin_min_seconds']:g} s), the total above {budget['total_seconds']:g} s "
                 f"plus {budget['total_margin_percent']:g} % (phases run beside others: outside the total, "
                 "judged on the CPU their own processes used), "
                 "each limit times how much slower the machine ran (\"machine\": the probe's time over "
                 "the budget's, never below 1x; lower is faster); the budget: tests/phase-budget.json")
    return "\n".join(lines)


def write_junit(path, verdicts):
    """A case per verdict: a failure when over, skipped when not judged (no budget, or other
    work used the machine meanwhile), never a pass that was not judged."""
    over = [v for v in verdicts if v.over]
    unjudged = [v for v in verdicts if v.budget is None or v.busy or not v.alone]
    suite = ET.Element("testsuite", name="phase budget", tests=str(len(verdicts)),
                       failures=str(len(over)), errors="0", skipped=str(len(unjudged)))
    for v in verdicts:
        case = ET.SubElement(suite, "testcase", classname="phase_budget", name=v.key, time=f"{v.seconds:.0f}")
        if v.budget is None:
            ET.SubElement(case, "skipped", message=f"{v.title}: not judged (no budget)")
        elif v.busy:
            ET.SubElement(case, "skipped", message=f"{v.title}: not judged, other work used the "
                          "machine meanwhile")
        elif not v.alone:
            ET.SubElement(case, "skipped", message=f"{v.title}: judged within the total only")
        if v.over:
            scaled = "" if v.slower is None else f", on a machine {v.slower:.2f}x slower than the budget's"
            kind = " of its own CPU" if v.beside else ""
            ET.SubElement(case, "failure", message=f"{v.title}: {v.seconds:.0f} s{kind}, over its budget of "
                          f"{v.budget:.0f} s plus the margin ({v.limit:.0f} s{scaled})")
    tree = ET.ElementTree(suite)
    ET.indent(tree)
    tree.write(path, encoding="utf-8", xml_declaration=True)


def other_work(first, second):
    """OTHER between two samples ("BUSY OWN WANTED" each): the CPU seconds other work used (busy
    less the tree's own), or wanted, whichever is more; never below 0."""
    busy, own, wanted = (b - a for a, b in zip(first, second))
    return round(max(busy - own, wanted, 0.0), 1)


def main(argv):
    if argv[:1] == ["other"]:
        try:
            values = [float(v) for v in argv[1:]]
        except ValueError:
            values = []
        if len(values) != 6:
            print("phase_budget: usage: tools/lib/run-module rdmabench_dev.phase_budget other "
                  "BUSY0 OWN0 WANTED0 BUSY1 OWN1 WANTED1 (numbers)", file=sys.stderr)
            return EXIT_BAD_INPUT
        print(other_work(values[:3], values[3:]))
        return EXIT_OK
    if argv[:1] == ["sample"]:
        if len(argv) != 3 or not argv[1].isdigit():
            print("phase_budget: usage: tools/lib/run-module rdmabench_dev.phase_budget sample ROOT_PID STATE",
                  file=sys.stderr)
            return EXIT_BAD_INPUT
        processes = process_table()
        tree = tree_of(int(argv[1]), processes)  # ROOT's process tree, found once a sample
        print(f"{cpu_seconds_busy():.2f} {cpu_seconds_of_tree(tree, processes):.2f} "
              f"{seconds_wanted_outside(tree, processes, argv[2]):.2f}")
        return EXIT_OK
    p = argparse.ArgumentParser(prog="phase_budget", description=__doc__.split("\n\n")[0])
    p.add_argument("budget")
    p.add_argument("phases")
    p.add_argument("--junit", metavar="FILE")
    args = p.parse_args(argv)
    try:
        budget = load_budget(args.budget)
        verdicts = judge(budget, load_phases(args.phases))
    except BudgetError as e:
        print(f"phase_budget: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(table(verdicts, budget))
    if args.junit:
        write_junit(args.junit, verdicts)
    return EXIT_OVER if any(v.over for v in verdicts) else EXIT_OK


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
