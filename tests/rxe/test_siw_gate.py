"""The deterministic regression gate on iWARP (tools/gate --deterministic --fabric siw), between
the two siw hosts of the deterministic guest (tools/rxe-vm -m veth --fabric siw --deterministic).

Unchanged code must pass against the committed results/siw-baseline-deterministic.json, row by
row at the gate's 2 %; a network that is slower (tc netem on the veth pair: a delay and a rate
limit) must fail every row. The suite holds what siw carries (rc; no immediate data, no
atomics: the engine leaves those patterns out and says why) and, of that, every row in which
no side spins: siw sends from a kernel thread on the sender's CPU (`rdmabench devices --json`
says sends_from_kernel_thread), which a spinning side holds off until the scheduler's tick."""
import json
import os
import subprocess

import pytest
from conftest import BUILD, ROOT
from test_deterministic_gate import verdicts

pytestmark = pytest.mark.layout("siw-icount")

REPORTS = BUILD / "test-reports"
BASELINE = {b["rdmabench_spec"]["name"]: b["rdmabench_spec"] for b in json.loads(
    (ROOT / "results" / "siw-baseline-deterministic.json").read_text())["benchmarks"]}
# Both ways on the veth pair: 20 us more per packet, and 200 Mbit/s.
SLOWER_NETWORK = "delay 20us rate 200mbit"


def check(*extra, out):
    env = dict(os.environ, RDMABENCH_PORT="18600", RDMABENCH_BUILD=str(BUILD))
    proc = subprocess.run([str(ROOT / "tools" / "gate"), "check", "--here", "--deterministic",
                           "--fabric", "siw", "--out", str(REPORTS / out), *extra],
                          capture_output=True, text=True, timeout=900, cwd=ROOT, env=env)
    REPORTS.mkdir(parents=True, exist_ok=True)
    (REPORTS / out.replace(".json", ".txt")).write_text(
        f"$ tools/gate ... -> exit {proc.returncode}\n{proc.stdout}")
    return proc


def test_the_siw_gate_passes_on_unchanged_code_and_runs_what_iwarp_carries():
    proc = check(out="gate-siw-deterministic.json")
    assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]
    rows = verdicts(proc.stdout)
    assert set(rows) == set(BASELINE) and all(v == "ok" for _, v in rows.values()), proc.stdout
    assert all("/event/" in name for name in rows), rows  # no side spins
    assert "sends_from_kernel_thread" in proc.stderr, proc.stderr[-3000:]
    doc = json.loads((REPORTS / "gate-siw-deterministic.json").read_text())
    assert doc["context"]["client"]["fabric"] == doc["context"]["server"]["fabric"] == "iWARP"
    assert {b["rdmabench_spec"]["transport"] for b in doc["benchmarks"]} == {"rc"}
    patterns = {b["rdmabench_spec"]["pattern"] for b in doc["benchmarks"]}
    assert {"send", "write", "read"} <= patterns and not patterns & {"write_imm", "send_imm"}


def test_the_siw_gate_fails_on_a_slower_network():
    proc = check("--slow-network", SLOWER_NETWORK, out="gate-siw-deterministic-netem.json")
    assert "injected slowdown" in proc.stderr
    assert proc.returncode == 12, proc.stdout + proc.stderr[-3000:]  # regression
    rows = verdicts(proc.stdout)
    assert set(rows) == set(BASELINE), proc.stdout
    assert all(v == "REGRESSION" for _, v in rows.values()), proc.stdout
    qdisc = subprocess.run(["tc", "qdisc", "show", "dev", "veth0"], capture_output=True, text=True).stdout
    assert "netem" not in qdisc
