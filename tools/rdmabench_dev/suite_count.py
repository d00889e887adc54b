"""How many tests a guest suite must run, and whether it ran them: tools/test asks pytest's own
collection, on this host, for the tests of a layout (told the layout exactly as tools/rxe-vm
tells its guest: RXE_VM_LAYOUT, RXE_VM_FABRIC, RXE_VM_DETERMINISTIC), then holds the guest's
JUnit report to that count. A guest that ran fewer tests, none, or another layout's set fails
the run, where pytest's own exit status (5: no tests) and a report of passes would not.

Usage: tools/lib/run-module rdmabench_dev.suite_count expected (--layout NAME | -m MODE [--fabric F]
                                                 [--deterministic]) [--files OUT] [TESTS]
       tools/lib/run-module rdmabench_dev.suite_count check REPORT EXPECTED LAYOUT
`expected` prints the count, and with --files writes the test files that hold them to OUT, one
a line (the guest then imports those alone: collecting all of tests/rxe took 7.5 s of an
ordinary guest's time, 10 s of a deterministic one's); `check` prints nothing and exits 0 when REPORT's test cases are
EXPECTED in number, else one line saying what ran against what should have, and exits 1.
Exit status 2: bad arguments, or a collection that failed.
"""
import argparse
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from rdmabench_dev import suite_layouts

ROOT = Path(__file__).resolve().parents[2]
RUN_ROOT = ROOT / "tests"  # pytest's rootdir: tests/pytest.ini
COLLECTED = re.compile(r"^(\d+)(?:/\d+)? tests? collected", re.M)
EXIT_BAD_INPUT = 2


def collected_count(text):
    """The number of tests pytest's `--collect-only -q` summary says it selected ("17/179 tests
    collected (162 deselected)" -> 17; "no tests collected" -> 0); None when it says neither."""
    if re.search(r"^no tests collected", text, re.M):
        return 0
    found = COLLECTED.findall(text)
    return int(found[-1]) if found else None


def collected_files(text):
    """The test files of the tests pytest's `--collect-only -q` lists, in their first order, as
    paths from the repository's top (pytest names them from its rootdir, tests/, where
    pytest.ini is)."""
    files = [line.split("::", 1)[0] for line in text.splitlines() if "::" in line]
    return [str((RUN_ROOT / f).relative_to(ROOT)) for f in dict.fromkeys(files)]


def expected(mode, fabric, deterministic, tests):
    """(count, files) of the tests a layout collects."""
    env = dict(os.environ, RXE_VM_LAYOUT=mode, RXE_VM_FABRIC=fabric,
               RXE_VM_DETERMINISTIC="1" if deterministic else "")
    proc = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                           "-p", "no:cacheprovider", tests], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=120)
    count = collected_count(proc.stdout)
    if proc.returncode not in (0, 5) or count is None:
        raise ValueError(f"pytest's collection of {tests} for -m {mode} --fabric {fabric}"
                         f"{' --deterministic' if deterministic else ''} failed (exit "
                         f"{proc.returncode}):\n{(proc.stdout + proc.stderr)[-1500:]}")
    return count, collected_files(proc.stdout)


def ran(report):
    """Test cases in a JUnit report (every case, passed, failed or skipped); None when the file
    is missing or unreadable."""
    try:
        return sum(1 for _ in ET.parse(report).getroot().iter("testcase"))
    except (OSError, ET.ParseError):
        return None


def verdict(report, want, layout):
    """'' when the report ran `want` tests, else the line that says what went wrong."""
    if want == 0:  # a guest booted for nothing: a layout whose tests were all dropped
        return f"rxe guest suite ({layout}): its layout collects no test"
    got = ran(report)
    if got is None:
        return f"rxe guest suite ({layout}): no readable report {report}"
    if got == want:
        return ""
    what = "none" if got == 0 else f"{got}"
    return (f"rxe guest suite ({layout}): ran {what} of the {want} tests its layout collects "
            f"(a layout the guest was not told, or tests of another layout)")


def main(argv):
    p = argparse.ArgumentParser(prog="suite_count", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="action", required=True)
    e = sub.add_parser("expected")
    guest = e.add_mutually_exclusive_group(required=True)
    guest.add_argument("--layout", choices=suite_layouts.BY_NAME, help="a layout, by name")
    guest.add_argument("-m", dest="mode", help="or the guest's tools/rxe-vm -m, with --fabric, --deterministic")
    e.add_argument("--fabric", default="rxe")
    e.add_argument("--deterministic", action="store_true")
    e.add_argument("--files", type=Path)
    e.add_argument("tests", nargs="?", default="tests/rxe")
    c = sub.add_parser("check")
    c.add_argument("report")
    c.add_argument("expected", type=int)
    c.add_argument("layout")
    args = p.parse_args(argv)
    if args.action == "expected":
        if args.layout:
            layout = suite_layouts.BY_NAME[args.layout]
            args.mode, args.fabric, args.deterministic = layout.mode, layout.fabric, layout.deterministic
        try:
            count, files = expected(args.mode, args.fabric, args.deterministic, args.tests)
            if args.files:
                args.files.write_text("".join(f + "\n" for f in files))
            print(count)
        except (ValueError, subprocess.TimeoutExpired, OSError) as err:
            print(f"suite_count: {err}", file=sys.stderr)
            return EXIT_BAD_INPUT
        return 0
    line = verdict(args.report, args.expected, args.layout)
    if line:
        print(line)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
