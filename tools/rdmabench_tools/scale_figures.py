"""The scale-out figure of tools/plot: bandwidth against QP count (`rdmabench run --qps 1,2,4`).

One panel per message size; a line per pattern, CQ strategy and the rest of the scale
(threads, --cq-per-qp, --bidir), drawn where a file holds two or more QP counts of it. The
aggregate is the line; with per_qp, each QP's own bandwidth is a small dot at its QP count
(they add up to the line, or to its client-to-server part with --bidir), so an unfair QP shows.
"""

import matplotlib.ticker as ticker
from rdmabench_tools import figure_style as fs
from rdmabench_tools import rdmabench_results as rr

COLORS = ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown",
          "tab:pink", "tab:gray", "tab:olive", "tab:cyan")


def scaling_series(runs):
    """{(run label, pattern, cq, size, rest of the scale): [bench, ...] sorted by QP count}
    for every series with two or more QP counts."""
    series = {}
    for run in runs:
        for b in run.select("bw", scale=None):
            rest = "/".join(b.scale_beyond_qps())
            series.setdefault((run.label, b.pattern, b.cq, b.size, rest), []).append(b)
    return {k: sorted(v, key=lambda b: b.qps) for k, v in series.items()
            if len({b.qps for b in v}) >= 2}


def qp_scaling_figure(plt, runs, per_qp, title):
    """Bandwidth (Gb/s) against QP count; None when no file holds two QP counts."""
    series = scaling_series(runs)
    if not series:
        return None
    sizes = sorted({k[3] for k in series})
    fig, axes = plt.subplots(1, len(sizes), figsize=(6.4 * len(sizes) + 2.4, 5.0), squeeze=False)
    metric = rr.BANDWIDTH_GBITS
    overlay = len(runs) > 1
    for ax, size in zip(axes[0], sizes):
        keys = [k for k in series if k[3] == size]
        for n, key in enumerate(keys):
            label, pattern, cq, _, rest = key
            benches = series[key]
            color = COLORS[n % len(COLORS)]
            name = " ".join(x for x in ((label if overlay else ""), pattern, cq, rest) if x)
            qps = [b.qps for b in benches]
            ax.plot(qps, [b.median(metric) for b in benches], "-o", color=color, label=name)
            if per_qp:
                for b in benches:
                    values = b.per_qp(metric)
                    ax.plot([b.qps] * len(values), values, ".", color=color, alpha=0.6,
                            markersize=5)
        ax.set_xscale("log", base=2)
        ax.set_xticks(sorted({b.qps for k in keys for b in series[k]}))
        ax.get_xaxis().set_major_formatter(ticker.ScalarFormatter())
        ax.set_xlabel("QPs (--qps)")
        ax.set_ylabel(f"{metric.title} ({metric.unit})")
        ax.set_ylim(bottom=0)
        ax.set_title(f"{rr.size_text(size)} messages" + (", dots: each QP" if per_qp else ""))
        ax.grid(True, alpha=0.3)
        fs.legend_beside(ax, fontsize="small")
    fig.suptitle(f"Bandwidth against QP count (aggregate)\n{title}")
    fig.tight_layout()
    return fig
