"""The test command's own machinery: the phase budget (tools/rdmabench_dev/phase_budget.py against
tests/phase-budget.json) and the summary that names every failure (tools/rdmabench_dev/test_summary.py)."""
import json
import re
import xml.etree.ElementTree as ET

from pathlib import Path

from conftest import ROOT, run_tool
from rdmabench_dev import suite_layouts

BUDGET = ROOT / "tests" / "phase-budget.json"


def budget_file(tmp_path, **phases):
    doc = {"margin_percent": 25, "margin_min_seconds": 30, "total_seconds": 500,
           "total_margin_percent": 10, "busy_fraction": 0.15,
           "phases": {"deps": {"title": "dependencies", "judged": False},
                      **{k: {"title": k, "seconds": s} for k, s in phases.items()}}}
    path = tmp_path / "budget.json"
    path.write_text(json.dumps(doc))
    return path


def phases_file(tmp_path, **took):
    path = tmp_path / "phases.tsv"
    path.write_text("".join(f"{k}\t{s}\n" for k, s in took.items()))
    return path


def judged(tmp_path, budget, phases):
    report = tmp_path / "budget.xml"
    proc = run_tool("rdmabench_dev.phase_budget", budget, phases, "--junit", report)
    failed = set()
    if report.exists():
        failed = {c.get("name") for c in ET.parse(report).getroot().iter("testcase")
                  if c.find("failure") is not None}
    return proc, failed


def test_a_phase_within_budget_and_margin_passes_and_one_beyond_fails(tmp_path):
    budget = budget_file(tmp_path, build=200, lo=100)
    proc, failed = judged(tmp_path, budget, phases_file(tmp_path, deps=900, build=249, lo=131))
    assert proc.returncode == 12 and failed == {"lo"}, proc.stdout + proc.stderr
    # the margin is 25 % of the budget, and never less than 30 s: 250 and 130 are the limits
    assert re.search(r"^lo\s+131\s+100\s+-\s+130\s+OVER BUDGET$", proc.stdout, re.M), proc.stdout
    assert re.search(r"^build\s+249\s+200\s+-\s+250\s+ok$", proc.stdout, re.M), proc.stdout
    # installing packages waits on a mirror: shown, never judged
    assert re.search(r"^dependencies\s+900\s+-\s+-\s+-\s+not judged$", proc.stdout, re.M), proc.stdout
    proc, failed = judged(tmp_path, budget, phases_file(tmp_path, build=250, lo=130))
    assert proc.returncode == 0 and not failed, proc.stdout + proc.stderr


def test_the_phases_together_are_judged_against_the_total(tmp_path):
    budget = budget_file(tmp_path, a=300, b=300)  # 600 s of phases against a 500 s total
    proc, failed = judged(tmp_path, budget, phases_file(tmp_path, a=280, b=280))
    assert proc.returncode == 12 and failed == {"total"}, proc.stdout


def test_a_phase_beside_the_others_is_judged_on_its_own_cpu_and_left_out_of_the_total(tmp_path):
    """The host tests run in a lane beside a guest: over their own budget they fail, but their
    seconds are not added to the total (the main line's wait for the lane is in it). They are
    judged on the CPU their own processes used, which what shares their core does not stretch
    (a lint stage took 224 s in one run and 292 s in the next, beside the same guests)."""
    budget = budget_file(tmp_path, a=300, b=200, host=100)
    doc = json.loads(budget.read_text())
    doc["phases"]["host"]["beside"] = True
    budget.write_text(json.dumps(doc))
    def lane(wall, cpu):  # the main line's phases, and the lane's host stage with its CPU
        path = tmp_path / "phases.tsv"
        path.write_text(f"a\t280\nb\t200\nhost\t{wall}\t0\t-\t{cpu}\n")
        return path

    proc, failed = judged(tmp_path, budget, lane(400, 120))  # 400 s of wall time, 120 of CPU
    assert proc.returncode == 0 and not failed, proc.stdout  # 480 s in the total, not 880
    assert re.search(r"^host \(beside: its CPU seconds, in 400 s\)\s+120\s+100\s+-\s+130\s+ok$",
                     proc.stdout, re.M), proc.stdout
    assert re.search(r"^total \(judged phases\)\s+480\s", proc.stdout, re.M), proc.stdout
    proc, failed = judged(tmp_path, budget, lane(131, 131))
    assert proc.returncode == 12 and failed == {"host"}, proc.stdout
    assert "131 s of its own CPU, over its budget of 100 s" in (tmp_path / "budget.xml").read_text()
    # a line that does not say the stage's CPU cannot judge it
    proc = run_tool("rdmabench_dev.phase_budget", budget, phases_file(tmp_path, host=1))
    assert proc.returncode == 2 and "judged on its own CPU seconds, which its line does not give" \
        in proc.stderr, proc.stderr
    doc["phases"]["host"]["beside"] = "yes"
    budget.write_text(json.dumps(doc))
    proc = run_tool("rdmabench_dev.phase_budget", budget, phases_file(tmp_path, host=1))
    assert proc.returncode == 2 and "'beside' is true or false" in proc.stderr, proc.stderr


