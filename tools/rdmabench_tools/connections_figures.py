"""The polling study along connections (`rdmabench study polling --connections`, issue 68): how
each server strategy's latency and CPU per message grow with the connections it harvests from
one CQ, at each aggregate offered load, and which strategies are on the Pareto front (p99
latency against the server's CPU per message, both lower better) at each load and count.

Rows are what the engine reports: open-loop lat rows (a rate, one thread, one CQ) whose load
is their per-QP rate times their QP count; strategies are whatever the results name.
"""
import math

from rdmabench_tools import figure_style as fs
from rdmabench_tools import polling_figures as pf
from rdmabench_tools import rdmabench_results as rr

P99 = rr.LATENCY["p99"]


def _paced_rows(runs):
    """{(pattern, size): [(label, cq, bench)]} of every paced lat row on one thread and CQ."""
    groups = {}
    for run in runs:
        for b in run.select("lat", rate=None, scale=None):
            if b.rate > 0 and b.threads == 1 and not b.cq_per_qp:
                label = f"{run.label} {b.cq}" if len(runs) > 1 else b.cq
                groups.setdefault((b.pattern, b.size), []).append((label, b.cq, b))
    return groups


def study_rows(runs):
    """(pattern, size, {load: {label: {connections: bench}}}, cq of each label) of the group
    with the most rows that holds two connection counts or more; None without one."""
    best = None
    for (pattern, size), rows in _paced_rows(runs).items():
        if len({b.qps for _, _, b in rows}) < 2:
            continue
        if best is None or len(rows) > len(best[2]):
            best = (pattern, size, rows)
    if best is None:
        return None
    pattern, size, rows = best
    by_load, cq_of = {}, {}
    for label, cq, b in rows:
        by_load.setdefault(b.rate * b.qps, {}).setdefault(label, {})[b.qps] = b
        cq_of[label] = cq
    return pattern, size, dict(sorted(by_load.items())), cq_of


def fronts(by_label):
    """{connections: labels on the Pareto front there} among the strategies of one load."""
    counts = sorted({n for series in by_label.values() for n in series})
    out = {}
    for n in counts:
        points = [(b.median(rr.SERVER_CPU), b.median(P99), label)
                  for label, series in by_label.items() if (b := series.get(n)) is not None
                  and not math.isnan(b.median(P99))]
        out[n] = {p[2] for p in pf.pareto_front(points)}
    return out


def front_text(runs):
    """Per load, where each strategy is on the front and where it stops being on it, as lines
    of text; [] when the results hold no study along connections."""
    found = study_rows(runs)
    if found is None:
        return []
    pattern, size, by_load, _ = found
    lines = [f"Pareto front of p99 latency against server CPU per message (both lower better), "
             f"{pattern} {rr.size_text(size)} B, at each aggregate load:"]
    for load, by_label in by_load.items():
        on = fronts(by_label)
        lines.append(f"  {load} round trips/s:")
        for label in by_label:
            at = [n for n, members in on.items() if label in members]
            lines.append(f"    {label}: {_front_words(at, list(on))}")
    return lines


def _front_words(at, counts):
    """Where a strategy is on the front, and from which count it stops being on it."""
    if not at:
        return "never on the front"
    if at == counts:
        return f"on the front at every count ({_counts_text(counts)})"
    after = [n for n in counts if n > max(at)]
    return f"on the front at {_counts_text(at)}" + (f"; off it from {after[0]}" if after else "")


def _counts_text(counts):
    """'1 connection', '1, 16, 64 connections'."""
    return ", ".join(map(str, counts)) + (" connection" if counts == [1] else " connections")


def _strategies(by_label, cq_of, look):
    """Each strategy of one load: its label, line, marker and color, and its connection counts
    with their rows, in count order."""
    for label, series in by_label.items():
        line, marker, color, _ = look(cq_of[label])
        counts = sorted(series)
        yield label, line, marker, color, counts, [series[n] for n in counts]


