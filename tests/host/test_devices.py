"""`rdmabench devices` on this host, which has no RDMA device: it says so with what to do and
exits 3 (no device), and with --json still prints a document that follows
docs/devices.schema.json, with no device in it, as `doctor --json` does. The listing of real
devices is the guests' (tests/rxe/test_devices.py)."""
import json
import os
import subprocess
from pathlib import Path

import jsonschema

from conftest import ROOT

EXE = Path(os.environ.get("RDMABENCH_BUILD", ROOT / "build")) / "rdmabench"
SCHEMA = json.loads((ROOT / "docs" / "devices.schema.json").read_text())


def devices(*args):
    return subprocess.run([str(EXE), "devices", *args], capture_output=True, text=True, timeout=30)


def test_without_a_device_it_says_what_to_do_and_exits_3():
    proc = devices()
    assert proc.returncode == 3 and proc.stdout == "", proc.stdout + proc.stderr
    assert "no RDMA device found" in proc.stderr and "rdma link add" in proc.stderr, proc.stderr


def test_json_without_a_device_is_a_document_with_none():
    """`devices --json` printed nothing at all with no device."""
    proc = devices("--json")
    assert proc.returncode == 3, proc.stderr
    report = json.loads(proc.stdout)
    jsonschema.validate(report, SCHEMA)
    assert report["devices"] == [], report
    assert "no RDMA device found" in proc.stderr, proc.stderr
