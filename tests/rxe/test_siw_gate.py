"""The deterministic regression gate on iWARP (tools/gate --deterministic --fabric siw), between
the two siw hosts of the deterministic guest (tools/rxe-vm -m veth --fabric siw --deterministic).

Unchanged code must pass against the committed results/siw-baseline-deterministic.json, row by
row at the gate's 2 %; a network that is slower (tc netem on the veth pair: a delay and a rate
limit) must fail every row. The suite holds what siw carries (rc; no immediate data, no
atomics: the engine leaves those patterns out and says why) and, of that, every row in which
no side spins: siw sends from a kernel thread on the sender's CPU (`rdmabench devices --json`
says sends_from_kernel_thread), which a spinning side holds off until the scheduler's tick."""
import json
import subprocess

import pytest
from gate_table import REPORTS, baseline, gate, keep, verdicts

pytestmark = pytest.mark.layout("siw-icount")

BASELINE = baseline("siw")
# Both ways on the veth pair: 20 us more per packet, and 200 Mbit/s.
SLOWER_NETWORK = "delay 20us rate 200mbit"


def check(*extra, out):
    proc = gate("check", "--here", "--deterministic", "--fabric", "siw", "--out", str(REPORTS / out),
                *extra)
    keep(out.replace(".json", ".txt"), proc)
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
    # One repetition a row: the guest repeats a figure to 0.1-1 %, the network moves it 15-45 %.
    proc = check("--slow-network", SLOWER_NETWORK, "--repetitions", "1",
                 out="gate-siw-deterministic-netem.json")
    assert "injected slowdown" in proc.stderr
    assert proc.returncode == 12, proc.stdout + proc.stderr[-3000:]  # regression
    rows = verdicts(proc.stdout)
    assert set(rows) == set(BASELINE), proc.stdout
    assert all(v == "REGRESSION" for _, v in rows.values()), proc.stdout
    qdisc = subprocess.run(["tc", "qdisc", "show", "dev", "veth0"], capture_output=True, text=True).stdout
    assert "netem" not in qdisc
