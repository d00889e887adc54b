"""Issue 64, deliverable 3: the plan before the run. `--benchmark_list_tests=true` opened the
device (on a host without one: "no RDMA device found", exit 3), there was no --dry-run, and a
bare run's note said "5000 messages each" whatever --iters or --duration said. Each command's
dry run prints its plan and exits 0 on this host, which has no RDMA device, against an address
no server answers."""
import json

from conftest import run_rdmabench as rdmabench

NOWHERE = "10.255.255.1"  # no server: a dry run reaches none


def test_run_dry_run_lists_the_benchmarks_and_touches_nothing():
    proc = rdmabench("run", NOWHERE, "--iters", "100", "--dry-run")
    assert proc.returncode == 0, proc.stderr
    assert "nothing opened or connected: 6 benchmarks against 10.255.255.1 port 18515" in proc.stdout
    assert "  write/lat/busy/65536/iterations:100/manual_time\n" in proc.stdout, proc.stdout
    assert "estimate: " in proc.stdout and "device" not in proc.stderr, proc.stderr


def test_the_bare_runs_note_says_the_length_given():
    proc = rdmabench("run", NOWHERE, "--iters", "100", "--dry-run")
    assert "2 B, 4 KiB and 64 KiB, 100 messages each" in proc.stderr, proc.stderr
    proc = rdmabench("run", NOWHERE, "--duration", "1m", "--dry-run")
    assert "a 1m timed window (500ms margins) each" in proc.stderr, proc.stderr
    assert "5000 messages" not in proc.stderr + proc.stdout


def test_list_tests_names_them_without_a_device():
    proc = rdmabench("run", NOWHERE, "--pattern", "send", "--mode", "bw", "--sizes", "2,4K",
                     "--cq", "busy", "--benchmark_list_tests=true")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "send/bw/busy/2/manual_time\nsend/bw/busy/4096/manual_time\n", proc.stdout


def test_study_dry_run_writes_no_file(tmp_path):
    proc = rdmabench("study", "polling", NOWHERE, "--dry-run", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    # The preset's strategies and patterns, as the engine reports them, at 2 sizes and 4 loads.
    study = json.loads(rdmabench("version", "--json").stdout)["polling_study"]
    count = len(study["cq"]) * len(study["patterns"]) * 2 * 4
    assert f"{count} benchmarks" in proc.stdout and "3 repetitions" in proc.stdout, proc.stdout
    assert list(tmp_path.iterdir()) == []


def test_search_dry_run_writes_no_file(tmp_path):
    proc = rdmabench("search", NOWHERE, "--dry-run", "--budget", "2m", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "state: search-state.json (new)" in proc.stdout, proc.stdout
    assert "estimate: 2m at most (--budget)" in proc.stdout, proc.stdout
    assert list(tmp_path.iterdir()) == []
    proc = rdmabench("search", NOWHERE, "--dry-run", "--replay", "r.json", cwd=tmp_path)
    assert proc.returncode == 2 and "give one of them" in proc.stderr, proc.stderr


def test_mesh_dry_run_plans_for_the_ranks_given():
    proc = rdmabench("mesh", "--dry-run", "--ranks", "16", "--traffic", "all-to-all")
    assert proc.returncode == 0, proc.stderr
    assert "dry run for 16 ranks" in proc.stdout and "all-to-all, fan 15: 1 round, 240 flows" in proc.stdout
    proc = rdmabench("mesh", "--dry-run")
    assert proc.returncode == 2 and "--dry-run needs --ranks COUNT" in proc.stderr, proc.stderr
    proc = rdmabench("mesh", "--ranks", "4")
    assert proc.returncode == 2 and "--ranks goes with --dry-run" in proc.stderr, proc.stderr
