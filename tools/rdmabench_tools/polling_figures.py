"""The polling study's figures (tools/plot): CPU against latency with the Pareto front, a
percentile ladder per strategy, and latency and CPU against offered load.

Every function takes the loaded runs (rdmabench_results.Run), the size to show and a callable
giving each strategy its look, and returns a matplotlib figure, or None when the runs hold no
data for it. Strategies are whatever the results name.
"""
import math

from rdmabench_tools import figure_style as fs
from rdmabench_tools import rdmabench_results as rr

LADDER = (("min", "min"), ("p50", "p50"), ("p90", "p90"), ("p99", "p99"), ("p99.9", "p99.9"),
          ("max", "max"))


def cpu_per_message(bench):
    """Client plus server CPU per message (us): what the pair spends on one message."""
    return bench.median(rr.CLIENT_CPU) + bench.median(rr.SERVER_CPU)


def pareto_front(points):
    """The points (x, y, ...) no other point beats on both x and y, ordered by x."""
    front, best_y = [], math.inf
    for p in sorted(points, key=lambda p: (p[0], p[1])):
        if p[1] < best_y:
            front.append(p)
            best_y = p[1]
    return front


def _series(runs, pattern, size, rate=0):
    """(label, strategy, bench) for every strategy with a lat row of this pattern and size."""
    out = []
    for run in runs:
        for cq in run.cq_choices:
            found = [b for b in run.select("lat", pattern, cq, rate=rate) if b.size == size]
            if found:
                out.append((f"{run.label} {cq}" if len(runs) > 1 else cq, cq, found[0]))
    return out


def _compared(runs, size, patterns):
    """(pattern, series) for every pattern with back-to-back rows of two or more strategies."""
    rows = [(p, _series(runs, p, size)) for p in patterns]
    return [(p, s) for p, s in rows if len(s) >= 2]


def _draw_front(ax, front):
    """The Pareto front: a dotted line through its points, or a ring round the one strategy
    that beats every other on both axes (a line of one point would not show)."""
    if len(front) == 1:
        x, y, label, _ = front[0]
        ax.plot([x], [y], marker="o", markersize=18, markerfacecolor="none",
                markeredgecolor="black", linestyle="none",
                label=f"Pareto front: {label} alone (beats every other on both)")
        return
    ax.plot([p[0] for p in front], [p[1] for p in front], color="black", linewidth=1,
            linestyle=":", label="Pareto front")


def tradeoff_figure(plt, runs, size, patterns, look, title):
    rows = _compared(runs, size, patterns)
    if not rows:
        return None
    fig, axes = plt.subplots(len(rows), 2, figsize=(12.8, 4.4 * len(rows)), squeeze=False,
                             layout="constrained")
    for (pattern, series), pair in zip(rows, axes):
        for ax, stat in zip(pair, ("p50", "p99")):
            metric = rr.LATENCY[stat]
            points = [(cpu_per_message(b), b.median(metric), label, cq) for label, cq, b in series]
            for x, y, label, cq in points:
                _, marker, color, _ = look(cq)
                ax.plot([x], [y], marker=marker, color=color, linestyle="none", markersize=8,
                        label=label)
                ax.annotate(label, (x, y), textcoords="offset points", xytext=(5, 4),
                            fontsize="x-small")
            _draw_front(ax, pareto_front(points))
            ax.set_xlabel("client + server CPU per message (µs)")
            ax.set_ylabel(f"latency {stat} (µs, {series[0][2].round_trip} round trip)")
            ax.set_title(f"{pattern} {rr.size_text(size)} B: CPU against {stat}")
            ax.grid(True, alpha=0.3)
            fs.legend_beside(ax)
    fig.suptitle(f"CQ strategies: CPU cost against latency (lower left is better; the dotted "
                 f"line joins, or a ring marks, the strategies nothing beats on both)\n{title}")
    return fig


def ladder_figure(plt, runs, size, patterns, look, title):
    rows = _compared(runs, size, patterns)
    if not rows:
        return None
    cols = 2 if len(rows) > 1 else 1
    nrows = (len(rows) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(6.4 * cols, 4.4 * nrows), squeeze=False,
                             layout="constrained")
    flat = list(axes.flat)
    for ax in flat[len(rows):]:
        ax.set_visible(False)
    for ax, (pattern, series) in zip(flat, rows):
        for label, cq, bench in series:
            line, marker, color, _ = look(cq)
            ax.plot(range(len(LADDER)), [bench.median(rr.LATENCY[k]) for k, _ in LADDER], line,
                    marker=marker, color=color, label=label)
        ax.set_xticks(range(len(LADDER)), [name for _, name in LADDER])
        ax.set_yscale("log")
        ax.set_ylabel(f"latency (µs, {series[0][2].round_trip} round trip)")
        ax.set_title(f"{pattern} {rr.size_text(size)} B")
        ax.grid(True, alpha=0.3)
        fs.legend_beside(ax)
    fig.suptitle(f"CQ strategies: latency percentile ladder (back to back)\n{title}")
    return fig


def load_figure(plt, runs, size, patterns, look, title):
    rows = []
    for pattern in patterns:
        series = []
        for run in runs:
            for cq in run.cq_choices:
                paced = sorted((b for b in run.select("lat", pattern, cq, rate=None)
                                if b.size == size and b.rate > 0), key=lambda b: b.rate)
                if len(paced) >= 2:
                    series.append((f"{run.label} {cq}" if len(runs) > 1 else cq, cq, paced))
        if series:
            rows.append((pattern, series))
    if not rows:
        return None
    fig, axes = plt.subplots(len(rows), 2, figsize=(12.8, 4.4 * len(rows)), squeeze=False,
                             layout="constrained")
    for (pattern, series), (lat_ax, cpu_ax) in zip(rows, axes):
        for label, cq, paced in series:
            line, marker, color, _ = look(cq)
            rates = [b.rate for b in paced]
            lat_ax.plot(rates, [b.median(rr.LATENCY["p50"]) for b in paced], "-", marker=marker,
                        color=color, label=f"{label} p50")
            lat_ax.plot(rates, [b.median(rr.LATENCY["p99"]) for b in paced], ":", marker=marker,
                        color=color, label=f"{label} p99")
            cpu_ax.plot(rates, [b.median(rr.SERVER_CPU) for b in paced], line, marker=marker,
                        color=color, label=label)
            for b in paced:
                achieved = b.median(rr.ACHIEVED_RATE)
                if achieved < 0.95 * b.rate:  # the pair could not keep up: mark it
                    lat_ax.plot([b.rate], [b.median(rr.LATENCY["p50"])], marker="o",
                                markerfacecolor="none", markeredgecolor="red", markersize=12,
                                linestyle="none")
        trip = series[0][2][0].round_trip
        for ax in (lat_ax, cpu_ax):
            ax.set_xscale("log")
            ax.set_xlabel("offered load (round trips per second, open loop)")
            ax.grid(True, alpha=0.3)
            fs.legend_beside(ax)
        lat_ax.set_yscale("log")
        lat_ax.set_ylabel(f"latency from the intended start (µs, {trip} round trip)")
        lat_ax.set_title(f"{pattern} {rr.size_text(size)} B: latency under load "
                         f"(red ring: achieved < 95 % of offered)")
        cpu_ax.set_yscale("log")
        cpu_ax.set_ylabel("server CPU per message (µs)")
        cpu_ax.set_title(f"{pattern} {rr.size_text(size)} B: the server's CPU under load")
    fig.suptitle(f"CQ strategies under load\n{title}")
    return fig
