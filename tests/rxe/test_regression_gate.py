"""The regression gate (tools/gate) against the committed baseline, on real rxe over rdma_cm.

Runs the gate suite once and requires no regression against results/rxe-baseline.json; then
shows that the gate can fail, twice: the same fresh run judged against a copy of the
baseline made exactly twice as fast, and a fresh run with the veth pair slowed by tc netem.
The compare tables are kept in build/test-reports/ and printed by tools/test.
"""
import json
import os
import subprocess

import pytest
from conftest import BUILD, ROOT

pytestmark = pytest.mark.layout("veth")

REPORTS = BUILD / "test-reports"
GATE = str(ROOT / "tools" / "gate")
BASELINE = ROOT / "results" / "rxe-baseline.json"
LATENCY_COUNTERS = ("lat_min_us", "lat_mean_us", "lat_p50_us", "lat_p90_us", "lat_p99_us",
                    "lat_p999_us", "lat_max_us")


def gate(*args, timeout=900):
    env = dict(os.environ, RDMABENCH_PORT="18600")
    return subprocess.run([GATE, *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT,
                          env=env)


def keep(name, proc):
    REPORTS.mkdir(parents=True, exist_ok=True)
    (REPORTS / name).write_text(f"$ tools/gate ... -> exit {proc.returncode}\n{proc.stdout}")


def geomean_verdicts(stdout):
    return {line.split()[3]: line for line in stdout.splitlines() if line.startswith("geomean of ")}


@pytest.fixture(scope="module")
def fresh_run():
    out = REPORTS / "gate.json"
    proc = gate("check", "--here", "--out", str(out))
    keep("gate-compare.txt", proc)
    return proc, out


def test_gate_passes_against_the_committed_baseline(fresh_run):
    proc, _ = fresh_run
    assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]
    verdicts = geomean_verdicts(proc.stdout)
    assert set(verdicts) == {"bw", "lat"}, proc.stdout
    assert "MISSING" not in proc.stdout and "FAILED" not in proc.stdout


def test_gate_flags_a_baseline_twice_as_fast(fresh_run, tmp_path):
    proc, out = fresh_run
    assert out.exists(), proc.stderr[-3000:]
    doc = json.loads(BASELINE.read_text())
    for row in doc["benchmarks"]:
        for key in ("bytes_per_second", "msgs_per_second"):
            if key in row:
                row[key] *= 2.0
        for key in LATENCY_COUNTERS:
            if key in row:
                row[key] /= 2.0
    doctored = tmp_path / "baseline-twice-as-fast.json"
    doctored.write_text(json.dumps(doc))
    proc = gate("compare", "--baseline", str(doctored), "--out", str(out))
    keep("gate-vs-2x-baseline.txt", proc)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    verdicts = geomean_verdicts(proc.stdout)
    assert "REGRESSION" in verdicts["bw"] and "REGRESSION" in verdicts["lat"], proc.stdout


def test_gate_catches_a_slowed_network():
    out = REPORTS / "gate-slow.json"
    proc = gate("check", "--here", "--out", str(out), "--slow-network", "rate 100mbit delay 100us")
    keep("gate-slow-network.txt", proc)
    assert "injected slowdown" in proc.stderr
    assert proc.returncode == 1, proc.stdout + proc.stderr[-3000:]
    verdicts = geomean_verdicts(proc.stdout)
    assert "REGRESSION" in verdicts["bw"] and "REGRESSION" in verdicts["lat"], proc.stdout
    # The shaping is removed afterwards.
    qdisc = subprocess.run(["tc", "qdisc", "show", "dev", "veth0"], capture_output=True, text=True).stdout
    assert "netem" not in qdisc
