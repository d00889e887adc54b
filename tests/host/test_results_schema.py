"""docs/results.schema.json, the committed description of rdmabench's results, and the check
that tools/demo runs on every results file it writes (tools/lib/validate_results.py). The rxe
suites validate fresh `run --out` and `--json` output against the same schema."""
import copy
import json
import subprocess
import sys

import jsonschema
import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tools" / "lib"))
import validate_results  # noqa: E402

SCHEMA = json.loads((ROOT / "docs" / "results.schema.json").read_text())
# `rdmabench run ... --json` in the veth guest (10.99.0.1, rdma_cm): write and send, bw and lat,
# busy and event, 2 B and 4 KiB.
REAL = ROOT / "tests" / "host" / "fixtures" / "rxe-json-veth.json"
TOOL = [sys.executable, str(ROOT / "tools" / "lib" / "validate_results.py")]


def real():
    return json.loads(REAL.read_text())


def test_the_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_real_output_matches_and_the_tool_says_so():
    assert validate_results.problems(real()) == []
    proc = subprocess.run(TOOL + [str(REAL)], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0 and "matches results.schema.json" in proc.stdout, proc.stderr


def test_the_schema_asks_for_what_issue_21_found_missing():
    required = set(SCHEMA["properties"]["context"]["required"])
    assert {"rdmabench_revision", "rdmabench_build_type", "firmware", "link_speed_gbps",
            "link_width", "server_firmware", "server_link_speed_gbps"} <= required


@pytest.mark.parametrize("break_it, where", [
    (lambda d: d["context"].update(rdmabench_schema=3), "$.context.rdmabench_schema"),
    (lambda d: d["context"].update(port="1"), "$.context.port"),  # numbers are numbers
    (lambda d: d["context"].update(rdmabench_params=json.dumps(d["context"]["rdmabench_params"])),
     "$.context.rdmabench_params"),
    (lambda d: d["context"].pop("firmware"), "$.context"),
    (lambda d: d["benchmarks"][0].update(msgs="2000"), "$.benchmarks[0].msgs"),
    (lambda d: d["benchmarks"][0].pop("rdmabench_spec"), "$.benchmarks[0]"),
    (lambda d: d["benchmarks"][0]["rdmabench_spec"].update(mode="both"),
     "$.benchmarks[0].rdmabench_spec.mode"),
])
def test_what_breaks_the_layout_is_found_and_placed(break_it, where):
    doc = copy.deepcopy(real())
    break_it(doc)
    found = validate_results.problems(doc)
    assert found and found[0].startswith(where + ":"), found


@pytest.mark.parametrize("fixture", ["rxe-mesh-4.json", "rxe-mesh-4-slow-host-2.json"])
def test_a_mesh_report_is_checked_against_its_own_schema(fixture, tmp_path):
    """The demo writes a mesh report too; its layout is docs/mesh.schema.json."""
    doc = json.loads((ROOT / "tests" / "host" / "fixtures" / fixture).read_text())
    jsonschema.Draft202012Validator.check_schema(validate_results.validator(validate_results.MESH_SCHEMA_PATH).schema)
    assert validate_results.problems(doc) == []
    doc["benchmarks"][0]["matrices"]["bytes_per_second"][0][1] = "fast"
    found = validate_results.problems(doc)
    assert found and found[0].startswith("$.benchmarks[0].matrices.bytes_per_second[0][1]:"), found
    path = tmp_path / "mesh.json"
    path.write_text(json.dumps(doc))
    proc = subprocess.run(TOOL + [str(path)], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 13 and "does not match mesh.schema.json" in proc.stderr, proc.stderr


def test_the_tool_tells_a_bad_file_from_an_unreadable_one(tmp_path):
    bad = tmp_path / "old.json"
    doc = real()
    doc["context"]["rdmabench_schema"] = 3
    bad.write_text(json.dumps(doc))
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    proc = subprocess.run(TOOL + [str(bad)], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 13 and "does not match" in proc.stderr and "rdmabench_schema" in proc.stderr
    proc = subprocess.run(TOOL + [str(garbage), str(tmp_path / "missing.json")], capture_output=True,
                          text=True, timeout=30)
    assert proc.returncode == 2 and proc.stderr.count("cannot read as JSON") == 2, proc.stderr