def connections_figure(plt, runs, look, title):
    """Per load (columns): p50 and p99 latency, and the server's CPU per message, against the
    connections; a red ring where the pair did not keep up."""
    found = study_rows(runs)
    if found is None:
        return None
    pattern, size, by_load, cq_of = found
    fig, axes = plt.subplots(2, len(by_load), figsize=(6.4 * len(by_load), 8.8), squeeze=False,
                             layout="constrained")
    for col, (load, by_label) in enumerate(by_load.items()):
        lat_ax, cpu_ax = axes[0][col], axes[1][col]
        for label, line, marker, color, counts, benches in _strategies(by_label, cq_of, look):
            lat_ax.plot(counts, [b.median(rr.LATENCY["p50"]) for b in benches], "-",
                        marker=marker, color=color, label=f"{label} p50")
            lat_ax.plot(counts, [b.median(P99) for b in benches], ":", marker=marker,
                        color=color, label=f"{label} p99")
            cpu_ax.plot(counts, [b.median(rr.SERVER_CPU) for b in benches], line, marker=marker,
                        color=color, label=label)
            for n, b in zip(counts, benches):
                if b.median(rr.ACHIEVED_RATE) < 0.95 * load:  # did not keep up: mark it
                    lat_ax.plot([n], [b.median(P99)], marker="o", markerfacecolor="none",
                                markeredgecolor="red", markersize=12, linestyle="none")
        trip = next(iter(next(iter(by_label.values())).values())).round_trip
        for ax in (lat_ax, cpu_ax):
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xlabel("connections (QPs on one CQ)")
            ax.grid(True, alpha=0.3)
            fs.legend_beside(ax)
        lat_ax.set_ylabel(f"latency from the intended start (µs, {trip} round trip)")
        lat_ax.set_title(f"{load} round trips/s over all: latency (lower is better; red ring: "
                         f"achieved < 95 %)")
        cpu_ax.set_ylabel("server CPU per message (µs)")
        cpu_ax.set_title(f"{load} round trips/s over all: server CPU (lower is better)")
    fig.suptitle(f"Server CQ strategies along connections, {pattern} {rr.size_text(size)} B, "
                 f"open loop\n{title}")
    return fig


def front_figure(plt, runs, look, title):
    """Per load: p99 against the server's CPU per message, each strategy a line through its
    connection counts; a black ring marks a strategy on the front at that count."""
    found = study_rows(runs)
    if found is None:
        return None
    pattern, size, by_load, cq_of = found
    fig, axes = plt.subplots(1, len(by_load), figsize=(6.4 * len(by_load), 4.8), squeeze=False,
                             layout="constrained")
    for ax, (load, by_label) in zip(axes[0], by_load.items()):
        on = fronts(by_label)
        for label, line, marker, color, counts, benches in _strategies(by_label, cq_of, look):
            xs = [b.median(rr.SERVER_CPU) for b in benches]
            ys = [b.median(P99) for b in benches]
            ax.plot(xs, ys, line, marker=marker, color=color, label=label)
            for n, x, y in zip(counts, xs, ys):
                ax.annotate(str(n), (x, y), textcoords="offset points", xytext=(4, 3),
                            fontsize="x-small")
                if label in on[n]:
                    ax.plot([x], [y], marker="o", markersize=13, markerfacecolor="none",
                            markeredgecolor="black", linestyle="none")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("server CPU per message (µs)")
        ax.set_ylabel("latency p99 (µs)")
        ax.set_title(f"{load} round trips/s over all")
        ax.grid(True, alpha=0.3)
        fs.legend_beside(ax)
    fig.suptitle(f"Server CQ strategies along connections: p99 against CPU, lower left is better;"
                 f" numbers are connections, a black ring is on the front at that count\n"
                 f"{pattern} {rr.size_text(size)} B, {title}")
    return fig
