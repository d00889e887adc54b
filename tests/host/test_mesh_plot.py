"""tools/plot draws the heatmaps of real `rdmabench mesh` reports from the four-host rxe guest
(tools/rxe-vm -m mesh:4): a clean one, and one with host 2 slowed by tc netem (1 ms, 40 Mbit/s)."""
import json

from conftest import FIXTURE, data_pixels, run_tool, tool_module

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
        first, *others = [heatmap["counter"] for heatmap in bench["heatmaps"]]
        assert len(set(others)) == len(others) >= 1 and set(others) <= set(bench["matrices"]), others
        for counter in others:  # the first is named by its title, "bandwidth (Gb/s)"
            assert counter in svg
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


def as_numpy_report(tmp_path, dtype="<f4", shape=None, name=None):
    """The clean report with its judged figure's matrix moved to a NumPy file beside it, as
    rdmabench mesh writes beyond 1024 ranks (mesh_report_file.h)."""
    import numpy as np

    report = json.loads(CLEAN.read_text())
    rows = report["benchmarks"][0]["matrices"]["bytes_per_second"]
    folder = tmp_path / "mesh.matrices"
    folder.mkdir(parents=True, exist_ok=True)
    data = np.array([[np.nan if v is None else v for v in r] for r in rows], dtype=dtype)
    np.save(folder / "0-bytes_per_second.npy", data)
    n = len(rows)
    report["benchmarks"][0]["matrices"]["bytes_per_second"] = {
        "npy": name or "mesh.matrices/0-bytes_per_second.npy", "dtype": "<f4",
        "shape": shape or [n, n]}
    path = tmp_path / "mesh.json"
    path.write_text(json.dumps(report))
    return path


def test_a_matrix_in_a_numpy_file_beside_the_report_is_drawn(tmp_path):
    proc = run_tool("plot", as_numpy_report(tmp_path), "--out", tmp_path / "figures",
                    "--format", "svg")
    assert proc.returncode == 0, proc.stderr
    assert "bandwidth (Gb/s)" in (tmp_path / "figures" / "mesh.svg").read_text()


def test_a_numpy_matrix_that_is_not_what_the_report_says_is_refused(tmp_path):
    """The file a report names is a peer's input: it must stay in the report's own folder,
    exist, and hold float32 of the mesh's N x N; each is a one-line error, never a traceback."""
    cases = [(as_numpy_report(tmp_path / "escape", name="../../etc/passwd.npy"), 13, "matrices"),
             (as_numpy_report(tmp_path / "missing", name="mesh.matrices/7-bytes_per_second.npy"),
              2, "cannot be read"),
             (as_numpy_report(tmp_path / "shape", shape=[3, 3]), 13, "float32 of 4 x 4"),
             (as_numpy_report(tmp_path / "dtype", dtype="<f8"), 13, "not float32 4 x 4")]
    for path, code, says in cases:
        proc = run_tool("plot", path, "--out", path.parent / "figures")
        assert proc.returncode == code and says in proc.stderr, (path, proc.stderr)
        assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr


def test_maps_no_verdict_judges_are_drawn_in_neutral_colours():
    """The CPU maps, which no verdict judges, were red to green like the judged figure: deep red
    on a mesh that passed (issue 66). A map a verdict judges (its outliers, the wire's resends)
    keeps red for worse; any other is one neutral hue, darker for more, and says it is not
    judged."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from rdmabench_tools import mesh_figures

    doc = mesh_figures.load_mesh(CLEAN)
    fig = mesh_figures.mesh_figure(plt, doc)
    try:
        maps = [ax for ax in fig.axes if ax.images]
        expected = [(b, h) for b in doc["benchmarks"] for h in b["heatmaps"]]
        assert len(maps) == len(expected) >= 4, (len(maps), len(expected))
        for ax, (bench, heatmap) in zip(maps, expected):
            cmap = ax.images[0].get_cmap().name
            if heatmap["counter"] == bench["figure"]:  # judged by the outliers' verdict
                assert cmap.startswith("RdYlGn"), (heatmap["counter"], cmap)
                assert "not judged" not in ax.get_title()
            else:
                assert cmap == "Blues", (heatmap["counter"], cmap)
                assert "not judged" in ax.get_title(), ax.get_title()
    finally:
        plt.close(fig)


def test_the_title_says_what_guest_the_hosts_ran_in(tmp_path, write_json):
    """A mesh measured in the deterministic guest, or in a software-emulated one, says so under
    its title, as the run figures do; a report whose hosts name no guest (bare metal, or
    written before hosts named their acceleration) adds nothing."""
    report = json.loads(CLEAN.read_text())
    titles = {}
    for acceleration in ("tcg-icount", "tcg", "kvm", None):
        for host in report["hosts"]:
            host.pop("acceleration", None)
            if acceleration:
                host["acceleration"] = acceleration
        out = tmp_path / str(acceleration)
        proc = run_tool("plot", write_json(report, f"{acceleration}.json"), "--out", out,
                        "--format", "svg")
        assert proc.returncode == 0, proc.stderr
        titles[acceleration] = (out / "mesh.svg").read_text()
    assert "deterministic guest: times count guest instructions" in titles["tcg-icount"]
    assert "software-emulated guest (QEMU TCG, no KVM)" in titles["tcg"]
    for plain in ("kvm", None):
        assert "guest instructions" not in titles[plain] and "software-emulated" not in titles[plain]


def test_no_text_of_a_mesh_figure_is_cut_or_on_other_text():
    """The mesh figure was left out of the text check: its title lay on the first row's panel
    titles, the second row's titles on the first row's "server rank", and the counters' titles
    were wider than their panels. Each report drawn as tools/plot draws it (with the guest's
    line under the title too), measured by figure_text.text_problems."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from rdmabench_tools import figure_text

    plot = tool_module("plot")
    deterministic = json.loads(CLEAN.read_text())
    for host in deterministic["hosts"]:
        host["acceleration"] = "tcg-icount"
    for name, doc in (("clean", json.loads(CLEAN.read_text())),
                      ("slow", json.loads(SLOW.read_text())), ("deterministic", deterministic)):
        fig = plot.finished_mesh_figure(plt, doc)
        assert figure_text.text_problems(fig) == [], name
        plt.close(fig)