def test_a_phase_judged_within_the_total_only_has_no_verdict_of_its_own(tmp_path):
    """The main line's wait for the lane is the lane's stages less the guests' phases, each
    judged: it counts in the total (which it can push over) and is never a verdict of its own."""
    budget = budget_file(tmp_path, a=300, wait=50)
    doc = json.loads(budget.read_text())
    doc["phases"]["wait"]["alone"] = False
    budget.write_text(json.dumps(doc))
    proc, failed = judged(tmp_path, budget, phases_file(tmp_path, a=280, wait=150))
    assert proc.returncode == 0 and not failed, proc.stdout  # 150 s against 50: no verdict
    assert re.search(r"^wait\s+150\s+50\s+-\s+-\s+in the total only$", proc.stdout, re.M), proc.stdout
    cases = {c.get("name"): c for c in ET.parse(tmp_path / "budget.xml").getroot().iter("testcase")}
    assert cases["wait"].find("skipped").get("message") == "wait: judged within the total only"
    proc, failed = judged(tmp_path, budget, phases_file(tmp_path, a=280, wait=300))
    assert proc.returncode == 12 and failed == {"total"}, proc.stdout  # 580 s against 550
    for bad in ({"alone": "no"}, {"alone": False, "beside": True}):
        doc["phases"]["wait"].update(bad)
        budget.write_text(json.dumps(doc))
        proc = run_tool("rdmabench_dev.phase_budget", budget, phases_file(tmp_path, wait=1))
        assert proc.returncode == 2 and "not a phase budget" in proc.stderr, proc.stderr


def test_a_phase_without_a_budget_and_bad_files_are_refused(tmp_path):
    budget = budget_file(tmp_path, build=200)
    proc = run_tool("rdmabench_dev.phase_budget", budget, phases_file(tmp_path, build=10, mystery=5))
    assert proc.returncode == 2 and "'mystery' ran but has no budget" in proc.stderr, proc.stderr
    bad = tmp_path / "bad.tsv"
    bad.write_text("build\tten\n")
    proc = run_tool("rdmabench_dev.phase_budget", budget, bad)
    assert proc.returncode == 2 and "line 1" in proc.stderr, proc.stderr
    (tmp_path / "garbage.json").write_text('{"phases": 3}')
    proc = run_tool("rdmabench_dev.phase_budget", tmp_path / "garbage.json", phases_file(tmp_path, build=1))
    assert proc.returncode == 2 and "not a phase budget" in proc.stderr, proc.stderr


def test_the_committed_budget_covers_every_phase_of_the_test_command():
    """Every `step KEY` of tools/test has a budget, and the judged budgets add up to the total,
    which is the README's figure."""
    doc = json.loads(BUDGET.read_text())
    text = (ROOT / "tools" / "test").read_text()
    steps = re.findall(r'^\s*(?:step|beside)\s+"?([a-z$][-a-z${}]*)"?\s', text, re.M)
    assert re.search(r'for layout in "\$\{layouts\[@\]\}"; do\n(?:.*\n)*?\s+step "rxe-\$layout"', text)
    layouts = list(suite_layouts.BY_NAME)  # what tools/test boots, one guest each (suite_layouts list)
    keys = set()
    for key in steps:
        keys |= {key.replace("$layout", lay) for lay in layouts} if "$layout" in key else {key}
    keys -= {"budget", "summary"}  # the judging itself, after every phase
    assert keys == set(doc["phases"]), keys ^ set(doc["phases"])
    total = sum(p["seconds"] for p in doc["phases"].values()
                if p.get("judged", True) and not p.get("beside", False))
    beside = {k for k, p in doc["phases"].items() if p.get("beside")}
    assert beside == set(re.findall(r'^\s*beside\s+([a-z][-a-z]*)\s', text, re.M)), beside
    assert total == doc["total_seconds"], (total, doc["total_seconds"])
    minutes = doc["total_seconds"] / 60
    assert f"{minutes:g} minutes" in (ROOT / "README.md").read_text()


