#!/usr/bin/python3
"""Adds up JUnit XML test reports (meson's GoogleTest log, pytest) into one 'N passed, M failed' line.

Usage: test_summary.py STAGES_FILE REPORT...
STAGES_FILE lists stages that failed without producing a report (one per line); each counts
as one failure, so a crashed stage can never look like success.
"""
import sys
import xml.etree.ElementTree as ET
from pathlib import Path


def count_junit(path):
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
    passed = failed = 0
    for s in suites:
        total = int(s.get("tests", 0))
        bad = int(s.get("failures", 0)) + int(s.get("errors", 0))
        skipped = int(s.get("skipped", 0))
        passed += total - bad - skipped
        failed += bad + skipped  # a skip inside the rxe guest means something was not tested
    return passed, failed


def main(argv):
    stages_file, reports = Path(argv[1]), [Path(p) for p in argv[2:]]
    passed = failed = 0
    for r in reports:
        if not r.exists():
            continue
        p, f = count_junit(r)
        print(f"  {r.name}: {p} passed, {f} failed")
        passed, failed = passed + p, failed + f
    broken = [l for l in stages_file.read_text().splitlines() if l.strip()] if stages_file.exists() else []
    for stage in broken:
        print(f"  stage failed: {stage}")
    failed += len(broken)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
