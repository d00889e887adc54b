"""The CI recipes (tools/ci/github-actions.yml, tools/ci/gitlab-ci.yml) hold no step of their own
that the suite does not run: apart from installing git in the container and fetching the target
branch, every command is tools/ci/gate-change, which ./tools/test runs (run_ci_recipe), and its
options are ones gate-change takes. tools/rdmabench_gate/ci_recipe_check.py judges what it left."""
import re
import shlex

import yaml

from conftest import ROOT, run_tool

RECIPES = {"github": ROOT / "tools" / "ci" / "github-actions.yml",
           "gitlab": ROOT / "tools" / "ci" / "gitlab-ci.yml"}
# What a hosted runner's container needs before the project's own command: git, and the target
# branch's commits. Nothing the project does.
CONTAINER_PREP = {"apt-get update -qq && apt-get install -y -qq git",
                  'git fetch -q origin "${CI_MERGE_REQUEST_TARGET_BRANCH_NAME:-main}"'}


def commands(recipe):
    doc = yaml.safe_load(recipe.read_text())
    if "jobs" in doc:  # GitHub Actions
        return [step["run"].strip() for job in doc["jobs"].values() for step in job["steps"] if "run" in step]
    return [line.strip() for job in doc.values() if isinstance(job, dict) for line in job.get("script", [])]


def gate_change_options():
    """The options tools/ci/gate-change's parser takes (its `--a|--b)` case labels)."""
    text = (ROOT / "tools" / "ci" / "gate-change").read_text()
    labels = re.findall(r"^\s+(--[a-z-]+(?:\|--[a-z-]+)*)\)", text, re.M)
    return {option for label in labels for option in label.split("|")}


def test_every_step_of_each_recipe_is_the_command_the_suite_runs():
    options = gate_change_options()
    assert {"--base", "--base-build", "--out", "--junit", "--summary", "--boots"} <= options, options
    for name, recipe in RECIPES.items():
        steps = commands(recipe)
        ours = [s for s in steps if s not in CONTAINER_PREP]
        assert ours and all(s.startswith("tools/ci/gate-change ") for s in ours), (name, ours)
        for step in ours:
            used = {w for w in shlex.split(step) if w.startswith("--")}
            assert used <= options, (name, used - options)
    test = (ROOT / "tools" / "test").read_text()
    assert re.search(r"^\s+RDMABENCH_BUILD=\$BUILD tools/ci/gate-change ", test, re.M)
    assert re.search(r"^\s+run_ci_recipe$", test, re.M), "the suite runs the recipe"


def test_gate_change_refuses_bad_input_with_exit_2(tmp_path):
    import subprocess

    script = str(ROOT / "tools" / "ci" / "gate-change")
    for args, said in ((["--boots", "0"], "positive integer"), (["--what"], "unknown argument")):
        proc = subprocess.run([script, *args], capture_output=True, text=True, timeout=60, cwd=tmp_path)
        assert proc.returncode == 2 and said in proc.stderr, proc.stderr
    help_text = subprocess.run([script, "--help"], capture_output=True, text=True, timeout=60).stdout
    assert "--base-build DIR" in help_text and "Exit status" in help_text


def test_the_check_of_what_the_recipe_left(tmp_path):
    """ci_recipe_check passes a JUnit report and a summary where every row is faster, and names
    a row that is not."""
    def files(verdict):
        xml = tmp_path / "v.xml"
        xml.write_text('<testsuites><testsuite name="rdmabench compare" tests="1" failures="0">'
                       '<testcase classname="c" name="send/bw/event/65536"/></testsuite></testsuites>')
        md = tmp_path / "s.md"
        md.write_text("### rdmabench compare: no regression\n\n| benchmark | verdict |\n|---|---|\n"
                      f"| send/bw/event/65536 | {verdict} |\n")
        return xml, md
    proc = run_tool("rdmabench_gate.ci_recipe_check", *files("faster"))
    assert proc.returncode == 0, proc.stdout
    proc = run_tool("rdmabench_gate.ci_recipe_check", *files("ok"))
    assert proc.returncode == 13 and "send/bw/event/65536" in proc.stdout, proc.stdout