def test_a_report_a_stage_never_wrote_fails_the_summary_by_name(tmp_path):
    """Issue 63: the summary skipped a missing report, so a lane that died before its package
    stage failed nothing. Every report tools/test names is one its stage must write."""
    report = tmp_path / "unit.xml"
    report.write_text('<testsuite name="unit" tests="1" failures="0"><testcase name="a"/></testsuite>')
    stages = tmp_path / "broken"
    stages.write_text("")
    proc = run_tool("rdmabench_dev.test_summary", stages, report, tmp_path / "package.xml")
    assert proc.returncode == 1, proc.stdout
    assert f"stage failed: no readable report {tmp_path / 'package.xml'}" in proc.stdout, proc.stdout
    assert proc.stdout.rstrip().endswith("1 passed, 1 failed"), proc.stdout
    (tmp_path / "package.xml").write_text("<testsuite")  # cut short
    proc = run_tool("rdmabench_dev.test_summary", stages, report, tmp_path / "package.xml")
    assert proc.returncode == 1 and "ParseError" in proc.stdout, proc.stdout


def test_the_summary_names_each_failure_with_what_its_report_says(tmp_path):
    report = tmp_path / "rxe-veth.xml"
    report.write_text(
        '<testsuites><testsuite name="pytest" tests="2" failures="1" errors="0" skipped="0">'
        '<testcase classname="test_transports" name="test_loss[uc]">'
        '<failure message="AssertionError: exit 4">line one\nline two</failure></testcase>'
        '<testcase classname="test_transports" name="test_fine"/></testsuite></testsuites>')
    stages = tmp_path / "broken"
    stages.write_text("")
    proc = run_tool("rdmabench_dev.test_summary", stages, report)
    assert proc.returncode == 1
    assert "FAILED in rxe-veth.xml: test_transports::test_loss[uc] (failure)" in proc.stdout
    assert "AssertionError: exit 4" in proc.stdout and "line two" in proc.stdout
    assert proc.stdout.rstrip().endswith("1 passed, 1 failed")


def test_a_phase_while_other_work_ran_is_shown_not_judged_and_so_is_the_total(tmp_path):
    """A budget is a quiet machine's: where other work used more than busy_fraction of a core
    meanwhile (the third column), the phase is not judged, however long it took."""
    budget = budget_file(tmp_path, build=200, lo=100)
    phases = tmp_path / "phases.tsv"
    phases.write_text("build\t150\t3.0\nlo\t400\t380.5\n")
    proc, failed = judged(tmp_path, budget, phases)
    assert proc.returncode == 0 and not failed, proc.stdout + proc.stderr
    assert re.search(r"^lo\s+400\s+100\s+-\s+130\s+not judged \(machine busy\)$", proc.stdout, re.M)
    assert re.search(r"^build\s+150\s+200\s+-\s+250\s+ok$", proc.stdout, re.M), proc.stdout
    assert re.search(r"^total \(judged phases\).*not judged \(machine busy\)$", proc.stdout, re.M)


def test_a_short_phase_is_judged_over_the_shortest_margin_not_its_own_second(tmp_path):
    """A clean-clone run of a quiet machine measured 0.2 s of other work over its 1 s unit-test
    phase (the sampling's own noise), which made that phase and so the whole total "not
    judged". Other work is judged over at least margin_min_seconds: 0.2 s of it is nothing to
    a phase that may run 30 s over; 5 s of it still is."""
    budget = budget_file(tmp_path, unit=5, lo=100)
    phases = tmp_path / "phases.tsv"
    phases.write_text("unit\t1\t0.2\nlo\t90\t0.0\n")
    proc, failed = judged(tmp_path, budget, phases)
    assert proc.returncode == 0 and not failed, proc.stdout + proc.stderr
    assert re.search(r"^unit\s+1\s+5\s+-\s+35\s+ok$", proc.stdout, re.M), proc.stdout
    assert re.search(r"^total \(judged phases\)\s+91\s+500\s+-\s+550\s+ok$", proc.stdout, re.M), proc.stdout
    phases.write_text("unit\t1\t5.0\nlo\t90\t0.0\n")
    proc, failed = judged(tmp_path, budget, phases)
    assert re.search(r"^unit\s+1\s+5\s+-\s+35\s+not judged \(machine busy\)$", proc.stdout, re.M), proc.stdout


