"""The deterministic regression gate (tools/gate --deterministic) against a slower network, in
the deterministic guest.

Runs only there (tools/test boots tools/rxe-vm --deterministic -m veth for it): with a 20 us
netem delay on the veth pair, every latency benchmark of the suite must fail against the
committed results/rxe-baseline-deterministic.json. The gate's verdicts on unchanged code and on
a calibrated 5 % slowdown judge the CI recipe's runs, on the host (tests/recipe). The compare
table is kept in build/test-reports/ and printed by tools/test.
"""
import subprocess

import pytest
from gate_table import REPORTS, baseline, gate, keep, verdicts

pytestmark = pytest.mark.layout("veth-icount")

BASELINE = baseline("rxe")


def check(*extra, out):
    return gate("check", "--here", "--deterministic", "--out", str(REPORTS / out), *extra)


def test_gate_fails_on_a_network_delay():
    # One repetition a row: the guest repeats a figure to 0.1-1 %, the delay moves latency 15 %
    # and more (the rows compare against the baseline's median of three).
    proc = check("--slow-network", "delay 20us", "--repetitions", "1",
                 out="gate-deterministic-netem.json")
    keep("gate-deterministic-netem.txt", proc)
    assert "injected slowdown" in proc.stderr
    assert proc.returncode == 12, proc.stdout + proc.stderr[-3000:]  # regression
    latency = {n: v for n, v in verdicts(proc.stdout).items() if "/lat/" in n}
    assert set(latency) == {n for n, s in BASELINE.items() if s["mode"] == "lat"}, proc.stdout
    assert all(v == "REGRESSION" for _, v in latency.values()), proc.stdout
    qdisc = subprocess.run(["tc", "qdisc", "show", "dev", "veth0"], capture_output=True, text=True).stdout
    assert "netem" not in qdisc
