"""--metrics of run, mesh and doctor where no RDMA device is needed: a check that ends before
any benchmark still says how it ended, in a file Prometheus' own checker (promtool, Debian's
prometheus package) accepts; a file that cannot be written is refused before any work. A real
run's metrics are scraped by Prometheus in the lo guest (tests/rxe/test_metrics_scrape.py)."""
import re
import shutil
import subprocess

import pytest

from conftest import run_rdmabench


def rdmabench(*args, timeout=60):
    return run_rdmabench(*args, timeout=timeout)


def promtool_accepts(path):
    assert shutil.which("promtool"), "promtool is missing: tools/setup-deps metrics"
    with open(path) as f:
        proc = subprocess.run(["promtool", "check", "metrics"], stdin=f, capture_output=True,
                              text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout + proc.stderr == "", proc.stdout + proc.stderr  # no lint complaint either


def sample(text, name):
    """The value of the one sample of `name` in `text`, and its labels."""
    found = re.findall(rf"^{name}(\{{[^\n]*\}})? (\S+)$", text, re.M)
    assert len(found) == 1, (name, text)
    return found[0][0], float(found[0][1])


@pytest.mark.parametrize("command", [
    ["doctor"],
    ["run", "127.0.0.1", "--port", "1"],
    ["mesh", "--timeout", "5"],
])
def test_a_check_that_ends_early_still_writes_its_exit_code(tmp_path, command):
    """No RDMA device here (doctor and run exit 3); mesh with one rank refuses (exit 2)."""
    out = tmp_path / "check.prom"
    proc = rdmabench(*command, "--metrics", str(out))
    assert proc.returncode in (2, 3), proc.stdout + proc.stderr
    text = out.read_text()
    assert text.endswith("# EOF\n"), text
    name = {"doctor": "rdmabench_doctor_exit_code", "run": "rdmabench_run_exit_code",
            "mesh": "rdmabench_mesh_exit_code"}[command[0]]
    _, value = sample(text, name)
    assert value == proc.returncode, text
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("check.prom")) == ["check.prom"]
    promtool_accepts(out)


def test_run_labels_its_outcome_with_both_hosts(tmp_path):
    out = tmp_path / "run.prom"
    proc = rdmabench("run", "127.0.0.1", "--port", "1", "--metrics", str(out))
    assert proc.returncode == 3, proc.stderr
    labels, _ = sample(out.read_text(), "rdmabench_run_exit_code")
    assert 'server="127.0.0.1"' in labels and 'client="' in labels, labels
    _, when = sample(out.read_text(), "rdmabench_run_finished_timestamp_seconds")
    assert when > 1.7e9, when


@pytest.mark.parametrize("command", [["doctor"], ["run", "127.0.0.1"]])
def test_a_metrics_file_that_cannot_be_written_is_refused_first(tmp_path, command):
    proc = rdmabench(*command, "--metrics", str(tmp_path / "no" / "x.prom"))
    assert proc.returncode == 2 and "--metrics" in proc.stderr and "cannot write there" in \
        proc.stderr, proc.stderr
    proc = rdmabench(*command, "--metrics", "-")
    assert proc.returncode == 2 and "--metrics needs a file name" in proc.stderr, proc.stderr


def test_doctor_writes_the_file_whole_over_an_old_one(tmp_path):
    out = tmp_path / "doctor.prom"
    out.write_text("rdmabench_doctor_exit_code 0\n# EOF\n")
    proc = rdmabench("doctor", "--metrics", str(out))
    assert proc.returncode == 3, proc.stdout + proc.stderr
    _, value = sample(out.read_text(), "rdmabench_doctor_exit_code")
    assert value == 3


def limits_file(tmp_path, entries):
    path = tmp_path / "limits.json"
    path.write_text(entries)
    return path


def test_a_host_takes_the_limits_of_its_machine_type_or_the_default(tmp_path):
    """This machine has no DMI product name (a guest without it): the default entry. A file that
    names another machine type's entry wrongly is refused here too."""
    good = limits_file(tmp_path, '{"machine_types": {"Standard_ND96asr_v4": {"min_bw": 180}},'
                                 ' "default": {"min_bw": 20, "max_lat": "p99:30"}}')
    proc = rdmabench("run", "127.0.0.1", "--port", "1", "--limits-file", str(good))
    assert proc.returncode == 3, proc.stderr  # no RDMA device: after the limits were chosen
    assert f"rdmabench: limits from {good}: default (no DMI product_name here)" in proc.stderr, \
        proc.stderr
    bad = limits_file(tmp_path, '{"machine_types": {"Standard_ND96asr_v4": {"min-bw": 180}},'
                                ' "default": {"min_bw": 20}}')
    proc = rdmabench("run", "127.0.0.1", "--port", "1", "--limits-file", str(bad))
    assert proc.returncode == 2, proc.stderr
    assert "machine type 'Standard_ND96asr_v4' has 'min-bw', which it does not take" in \
        proc.stderr, proc.stderr


@pytest.mark.parametrize("text, says", [
    ("[" * 100 + "]" * 100, "nests deeper than 8"),
    ('{"default": {"min_bw": 20}', "--limits-file"),
    ('{"machine_types": {"a": {"min_bw": 1}}}', "no entry for this host's machine type ''"),
])
def test_a_limits_file_that_cannot_serve_is_refused_before_the_run(tmp_path, text, says):
    proc = rdmabench("run", "127.0.0.1", "--port", "1", "--limits-file",
                     str(limits_file(tmp_path, text)))
    assert proc.returncode == 2 and says in proc.stderr, proc.stderr


def test_limits_come_from_the_file_or_the_options_not_both(tmp_path):
    path = limits_file(tmp_path, '{"default": {"min_bw": 20}}')
    proc = rdmabench("run", "127.0.0.1", "--limits-file", str(path), "--min-bw", "5")
    assert proc.returncode == 2 and "drop --min-bw and --max-lat, or the file" in proc.stderr
