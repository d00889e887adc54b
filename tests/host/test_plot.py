"""tools/plot renders every figure from real rxe results and refuses bad input with exit 2."""
import json

import pytest

from conftest import (DETERMINISTIC, FIXTURE, data_pixels, run_tool, run_tool_into_closed_pipe,
                      scaled, tool_module)

from rdmabench_tools import connections_figures, polling_figures
from rdmabench_tools import rdmabench_results as rr

# What the sweep fixture (busy and event, no --rate rows) draws; "load" needs paced rows.
FIGURES = ("bandwidth", "msg_rate", "latency", "polling", "tradeoff", "ladder")
STUDY = FIXTURE.parent / "rxe-polling-study.json"  # `rdmabench study polling` on rxe, veth guest
PLOT = tool_module("plot")


def assert_figures(out, formats=("png",)):
    """Each figure of FIGURES written in each format, with data drawn in it (data_pixels)."""
    paths = [out / f"{name}.{fmt}" for name in FIGURES for fmt in formats]
    assert len(paths) == len(FIGURES) * len(formats) > 0, formats
    for path in paths:
        assert path.is_file(), f"{path} not written"
        assert data_pixels(path) > 0, f"{path}: nothing of colour drawn"


def test_every_figure_from_the_fixture(tmp_path):
    proc = run_tool("plot", FIXTURE, "--out", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert_figures(tmp_path)
    assert proc.stdout.split() == [str(tmp_path / f"{n}.png") for n in FIGURES]


def test_png_and_svg(tmp_path):
    proc = run_tool("plot", FIXTURE, "--out", tmp_path, "--format", "png,svg")
    assert proc.returncode == 0, proc.stderr
    assert_figures(tmp_path, ("png", "svg"))
    svg = (tmp_path / "latency.svg").read_text()
    for text in ("p50", "p99.9", "round trip", "rxe1 (rxe) via rdmacm"):
        assert text in svg, text


def test_overlay_of_two_runs_with_labels(tmp_path, sweep, write_json):
    proc = run_tool("plot", FIXTURE, write_json(sweep, "other.json"), "--label", "before",
                    "--label", "after", "--out", tmp_path, "--format", "svg")
    assert proc.returncode == 0, proc.stderr
    svg = (tmp_path / "bandwidth.svg").read_text()
    assert "before busy" in svg and "after event" in svg


def test_a_reader_that_leaves_early_still_gets_every_figure(tmp_path):
    """`tools/plot ... | head -1`: the figures are the output that matters; no traceback."""
    proc = run_tool_into_closed_pipe("plot", FIXTURE, "--out", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr, proc.stderr
    assert_figures(tmp_path)


def test_a_size_without_the_polling_rows_is_refused_naming_those_there_are(tmp_path):
    proc = run_tool("plot", FIXTURE, "--out", tmp_path, "--size", "3")
    assert proc.returncode == 2
    assert proc.stderr.strip() == ("plot: --size 3: no lat rows of every CQ strategy at 3 B "
                                   "(sizes that have them: 2, 4K, 64K)")
    assert not list(tmp_path.iterdir())


def test_deterministic_figures_say_their_time_counts_instructions(tmp_path):
    proc = run_tool("plot", DETERMINISTIC, "--out", tmp_path, "--format", "svg")
    assert proc.returncode == 0, proc.stderr
    svg = (tmp_path / "bandwidth.svg").read_text()
    assert "deterministic guest: times count guest instructions (2^2 ns each)" in svg
    proc = run_tool("plot", FIXTURE, "--out", tmp_path / "real", "--format", "svg")
    assert "guest instructions" not in (tmp_path / "real" / "bandwidth.svg").read_text()


def test_figures_of_a_software_emulated_guest_say_so(tmp_path):
    """The demo's polling study from a guest without KVM drew busy polling at p50 40 us and p99
    2,432 us, figures of the emulator: a run whose context says acceleration tcg is titled so;
    one under KVM is not."""
    doc = json.loads(FIXTURE.read_text())
    for accel, said in (("tcg", True), ("kvm", False)):
        doc["context"]["client"]["acceleration"] = accel
        path = tmp_path / f"{accel}.json"
        path.write_text(json.dumps(doc))
        proc = run_tool("plot", path, "--out", tmp_path / accel, "--format", "svg")
        assert proc.returncode == 0, proc.stderr
        for figure in ("bandwidth.svg", "polling.svg"):
            svg = (tmp_path / accel / figure).read_text()
            assert ("software-emulated guest (QEMU TCG, no KVM)" in svg) == said, (accel, figure)


def test_deterministic_and_real_time_runs_are_never_overlaid(tmp_path):
    """As compare refuses to judge one against the other, plot refuses to draw them as one."""
    proc = run_tool("plot", FIXTURE, DETERMINISTIC, "--out", tmp_path)
    assert proc.returncode == 2
    assert (f"plot: {FIXTURE} was measured in real time and {DETERMINISTIC} in the deterministic "
            "guest (icount shift=2)") in proc.stderr
    assert not list(tmp_path.iterdir())
    proc = run_tool("compare", FIXTURE, DETERMINISTIC)
    assert proc.returncode == 2 and "BASE was measured in real time and NEW in the " \
        "deterministic guest (icount shift=2)" in proc.stderr, proc.stderr


def test_chosen_polling_size(tmp_path):
    """`--size 4K` was refused: rdmabench's sizes are written so."""
    proc = run_tool("plot", FIXTURE, "--out", tmp_path, "--format", "svg", "--size", "4K")
    assert proc.returncode == 0, proc.stderr
    assert "at 4K B" in (tmp_path / "polling.svg").read_text()


@pytest.mark.parametrize("size", ["4096", "4K", "4k", "4KiB"])
def test_every_spelling_of_a_size_rdmabench_writes_is_read_alike(size):
    """Each spelling through the tool's own command line (a figure drawn for each took 5 s)."""
    assert PLOT.parse_args([str(FIXTURE), "--size", size]).size == 4096


@pytest.mark.parametrize("size, says", [("4KB", "K, M and G are KiB, MiB and GiB"),
                                        ("four", "'four' is not a size"), ("0", "'0' is not a size")])
def test_a_polling_size_rdmabench_would_refuse_is_refused_alike(tmp_path, size, says):
    proc = run_tool("plot", FIXTURE, "--out", tmp_path, "--size", size)
    assert proc.returncode == 2 and says in proc.stderr, proc.stderr


def test_figures_without_data_are_skipped_with_a_note(tmp_path, sweep, write_json):
    sweep["benchmarks"] = [b for b in sweep["benchmarks"] if "/bw/" in b["name"]]
    proc = run_tool("plot", write_json(sweep, "bw-only.json"), "--out", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "bandwidth.png").is_file() and not (tmp_path / "latency.png").exists()
    assert "skipped latency: no lat results" in proc.stderr


def test_a_file_of_two_transports_says_which_it_draws(tmp_path, two_transports, write_json):
    """By default the file's first transport is drawn, and plot says so; --transport draws
    another (ud holds only a bw row here, so the latency figures are skipped); a transport the
    file lacks is bad input."""
    path = write_json(two_transports, "two.json")
    proc = run_tool("plot", path, "--out", tmp_path / "rc")
    assert proc.returncode == 0, proc.stderr
    assert "holds rows over rc, ud; only rc is used (choose with --transport)" in proc.stderr
    assert (tmp_path / "rc" / "latency.png").is_file()

    proc = run_tool("plot", path, "--out", tmp_path / "ud", "--transport", "ud")
    assert proc.returncode == 0, proc.stderr
    assert "only ud is used" in proc.stderr
    assert (tmp_path / "ud" / "bandwidth.png").is_file()
    assert "skipped latency: no lat results" in proc.stderr

    proc = run_tool("plot", path, "--out", tmp_path / "uc", "--transport", "uc")
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"plot: {path}: no rows over transport 'uc' (it holds rc, ud)"


def test_failed_benchmarks_are_left_out_and_named(tmp_path, sweep, write_json):
    for row in sweep["benchmarks"]:
        if row["name"].startswith("read/bw/event/65536/"):
            row.update(error_occurred=True, error_message="timed out")
    proc = run_tool("plot", write_json(sweep, "partial.json"), "--out", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "1 failed benchmark(s) left out: read/bw/event/65536" in proc.stderr
    assert_figures(tmp_path)


def test_malformed_json_exits_2_without_traceback(tmp_path, write_json):
    bad = write_json('{"context": {}, "benchmarks": [{"name": ', "bad.json")
    proc = run_tool("plot", bad, "--out", tmp_path / "figs")
    assert proc.returncode == 2
    assert proc.stderr.startswith("plot: ") and proc.stderr.count("\n") == 1
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "figs").exists()


def test_foreign_json_exits_2(tmp_path, write_json):
    gbench = {"context": {"date": "x"}, "benchmarks": [{"name": "BM_x", "real_time": 1}]}
    proc = run_tool("plot", write_json(gbench, "gbench.json"), "--out", tmp_path)
    assert proc.returncode == 2 and "not rdmabench output" in proc.stderr


def test_bad_options_exit_2(tmp_path):
    assert run_tool("plot", FIXTURE, "--format", "gif", "--out", tmp_path).returncode == 2
    assert run_tool("plot", FIXTURE, "--label", "a", "--label", "b", "--out", tmp_path).returncode == 2
    assert run_tool("plot", tmp_path / "missing.json").returncode == 2


def test_polling_study_figures_from_a_real_study(tmp_path):
    proc = run_tool("plot", STUDY, "--out", tmp_path, "--format", "svg")
    assert proc.returncode == 0, proc.stderr
    for name in ("latency", "polling", "tradeoff", "ladder", "load"):
        assert data_pixels(tmp_path / f"{name}.svg") > 0, name
    strategies = {b["name"].split("/")[2] for b in json.loads(STUDY.read_text())["benchmarks"]}
    assert "client=busy,server=event" in strategies and "hybrid:50" in strategies
    for name in ("tradeoff", "ladder", "load"):
        svg = (tmp_path / f"{name}.svg").read_text()
        for strategy in strategies:  # every strategy the engine reported, none hard-coded
            assert strategy in svg, (name, strategy)
    assert "Pareto front" in (tmp_path / "tradeoff.svg").read_text()
    assert "offered load" in (tmp_path / "load.svg").read_text()
    assert "skipped load" not in proc.stderr


def test_load_figure_is_skipped_without_paced_rows(tmp_path):
    proc = run_tool("plot", FIXTURE, "--out", tmp_path)
    assert proc.returncode == 0
    assert "skipped load: no lat results paced" in proc.stderr


def test_pareto_front_keeps_only_the_unbeaten():
    points = [(40, 16, "hybrid"), (44, 15, "busy"), (99, 96, "event"), (45, 20, "mixed"),
              (40, 30, "worse hybrid")]
    assert [p[2] for p in polling_figures.pareto_front(points)] == ["hybrid", "busy"]


def test_a_front_of_one_strategy_is_marked(tmp_path, sweep, write_json):
    """When one strategy beats every other on CPU and latency, the front is that one point, and
    the trade-off figure must still show it (a dotted line of one point would not)."""
    costly = lambda n: "/lat/event/" in n  # noqa: E731
    counters = ("lat_p50_us", "lat_p99_us", "client_cpu_us_per_msg", "server_cpu_us_per_msg")
    doc = scaled(sweep, costly, counters, 100)
    proc = run_tool("plot", write_json(doc, "one.json"), "--out", tmp_path, "--format", "svg")
    assert proc.returncode == 0, proc.stderr
    svg = (tmp_path / "tradeoff.svg").read_text()
    assert "Pareto front: busy alone (beats every other on both)" in svg


QPS = FIXTURE.parent / "rxe-qps.json"  # `run --qps 1,2,4,8` (write, send bw 64K, 3 reps), veth guest


def test_bandwidth_against_qp_count(tmp_path):
    proc = run_tool("plot", QPS, "--out", tmp_path, "--format", "svg", "--per-qp")
    assert proc.returncode == 0, proc.stderr
    svg = (tmp_path / "qp_scaling.svg").read_text()
    assert len(svg) > 10_000 and "QPs (" in svg and "each QP" in svg
    ran = {b["name"].split("/")[0] for b in json.loads(QPS.read_text())["benchmarks"]}
    assert ran == {"send", "write"}, ran  # the fixture's patterns
    for pattern in ran:
        assert f"{pattern} busy" in svg, pattern  # a line per pattern the engine ran
    # The one-QP rows still make the other figures; scaled-out rows stay out of them.
    assert (tmp_path / "bandwidth.svg").is_file()
    assert "qps:" not in (tmp_path / "bandwidth.svg").read_text()


def test_qp_scaling_is_skipped_without_two_qp_counts(tmp_path):
    proc = run_tool("plot", FIXTURE, "--out", tmp_path)
    assert proc.returncode == 0
    assert "skipped qp_scaling: no bw results at two or more QP counts" in proc.stderr


@pytest.mark.parametrize("fmt", ["png", "svg"])
def test_data_pixels_tells_a_blank_figure_from_a_drawn_one(tmp_path, fmt):
    """What the figure checks above rest on: axes, ticks and a title alone are no data."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import pyplot
    fig, ax = pyplot.subplots()
    ax.set_title("nothing drawn")
    fig.savefig(tmp_path / f"blank.{fmt}")
    ax.plot([1, 2, 3], [3, 1, 2])
    fig.savefig(tmp_path / f"drawn.{fmt}")
    pyplot.close(fig)
    assert data_pixels(tmp_path / f"blank.{fmt}") == 0
    assert data_pixels(tmp_path / f"drawn.{fmt}") > 0


CONNECTIONS = FIXTURE.parent / "rxe-polling-connections.json"  # study polling --connections, veth


def test_the_study_along_connections_is_drawn_and_said_per_load(tmp_path):
    proc = run_tool("plot", CONNECTIONS, "--out", tmp_path, "--format", "svg")
    assert proc.returncode == 0, proc.stderr
    for name in ("connections", "connections_front"):
        assert data_pixels(tmp_path / f"{name}.svg") > 0, name
    doc = json.loads(CONNECTIONS.read_text())
    strategies = {b["rdmabench_spec"]["cq"] for b in doc["benchmarks"]}
    loads = {b["rdmabench_spec"]["rate"] * b["rdmabench_spec"]["qps"] for b in doc["benchmarks"]}
    assert len(strategies) == 6 and loads == {2560, 10240}, (strategies, loads)
    text = (tmp_path / "connections_front.txt").read_text()
    assert str(tmp_path / "connections_front.txt") in proc.stdout.split()
    for load in loads:
        assert f"  {load} round trips/s:" in text, load
    svg = (tmp_path / "connections.svg").read_text()
    for strategy in strategies:  # every strategy the engine reported, in both
        assert text.count(f"    {strategy}: ") == 2, strategy
        assert strategy in svg, strategy
    assert "connections (QPs on one CQ)" in svg


def bench(cq, qps, p99, server_cpu, rate=64):
    return rr.Benchmark(name=f"send/lat/{cq}/2", pattern="send", mode="lat", cq=cq, size=2,
                        rate=rate // qps, qps=qps,
                        samples=[{"lat_p99_us": p99, "server_cpu_us_per_msg": server_cpu,
                                  "lat_p50_us": p99 / 2, "achieved_rate": rate}])


def test_where_each_strategy_leaves_the_front_is_said_from_the_rows():
    """busy is quickest everywhere; event is the cheapest up to 16 connections and then beaten
    on both by adaptive; adaptive is on the front only once event has left it."""
    rows = [bench("busy", 1, 10, 100), bench("busy", 4, 11, 100), bench("busy", 16, 12, 100),
            bench("event", 1, 50, 20), bench("event", 4, 60, 25), bench("event", 16, 90, 60),
            bench("adaptive", 1, 70, 30), bench("adaptive", 4, 65, 30),
            bench("adaptive", 16, 40, 50)]
    run = type("Run", (), {"label": "", "select": lambda self, *a, **k: rows})()
    text = connections_figures.front_text([run])
    assert text[1] == "  64 round trips/s:", text
    assert text[2:] == ["    busy: on the front at every count (1, 4, 16 connections)",
                        "    event: on the front at 1, 4 connections; off it from 16",
                        "    adaptive: on the front at 16 connections"], text