def sampled(root, state):
    """phase_budget.py sample ROOT STATE: (busy CPU of the machine, of ROOT's tree, what tasks
    outside the tree ran and waited to run), in seconds."""
    import subprocess

    from conftest import tool_command

    out = subprocess.run(tool_command("rdmabench_dev.phase_budget", "sample", root, state),
                         capture_output=True, text=True, check=True, timeout=60).stdout.split()
    assert len(out) == 3, out
    return tuple(float(x) for x in out)


def cpu_of(pid):
    """A process's own user and system CPU, in seconds (/proc/PID/stat), its ground truth."""
    import os

    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def ran_and_waited(pid):
    """What a process's tasks ran and waited to run, in seconds (/proc/PID/task/*/schedstat)."""
    return sum(sum(int(x) for x in (t / "schedstat").read_text().split()[:2])
               for t in Path(f"/proc/{pid}/task").iterdir()) / 1e9


def test_the_sample_counts_a_tree_by_its_own_cpu_whatever_runs_beside_it(tmp_path):
    """phase_budget.py sample ROOT: the CPU of ROOT's tree. Held to the spinner's own account in
    /proc, not to the machine's load: other work beside this test (the suite's guests) can
    neither make it pass nor fail."""
    import subprocess
    import time

    def reading():
        """A sample of each tree, the spinner's own CPU read just before and just after its
        sample: the sample saw the spinner at some instant between the two (under load the
        sampler's own start-up took 0.19 s of the spinner's CPU, which a fixed tolerance
        beside one later reading counted as the sample's error)."""
        low = cpu_of(spinner.pid)
        spin = sampled(spinner.pid, tmp_path / "spin")
        high = cpu_of(spinner.pid)
        return spin, sampled(idle.pid, tmp_path / "idle"), low, high

    idle = subprocess.Popen(["sleep", "30"])
    spinner = subprocess.Popen(["/usr/bin/python3", "-c", "while True: pass"])
    try:
        time.sleep(0.5)  # started
        before = reading()
        time.sleep(2)  # the spinner's CPU is read from /proc, whatever this allowed it
        after = reading()
    finally:
        spinner.kill()
        idle.kill()
    tick = 0.02  # /proc's CPU counts in clock ticks (10 ms), each reading rounded down
    least, most = after[2] - before[3], after[3] - before[2]
    assert least > 0.2, (before, after)  # it ran
    assert least - tick <= after[0][1] - before[0][1] <= most + tick, (before, after)
    assert after[1][1] - before[1][1] < 0.1, (before, after)  # an idle tree
    assert after[0][0] - before[0][0] >= least - tick, (before, after)  # the machine's count holds it


def test_the_sample_counts_what_a_task_outside_the_tree_ran_or_waited_to_run(tmp_path):
    """phase_budget.py sample ROOT's third figure: what every task outside ROOT's tree ran and
    waited to run. A niced busy loop beside a build that fills both cores runs little, so busy
    CPU misses it, but it is runnable all along (a loaded run's build took 175 s against a quiet
    117 s, judged as quiet). Held to the spinner's own account in /proc: the count, over a table
    narrowed to this test's two processes, is what the spinner ran and waited; the command's
    count over the whole machine is at least that. (It compared two whole-machine samples, one a
    tree holding the spinner, taken a moment apart: beside the deterministic guests and an I/O
    load the work between them made it 0.42 s off.)"""
    import subprocess
    import time

    from rdmabench_dev import phase_budget

    idle = subprocess.Popen(["sleep", "30"])
    spinner = subprocess.Popen(["nice", "-n", "19", "/usr/bin/python3", "-c", "while True: pass"])

    def narrowed():
        table = {pid: entry for pid, entry in phase_budget.process_table().items()
                 if pid in (idle.pid, spinner.pid)}
        return phase_budget.seconds_wanted_outside(phase_budget.tree_of(idle.pid, table), table,
                                                   tmp_path / "narrowed")

    def bracketed(read):
        """(the spinner's account just before, what `read` counted, its account just after)"""
        return ran_and_waited(spinner.pid), read(), ran_and_waited(spinner.pid)

    try:
        time.sleep(0.5)
        before = bracketed(narrowed), bracketed(lambda: sampled(idle.pid, tmp_path / "all")[2])
        time.sleep(2)  # the spinner's share of the wall time, read from /proc
        after = bracketed(narrowed), bracketed(lambda: sampled(idle.pid, tmp_path / "all")[2])
    finally:
        spinner.kill()
        idle.kill()
    (n0, m0), (n1, m1) = before, after
    assert n1[0] - n0[2] > 1.5, (before, after)  # runnable all along: ran or waited for 2 s
    # each count was read between its two brackets: its growth lies between theirs
    assert n1[0] - n0[2] - 1e-3 <= n1[1] - n0[1] <= n1[2] - n0[0] + 1e-3, (before, after)
    assert m1[1] - m0[1] >= m1[0] - m0[2] - 1e-3, (before, after)  # other work only adds


