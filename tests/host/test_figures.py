"""Figures that tell the truth at a glance: every figure kind rendered from real rxe results,
then checked for what misled before (issue 34): an axis that magnifies noise (tradeoff.png
spanned 93.67-93.72 us), empty panels (polling.png's atomics at 2 B), library warnings on
standard error (the legend warning, four times), powers of ten in tick labels (1.9x10^2),
legends on the data."""
import argparse
import math

import pytest

from conftest import FIXTURE, run_tool, tool_module


import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from rdmabench_tools import figure_text
from rdmabench_tools import rdmabench_results as rr

FIXTURES = FIXTURE.parent
CASES = {  # a fixture, and the figure kinds it draws
    "rxe-sweep.json": ("bandwidth", "msg_rate", "latency", "polling", "tradeoff", "ladder"),
    "rxe-polling-study.json": ("latency", "polling", "tradeoff", "ladder", "load"),
    # `study polling --connections 1,16,64,256` (send 2 B, two loads), veth guest, its per-QP
    # and port counters left out
    "rxe-polling-connections.json": ("connections", "connections_front"),
    "rxe-qps.json": ("bandwidth", "msg_rate", "qp_scaling"),
    "rxe-deterministic.json": ("bandwidth", "msg_rate", "latency", "polling", "tradeoff", "ladder"),
    # the gate's baseline: the atomics, at 8 B only, beside the others' 2 B lat rows
    "../../../results/rxe-baseline-deterministic.json": ("bandwidth", "latency", "polling", "tradeoff"),
}


PLOT = tool_module("plot")


def figures(fixture):
    runs = rr.load_all([FIXTURES / fixture])
    makers, _ = PLOT.run_figure_makers(plt, runs, argparse.Namespace(size=None, per_qp=True))
    drawn = {}
    for name in CASES[fixture]:
        fig = makers[name]()
        assert fig is not None, name
        drawn[name] = PLOT.fs.finish(fig)
        fig.canvas.draw()
    return drawn


def drawn_values(ax, axis):
    values = []
    for line in ax.get_lines():
        values += [float(v) for v in (line.get_xdata() if axis == "x" else line.get_ydata())]
    for patch in ax.patches:
        box = patch.get_bbox()
        values += [box.y1] if axis == "y" else []
    return [v for v in values if math.isfinite(v)]


@pytest.fixture(scope="module", params=sorted(CASES))
def drawn(request):
    made = figures(request.param)
    yield request.param, made
    for fig in made.values():
        plt.close(fig)


def panels(fig):
    return [ax for ax in fig.axes if ax.get_visible() and ax.get_label() != "<colorbar>"]


def every_panel(fixture, made):
    """(figure name, figure, panel) of every panel drawn: each kind the fixture draws, each with
    a panel at least."""
    assert sorted(made) == sorted(CASES[fixture]), (fixture, sorted(made))
    found = [(name, fig, ax) for name, fig in made.items() for ax in panels(fig)]
    assert {name for name, _, _ in found} == set(made), (fixture, found)
    return found


def test_no_panel_is_empty(drawn):
    fixture, made = drawn
    drawn_panels = every_panel(fixture, made)
    assert len(drawn_panels) >= len(CASES[fixture]), fixture  # each kind it draws, a panel at least
    for name, fig, ax in drawn_panels:
        assert drawn_values(ax, "y") or ax.images, (fixture, name, ax.get_title())


def test_no_axis_magnifies_noise(drawn):
    """A linear axis spans at least a fifth of the largest value drawn on it (93.67 and 93.72 us
    side by side look alike), a log axis a factor of four at least."""
    fixture, made = drawn
    drawn_panels = every_panel(fixture, made)
    assert len(drawn_panels) >= len(CASES[fixture]), fixture  # each kind it draws, a panel at least
    judged = 0
    for name, fig, ax in drawn_panels:
        for axis in ("x", "y"):
            values = [abs(v) for v in drawn_values(ax, axis)]
            if not values or max(values) == 0:
                continue
            judged += axis == "y"
            low, high = ax.get_xlim() if axis == "x" else ax.get_ylim()
            scale = ax.get_xscale() if axis == "x" else ax.get_yscale()
            if scale == "log":
                assert high / low >= 4 * 0.999, (fixture, name, ax.get_title(), axis, low, high)
            elif scale == "linear" and min(drawn_values(ax, axis)) >= 0:
                assert high - low >= 0.2 * max(values), (fixture, name, ax.get_title(), axis, low, high)
    # Every panel but an image's (a heatmap) has values up its y axis, each judged above.
    assert judged == sum(1 for _, _, ax in drawn_panels if not ax.images), (fixture, judged)


