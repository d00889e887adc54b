"""The deterministic regression gate's verdicts on the CI recipe's two runs, on the host.

tools/test runs the CI recipe (tools/ci/gate-change --base-build: tools/gate versus, the
slowdown build as BASE and this build as NEW, each in a fresh deterministic guest of its own),
then these tests: each run is judged against the committed results/rxe-baseline-deterministic.json
with `tools/gate compare`, as `tools/gate check` would judge its own run.
- This build's run must pass, every row.
- The build with a calibrated slowdown (meson -Dinject_post_work, sized by
  tools/rdmabench_gate/calibrate_slowdown.py to add about 5 % to every benchmark) must fail
  every row, each by about the slowdown predicted for it.
The guest measured both runs; judging them needs no guest (in the deterministic guest's
emulated CPU each compare took 25-32 s, here about one). The network delay the gate must catch
is measured in the guest (tests/rxe/test_deterministic_gate.py). The compare tables are kept in
build/test-reports/ and printed by tools/test."""
import json
import os
from pathlib import Path

from gate_table import REPORTS, THRESHOLD, baseline, exact_slowdowns, gate, keep, verdicts

BASELINE = baseline("rxe")
RECIPE = REPORTS / "ci-recipe"
RECIPE_RUNS = {"this build": RECIPE / "gate-versus" / "new-boot-1.json",
               "the slowdown build": RECIPE / "gate-versus" / "base-boot-1.json"}


def judged(build):
    """tools/gate compare of the CI recipe's run of `build` against the committed baseline."""
    run = RECIPE_RUNS[build]
    assert run.exists(), \
        f"no run of {build} at {run}: tools/test runs the CI recipe before these tests"
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
        "tools/test builds the slowdown variant before the CI recipe"
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