def test_a_verdict_not_judged_is_skipped_and_the_summary_counts_tests_alone(tmp_path):
    """Issue 49: a phase the budget did not judge (no budget, or a busy machine) is a skipped
    case in the budget's JUnit report, never a pass; the summary gives the budget a line of its
    own and its last line counts tests alone; a phase over its budget still fails the run."""
    budget = budget_file(tmp_path, build=200, lo=100, veth=100)
    phases = tmp_path / "phases.tsv"
    phases.write_text("deps\t30\t0\nbuild\t150\t3.0\nlo\t400\t380.5\nveth\t90\t0\n")
    report = tmp_path / "budget.xml"
    run_tool("rdmabench_dev.phase_budget", budget, phases, "--junit", report)
    cases = {c.get("name"): c for c in ET.parse(report).getroot().iter("testcase")}
    assert {n for n, c in cases.items() if c.find("skipped") is not None} == {"deps", "lo", "total"}
    assert ET.parse(report).getroot().get("skipped") == "3"
    tests = tmp_path / "unit.xml"
    tests.write_text('<testsuite name="unit" tests="2" failures="0"><testcase name="a"/>'
                     '<testcase name="b"/></testsuite>')
    stages = tmp_path / "broken"
    stages.write_text("")
    proc = run_tool("rdmabench_dev.test_summary", stages, tests, "--budget", report)
    assert proc.returncode == 0, proc.stdout
    assert proc.stdout.splitlines()[-2:] == ["phase budget: 2 within, 0 over, 3 not judged",
                                            "2 passed, 0 failed"], proc.stdout
    phases.write_text("build\t150\t0\nveth\t131\t0\n")  # veth over 100 s plus 30
    run_tool("rdmabench_dev.phase_budget", budget, phases, "--junit", report)
    proc = run_tool("rdmabench_dev.test_summary", stages, tests, "--budget", report)
    assert proc.returncode == 1 and "OVER BUDGET: phase_budget::veth (failure)" in proc.stdout
    assert proc.stdout.splitlines()[-2:] == ["phase budget: 2 within, 1 over, 0 not judged",
                                            "2 passed, 0 failed"], proc.stdout
    proc = run_tool("rdmabench_dev.test_summary", stages, tests, "--budget", tmp_path / "missing.xml")
    assert proc.returncode == 1 and "phase budget: no report" in proc.stdout


def budget_with_probes(tmp_path, **phases):
    """A budget whose phases (KEY=(seconds, probe_ms)) say how fast the probe ran when measured."""
    path = budget_file(tmp_path, **{k: s for k, (s, _) in phases.items()})
    doc = json.loads(path.read_text())
    for key, (_, probe_ms) in phases.items():
        doc["phases"][key]["probe_ms"] = probe_ms
    path.write_text(json.dumps(doc))
    return path


