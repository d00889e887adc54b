"""The deterministic regression gate's verdicts on the CI recipe's two runs, on the host.

tools/test runs the CI recipe (tools/ci/gate-change --base-build: tools/gate versus, the
slowdown build as BASE and this build as NEW, each in a fresh deterministic guest of its own,
on this machine's stack), then these tests. Every verdict they assert compares runs made in
this suite run, so a new guest kernel, rdma-core, QEMU or compiler changes nothing they decide:
- the build with a calibrated slowdown (meson -Dinject_post_work, sized by
  tools/rdmabench_gate/calibrate_slowdown.py to add about 5 % to every benchmark) must fail
  every row against this build's run, each by the slowdown predicted from this build's own
  figures;
- the committed results/rxe-baseline-deterministic.json is judged against this build's run
  when it was recorded on the same stack (every row must pass), and otherwise the gate must
  say "not judged: the stack differs", naming what differs, and how to refresh it.
The guest measured both runs; judging them needs no guest (in the deterministic guest's
emulated CPU each compare took 25-32 s, here about one). The network delay the gate must catch
is measured in the guest, against this build's run (tests/rxe/test_deterministic_gate.py). The
compare tables are kept in build/test-reports/ and printed by tools/test."""
import json
import os
from pathlib import Path

from gate_table import (REPORTS, THRESHOLD, baseline, exact_slowdowns, gate,
                        judge_the_committed_baseline, keep, verdicts)
from rdmabench_gate import calibrate_slowdown
from rdmabench_tools import rdmabench_results as rr

BASELINE = baseline("rxe")
RECIPE = REPORTS / "ci-recipe"
RECIPE_RUNS = {"this build": RECIPE / "gate-versus" / "new-boot-1.json",
               "the slowdown build": RECIPE / "gate-versus" / "base-boot-1.json"}


def recipe_run(build):
    run = RECIPE_RUNS[build]
    assert run.exists(), \
        f"no run of {build} at {run}: tools/test runs the CI recipe before these tests"
    return run


def test_this_builds_run_is_the_gate_suite_pinned_and_unchanged():
    run = recipe_run("this build")
    doc = json.loads(run.read_text())
    assert {b["rdmabench_spec"]["name"] for b in doc["benchmarks"]} == set(BASELINE)
    log = (REPORTS / "ci-recipe.log").read_text()  # the suite's run says what it left out, and why
    assert "left out" in log and "time slice" in log, log[-3000:]
    # Left to the guest's scheduler, server and client shared a CPU in some boots only, and the
    # event-CQ latency rows moved by about 7 %: the gate pins both to CPU 0, and says so.
    context = doc["context"]
    assert context["rdmabench_injected_work"] is None, context  # this build's run
    assert (context["rdmabench_params"]["cpus"], context["server"]["cpus"]) == ([0], "0"), context


def test_gate_fails_on_a_five_percent_slowdown_of_the_software_path():
    build = Path(os.environ.get("RDMABENCH_SLOWDOWN_BUILD", ""))
    calibration = REPORTS / "slowdown-calibration.json"
    assert (build / "rdmabench").exists() and calibration.exists(), \
        "tools/test builds the slowdown variant before the CI recipe"
    calibrated = json.loads(calibration.read_text())
    this, slow = recipe_run("this build"), recipe_run("the slowdown build")
    predicted = calibrate_slowdown.predict(rr.load(this), calibrated["fixed"], calibrated["per_kib"])
    proc = gate("compare", "--deterministic", "--baseline", str(this), "--out", str(slow))
    keep("gate-deterministic-slowdown.txt", proc)
    injected = json.loads(slow.read_text())["context"]["rdmabench_injected_work"]  # that build's run
    assert injected == {"per_message": calibrated["fixed"], "per_kib": calibrated["per_kib"]}, \
        injected
    assert proc.returncode == 12, proc.stdout + proc.stderr[-3000:]  # regression
    rows = verdicts(proc.stdout)
    assert predicted and set(rows) == set(predicted), proc.stdout
    exact = exact_slowdowns(proc.stdout)
    for name, (_, verdict) in rows.items():
        assert verdict == "REGRESSION", proc.stdout
        # Guest time counts instructions: the injected loop costs what was predicted, within
        # the gate's own resolution.
        # A miss says each repetition of the row in both runs: a repetition (or a run) apart
        # from the others is the guest's moment, three alike the code's cost.
        assert abs(exact[name] - predicted[name]) <= THRESHOLD, (
            name, exact[name], predicted[name],
            {"this build": repetitions(this, name), "the slowdown build": repetitions(slow, name)})


def repetitions(run, name):
    """The figure the gate judges of row `name` (bw: bytes a second; lat: the p50), in each
    repetition of `run`, in its order."""
    doc = json.loads(Path(run).read_text())
    rows = [b for b in doc["benchmarks"]
            if b["rdmabench_spec"]["name"] == name and b.get("run_type") == "iteration"]
    return [b["lat_p50_us"] if b["rdmabench_spec"]["mode"] == "lat" else b["bytes_per_second"]
            for b in rows]


def test_the_committed_baseline_is_judged_on_its_own_stack_only():
    judge_the_committed_baseline("rxe", recipe_run("this build"), "gate-deterministic.txt")
