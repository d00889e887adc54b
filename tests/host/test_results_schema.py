"""docs/results.schema.json, the committed description of rdmabench's results, and the check
that tools/demo runs on every results file it writes (tools/rdmabench_tools/validate_results.py). The rxe
suites validate fresh `run --out` and `--json` output against the same schema."""
import copy
import json
import subprocess
import sys

import jsonschema
import pytest

from conftest import ROOT

from rdmabench_tools import validate_results

SCHEMA = json.loads((ROOT / "docs" / "results.schema.json").read_text())
# `rdmabench run ... --json` in the veth guest (10.99.0.1, rdma_cm): write and send, bw and lat,
# busy and event, 2 B and 4 KiB.
REAL = ROOT / "tests" / "host" / "fixtures" / "rxe-json-veth.json"
TOOL = [str(ROOT / "tools" / "lib" / "run-module"), "rdmabench_tools.validate_results"]


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
    assert {"rdmabench_revision", "rdmabench_build_type", "client", "server"} <= required
    side = SCHEMA["$defs"]["side"]
    assert {"firmware", "link_speed_gbps", "link_width"} <= set(side["required"])


@pytest.mark.parametrize("break_it, where", [
    (lambda d: d["context"].update(rdmabench_schema=3), "$.context.rdmabench_schema"),
    (lambda d: d["context"]["client"].update(port="1"), "$.context.client.port"),  # numbers are numbers
    (lambda d: d["context"].update(rdmabench_params=json.dumps(d["context"]["rdmabench_params"])),
     "$.context.rdmabench_params"),
    (lambda d: d["context"]["server"].pop("firmware"), "$.context.server"),
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
    assert proc.returncode == 13 and "rdmabench results schema 3" in proc.stderr \
        and "run-module rdmabench_tools.upgrade_results" in proc.stderr, proc.stderr
    proc = subprocess.run(TOOL + [str(garbage), str(tmp_path / "missing.json")], capture_output=True,
                          text=True, timeout=30)
    assert proc.returncode == 2 and proc.stderr.count("cannot read as JSON") == 2, proc.stderr


def described(node, where, missing):
    """Every property of the schema, at any depth, has a description (or is a $ref to one that
    has); `missing` collects the places that have none."""
    if not isinstance(node, dict):
        return
    for key in ("properties", "patternProperties"):
        for name, child in node.get(key, {}).items():
            if isinstance(child, dict) and "$ref" not in child and "description" not in child:
                missing.append(f"{where}.{name}")
            described(child, f"{where}.{name}", missing)
    for key in ("items", "then"):
        described(node.get(key), where, missing)
    for name, child in node.get("$defs", {}).items():
        described(child, f"$defs.{name}", missing)


def test_every_field_and_counter_is_described():
    """The schema described few fields (issue 34)."""
    missing = []
    described(SCHEMA, "$", missing)
    assert not missing, missing
    counters = SCHEMA["$defs"]["row"]["patternProperties"]
    assert all(c.get("minimum") == 0 for c in counters.values())
    assert SCHEMA["$defs"]["row"]["additionalProperties"] is False  # an unknown counter is found


@pytest.mark.parametrize("break_it, where", [
    (lambda d: d["benchmarks"][0].update(bytes_per_second=-1.0), "$.benchmarks[0].bytes_per_second"),
    (lambda d: d["benchmarks"][0].update(msgs=d["benchmarks"][0]["msgs"] + 0.5), "$.benchmarks[0].msgs"),
    (lambda d: d["benchmarks"][0].update(size=65536.25), "$.benchmarks[0].size"),
    (lambda d: d["benchmarks"][0].update(made_up_counter=1), "$.benchmarks[0]"),
    (lambda d: d["context"]["rdmabench_params"].update(qps="1"), "$.context.rdmabench_params.qps"),
    (lambda d: d["context"]["rdmabench_params"].update(sizes="2,64K"), "$.context.rdmabench_params.sizes"),
    (lambda d: d["context"]["client"].update(server_device="rxe0"), "$.context.client"),
    (lambda d: d["context"].update(device="rxe1"), "$.context"),
])
def test_schema_5_holds_counts_to_integers_and_params_to_their_types(break_it, where):
    """Counts were floats (msgs: 200.0), params strings (qps: "1"), a negative bandwidth
    validated, and the context was flat (device beside server_device)."""
    doc = copy.deepcopy(real())
    assert doc["benchmarks"][0]["run_type"] == "iteration"
    break_it(doc)
    found = validate_results.problems(doc)
    assert found and found[0].startswith(where), found


def test_an_aggregate_rows_statistic_of_a_count_may_be_fractional():
    doc = json.loads((ROOT / "tests" / "host" / "fixtures" / "rxe-sweep.json").read_text())
    row = next(r for r in doc["benchmarks"] if r["run_type"] == "aggregate")
    row["msgs"] = 200.5  # the mean of 200 and 201
    assert validate_results.problems(doc) == []


COMMITTED = sorted((ROOT / "results").glob("*.json")) + sorted((ROOT / "tests" / "host" / "fixtures").glob("*.json"))


@pytest.mark.parametrize("path", COMMITTED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_committed_results_file_validates(path):
    """The committed files failed the committed validator (537 problems in the baseline)."""
    proc = subprocess.run(TOOL + [str(path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def has_rows(path):
    """A run's results (rows and their counters' catalogue), not a mesh report (per-pair matrices)."""
    return "rdmabench_counters" in json.loads(path.read_text())["context"]


RUN_FILES = [p for p in COMMITTED if has_rows(p)]


def test_the_committed_files_are_runs_but_the_mesh_reports():
    assert RUN_FILES and [p for p in COMMITTED if p not in RUN_FILES] == \
        [p for p in COMMITTED if "mesh" in p.name], [p.name for p in COMMITTED if p not in RUN_FILES]


@pytest.mark.parametrize("path", RUN_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_count_is_written_as_an_integer(path):
    """JSON Schema takes 200.0 for an integer; a script does not (msgs: 200.0, size: 65536.0)."""
    from rdmabench_tools import rdmabench_results as rr
    doc = json.loads(path.read_text())
    catalogue = doc["context"]["rdmabench_counters"]
    rows = [row for row in doc["benchmarks"] if row.get("run_type") == "iteration"]
    integers = [(row["name"], key) for row in rows for key in row
                if (rr.catalogue_entry(catalogue, key) or {}).get("integer")]
    assert rows and len(integers) >= len(rows), (len(rows), len(integers))  # a count a row at least
    floats = [(row["name"], key) for row in rows for key, value in row.items()
              if (rr.catalogue_entry(catalogue, key) or {}).get("integer") and not isinstance(value, int)]
    assert not floats, floats[:5]


@pytest.mark.parametrize("old", sorted((ROOT / "tests" / "host" / "fixtures" / "old-schemas").glob("*.json")),
                         ids=lambda p: p.name)
def test_an_older_schema_is_named_and_converted_and_the_tools_read_it(old, tmp_path):
    proc = subprocess.run(TOOL + [str(old)], capture_output=True, text=True, timeout=60)
    version = json.loads(old.read_text())["context"]["rdmabench_schema"]
    assert proc.returncode == 13 and f"rdmabench results schema {version}" in proc.stderr, proc.stderr
    copy_of = tmp_path / old.name
    copy_of.write_text(old.read_text())
    upgrade = subprocess.run([str(ROOT / "tools" / "lib" / "run-module"), "rdmabench_tools.upgrade_results", str(copy_of)],
                             capture_output=True, text=True, timeout=60)
    assert upgrade.returncode == 0 and f"schema {version} -> 5" in upgrade.stdout, upgrade.stderr
    proc = subprocess.run(TOOL + [str(copy_of)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    same = subprocess.run([sys.executable, str(ROOT / "tools" / "compare"), str(old), str(copy_of)],
                          capture_output=True, text=True, timeout=120)
    assert same.returncode == 0 and "no regression" in same.stdout, same.stdout + same.stderr


def test_every_schema_version_advertises_exists():
    """version --json advertised a devices schema that did not exist."""
    build = ROOT / "build" / "rdmabench"
    doc = json.loads(subprocess.run([str(build), "version", "--json"], capture_output=True, text=True,
                                    timeout=30).stdout)
    consts = {"results": ("properties", "context", "properties", "rdmabench_schema"),
              "devices": ("properties", "schema"), "doctor": ("properties", "rdmabench_doctor_schema"),
              "mesh": ("properties", "context", "properties", "schema"),
              "search": ("properties", "schema")}
    # Every schema docs/ documents (and the package installs) has its version in version --json
    # (it left out mesh's and search's); those two name theirs as "rdmabench-NAME/VERSION".
    documented = sorted(p.name.removesuffix(".schema.json") for p in (ROOT / "docs").glob("*.schema.json"))
    assert sorted(consts) == documented
    advertised = sorted(key.removesuffix("_schema") for key in doc if key.endswith("_schema"))
    assert advertised == documented, advertised
    for name, path in consts.items():
        schema = json.loads((ROOT / "docs" / f"{name}.schema.json").read_text())
        jsonschema.Draft202012Validator.check_schema(schema)
        node = schema
        for key in path:
            node = node[key]
        named = f"rdmabench-{name}/{doc[f'{name}_schema']}" if name in ("mesh", "search") else None
        assert node["const"] in (doc[f"{name}_schema"], named), name
