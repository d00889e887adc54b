"""tools/plot draws the heatmaps of real `rdmabench mesh` reports from the four-host rxe guest
(tools/rxe-vm -m mesh:4): a clean one, and one with host 2 slowed by tc netem (1 ms, 40 Mbit/s)."""
import json

from conftest import FIXTURE, data_pixels, run_tool

CLEAN = FIXTURE.parent / "rxe-mesh-4.json"
SLOW = FIXTURE.parent / "rxe-mesh-4-slow-host-2.json"


def test_heatmaps_of_a_mesh_report(tmp_path):
    proc = run_tool("plot", CLEAN, "--out", tmp_path, "--format", "png,svg")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == [str(tmp_path / "mesh.png"), str(tmp_path / "mesh.svg")]
    assert data_pixels(tmp_path / "mesh.png") > 1000  # the heatmaps' cells
    svg = (tmp_path / "mesh.svg").read_text()
    report = json.loads(CLEAN.read_text())
    # One map per counter the report lists, titled by it; every host labelled by its device.
    assert report["benchmarks"] and all(len(b["heatmaps"]) > 1 for b in report["benchmarks"])
    for bench in report["benchmarks"]:
        assert bench["name"] in svg
        assert bench["heatmaps"][1:], bench["name"]
        for heatmap in bench["heatmaps"][1:]:
            assert heatmap["counter"] in svg
    assert "bandwidth (Gb/s)" in svg and "rxe3" in svg and "slow hosts: none" in svg


def test_the_slow_host_is_named_in_the_title(tmp_path):
    proc = run_tool("plot", SLOW, "--out", tmp_path, "--format", "svg")
    assert proc.returncode == 0, proc.stderr
    assert "slow hosts: 2" in (tmp_path / "mesh.svg").read_text()


def test_several_reports_get_a_figure_each(tmp_path):
    proc = run_tool("plot", CLEAN, SLOW, "--out", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "mesh-rxe-mesh-4-slow-host-2.png", "mesh-rxe-mesh-4.png"]


def test_bad_mesh_input_exits_2(tmp_path, write_json):
    report = json.loads(CLEAN.read_text())
    del report["benchmarks"][0]["matrices"]["bytes_per_second"]
    proc = run_tool("plot", write_json(report, "broken.json"), "--out", tmp_path)
    assert proc.returncode == 2 and "malformed mesh report" in proc.stderr, proc.stderr
    report = json.loads(CLEAN.read_text())
    report["benchmarks"][0]["matrices"]["bytes_per_second"].pop()
    proc = run_tool("plot", write_json(report, "short.json"), "--out", tmp_path)
    assert proc.returncode == 2 and "is not 4 x 4" in proc.stderr, proc.stderr
    proc = run_tool("plot", CLEAN, FIXTURE, "--out", tmp_path)
    assert proc.returncode == 2 and "cannot be drawn together" in proc.stderr, proc.stderr
