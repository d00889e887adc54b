"""The deterministic regression gate (tools/gate --deterministic) against a slower network, in
the deterministic guest.

Runs only there (tools/test boots tools/rxe-vm --deterministic -m veth for it): with a 20 us
netem delay on the veth pair, every latency benchmark of the suite must fail against this
build's own run of the gate suite, made by the CI recipe earlier in the same tools/test run on
this machine (a fresh deterministic guest of the same stack): nothing here depends on the stack
the committed baseline was recorded on. The gate's verdicts on a calibrated 5 % slowdown, and on
the committed baseline, judge the CI recipe's runs on the host (tests/recipe). The compare table
is kept in build/test-reports/ and printed by tools/test.
"""
import json
import subprocess

import pytest
from gate_table import REPORTS, gate, keep, verdicts

pytestmark = pytest.mark.layout("veth-icount")

# This build's run of the gate suite: the CI recipe's NEW (tools/ci/gate-change, run by tools/test
# before this guest boots).
THIS_BUILDS_RUN = REPORTS / "ci-recipe" / "gate-versus" / "new-boot-1.json"


def test_gate_fails_on_a_network_delay():
    assert THIS_BUILDS_RUN.is_file(), \
        f"no run of this build at {THIS_BUILDS_RUN}: tools/test runs the CI recipe before this guest"
    reference = {b["rdmabench_spec"]["name"]: b["rdmabench_spec"]
                 for b in json.loads(THIS_BUILDS_RUN.read_text())["benchmarks"]}
    # One repetition a row: the guest repeats a figure to 0.1-1 %, the delay moves latency 15 %
    # and more (the rows compare against the reference's best of three).
    proc = gate("check", "--here", "--deterministic", "--baseline", str(THIS_BUILDS_RUN),
                "--out", str(REPORTS / "gate-deterministic-netem.json"),
                "--slow-network", "delay 20us", "--repetitions", "1")
    keep("gate-deterministic-netem.txt", proc)
    assert "injected slowdown" in proc.stderr
    assert proc.returncode == 12, proc.stdout + proc.stderr[-3000:]  # regression
    latency = {n: v for n, v in verdicts(proc.stdout).items() if "/lat/" in n}
    assert set(latency) == {n for n, s in reference.items() if s["mode"] == "lat"}, proc.stdout
    assert latency and all(v == "REGRESSION" for _, v in latency.values()), proc.stdout
    qdisc = subprocess.run(["tc", "qdisc", "show", "dev", "veth0"], capture_output=True, text=True).stdout
    assert "netem" not in qdisc
