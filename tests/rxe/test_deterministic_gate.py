"""The deterministic regression gate (tools/gate --deterministic), in the deterministic guest.

Runs only there (tools/test boots tools/rxe-vm --deterministic -m veth for it). Unchanged code
must pass against the committed results/rxe-baseline-deterministic.json; two injected
slowdowns must fail:
- the rdmabench build made by tools/test with meson -Dinject_post_work (RDMABENCH_SLOWDOWN_BUILD),
  sized by tools/rdmabench_tools/calibrate_slowdown.py to add about 5 % to every benchmark of the suite;
  every benchmark must be flagged, each by about the slowdown predicted for it;
- a 20 us netem delay on the veth pair, which every latency benchmark must show.
The suite's runs of this build and of the slower one are the CI recipe's (tools/ci/gate-change
--base-build, which tools/test runs just before this guest: tools/gate versus, each build in a
fresh deterministic guest of its own): they are judged here against the committed baseline
with `tools/gate compare`, as `tools/gate check` would judge its own run, instead of being
measured a second time. The network delay is this guest's own run.
The compare tables are kept in build/test-reports/ and printed by tools/test.
"""
import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from conftest import BUILD, ROOT

pytestmark = pytest.mark.layout("veth-icount")

REPORTS = BUILD / "test-reports"
# The suite's benchmarks, as the committed baseline holds them (the gate judges each).
BASELINE = {b["rdmabench_spec"]["name"]: b["rdmabench_spec"] for b in json.loads(
    (ROOT / "results" / "rxe-baseline-deterministic.json").read_text())["benchmarks"]}
GATE = str(ROOT / "tools" / "gate")
THRESHOLD = 0.02  # tools/gate --deterministic's default, as a fraction
# Columns are two or more spaces apart; a verdict ("slower, not significant") and the last
# column, wire, which tools/compare adds when some row's ports flagged trouble ("retransmission
# 0/19"), hold single spaces only.
ROW = re.compile(r"^(?P<name>[a-z_]+/(bw|lat)/[a-z]+/\d+(/[a-z]+)?)\s.*\s(?P<slowdown>[\d.]+)x\s+\S+\s{2,}"
                 r"(?P<verdict>\S+(?: \S+)*)(?:\s{2,}(?P<wire>\S+(?: \S+)*))?\s*$")


def gate(*args, timeout=900):
    env = dict(os.environ, RDMABENCH_PORT="18600", RDMABENCH_BUILD=str(BUILD))
    return subprocess.run([GATE, *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT,
                          env=env)


def keep(name, proc):
    REPORTS.mkdir(parents=True, exist_ok=True)
    (REPORTS / name).write_text(f"$ tools/gate ... -> exit {proc.returncode}\n{proc.stdout}")


def verdicts(stdout):
    """{benchmark: (slowdown, verdict)} from tools/compare's table."""
    rows = {}
    for line in stdout.splitlines():
        if m := ROW.match(line):
            rows[m["name"]] = (float(m["slowdown"]), m["verdict"])
    return rows


def exact_slowdowns(stdout):
    """{benchmark: slowdown} from the base and new figures of tools/compare's table (four
    significant digits), not its slowdown column, which is rounded to two decimals: 99.84 us
    against 93.67 is 1.066, shown as 1.07x, and 0.005 of rounding is a quarter of the 2 %
    the slowdown test allows (run 13 of the suite failed on it: 1.07 against 1.050 predicted)."""
    rows = {}
    for line in stdout.splitlines():
        if not ROW.match(line):
            continue
        name, metric, base, new = re.split(r"\s{2,}", line.strip())[:4]
        base, new = float(base), float(new)
        rows[name] = base / new if metric.startswith("bandwidth") else new / base
    return rows


def check(*extra, out):
    return gate("check", "--here", "--deterministic", "--out", str(REPORTS / out), *extra)


# What the CI recipe (run by tools/test before this guest) measured: tools/gate versus with the
# slowdown build as BASE and this build as NEW, one fresh guest each.
RECIPE = REPORTS / "ci-recipe"
RECIPE_RUNS = {"this build": RECIPE / "gate-versus" / "new-boot-1.json",
               "the slowdown build": RECIPE / "gate-versus" / "base-boot-1.json"}


def judged(build):
    """tools/gate compare of the CI recipe's run of `build` against the committed baseline."""
    run = RECIPE_RUNS[build]
    assert run.exists(), \
        f"no run of {build} at {run}: tools/test runs the CI recipe before this guest"
    return run, gate("compare", "--deterministic", "--out", str(run))


def test_gate_passes_on_unchanged_code():
    run, proc = judged("this build")
    keep("gate-deterministic.txt", proc)
    assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]
    rows = verdicts(proc.stdout)
    assert set(rows) == set(BASELINE) and all(v == "ok" for _, v in rows.values()), proc.stdout
    log = (REPORTS / "ci-recipe.log").read_text()  # the suite's run says what it left out, and why
    assert "left out" in log and "time slice" in log, log[-3000:]
    # Left to the guest's scheduler, server and client shared a CPU in some boots only, and the
    # event-CQ latency rows moved by about 7 %: the gate pins both to CPU 0, and says so.
    context = json.loads(run.read_text())["context"]
    assert context["rdmabench_injected_work"] is None, context  # this build's run
    assert (context["rdmabench_params"]["cpus"], context["server"]["cpus"]) == ([0], "0"), context


def test_gate_fails_on_a_five_percent_slowdown_of_the_software_path():
    build = Path(os.environ.get("RDMABENCH_SLOWDOWN_BUILD", ""))
    calibration = REPORTS / "slowdown-calibration.json"
    assert (build / "rdmabench").exists() and calibration.exists(), \
        "tools/test builds the slowdown variant before booting this guest"
    calibrated = json.loads(calibration.read_text())
    predicted = calibrated["predicted"]
    run, proc = judged("the slowdown build")
    keep("gate-deterministic-slowdown.txt", proc)
    injected = json.loads(run.read_text())["context"]["rdmabench_injected_work"]  # that build's run
    assert injected == {"per_message": calibrated["fixed"], "per_kib": calibrated["per_kib"]}, \
        injected
    assert proc.returncode == 12, proc.stdout + proc.stderr[-3000:]  # regression
    rows = verdicts(proc.stdout)
    assert set(rows) == set(predicted), proc.stdout
    exact = exact_slowdowns(proc.stdout)
    for name, (_, verdict) in rows.items():
        assert verdict == "REGRESSION", proc.stdout
        # Guest time counts instructions: the injected loop costs what was predicted, within
        # the gate's own resolution.
        assert abs(exact[name] - predicted[name]) <= THRESHOLD, (name, exact[name], predicted[name])


def test_gate_fails_on_a_network_delay():
    proc = check("--slow-network", "delay 20us", out="gate-deterministic-netem.json")
    keep("gate-deterministic-netem.txt", proc)
    assert "injected slowdown" in proc.stderr
    assert proc.returncode == 12, proc.stdout + proc.stderr[-3000:]  # regression
    latency = {n: v for n, v in verdicts(proc.stdout).items() if "/lat/" in n}
    assert set(latency) == {n for n, s in BASELINE.items() if s["mode"] == "lat"}, proc.stdout
    assert all(v == "REGRESSION" for _, v in latency.values()), proc.stdout
    qdisc = subprocess.run(["tc", "qdisc", "show", "dev", "veth0"], capture_output=True, text=True).stdout
    assert "netem" not in qdisc
