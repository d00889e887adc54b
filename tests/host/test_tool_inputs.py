"""What the tools do with a file nobody should trust (issue: "a command line no input can
crash"): tools/compare died with a Python traceback on a file that is not UTF-8, passed
anything under --threshold nan or inf, and neither it nor tools/plot checked a file against its
schema, so negative bandwidth was drawn and judged where the README promises exit 13. A file
nested deeper than Python's recursion limit ended every reader with a RecursionError. Each is
now a one-line error and its exit code."""
import copy
import json

import pytest

from conftest import FIXTURE, ROOT, run_tool

READERS = [("compare", lambda bad: (bad, FIXTURE)),
           ("plot", lambda bad: (bad, "--out", "/tmp/rdmabench-tool-inputs")),
           ("rdmabench_tools.validate_results", lambda bad: (bad,))]


def one_line_error(proc):
    return proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


@pytest.fixture
def sweep():
    return json.loads(FIXTURE.read_text())


@pytest.mark.parametrize("tool, args", READERS)
def test_a_file_that_is_not_utf8_is_a_one_line_error(tool, args, tmp_path):
    bad = tmp_path / "latin1.json"
    bad.write_bytes(FIXTURE.read_bytes().replace(b'"rdmabench_schema"', b'"rdmabench_\xe9schema"', 1))
    proc = run_tool(tool, *args(bad))
    assert proc.returncode == 2 and "not UTF-8 text (byte" in proc.stderr, proc.stderr[-2000:]
    assert one_line_error(proc), proc.stderr[-2000:]


@pytest.mark.parametrize("tool, args", READERS)
def test_a_file_nested_deeper_than_any_of_ours_is_a_one_line_error(tool, args, tmp_path):
    bad = tmp_path / "deep.json"
    bad.write_text('{"context": ' + "[" * 100_000 + "]" * 100_000 + "}")
    proc = run_tool(tool, *args(bad))
    assert proc.returncode == 2 and "nests deeper than 64 levels" in proc.stderr, proc.stderr[-2000:]
    assert one_line_error(proc), proc.stderr[-2000:]


@pytest.mark.parametrize("option", ["--threshold", "--latency-threshold", "--single-threshold"])
@pytest.mark.parametrize("value", ["nan", "inf", "-1"])
def test_a_threshold_that_is_no_percentage_is_refused(option, value):
    proc = run_tool("compare", FIXTURE, FIXTURE, option, value)
    assert proc.returncode == 2 and "give a percentage" in proc.stderr, proc.stderr


def test_alpha_nan_is_refused():
    proc = run_tool("compare", FIXTURE, FIXTURE, "--alpha", "nan")
    assert proc.returncode == 2 and "--alpha" in proc.stderr, proc.stderr


@pytest.mark.parametrize("counter", ["bytes_per_second", "real_time"])
def test_a_negative_figure_breaks_the_schema_exit_13_in_compare_and_plot(counter, sweep, tmp_path):
    doc = copy.deepcopy(sweep)
    row = next(r for r in doc["benchmarks"] if r.get("run_type") != "aggregate")
    row[counter] = -abs(row[counter]) - 1
    bad = tmp_path / "negative.json"
    bad.write_text(json.dumps(doc))
    for proc in (run_tool("compare", FIXTURE, bad),
                 run_tool("plot", bad, "--out", tmp_path / "figures")):
        assert proc.returncode == 13, proc.stdout[-1000:] + proc.stderr[-2000:]
        assert "does not follow docs/results.schema.json" in proc.stderr and counter in proc.stderr, \
            proc.stderr
        assert row["name"] in proc.stderr and one_line_error(proc), proc.stderr
    assert not (tmp_path / "figures").exists() or not list((tmp_path / "figures").iterdir())


