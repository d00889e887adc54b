"""The deterministic regression gate on iWARP (tools/gate --deterministic --fabric siw), between
the two siw hosts of the deterministic guest (tools/rxe-vm -m veth --fabric siw --deterministic).

This build's own run of the suite comes first. A network that is slower (tc netem on the veth
pair: a delay and a rate limit) must fail every row against it: both runs are made here, on this
machine's stack, so a new guest kernel, rdma-core, QEMU or compiler changes nothing that verdict
decides. The committed results/siw-baseline-deterministic.json is judged against the same run
when it was recorded on the same stack (every row must pass at the gate's 2 %), and otherwise
the gate must say "not judged: the stack differs" and how to refresh it. The suite holds what
siw carries (rc; no immediate data, no atomics: the engine leaves those patterns out and says
why) and, of that, every row in which no side spins: siw sends from a kernel thread on the
sender's CPU (`rdmabench devices --json` says sends_from_kernel_thread), which a spinning side
holds off until the scheduler's tick."""
import json
import subprocess

import pytest
from gate_table import REPORTS, baseline, gate, judge_the_committed_baseline, keep, verdicts

pytestmark = pytest.mark.layout("siw-icount")

BASELINE = baseline("siw")
# Both ways on the veth pair: 20 us more per packet, and 200 Mbit/s.
SLOWER_NETWORK = "delay 20us rate 200mbit"


def siw_gate(action, *extra, out):
    proc = gate(action, "--here", "--deterministic", "--fabric", "siw", "--out", str(REPORTS / out),
                *extra)
    keep(out.replace(".json", ".txt"), proc)
    return proc


@pytest.fixture(scope="module")
def this_builds_run():
    """The gate suite on unchanged code, in this guest: the reference the other verdicts judge."""
    proc = siw_gate("run", out="gate-siw-deterministic-run.json")
    assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]
    return REPORTS / "gate-siw-deterministic-run.json", proc


def test_this_builds_run_holds_what_iwarp_carries(this_builds_run):
    run, proc = this_builds_run
    doc = json.loads(run.read_text())
    names = {b["rdmabench_spec"]["name"] for b in doc["benchmarks"]}
    assert names == set(BASELINE), names ^ set(BASELINE)
    assert all("/event/" in name for name in names), names  # no side spins
    assert "sends_from_kernel_thread" in proc.stderr, proc.stderr[-3000:]
    assert doc["context"]["client"]["fabric"] == doc["context"]["server"]["fabric"] == "iWARP"
    assert {b["rdmabench_spec"]["transport"] for b in doc["benchmarks"]} == {"rc"}
    patterns = {b["rdmabench_spec"]["pattern"] for b in doc["benchmarks"]}
    assert {"send", "write", "read"} <= patterns and not patterns & {"write_imm", "send_imm"}


def test_the_committed_baseline_is_judged_on_its_own_stack_only(this_builds_run):
    run, _ = this_builds_run
    judge_the_committed_baseline("siw", run, "gate-siw-deterministic.txt")


def test_the_siw_gate_fails_on_a_slower_network(this_builds_run):
    run, _ = this_builds_run
    # One repetition a row: the guest repeats a figure to 0.1-1 %, the network moves it 15-45 %.
    proc = siw_gate("check", "--baseline", str(run), "--slow-network", SLOWER_NETWORK,
                    "--repetitions", "1", out="gate-siw-deterministic-netem.json")
    assert "injected slowdown" in proc.stderr
    assert proc.returncode == 12, proc.stdout + proc.stderr[-3000:]  # regression
    rows = verdicts(proc.stdout)
    assert rows and set(rows) == set(BASELINE), proc.stdout
    assert all(v == "REGRESSION" for _, v in rows.values()), proc.stdout
    qdisc = subprocess.run(["tc", "qdisc", "show", "dev", "veth0"], capture_output=True, text=True).stdout
    assert "netem" not in qdisc
