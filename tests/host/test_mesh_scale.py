"""tools/mesh-scale: simulated meshes of 16 and 128 ranks go through the report's own code and
tools/plot, and the report names every planted fault (a slow host, a slow link, a host whose
wire resends). The 1024-rank figures are in the README (about 3 minutes here)."""
import json
import subprocess

from conftest import ROOT, data_pixels, run_tool

TOOL = ROOT / "tools" / "mesh-scale"


def run(command, timeout):
    return subprocess.run([str(c) for c in command], capture_output=True, text=True, timeout=timeout)


def test_every_planted_fault_is_named_at_16_and_128_ranks(tmp_path):
    proc = run([TOOL, "--ranks", "16,128", "--out", tmp_path], timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = [l for l in proc.stdout.splitlines() if l.split()[:1] in (["16"], ["128"]) and "figure" not in l]
    assert len(rows) == 2, proc.stdout
    for row in rows:
        assert row.endswith("slow_host yes, slow_link yes, lossy_host yes"), row
    # Beyond 64 ranks the report keeps the heatmaps' matrices only, written compact.
    small = json.loads((tmp_path / "mesh-16.json").read_text())
    large = json.loads((tmp_path / "mesh-128.json").read_text())
    assert small["context"]["matrices"] == "all" and large["context"]["matrices"] == "heatmaps"
    assert "client_dev_hw_sent_pkts" in small["benchmarks"][0]["matrices"]
    assert set(large["benchmarks"][0]["matrices"]) == {
        "bytes_per_second", "wire_resends_per_msg", "client_cpu_us_per_msg", "server_cpu_us_per_msg"}
    assert large["verdict"]["slow_hosts"] == [42] and large["verdict"]["resending_hosts"] == [85]
    assert data_pixels(tmp_path / "mesh-128" / "mesh.png") > 1000  # the heatmaps' cells
    valid = run_tool("rdmabench_tools.validate_results", tmp_path / "mesh-16.json", tmp_path / "mesh-128.json")
    assert valid.returncode == 0, valid.stdout + valid.stderr


def test_bad_sizes_are_a_usage_error():
    proc = run([TOOL, "--ranks", "4"], timeout=60)
    assert proc.returncode == 2 and "8..16384" in proc.stderr


def test_the_sampled_schedule_covers_its_racks_and_names_a_slow_rack(tmp_path):
    """Racks of 16 among 128 ranks (8 racks): one sampling round covers each rack towards the
    next; seven cover every ordered pair of racks; the planted slow host, slow rack uplink and
    resending host are named after one, the slow link only once the schedule measured it."""
    proc = run([TOOL, "--ranks", "128", "--sampled", "1,7", "--group-size", "16", "--out",
                tmp_path], timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = [l.split() for l in proc.stdout.splitlines() if l.startswith("128 ")]
    assert len(rows) == 2, proc.stdout
    one, all_rounds = rows
    assert one[:5] == ["128", "8", "1", "16", str(2 * (128 * 15 + 128))], one
    assert one[5:8] == ["8", "of", "56"] and all_rounds[5:8] == ["56", "of", "56"], rows
    assert one[-5:] == ["named", "named", "named", "not", "measured"], one
    assert all_rounds[-4:] == ["named"] * 4, all_rounds
    report = json.loads((tmp_path / "mesh-128-sampled-1.json").read_text())
    assert report["verdict"]["slow_groups"] == ["rack2"]
    assert report["context"]["coverage"]["group_pairs_covered"] == 8


def test_a_sampled_mesh_of_two_racks_plants_no_slow_rack_and_says_so(tmp_path):
    proc = run([TOOL, "--ranks", "64", "--sampled", "1", "--group-size", "32", "--out", tmp_path],
               timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    row = next(l for l in proc.stdout.splitlines() if l.startswith("64 "))
    assert "not planted" in row and "MISSED" not in row, row
