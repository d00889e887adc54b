"""Heatmaps of an `rdmabench mesh --out` report: for each benchmark, one N x N map per
counter the report lists under "heatmaps" (the judged figure first), rows the client rank,
columns the server rank. Colours run from half to one and a half times the map's median (red
the worse end); slow pairs are boxed in red and slow hosts' labels are red. What is drawn,
and which way is better, is whatever the report says."""
import json

SCHEMA_PREFIX = "rdmabench-mesh/"
GBITS = 8e-9  # bytes/s -> Gb/s
COLOUR_SPAN = 0.5  # the colour scale runs from 0.5 to 1.5 times each map's median


class MeshError(Exception):
    pass


def is_mesh_report(path):
    """True for a mesh report, False for anything else that parses as JSON; raises MeshError
    for what cannot be read."""
    try:
        doc = json.loads(open(path).read())
    except OSError as e:
        raise MeshError(f"cannot read {path}: {e.strerror}")
    except ValueError as e:
        raise MeshError(f"{path}: not JSON ({e})")
    return isinstance(doc, dict) and str(doc.get("context", {}).get("schema", "")).startswith(SCHEMA_PREFIX)


def load_mesh(path):
    doc = json.loads(open(path).read())
    try:
        for b in doc["benchmarks"]:
            for h in b["heatmaps"]:
                rows = b["matrices"][h["counter"]]
                if len(rows) != len(doc["hosts"]) or any(len(r) != len(rows) for r in rows):
                    raise MeshError(f"{path}: {b['name']} {h['counter']} is not "
                                    f"{len(doc['hosts'])} x {len(doc['hosts'])}")
                if h.get("verdict") == "wire":
                    w = b["wire"]
                    float(w["max_resends_per_msg"]), list(w["resending_pairs"]), list(w["resending_hosts"])
    except (KeyError, TypeError, ValueError) as e:
        raise MeshError(f"{path}: malformed mesh report ({e!r} missing or of the wrong type)")
    return doc


def scaled(counter, value):
    """Bandwidth in Gb/s; every other counter as the engine wrote it."""
    return value * GBITS if counter == "bytes_per_second" and value is not None else value


def title_of(counter):
    return "bandwidth (Gb/s)" if counter == "bytes_per_second" else counter


def flagged(bench, heatmap):
    """(pairs, hosts, absolute limit or None) the map outlines: the verdict section it names
    (the judged figure's outliers, or what the wire resent); a report from before maps named
    their section outlines its judged figure only."""
    verdict = heatmap.get("verdict", "outliers" if heatmap["counter"] == bench["figure"] else None)
    if verdict == "outliers":
        o = bench["outliers"]
        return o["slow_pairs"], set(o["slow_hosts"]), None
    if verdict == "wire":
        w = bench["wire"]
        return w["resending_pairs"], set(w["resending_hosts"]), w["max_resends_per_msg"]
    return [], set(), None


def draw_heatmap(ax, doc, bench, heatmap):
    import numpy as np

    counter, better_high = heatmap["counter"], heatmap["higher_is_better"]
    pairs, hosts, limit = flagged(bench, heatmap)
    rows = bench["matrices"][counter]
    n = len(rows)
    data = np.array([[np.nan if v is None else scaled(counter, v) for v in r] for r in rows])
    cmap = "RdYlGn" if better_high else "RdYlGn_r"
    finite = data[np.isfinite(data)]
    # The judged figure's median is the report's own (of an even count the better middle
    # value, as the verdict uses); any other map's is its plain median.
    if counter == bench["figure"]:
        median = scaled(counter, bench["outliers"]["median"])
    else:
        median = float(np.median(finite)) if finite.size else 0.0
    # Colours span COLOUR_SPAN around the median, so that a few percent between healthy pairs
    # stays one colour and a slow pair stands out, whatever the counter's unit.
    low, high = (median * (1 - COLOUR_SPAN), median * (1 + COLOUR_SPAN)) if median else (None, None)
    if limit is not None:  # an absolute limit: green at none, red from twice the limit
        low, high = 0.0, 2 * limit if limit > 0 else None
    image = ax.imshow(np.ma.masked_invalid(data), cmap=cmap, vmin=low, vmax=high)
    ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    for c in range(n):
        for s in range(n):
            if np.isfinite(data[c, s]):
                ax.text(s, c, f"{data[c, s]:.4g}", ha="center", va="center", fontsize=8)
            else:
                ax.text(s, c, "-", ha="center", va="center", color="gray")
    from matplotlib.patches import Rectangle

    for c, s in pairs:
        ax.add_patch(Rectangle((s - 0.5, c - 0.5), 1, 1, fill=False, edgecolor="red", lw=2.5))
    slow = hosts
    labels = [f"{h['rank']} {h.get('device', '')}" for h in doc["hosts"]]
    ax.set_xticks(range(n), labels, rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(n), labels, fontsize=8)
    for tick, h in zip(ax.get_xticklabels() + ax.get_yticklabels(), list(range(n)) * 2):
        if h in slow:
            tick.set_color("red")
    ax.set_xlabel("server rank")
    ax.set_ylabel("client rank")
    note = f" (median {median:.4g})" if finite.size else ""
    if limit is not None:
        note += f", limit {limit:.4g}"
    ax.set_title(f"{bench['name']}\n{title_of(counter)}{note}", fontsize=9)


def mesh_figure(plt, doc):
    """One row per benchmark, one column per heatmap; None when there is nothing to draw."""
    benches = [b for b in doc["benchmarks"] if b["heatmaps"]]
    if not benches:
        return None
    cols = max(len(b["heatmaps"]) for b in benches)
    fig, axes = plt.subplots(len(benches), cols, figsize=(4.3 * cols, 4.0 * len(benches)),
                             squeeze=False)
    for row, bench in zip(axes, benches):
        for ax, heatmap in zip(row, bench["heatmaps"]):
            draw_heatmap(ax, doc, bench, heatmap)
        for ax in row[len(bench["heatmaps"]):]:
            ax.axis("off")
    ctx, verdict = doc["context"], doc["verdict"]
    slow = ", ".join(str(h) for h in verdict["slow_hosts"]) or "none"
    fig.suptitle(f"rdmabench mesh: {ctx.get('ranks')} ranks, schedule {ctx.get('schedule')}, "
                 f"{ctx.get('mpi', '')}; slow hosts: {slow}; slow pairs: {verdict['slow_pairs']}, "
                 f"failed: {verdict['failed_pairs']}", fontsize=10)
    fig.tight_layout()
    return fig
