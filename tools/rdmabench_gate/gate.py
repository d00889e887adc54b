"""The RDMA regression gate: run a small fixed suite over rxe (or siw) and compare it with a
baseline (tools/gate; this module is its logic, every option on its command line).

actions:
  check     (default) run the suite, then tools/compare BASELINE against it; exits like
            tools/compare: 0 no regression, 12 regression, 2 bad input; other codes are
            rdmabench's own (4 connection, 5 runtime, ...) or rxe-vm's (124-126)
  refresh   run the suite and write it as the new baseline (--baseline)
  run       only run the suite and write --out
  compare   only compare an existing --out with --baseline, as check does
  reproducibility
            run the suite in --boots K fresh guests (or K times with --host) and print, for
            every benchmark and counter, the spread between them
  versus    judge a change of the stack under the benchmark, in the deterministic guest: BASE
            and NEW differ in the guest kernel (--kernel), the rdma-core libraries
            (--rdma-core) and/or the rdmabench build (--rdmabench). Each option given twice
            names BASE then NEW; given once, it names NEW, and BASE keeps the default. The
            suite runs in --boots K guests of each stack (default 1); with K >= 2 the spread of
            NEW, then of BASE, is printed first, so that the gate's noise on that stack is known
            before its verdict; then the first boots are compared row by row as `check` does
            (same rows, same threshold). Exits like check.

suite: every pattern x busy/event CQ; bw at 64 KiB and lat at 2 B; 200 messages per run
(deterministic: the atomics' bw rows, 8 bytes a message, take 2000 in a run of their own); over
rdma_cm in the guest's veth layout (oob on 127.0.0.1 with --host). Deterministic: server and
client both pinned to CPU 0 (serve/run --cpus 0), and the rows over each datagram transport too
(ud: bw at 4 KiB, one packet at the guest's MTU), run apart with --cm auto (out of band) and
merged into the same file (rdmabench_gate/merge_results.py). The rdmabench build is
$RDMABENCH_BUILD, else build/ (as for every tool); paths given on the command line are the
caller's."""
import argparse
import glob
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from rdmabench_gate import gate_machine
from rdmabench_gate.gate_machine import ROOT, GateError, build_rdmabench, has_rdma_device, say
from rdmabench_guest.rxe_guest import deterministic_guest, lift_memlock

ACTIONS = ("check", "refresh", "run", "compare", "reproducibility", "versus")