def test_tick_labels_are_plain_numbers(drawn):
    fixture, made = drawn
    drawn_panels = every_panel(fixture, made)
    assert len(drawn_panels) >= len(CASES[fixture]), fixture  # each kind it draws, a panel at least
    for name, fig, ax in drawn_panels:
        labels = [label.get_text() for label in ax.get_xticklabels() + ax.get_yticklabels()]
        assert any(labels), (fixture, name, ax.get_title())
        for text in labels:
            assert "times" not in text and "^" not in text and "\\" not in text, (fixture, name, text)


def labelled_ticks_in_view(ax, axis):
    """The tick labels `axis` ('x' or 'y') of `ax` shows inside its view."""
    ticks = ax.xaxis if axis == "x" else ax.yaxis
    low, high = sorted(ax.get_xlim() if axis == "x" else ax.get_ylim())
    at = 0 if axis == "x" else 1
    return [t.get_text() for t in ticks.get_ticklabels()
            if t.get_text() and t.get_visible() and low <= t.get_position()[at] <= high]


def test_every_axis_has_two_labelled_ticks_at_least(drawn):
    """A log axis inside one decade labelled one tick or none: the baseline's msg_rate showed
    "1000" alone, its latency and ladder panels "100" (issue 66). A reader needs two to read a
    scale."""
    fixture, made = drawn
    drawn_panels = every_panel(fixture, made)
    assert len(drawn_panels) >= len(CASES[fixture]), fixture  # each kind it draws, a panel at least
    for name, fig, ax in drawn_panels:
        for axis in ("x", "y"):
            if ax.images and axis == "x" and not ax.get_xticks().size:
                continue
            shown = labelled_ticks_in_view(ax, axis)
            assert len(shown) >= 2, (fixture, name, ax.get_title(), axis, shown)


def test_a_legend_takes_a_quarter_of_its_figure_at_most(drawn):
    """The polling study's tradeoff legends took about half of each panel's width (issue 66)."""
    fixture, made = drawn
    drawn_panels = every_panel(fixture, made)
    assert len(drawn_panels) >= len(CASES[fixture]), fixture  # each kind it draws, a panel at least
    for name, fig, ax in drawn_panels:
        legend = ax.get_legend()
        if legend is None:
            continue
        box, page = legend.get_window_extent(fig.canvas.get_renderer()), fig.bbox
        assert box.width * box.height <= 0.25 * page.width * page.height, (fixture, name, box, page)


def test_legends_sit_beside_the_data(drawn):
    fixture, made = drawn
    drawn_panels = every_panel(fixture, made)
    assert len(drawn_panels) >= len(CASES[fixture]), fixture  # each kind it draws, a panel at least
    legends = [(name, fig, ax, ax.get_legend()) for name, fig, ax in drawn_panels
               if ax.get_legend() is not None]
    # Every panel of these figures says what its marks are in a legend of its own.
    assert len(legends) == len(drawn_panels), [(n, ax.get_title()) for n, _, ax in drawn_panels
                                               if ax.get_legend() is None]
    for name, fig, ax, legend in legends:
        renderer = fig.canvas.get_renderer()
        box, data = legend.get_window_extent(renderer), ax.get_window_extent(renderer)
        overlap = min(box.x1, data.x1) - max(box.x0, data.x0)
        assert overlap <= 1, (fixture, name, ax.get_title(), box, data)


@pytest.mark.parametrize("fixture", sorted(CASES))
def test_drawing_prints_no_library_warning(fixture, tmp_path):
    proc = run_tool("plot", FIXTURES / fixture, "--out", tmp_path)
    assert proc.returncode == 0, proc.stderr
    foreign = [line for line in proc.stderr.splitlines() if not line.startswith("plot: ")]
    assert not foreign, foreign


def test_no_text_is_cut_or_on_other_text(drawn):
    """The deterministic ladder's title ran off the canvas (640 px wide), the load figure's
    panel titles too, and the polling study's tradeoff labels lay on each other (busy, event,
    epoll, hybrid:50 at nearly one point): each text's drawn extent, measured."""
    fixture, made = drawn
    assert sorted(made) == sorted(CASES[fixture]), (fixture, sorted(made))
    for name, fig in made.items():
        assert figure_text.drawn_texts(fig), (fixture, name)
        assert figure_text.text_problems(fig) == [], (fixture, name)