def test_a_phase_on_a_machine_the_probe_found_slower_is_judged_against_a_limit_scaled_by_it(tmp_path):
    """The same tree's test command took 2313 s on a CI machine where it had taken 1548 s, every
    phase 1.3-1.7x slower, no other work on it: the limit is scaled by how much slower the
    machine ran the fixed probe (its median over the phase, against the budget's)."""
    budget = budget_with_probes(tmp_path, build=(120, 5.0), lo=(300, 6.0))
    phases = tmp_path / "phases.tsv"
    phases.write_text("build\t193\t0\t5.0\nlo\t360\t0\t6.0\n")  # as fast as the budget's machine
    proc, failed = judged(tmp_path, budget, phases)
    assert proc.returncode == 12 and failed == {"build", "total"}, proc.stdout + proc.stderr
    assert re.search(r"^build\s+193\s+120\s+1\.00x\s+150\s+OVER BUDGET$", proc.stdout, re.M), proc.stdout
    phases.write_text("build\t193\t0\t8.0\nlo\t360\t0\t6.0\n")  # its probe 1.6x slower over the build
    proc, failed = judged(tmp_path, budget, phases)
    assert proc.returncode == 0 and not failed, proc.stdout + proc.stderr
    assert re.search(r"^build\s+193\s+120\s+1\.60x\s+240\s+ok$", proc.stdout, re.M), proc.stdout
    # the total's limit scales by its phases' slowdowns weighted by their budgets:
    # (120 x 1.6 + 300 x 1) / 420 = 1.171x of 550 s (500 plus 10 %)
    assert re.search(r"^total \(judged phases\)\s+553\s+500\s+1\.17x\s+644\s+ok$", proc.stdout, re.M), proc.stdout
    phases.write_text("build\t241\t0\t8.0\nlo\t360\t0\t6.0\n")  # past 1.6 x 150 s
    proc, failed = judged(tmp_path, budget, phases)
    assert failed == {"build"}, proc.stdout
    report = ET.parse(tmp_path / "budget.xml").getroot()
    message = next(c for c in report.iter("testcase") if c.get("name") == "build").find("failure").get("message")
    assert "(240 s, on a machine 1.60x slower than the budget's)" in message, message


def test_a_faster_machine_never_shortens_a_limit_and_a_phase_without_figures_is_not_scaled(tmp_path):
    """A faster probe is 1x (a wait does not get shorter); without the budget's probe_ms or the
    run's median the limit is the plain one and the column says so."""
    budget = budget_with_probes(tmp_path, build=(120, 5.0))
    doc = json.loads(budget.read_text())
    doc["phases"]["lo"] = {"title": "lo", "seconds": 300}
    budget.write_text(json.dumps(doc))
    phases = tmp_path / "phases.tsv"
    phases.write_text("build\t140\t0\t2.5\nlo\t380\t0\t9.0\n")
    proc, failed = judged(tmp_path, budget, phases)
    assert proc.returncode == 12 and failed == {"lo"}, proc.stdout + proc.stderr
    assert re.search(r"^build\s+140\s+120\s+1\.00x\s+150\s+ok$", proc.stdout, re.M), proc.stdout
    assert re.search(r"^lo\s+380\s+300\s+-\s+375\s+OVER BUDGET$", proc.stdout, re.M), proc.stdout
    phases.write_text("build\t140\t0\t-\nlo\t370\t0\t9.0\n")
    proc, _ = judged(tmp_path, budget, phases)
    assert re.search(r"^build\s+140\s+120\s+-\s+150\s+ok$", proc.stdout, re.M), proc.stdout


def test_bad_probe_figures_in_the_budget_or_the_phases_are_refused(tmp_path):
    budget = budget_with_probes(tmp_path, build=(120, 0))
    proc = run_tool("rdmabench_dev.phase_budget", budget, phases_file(tmp_path, build=1))
    assert proc.returncode == 2 and "'probe_ms' is a positive number" in proc.stderr, proc.stderr
    budget = budget_with_probes(tmp_path, build=(120, 5.0))
    for line in ("build\t100\t0\tnan\n", "build\t100\t0\t-3\n", "build\t100\t0\t5\t7\t9\n",
                     "build\t100\t0\tfast\n", "build\t100\t0\t5\t-1\n", "build\t100\t0\t-\tnan\n"):
        (tmp_path / "bad.tsv").write_text(line)
        proc = run_tool("rdmabench_dev.phase_budget", budget, tmp_path / "bad.tsv")
        assert proc.returncode == 2 and "line 1: not 'KEY<TAB>SECONDS" in proc.stderr, (line, proc.stderr)


