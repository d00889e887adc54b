"""`rdmabench doctor` on this host, which has no RDMA device: it says so as a failing finding
with what to do, still prints the host's own checks, exits 3 (no device) as its help says, and
its --json validates against docs/doctor.schema.json. The verdicts on devices are unit tests
(tests/unit/doctor_checks_test.cpp, fake devices and sysfs trees); the guests run it on rxe."""
import json
import os
import subprocess
from pathlib import Path

import jsonschema

from conftest import ROOT

EXE = Path(os.environ.get("RDMABENCH_BUILD", ROOT / "build")) / "rdmabench"
SCHEMA = json.loads((ROOT / "docs" / "doctor.schema.json").read_text())


def doctor(*args):
    return subprocess.run([str(EXE), "doctor", *args], capture_output=True, text=True, timeout=30)


def test_without_a_device_it_says_so_and_exits_3():
    proc = doctor()
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert "fail  host RDMA devices: none" in proc.stdout, proc.stdout
    assert "ibverbs-providers" in proc.stdout  # what to do
    for check in ("CPU frequency", "hugepages", "memlock", "kernel tuning"):
        assert f"host {check}:" in proc.stdout, proc.stdout
    assert proc.stdout.rstrip().endswith("(exit 3)"), proc.stdout


def test_json_validates_against_its_schema():
    proc = doctor("--json")
    assert proc.returncode == 3, proc.stderr
    report = json.loads(proc.stdout)
    jsonschema.validate(report, SCHEMA)
    assert report["worst"] == "fail" and report["exit_status"] == 3
    assert report["findings"][0]["check"] == "RDMA devices"


def test_help_documents_the_exit_status_and_bad_options_exit_2():
    help_text = doctor("--help")
    assert help_text.returncode == 0
    for line in (" 3  no RDMA device", "10  doctor: the worst finding is a warning",
                 "11  doctor: a check failed"):
        assert line in help_text.stdout, line
    bad = doctor("--jsn")
    assert bad.returncode == 2, bad.stdout + bad.stderr