def test_a_row_name_in_a_schema_error_is_printed_escaped(sweep, tmp_path):
    """The row a schema error names is the file's text: it was printed raw (an escape
    sequence, a bidi override, a forged second line reached the terminal)."""
    doc = copy.deepcopy(sweep)
    row = next(r for r in doc["benchmarks"] if r.get("run_type") != "aggregate")
    row["name"] = "write\x1b[2J\u202e\nplot: all rows fine"
    row["bytes_per_second"] = -1.0
    bad = tmp_path / "escapes.json"
    bad.write_text(json.dumps(doc))
    proc = run_tool("compare", FIXTURE, bad)
    assert proc.returncode == 13, proc.stderr[-2000:]
    assert "\x1b" not in proc.stderr and "\u202e" not in proc.stderr, proc.stderr
    assert "write\\x1b[2J\\u202e\\nplot: all rows fine" in proc.stderr, proc.stderr
    assert one_line_error(proc), proc.stderr


@pytest.mark.parametrize("context", ["true", "[1]", '"mesh"'])
def test_a_context_that_is_not_an_object_is_a_one_line_error(context, tmp_path):
    """Found by tests/fuzz/tools_json_fuzzer.py: plot's test for a mesh report read
    context.schema of a context that was `true` (AttributeError, a traceback)."""
    bad = tmp_path / "odd.json"
    bad.write_text('{"context": ' + context + ', "benchmarks": []}')
    for proc in (run_tool("plot", bad, "--out", tmp_path / "figures"), run_tool("compare", bad, bad)):
        assert proc.returncode in (2, 13) and one_line_error(proc), proc.stderr[-2000:]


@pytest.mark.parametrize("schema", [[5], {"v": 5}, True, 5.5, "\x1b[2J5"])
def test_a_schema_that_is_no_version_number_is_a_one_line_error(schema, sweep, tmp_path):
    """Found by tests/fuzz/tools_json_fuzzer.py: a context.rdmabench_schema that was a list
    ended compare and plot with a TypeError (unhashable) looking it up among the versions
    read. Such a schema breaks docs/results.schema.json (a whole number): exit 13, as every
    file that breaks it (issue 66; it was exit 2, "not supported here")."""
    sweep["context"]["rdmabench_schema"] = schema
    bad = tmp_path / "odd-schema.json"
    bad.write_text(json.dumps(sweep))
    for proc in (run_tool("plot", bad, "--out", tmp_path / "figures"), run_tool("compare", bad, bad)):
        assert proc.returncode == 13 and one_line_error(proc), proc.stderr[-2000:]
        assert "not a whole number" in proc.stderr and "\x1b" not in proc.stderr, proc.stderr


class ScriptedRandom:
    """A random source that answers from scripts: randint, random and choice (an index into what
    it is given), in order."""

    def __init__(self, ints, floats, picks):
        self.ints, self.floats, self.picks = list(ints), list(floats), list(picks)

    def randint(self, low, high):
        return self.ints.pop(0)

    def random(self):
        return self.floats.pop(0)

    def choice(self, items):
        return items[self.picks.pop(0)]


def test_the_json_fuzzers_odd_values_are_fresh_at_every_use():
    """The fresh clone's fuzz phase ended with the tools' JSON fuzzer's own ValueError ("Circular
    reference detected"): a mutation put one of its shared odd values ([[[]]]) into the document,
    a deletion made its inside a place to mutate, and the next mutation put the same value inside
    itself. Each use is a copy of its own now."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("tools_json_fuzzer",
                                                  ROOT / "tests" / "fuzz" / "tools_json_fuzzer.py")
    fuzzer = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fuzzer)
    nested = fuzzer.ODD_VALUES.index([[[]]])
    # Three mutations of {"a": 1, "b": 2}: a's value set to [[[]]]; b deleted (the places are
    # found again: "a", then [[[]]]'s inside); the place inside [[[]]] set to [[[]]].
    rng = ScriptedRandom(ints=[3], floats=[0.1, 0.7, 0.1], picks=[0, nested, 1, 1, nested])
    before = json.dumps(fuzzer.ODD_VALUES, default=str)
    out = json.loads(fuzzer.mutate_node(b'{"a": 1, "b": 2}', rng))
    assert out == {"a": [[[[]]]]}, out
    assert json.dumps(fuzzer.ODD_VALUES, default=str) == before
