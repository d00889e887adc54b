"""Checks what tools/ci/gate-change left for a CI system when ./tools/test runs the recipe with a
target build made 5 % slower than the change: a JUnit report with a passing test case per
compared row, read back by Debian's JUnit parser (python3-junitparser), and a Markdown summary
that renders as one table (python3-markdown) in which every row is "faster".

Usage: tools/lib/run-module rdmabench_gate.ci_recipe_check VERDICTS.xml SUMMARY.md    exit 0 when both are so, 13 otherwise."""
import sys
from pathlib import Path

import junitparser
import markdown

from rdmabench_tools import exit_codes


def check(verdicts, summary):
    problems = []
    xml = junitparser.JUnitXml.fromfile(str(verdicts))
    cases = [case for suite in xml for case in suite]
    if not cases:
        problems.append(f"{verdicts}: no test case")
    problems += [f"{verdicts}: {case.name} did not pass" for case in cases if not case.is_passed]
    html = markdown.markdown(Path(summary).read_text(), extensions=["tables"])
    if html.count("<table>") != 1:
        problems.append(f"{summary}: {html.count('<table>')} tables, not one")
    rows = [r for r in html.split("<tr>")[2:]]  # past the head row
    if len(rows) != len(cases):
        problems.append(f"{summary}: {len(rows)} table rows against {len(cases)} JUnit cases")
    slower = [r.split("</td>")[0].replace("<td>", "").strip() for r in rows if "<td>faster</td>" not in r]
    if slower:
        problems.append(f"{summary}: rows not judged faster than the slower target: {slower}")
    return problems


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return exit_codes.USAGE
    problems = check(Path(argv[1]), Path(argv[2]))
    for p in problems:
        print(f"ci_recipe_check: {p}")
    if not problems:
        print(f"ci_recipe_check: {argv[1]} and {argv[2]} hold what the recipe promises")
    return exit_codes.INVALID_FILE if problems else exit_codes.OK


if __name__ == "__main__":
    sys.exit(main(sys.argv))