def test_bars_that_span_decades_stand_on_a_log_axis(drawn):
    """The polling study's percentile bars put p50s of 40 us beside p99.9s of 8,065 us on one
    linear axis, where the p50s could not be read: bars more than a factor of ten apart stand on
    a log axis."""
    fixture, made = drawn
    drawn_panels = every_panel(fixture, made)
    assert len(drawn_panels) >= len(CASES[fixture]), fixture  # each kind it draws, a panel at least
    for name, fig, ax in drawn_panels:
        heights = [p.get_height() for p in ax.patches if p.get_height() > 0]
        if len(heights) < 2 or ax.get_yscale() != "linear":
            continue
        assert max(heights) / min(heights) <= 10, (fixture, name, ax.get_title(), min(heights),
                                                   max(heights))


REGISTRY = {"patterns": ["send", "write", "write_imm", "read", "send_imm", "fetch_add",
                         "compare_swap"],
            "cq_strategies": ["busy", "event", "epoll", "hybrid", "adaptive", "moderated", "yield"]}


def looks_by_label(tmp_path, fixture, name):
    """{line label: (colour, line style, marker)} of figure `name` drawn from `fixture` with the
    engine's registry in its context, as this build's results carry it."""
    import json

    doc = json.loads((FIXTURES / fixture).read_text())
    doc["context"]["rdmabench_registry"] = REGISTRY
    path = tmp_path / fixture.replace("/", "_")
    path.write_text(json.dumps(doc))
    makers, _ = PLOT.run_figure_makers(plt, rr.load_all([path]),
                                       argparse.Namespace(size=None, per_qp=True))
    fig = makers[name]()
    try:
        return {line.get_label(): (matplotlib.colors.to_hex(line.get_color()), line.get_linestyle(),
                                   line.get_marker())
                for ax in fig.axes for line in ax.get_lines() if not line.get_label().startswith("_")}
    finally:
        plt.close(fig)


def test_a_strategy_and_a_pattern_look_the_same_in_every_figure(tmp_path):
    """Looks went by the order a file named things: the sweep (busy, then event) drew busy
    solid and blue, the deterministic run (event, then busy) drew event so; write was orange
    beside send and blue alone (issue 66). Now they go by the engine's registries, which the
    results carry."""
    sweep = looks_by_label(tmp_path, "rxe-sweep.json", "latency")
    deterministic = looks_by_label(tmp_path, "rxe-deterministic.json", "latency")
    common = sorted(set(sweep) & set(deterministic))
    assert any(label.startswith("busy CQ") for label in common), common
    assert any(label.startswith("event CQ") for label in common), common
    for label in common:
        assert sweep[label] == deterministic[label], (label, sweep[label], deterministic[label])
    # A pattern's colour, in the bandwidth figures of a file of four patterns and of two.
    four = looks_by_label(tmp_path, "rxe-sweep.json", "bandwidth")
    two = looks_by_label(tmp_path, "rxe-qps.json", "bandwidth")
    write_colour = {c for label, (c, _, _) in four.items() if label.startswith("write ")}
    assert len(write_colour) == 1, four
    assert {c for label, (c, _, _) in two.items() if label.startswith("write ")} == write_colour, two


def test_a_panel_too_narrow_for_its_title_is_reported():
    """Issue 66: the tradeoff panels were about 170 px wide beside legends half their figure's
    width. A panel's title or x label wider than the panel is reported, as a cut or overlapping
    text is; the same figure, wide enough, has none."""
    narrow, axes = plt.subplots(1, 4, figsize=(6, 3), dpi=100)
    for ax in axes:
        ax.plot([1, 2], [1, 2])
        ax.set_title("client=busy,server=event p50")
        ax.set_xlabel("CPU per message [us], lower is better")
    problems = figure_text.text_problems(narrow)
    assert any(p.startswith("wider than its panel") and "client=busy" in p for p in problems), \
        problems
    assert any(p.startswith("wider than its panel") and "CPU per message" in p for p in problems), \
        problems
    plt.close(narrow)
    wide, ax = plt.subplots(figsize=(8, 4), dpi=100)
    ax.plot([1, 2], [1, 2])
    ax.set_title("client=busy,server=event p50")
    ax.set_xlabel("CPU per message [us], lower is better")
    assert not [p for p in figure_text.text_problems(wide) if p.startswith("wider")]
    plt.close(wide)
