"""Verdicts in the forms CI systems read: JUnit XML (one test case per compared row, a failure
per regression with its figures) and a Markdown summary appended to a file (GitHub's
$GITHUB_STEP_SUMMARY, a GitLab job's Markdown artifact, a pull-request comment).

The rows are tools/compare's (name, metric, base, new, change_pct, slowdown, p_value, wire,
verdict, failing); this module only writes them."""
import math
import xml.etree.ElementTree as ET
from pathlib import Path

from rdmabench_tools import ratio_words


class ReportError(Exception):
    """A report file could not be written (the message names it and why)."""


def _figure(x):
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.6g}"


def _failure_text(row):
    """What a reader of a CI's test page needs to judge the regression without the table."""
    lines = [f"verdict: {row.verdict}", f"metric: {row.metric or '-'}",
             f"base: {_figure(row.base)}", f"new: {_figure(row.new)}"]
    if not math.isnan(row.change_pct):
        lines.append(f"change: {row.change_pct:+.2f} %")
    if not math.isnan(row.slowdown):
        lines.append(f"slowdown: {row.slowdown:.4f}x (NEW against BASE; {ratio_words.BELOW})")
    if row.p_value is not None:
        lines.append(f"p (one-sided Mann-Whitney U): {row.p_value:.4f}")
    if row.wire:
        lines.append(f"wire (BASE/NEW): {row.wire}")
    return "\n".join(lines)


def junit_tree(suite, rows, properties):
    """An ElementTree <testsuites> with one <testsuite>: a <testcase> per row, a <failure> on
    each failing row, a <skipped> on a row that was not compared (failed in BASE)."""
    failures = sum(1 for r in rows if r.failing)
    skipped = sum(1 for r in rows if not r.failing and r.verdict.startswith("failed in BASE"))
    root = ET.Element("testsuites", name=suite, tests=str(len(rows)), failures=str(failures),
                      errors="0", skipped=str(skipped))
    ts = ET.SubElement(root, "testsuite", name=suite, tests=str(len(rows)),
                       failures=str(failures), errors="0", skipped=str(skipped), time="0")
    props = ET.SubElement(ts, "properties")
    for key, value in properties.items():
        ET.SubElement(props, "property", name=key, value=str(value))
    for r in rows:
        case = ET.SubElement(ts, "testcase", classname=suite, name=r.name, time="0")
        if r.failing:
            failure = ET.SubElement(case, "failure", message=r.verdict, type="regression")
            failure.text = _failure_text(r)
        elif r.verdict.startswith("failed in BASE"):
            ET.SubElement(case, "skipped", message=r.verdict)
        else:
            ET.SubElement(case, "system-out").text = _failure_text(r)
    return ET.ElementTree(root)


def write_junit(path, suite, rows, properties):
    tree = junit_tree(suite, rows, properties)
    ET.indent(tree)
    try:
        tree.write(path, encoding="utf-8", xml_declaration=True)
    except OSError as e:
        raise ReportError(f"cannot write the JUnit report {path}: {e.strerror}") from e


def append_summary(path, markdown):
    """Appends (a job summary file collects every step's), creating the file if need be."""
    try:
        with Path(path).open("a", encoding="utf-8") as f:
            f.write(markdown.rstrip("\n") + "\n\n")
    except OSError as e:
        raise ReportError(f"cannot write the summary {path}: {e.strerror}") from e
