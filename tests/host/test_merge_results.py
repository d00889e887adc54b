"""tools/rdmabench_gate/merge_results.py: the gate's datagram rows run apart and join the suite's file,
their own context kept beside the rows they name; runs that cannot share a file are refused."""
import json

import jsonschema
import pytest
from conftest import ROOT, run_tool

from rdmabench_tools import rdmabench_results as rr

SCHEMA = jsonschema.Draft202012Validator(json.loads((ROOT / "docs" / "results.schema.json").read_text()))


def split(tmp_path, doc, predicate):
    """Two files of doc: the rows for which predicate holds, and the rest (another bootstrap)."""
    first, second = json.loads(json.dumps(doc)), json.loads(json.dumps(doc))
    first["benchmarks"] = [b for b in doc["benchmarks"] if not predicate(b)]
    second["benchmarks"] = [b for b in doc["benchmarks"] if predicate(b)]
    second["context"]["bootstrap"] = "oob"
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(first))
    b.write_text(json.dumps(second))
    return a, b


BASELINE = ROOT / "results" / "rxe-baseline-deterministic.json"


@pytest.fixture
def doc():
    """The committed deterministic baseline as one run would write it (no merged runs)."""
    d = json.loads(BASELINE.read_text())
    d["context"].pop("merged_runs", None)
    return d


def test_rows_are_joined_and_the_other_runs_context_is_kept(tmp_path, doc):
    lat = lambda b: b.get("rdmabench_spec", {}).get("mode") == "lat"  # noqa: E731
    a, b = split(tmp_path, doc, lat)
    proc = run_tool("rdmabench_gate.merge_results", a, b)
    assert proc.returncode == 0, proc.stderr
    merged = json.loads(a.read_text())
    SCHEMA.validate(merged)
    assert len(merged["benchmarks"]) == len(doc["benchmarks"])
    assert set(rr.load(a).benchmarks) == set(rr.load(str(BASELINE)).benchmarks)
    [other] = merged["context"]["merged_runs"]
    assert other["context"] == {"bootstrap": "oob"}, other
    assert other["rows"] == sorted({b["rdmabench_spec"]["name"] for b in doc["benchmarks"] if lat(b)})


@pytest.mark.parametrize("change, says", [
    (lambda d: d["context"]["client"].update(icount_shift=None, timing_mode="realtime"), "timing_mode"),
    (lambda d: None, "rows already in the file"),
    (lambda d: d.update(benchmarks="x"), "b.json: not Google Benchmark JSON"),
])
def test_runs_that_cannot_share_a_file_are_refused(tmp_path, doc, change, says):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(doc))
    change(doc)
    b.write_text(json.dumps(doc))
    before = a.read_text()
    proc = run_tool("rdmabench_gate.merge_results", a, b)
    assert proc.returncode == 2 and says in proc.stderr, proc.stderr
    assert a.read_text() == before  # nothing written