def parser():
    p = argparse.ArgumentParser(prog="gate", description=__doc__.split("\n\n")[0],
                                epilog=__doc__.split("\n\n", 1)[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("action", nargs="?", choices=ACTIONS, default="check", metavar="ACTION",
                   help="check (default), refresh, run, compare, reproducibility, versus")
    p.add_argument("--deterministic", action="store_true",
                   help="the deterministic guest (tools/rxe-vm --deterministic: guest time counts "
                        "instructions), its own baseline, every benchmark judged on its own against "
                        "a small threshold; the rows it cannot measure are left out, each with its "
                        "reason. The gate ./tools/test runs")
    p.add_argument("--fabric", choices=("rxe", "siw"), default="rxe",
                   help="the guest's software RDMA: rxe (Soft-RoCE, the default) or siw (iWARP), "
                        "each with its own baselines")
    where = p.add_mutually_exclusive_group()
    for name, text in (("vm", "boot tools/rxe-vm (veth layout, rdma_cm)"),
                       ("host", "this machine's RDMA device, the server on 127.0.0.1"),
                       ("here", "--host inside an rxe-vm guest (server on 10.99.0.1 over veth)")):
        where.add_argument(f"--{name}", dest="where", action="store_const", const=name,
                           help=f"where the suite runs: {text}. Default: --host when this machine "
                                "has an RDMA device, else --vm" if name == "vm" else text)
    p.add_argument("--baseline", metavar="FILE",
                   help="default results/FABRIC-baseline.json (-deterministic.json)")
    p.add_argument("--out", metavar="FILE", help="the suite's results (default results/gate.json, "
                   "gate-deterministic.json; gate-siw*.json with --fabric siw)")
    p.add_argument("--threshold", metavar="PCT", type=percent,
                   help="ordinary: geometric-mean slowdown of the bw or of the lat benchmarks that "
                        "counts as a regression (default 50); deterministic: slowdown of any one "
                        "benchmark (default 2)")
    p.add_argument("--single-threshold", metavar="PCT", type=percent, default=150.0,
                   help="ordinary only: one benchmark alone fails beyond this (default 150)")
    p.add_argument("--repetitions", metavar="N", type=positive,
                   help="repetitions per benchmark (default 5; 3 deterministic)")
    p.add_argument("--boots", metavar="K", type=positive,
                   help="boots: versus' per stack (default 1), reproducibility's (default 3)")
    p.add_argument("--format", choices=("text", "markdown"), default="text",
                   help="compare table format (default text)")
    p.add_argument("--junit", metavar="FILE", help="check/compare: also write the verdicts as "
                   "JUnit XML (a test case per row, a failure per regression with its figures)")
    p.add_argument("--summary", metavar="FILE", help="check/compare: also append the verdict "
                   "table in Markdown to FILE (for example $GITHUB_STEP_SUMMARY)")
    p.add_argument("--across-stacks", action="store_true",
                   help="check/compare, deterministic: judge against a baseline of another guest "
                        "kernel, rdma-core, QEMU or compiler (refused without it)")
    add_stack_options(p)
    p.add_argument("--slow-network", metavar="NETEM",
                   help="testing only: shape the veth pair with `tc qdisc ... netem NETEM` during "
                        "the run (e.g. \"rate 100mbit delay 50us\"); --here/--vm only")
    p.add_argument("--no-left-out-list", action="store_true",
                   help="deterministic: do not list the rows this guest cannot measure (versus "
                        "lists them once, not at every boot)")
    return p


def add_stack_options(p):
    """What versus compares: a kernel, an rdma-core, an rdmabench build, each BASE then NEW."""
    p.add_argument("--kernel", metavar="KVER", action="append", default=[],
                   help="versus: a guest kernel from /boot with rdma_rxe (default: Debian's "
                        "linux-image-amd64's; tools/rxe-vm --kernel)")
    p.add_argument("--rdma-core", metavar="DIR", action="append", default=[],
                   help="versus: an rdma-core build tree (cmake -DIN_PLACE=1; DIR/lib holds "
                        "libibverbs.so.1 and the fabric's provider) loaded in place of the "
                        "system's; \"installed\" names the system's (the default). Given once "
                        "with --here or --host: the suite here runs over that build")
    p.add_argument("--rdmabench", metavar="DIR", action="append", default=[],
                   help="versus: an rdmabench build directory (default: $RDMABENCH_BUILD or build)")


def percent(text):
    if not re.fullmatch(r"[0-9]+(\.[0-9]+)?", text):
        raise argparse.ArgumentTypeError(f"thresholds want a number of percent, not '{text}'")
    return float(text)


def positive(text):
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"wants a positive integer, not '{text}'")
    return int(text)


@dataclass
class Stack:
    """What one side of versus runs on: a guest kernel ("" the default), an rdma-core build
    ("installed" the system's) and an rdmabench build directory."""
    kernel: str
    rdma_core: str
    build: Path

    def words(self):
        return f"kernel {self.kernel or 'default'}, rdma-core {self.rdma_core}, rdmabench {self.build}"


def caller_path(text, caller):
    return Path(os.path.normpath(Path(caller) / text))


def settle(args, caller):
    """Defaults per mode and the checks across options; GateError on a wrong combination."""
    args.build = Path(os.environ.get("RDMABENCH_BUILD", ROOT / "build"))
    args.rdma_core = ["installed" if r == "installed" else str(caller_path(r, caller))
                      for r in args.rdma_core]
    args.rdmabench = [caller_path(r, caller) for r in args.rdmabench]
    stack_given = args.kernel or args.rdma_core or args.rdmabench
    if args.action == "versus":
        args.deterministic = True
        if args.where not in (None, "vm"):
            raise GateError("versus boots a guest per stack: it runs with --vm only")
    elif stack_given and not (args.rdma_core and len(args.rdma_core) == 1 and not args.kernel
                              and not args.rdmabench and args.where in ("here", "host")):
        raise GateError("--kernel, --rdma-core and --rdmabench go with versus (tools/gate versus "
                        "--help; --rdma-core DIR also with --here or --host: the suite here over "
                        "that build)")
    if args.action != "versus" and args.rdma_core:
        check_stack_part("rdma-core", args.rdma_core[0], args)
    suffix = "" if args.fabric == "rxe" else f"-{args.fabric}"
    mode = "-deterministic" if args.deterministic else ""
    args.baseline = caller_path(args.baseline, caller) if args.baseline else \
        ROOT / "results" / f"{args.fabric}-baseline{mode}.json"
    args.out = caller_path(args.out, caller) if args.out else ROOT / "results" / f"gate{suffix}{mode}.json"
    for report in ("junit", "summary"):
        if getattr(args, report):
            setattr(args, report, caller_path(getattr(args, report), caller))
    if args.threshold is None:
        args.threshold = 2.0 if args.deterministic else 50.0
    args.repetitions = args.repetitions or (3 if args.deterministic else 5)
    args.boots = args.boots or (1 if args.action == "versus" else 3)
    if args.deterministic and args.where == "host":
        raise GateError("--deterministic runs in the deterministic guest (--vm), not --host")
    settle_where(args)


def settle_where(args):
    if args.action == "refresh":
        args.out = args.baseline
    if args.action in ("check", "compare") and not args.baseline.is_file():
        raise GateError(f"no baseline {args.baseline}; make one with: tools/gate refresh"
                        f"{' --deterministic' if args.deterministic else ''}")
    if args.where is None:
        ordinary = not args.deterministic and args.fabric == "rxe"
        args.where = "host" if ordinary and has_rdma_device() else "vm"
    if args.fabric != "rxe" and args.where == "host":
        raise GateError("--fabric siw names the guest's software iWARP: it goes with --vm or --here")
    if args.slow_network and args.where == "host":
        raise GateError("--slow-network needs the guest's veth pair (--vm or --here)")


def versus_stacks(args):
    """BASE and NEW from --kernel, --rdma-core, --rdmabench (twice: BASE then NEW; once: NEW,
    BASE the default); GateError when they do not differ or a part is not what it says."""
    parts = []
    for name, given, default in (("kernel", args.kernel, ""), ("rdma-core", args.rdma_core, "installed"),
                                 ("rdmabench", args.rdmabench, args.build)):
        if len(given) > 2:
            raise GateError(f"--{name} is given at most twice (BASE, then NEW)")
        base, new = (default, default) if not given else (default, given[0]) if len(given) == 1 \
            else (given[0], given[1])
        parts.append((name, base, new))
    base, new = (Stack(*(p[i] for p in parts)) for i in (1, 2))
    if base == new:  # said before any part is looked for: what is asked cannot be judged
        raise GateError("versus needs BASE and NEW to differ: give --kernel, --rdma-core or "
                        "--rdmabench (see --help)")
    for name, *values in parts:
        for value in values:
            check_stack_part(name, value, args)
    return base, new


def check_stack_part(name, value, args):
    if name == "kernel" and value and not Path(f"/boot/vmlinuz-{value}").exists():
        installed = " ".join(sorted(p.name.removeprefix("vmlinuz-") for p in Path("/boot").glob("vmlinuz-*")))
        raise GateError(f"--kernel {value}: no /boot/vmlinuz-{value} (installed: {installed})")
    if name == "rdma-core" and value != "installed":
        lib = Path(value) / "lib"
        if not (lib / "libibverbs.so.1").exists() or not glob.glob(str(lib / f"lib{args.fabric}-rdmav*.so")):
            raise GateError(f"--rdma-core {value}: not an rdma-core build tree (no lib/libibverbs.so.1 "
                            f"and lib/lib{args.fabric}-rdmav*.so; build it in place: cmake -GNinja "
                            "-DIN_PLACE=1 .. && ninja, as rdma-core's build.sh does)")
    if name == "rdmabench" and Path(value) != args.build and not os.access(Path(value) / "rdmabench", os.X_OK):
        raise GateError(f"--rdmabench {value}: no rdmabench there (meson setup {value} && ninja -C {value})")


def run_suite_in_vm(args, out, stack, list_left_out=True):
    """The suite in a fresh guest of `stack` into `out`: tools/rxe-vm runs this gate there with
    --here, every setting on its command line (deterministic: the rows the guest cannot measure
    listed unless told not to)."""
    if not build_rdmabench(stack.build, "guest", "plot"):
        return 1
    out.parent.mkdir(parents=True, exist_ok=True)
    inner = ["tools/gate", "run", "--here", "--fabric", args.fabric, "--out", str(out),
             "--repetitions", str(args.repetitions)]
    vm = ["-m", "veth", "--fabric", args.fabric, "-t", "1200", "--rw", str(out.parent)]
    if args.slow_network:
        inner += ["--slow-network", args.slow_network]
    if args.deterministic:
        inner.append("--deterministic")
        vm.append("--deterministic")
    if args.no_left_out_list or not list_left_out:
        inner.append("--no-left-out-list")
    if stack.rdma_core != "installed":
        inner += ["--rdma-core", stack.rdma_core]
    if stack.kernel:
        vm += ["--kernel", stack.kernel]
    env = dict(os.environ, RDMABENCH_BUILD=str(stack.build))
    return subprocess.run([str(ROOT / "tools" / "rxe-vm"), *vm, "--", shlex.join(inner)], cwd=ROOT,
                          env=env).returncode


def run_suite_here(args, out):
    """The suite on this machine's device (a host, or inside a guest) into `out`."""
    if not has_rdma_device():
        say("no RDMA device here; use --vm")
        return 3
    if deterministic_guest() and not args.deterministic:
        say("this guest is deterministic (icount): its busy-CQ rows measure QEMU's time slice; use --deterministic")
        return 2
    if args.deterministic and not deterministic_guest():
        say("--deterministic --here needs the deterministic guest (tools/rxe-vm --deterministic)")
        return 2
    # This gate and every rdmabench it starts: the build, and the rdma-core build when given.
    os.environ["RDMABENCH_BUILD"] = str(args.build)
    if args.rdma_core and args.rdma_core[0] != "installed":
        lib = f"{args.rdma_core[0]}/lib"
        os.environ["LD_LIBRARY_PATH"] = ":".join(filter(None, (lib, os.environ.get("LD_LIBRARY_PATH"))))
        os.environ["RDMAV_DRIVERS"] = f"{lib}/lib{args.fabric}"  # tried before the configured drivers
        say(f"rdma-core from {lib}")
    if args.fabric == "siw" and os.environ.get("RXE_VM_FABRIC"):
        lift_memlock()
    # The suite's row selection reads results files (the results reader and its schema): it is
    # imported where a suite runs here, so that help, compare and the guest-booting paths start
    # without it.
    from rdmabench_gate.gate_suite import Suite

    suite = Suite(args.build, out, args.repetitions, args.deterministic)
    return gate_machine.shaped(args.slow_network, lambda: suite.run(list_left_out=not args.no_left_out_list))


def compare(args, base, new, judge_each, across):
    command = [str(ROOT / "tools" / "compare"), str(base), str(new), "--threshold", f"{args.threshold:g}",
               "--format", args.format]
    command += ["--judge", "each"] if judge_each else ["--judge", "geomean", "--single-threshold",
                                                      f"{args.single_threshold:g}"]
    command += ["--across-stacks"] if across else []
    for report in ("junit", "summary"):
        if getattr(args, report):
            command += [f"--{report}", str(getattr(args, report))]
    sys.stdout.flush()
    return subprocess.run(command, cwd=ROOT).returncode


def versus(args):
    base, new = versus_stacks(args)
    folder = args.out.with_name(args.out.stem + "-versus")
    gate_machine.fresh_folder(folder)
    say(f"versus: BASE = {base.words()}")
    say(f"versus: NEW  = {new.words()}")
    for label, stack in (("new", new), ("base", base)):
        for boot in range(1, args.boots + 1):
            say(f"versus: {label.upper()}, boot {boot} of {args.boots}")
            first = label == "new" and boot == 1  # the left-out rows listed once, not every boot
            rc = run_suite_in_vm(args, folder / f"{label}-boot-{boot}.json", stack, first)
            if rc != 0:
                return rc
    if args.boots >= 2:
        for label in ("new", "base"):
            print(f"== reproducibility of {label.upper()} over {args.boots} boots (the gate's noise on that stack):",
                  flush=True)
            boots = [str(folder / f"{label}-boot-{b}.json") for b in range(1, args.boots + 1)]
            if gate_machine.run_module("rdmabench_gate.spread", *boots).returncode != 0:
                return 2
    print("== BASE against NEW (first boots):", flush=True)
    return compare(args, folder / "base-boot-1.json", folder / "new-boot-1.json", True, True)


def reproducibility(args):
    folder = args.out.with_name(args.out.stem + "-boots")
    gate_machine.fresh_folder(folder)
    files = []
    for boot in range(1, args.boots + 1):
        say(f"reproducibility: run {boot} of {args.boots}")
        out = folder / f"boot-{boot}.json"
        stack = Stack("", args.rdma_core[0] if args.rdma_core else "installed", args.build)
        rc = run_suite_in_vm(args, out, stack) if args.where == "vm" else run_suite_here(args, out)
        if rc != 0:
            return rc
        files.append(str(out))
    return gate_machine.run_module("rdmabench_gate.spread", *files).returncode


def run_and_judge(args):
    if args.action != "compare":
        if args.where == "vm":
            rc = run_suite_in_vm(args, args.out, Stack("", "installed", args.build))
        elif not os.access(args.build / "rdmabench", os.X_OK):
            raise GateError(f"{args.build}/rdmabench is not built (meson setup build && ninja -C build)")
        else:
            rc = run_suite_here(args, args.out)
        if rc != 0 or args.action != "check":
            return rc
    return compare(args, args.baseline, args.out, args.deterministic, args.across_stacks)


def main(argv, caller=None):
    args = parser().parse_intermixed_args(argv)
    try:
        settle(args, caller or os.getcwd())
        if args.action == "versus":
            return versus(args)
        if args.action == "reproducibility":
            return reproducibility(args)
        return run_and_judge(args)
    except GateError as e:
        say(str(e))
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
