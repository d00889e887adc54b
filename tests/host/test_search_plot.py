"""tools/plot draws an `rdmabench search` report: one figure per finding, the line it lies on
with each point's band and its two points ringed, titled by its rule; a report it cannot draw
is exit 2 with what is wrong, and a search report does not mix with run results."""
import json

import jsonschema

from conftest import FIXTURE, ROOT, run_tool, tool_module

SCHEMA = json.loads((ROOT / "docs" / "search.schema.json").read_text())


def band(median):
    return {"low": median * 0.98, "median": median, "high": median * 1.02}


def finding(rule, along, values, medians, low, high, options=None):
    f = {"rule": rule, "says": f"{rule} says", "counter": "bytes_per_second", "along": along,
         "options": options or {}, "size": 0.5, "replayed": True, "fully_shrunk": True,
         "shrink_measurements": 4, "counters_moved": {},
         "line": [{"value": v, "band": band(m)} for v, m in zip(values, medians)],
         "low": {"point": {along: low}, "command": f"rdmabench run h --{along} {low}",
                 "band": band(medians[values.index(low)])}}
    if high is not None:
        f["high"] = {"point": {along: high}, "command": f"rdmabench run h --{along} {high}",
                     "band": band(medians[values.index(high)])}
    return f


def report():
    return {"schema": "rdmabench-search/1",
            "settings": {"host": "h", "port": 18515, "repetitions": 3, "iters": 2000,
                         "method": "guided", "seed": 1, "budget_s": 60},
            "space": [{"option": "qps", "values": ["1", "2", "4", "8"], "fallback": "1",
                       "start": "1", "ordered": True, "flag": False}],
            "spent_s": 60, "measurements": 12, "violations": 3,
            "findings": [finding("bandwidth-falls-with-qps", "qps", ["1", "2", "4", "8"],
                                 [10, 11, 12, 6], "4", "8", {"pattern": "send"}),
                         finding("resends-on-a-clean-link", "", [""], [50], "", None)]}


def test_one_figure_per_finding(tmp_path, write_json):
    doc = report()
    doc["findings"][1]["low"]["point"] = {"qp-timeout": "1"}
    jsonschema.validate(doc, SCHEMA)
    path = write_json(doc, "report.json")
    proc = run_tool("plot", path, "--out", tmp_path / "figures", "--format", "png,svg")
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in (tmp_path / "figures").iterdir()) == [
        "search-1.png", "search-1.svg", "search-2.png", "search-2.svg"]
    svg = (tmp_path / "figures" / "search-1.svg").read_text()
    # (an SVG comment holds each text; matplotlib writes its "--" as "- -")
    assert "bandwidth-falls-with-qps" in svg and "pattern send" in svg and "qps" in svg


def test_a_report_it_cannot_draw_is_exit_13_when_it_breaks_its_schema_else_2(tmp_path, write_json):
    broken = "does not follow docs/search.schema.json"
    for damage, code, said in [
            (lambda d: d["findings"][0].pop("line"), 13, "'line' is a required property"),
            (lambda d: d["findings"][0].update(line=[]), 2, "holds no point"),
            (lambda d: d["findings"][0]["line"][0]["band"].update(low=99), 2, "out of order"),
            (lambda d: d["findings"][0]["line"][1].update(band={"low": "x"}), 13, "band")]:
        doc = report()
        damage(doc)
        proc = run_tool("plot", write_json(doc, "bad.json"), "--out", tmp_path / "figures")
        assert proc.returncode == code, (said, proc.stderr)
        assert said in proc.stderr and (broken in proc.stderr) == (code == 13), proc.stderr


def test_a_search_report_is_not_drawn_with_run_results(tmp_path, write_json):
    proc = run_tool("plot", write_json(report(), "report.json"), FIXTURE, "--out", tmp_path / "figures")
    assert proc.returncode == 2
    assert "cannot be drawn together" in proc.stderr


def test_a_line_over_decades_is_drawn_on_a_log_scale():
    # The lo guest's write latency from 2 B to 1 MiB (10 us to 12 ms): on a linear scale the
    # finding's two points (16 and 32 B) lay flat on the axis.
    from rdmabench_tools.search_figures import wants_log_scale
    latency = [(10.3, 10.4, 10.8), (8.8, 8.8, 8.9), (19.4, 19.6, 19.8), (11915, 11974, 12156)]
    assert wants_log_scale(latency)
    assert not wants_log_scale([(10, 11, 12), (6, 6.5, 7)])
    assert not wants_log_scale([(0, 1, 2), (500, 600, 700)])  # a zero has no place on a log axis


def test_a_real_search_report_follows_its_schema_and_is_drawn(tmp_path):
    # A 25-minute search in the lo guest (2026-11-26), replayed in the deterministic guest
    # (in a folder of its own: the fixtures beside it are results files):
    # three findings, the resends shown again there, the other two not.
    path = ROOT / "tests" / "host" / "fixtures" / "search" / "rxe-lo.json"
    doc = json.loads(path.read_text())
    jsonschema.validate(doc, SCHEMA)
    assert [f["replays"][-1]["replayed"] for f in doc["findings"]] == [True, False, False]
    proc = run_tool("plot", str(path), "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in tmp_path.glob("*.png")) == [
        "search-1.png", "search-2.png", "search-3.png"]


def test_every_point_and_text_of_a_finding_is_inside_its_figure():
    """The rxe-lo report's first finding, a line of one point, sat on the axis' left edge, its
    ring cut in half; the second's top point touched the frame and its axis read "1e7"."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from rdmabench_tools import figure_text, search_figures

    plot = tool_module("plot")
    doc = search_figures.load_search(ROOT / "tests" / "host" / "fixtures" / "search" / "rxe-lo.json")
    assert len(doc["findings"]) == 3
    for n, f in enumerate(doc["findings"], 1):
        fig = plot.finished_search_figure(plt, f, n)
        assert figure_text.text_problems(fig) == [], n
        ax = fig.axes[0]
        frame = ax.get_window_extent()
        assert ax.yaxis.get_offset_text().get_text() == "", n
        points = [(line.get_label(), x, y, line.get_markersize() * fig.dpi / 72 / 2)
                  for line in ax.get_lines() for x, y in ax.transData.transform(line.get_xydata())]
        # every point of the line (its median) and the finding's ringed ones: at least two
        assert len(points) >= len(f["line"]) + 1, (n, len(points))
        for label, x, y, radius in points:
            assert frame.x0 + radius <= x <= frame.x1 - radius, (n, label)
            assert frame.y0 + radius <= y <= frame.y1 - radius, (n, label)
        plt.close(fig)