def test_the_probe_times_its_work_until_its_parent_ends_and_the_median_covers_a_window(tmp_path):
    """machine_speed probe FILE: a line per probe while the process that started it lives (here
    a shell that waits for a file to appear; then the probe must end too)."""
    import subprocess

    from conftest import tool_command

    probes, go = tmp_path / "probes.txt", tmp_path / "go"
    command = " ".join(str(x) for x in tool_command("rdmabench_dev.machine_speed", "probe", probes, "--interval", "0.05"))
    parent = subprocess.Popen(["sh", "-c", f"{command} & while [ ! -e {go} ]; do sleep 0.05; done"])
    try:
        for _ in range(600):  # until three probes are written, however slow the machine
            if probes.exists() and probes.read_text().count("\n") >= 3:
                break
            subprocess.run(["sleep", "0.05"])
        go.touch()
        parent.wait(timeout=60)
    finally:
        parent.kill()
    lines = probes.read_text().splitlines()
    assert len(lines) >= 3, lines
    for _ in range(600):  # the orphaned probe notices within one interval
        if subprocess.run(["pgrep", "-f", f"machine_speed probe {probes}"], capture_output=True).returncode:
            break
        subprocess.run(["sleep", "0.05"])
    else:
        raise AssertionError("the probe outlived the process that started it")
    figures = [tuple(float(x) for x in line.split()) for line in probes.read_text().splitlines()]
    assert all(ms > 0 for _, ms in figures) and figures == sorted(figures, key=lambda f: f[0]), figures


def test_the_median_is_of_the_probes_inside_the_window_and_bad_probe_files_are_refused(tmp_path):
    probes = tmp_path / "probes.txt"
    probes.write_text("100.0 5.0\n101.0 9.0\n102.0 6.0\n103.0 7.0\n104.0 50.0\n105.0 1")  # the last cut short
    median = lambda a, b: run_tool("rdmabench_dev.machine_speed", "median", probes, a, b)  # noqa: E731
    assert median(101, 103).stdout.strip() == "7.000"
    assert median(100, 105).stdout.strip() == "7.000"  # 5 6 7 9 50 (with the cut line read: 6.5)
    assert median(200, 300).stdout.strip() == "-"
    for text in ("100.0 five\n", "100.0 5.0 6.0\n", "100.0 -1\n", "nan 5\n"):
        probes.write_text(text)
        proc = median(0, 1000)
        assert proc.returncode == 2 and "line 1: not 'EPOCH_SECONDS PROBE_MS'" in proc.stderr, (text, proc.stderr)
    probes.write_bytes(b"1.0 5.0\n" * ((4 << 20) // 8 + 1))
    proc = median(0, 1000)
    assert proc.returncode == 2 and "not a probe file" in proc.stderr, proc.stderr
    proc = run_tool("rdmabench_dev.machine_speed", "median", tmp_path / "missing.txt", 0, 1)
    assert proc.returncode == 2 and "missing.txt" in proc.stderr
    proc = run_tool("rdmabench_dev.machine_speed", "median", probes, "soon", 1)
    assert proc.returncode == 2 and "usage" in proc.stderr


def test_other_work_between_two_samples_is_the_larger_of_used_and_wanted():
    """tools/test's phase line takes the CPU other work used over a phase from two samples
    (busy, the test's own, wanted): busy less own, or wanted, whichever is more, never below 0
    (it was an inline python3 -c; now the budget's module says it)."""
    assert run_tool("rdmabench_dev.phase_budget", "other", 10, 4, 1, 20, 6, 2).stdout.strip() == "8.0"
    assert run_tool("rdmabench_dev.phase_budget", "other", 10, 4, 1, 12, 6, 9.5).stdout.strip() == "8.5"
    assert run_tool("rdmabench_dev.phase_budget", "other", 10, 4, 1, 10, 9, 1).stdout.strip() == "0.0"
    bad = run_tool("rdmabench_dev.phase_budget", "other", 1, 2, "x")
    assert bad.returncode == 2 and "BUSY0 OWN0 WANTED0" in bad.stderr


def test_the_lane_of_a_host_only_run_is_a_phase_of_its_own_not_the_builds():
    """`tools/test --host-only` runs the lane's stages one after another on the main line: a step
    begins their phase, or the build's phase would hold them all (a fresh clone's --host-only
    run: "build 970 s, budget 250, OVER BUDGET", every test passing)."""
    text = (ROOT / "tools" / "test").read_text()
    branch = re.search(r'if \[\[ "\$\{1:-\}" == "--host-only" \]\]; then\n(.*?)\nelse', text, re.S)
    assert branch, "tools/test has no --host-only branch before the lane"
    lines = [line.strip() for line in branch.group(1).splitlines() if line.strip()]
    lane = next(i for i, line in enumerate(lines) if line.startswith("( host_lane )"))
    assert any(line.startswith("step host-wait ") for line in lines[:lane]), lines
