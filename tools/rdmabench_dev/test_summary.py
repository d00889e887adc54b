"""Adds up JUnit XML test reports (meson's GoogleTest log, pytest) into one 'N passed, M failed' line.

Usage: tools/lib/run-module rdmabench_dev.test_summary STAGES_FILE REPORT... [--budget BUDGET.xml]
STAGES_FILE lists stages that failed without producing a report (one per line); each counts
as one failure, so a crashed stage can never look like success. Every REPORT named is one the
run must have written: a missing or unreadable one counts as a failure too, named. Every failed
test case is named with the first lines of what its report says of the failure, so the cause survives
even where only the end of the output is kept (the whole text stays in the report file).
The phase budget's verdicts (phase_budget --junit) are no tests: they get a line of their own
("phase budget: N within, M over, K not judged") above the tests' line, which counts tests
alone; a phase over its budget still fails the run (exit 1).
"""
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

EXCERPT_LINES = 12


def suites_of(root):
    return [root] if root.tag == "testsuite" else root.findall("testsuite")


def count_junit(root):
    passed = failed = 0
    for s in suites_of(root):
        total = int(s.get("tests", 0))
        bad = int(s.get("failures", 0)) + int(s.get("errors", 0))
        skipped = int(s.get("skipped", 0))
        passed += total - bad - skipped
        failed += bad + skipped  # a skip inside the rxe guest means something was not tested
    return passed, failed


def failed_cases(root):
    """(name, excerpt) of every test case with a failure, an error or a skip."""
    out = []
    for case in root.iter("testcase"):
        for kind in ("failure", "error", "skipped"):
            result = case.find(kind)
            if result is None:
                continue
            text = (result.get("message") or "") + "\n" + (result.text or "")
            lines = [l for l in text.splitlines() if l.strip()]
            excerpt = lines[:EXCERPT_LINES] + (["..."] if len(lines) > EXCERPT_LINES else [])
            out.append((f"{case.get('classname', '')}::{case.get('name', '')} ({kind})", excerpt))
    return out


def print_case(heading, excerpt):
    """A failed case's heading, then the first lines of what its report says."""
    print(f"  {heading}")
    for line in excerpt:
        print(f"      {line[:300]}")


def report_budget(report):
    """Prints each phase over its budget and the line 'phase budget: N within, M over, K not
    judged' of the phase budget's JUnit report; returns how many phases were over (a missing
    report counts as one)."""
    if not report.exists():
        print("phase budget: no report")
        return 1
    root = ET.parse(report).getroot()
    cases = list(root.iter("testcase"))
    over = [(name, excerpt) for name, excerpt in failed_cases(root) if name.endswith("(failure)")]
    unjudged = sum(1 for c in cases if c.find("skipped") is not None)
    for name, excerpt in over:
        print_case(f"OVER BUDGET: {name}", excerpt)
    print(f"phase budget: {len(cases) - len(over) - unjudged} within, {len(over)} over, "
          f"{unjudged} not judged")
    return len(over)


def main(argv):
    budget = None
    if "--budget" in argv:
        at = argv.index("--budget")
        if at + 1 >= len(argv):
            print(__doc__, file=sys.stderr)
            return 2
        budget, argv = Path(argv[at + 1]), argv[:at] + argv[at + 2:]
    stages_file, reports = Path(argv[1]), [Path(p) for p in argv[2:]]
    passed = failed = 0
    failures = []
    missing = []
    for r in reports:
        try:
            root = ET.parse(r).getroot()
        except (OSError, ET.ParseError) as e:
            missing.append(f"no readable report {r} ({type(e).__name__}): its stage did not finish")
            continue
        p, f = count_junit(root)
        print(f"  {r.name}: {p} passed, {f} failed")
        passed, failed = passed + p, failed + f
        failures += [(r.name, name, excerpt) for name, excerpt in failed_cases(root)]
    for report, name, excerpt in failures:
        print_case(f"FAILED in {report}: {name}", excerpt)
    broken = [l for l in stages_file.read_text().splitlines() if l.strip()] if stages_file.exists() else []
    broken += missing
    for stage in broken:
        print(f"  stage failed: {stage}")
    failed += len(broken)
    over = report_budget(budget) if budget is not None else 0
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and over == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
