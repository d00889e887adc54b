"""Heatmaps of an `rdmabench mesh --out` report: for each benchmark, one N x N map per
counter the report lists under "heatmaps" (the judged figure first), rows the client rank,
columns the server rank. Colours run from half to one and a half times the map's median (red
the worse end); slow pairs are boxed in red and slow hosts' labels are red. What is drawn,
and which way is better, is whatever the report says."""
import warnings

from rdmabench_tools import exit_codes, figure_text, json_input, validate_results
from rdmabench_tools.printable_text import excerpt

SCHEMA_PREFIX = "rdmabench-mesh/"
GBITS = 8e-9  # bytes/s -> Gb/s
COLOUR_SPAN = 0.5  # the colour scale runs from 0.5 to 1.5 times each map's median


class MeshError(Exception):
    """A mesh report that cannot be drawn; exit_code as for a results file (13: it breaks
    docs/mesh.schema.json; 2: it cannot be read as one)."""

    def __init__(self, message, exit_code=exit_codes.USAGE):
        super().__init__(message)
        self.exit_code = exit_code


def is_mesh_report(path):
    """True for a mesh report, False for anything else that parses as JSON; raises MeshError
    for what cannot be read."""
    try:
        doc = json_input.read_json(path)
    except json_input.JsonInputError as e:
        raise MeshError(str(e)) from None
    context = doc.get("context") if isinstance(doc, dict) else None
    return isinstance(context, dict) and str(context.get("schema", "")).startswith(SCHEMA_PREFIX)


def load_mesh(path):
    try:
        doc = json_input.read_json(path)
    except json_input.JsonInputError as e:
        raise MeshError(str(e)) from None
    if found := validate_results.problems(doc):
        raise MeshError(f"{path}: does not follow docs/mesh.schema.json ({len(found)} problems; "
                        f"first: {found[0][:300]})", exit_codes.INVALID_FILE)
    try:
        for b in doc["benchmarks"]:
            for h in b["heatmaps"]:
                rows = b["matrices"][h["counter"]]
                if isinstance(rows, dict):  # a NumPy file beside the report
                    b["matrices"][h["counter"]] = npy_matrix(path, rows, len(doc["hosts"]))
                elif len(rows) != len(doc["hosts"]) or any(len(r) != len(rows) for r in rows):
                    raise MeshError(f"{path}: {b['name']} {h['counter']} is not "
                                    f"{len(doc['hosts'])} x {len(doc['hosts'])}")
                if h.get("verdict") == "wire":
                    w = b["wire"]
                    float(w["max_resends_per_msg"]), list(w["resending_pairs"]), list(w["resending_hosts"])
    except (KeyError, TypeError, ValueError) as e:
        raise MeshError(f"{path}: malformed mesh report ({e!r} missing or of the wrong type)")
    return doc


def npy_matrix(report, ref, n):
    """The N x N float32 matrix a report names in its folder of NumPy files (mapped, not read),
    after checking the name stays in that folder and the file is what the report says."""
    from pathlib import Path

    import numpy as np

    name = Path(str(ref.get("npy", "")))
    folder = Path(report).resolve().parent
    where = f"{report}: matrix file {excerpt(str(name))}"
    if name.is_absolute() or ".." in name.parts or len(name.parts) != 2 \
            or not name.parts[0].endswith(".matrices"):
        raise MeshError(f"{where}: not a file of the report's own .matrices folder",
                        exit_codes.INVALID_FILE)
    if ref.get("dtype") != "<f4" or ref.get("shape") != [n, n]:
        raise MeshError(f"{where}: not little-endian float32 of {n} x {n}", exit_codes.INVALID_FILE)
    try:
        data = np.load(folder / name, mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError) as e:
        raise MeshError(f"{where}: cannot be read ({excerpt(str(e), 200)})") from None
    if data.dtype != np.dtype("<f4") or data.shape != (n, n):
        raise MeshError(f"{where}: holds {data.dtype} {data.shape}, not float32 {n} x {n}",
                        exit_codes.INVALID_FILE)
    return data


def scaled(counter, value):
    """Bandwidth in Gb/s; every other counter as the engine wrote it."""
    return value * GBITS if counter == "bytes_per_second" and value is not None else value


def title_of(counter):
    return "bandwidth (Gb/s)" if counter == "bytes_per_second" else counter


def verdict_of(bench, heatmap):
    """The verdict section that judges the map ("outliers", "wire"), None where none does; a
    report from before maps named their section judges its figure alone."""
    return heatmap.get("verdict", "outliers" if heatmap["counter"] == bench["figure"] else None)


def flagged(bench, heatmap):
    """(pairs, hosts, absolute limit or None) the map outlines: the verdict section that judges
    it (the judged figure's outliers, or what the wire resent)."""
    verdict = verdict_of(bench, heatmap)
    if verdict == "outliers":
        o = bench["outliers"]
        return o["slow_pairs"], set(o["slow_hosts"]), None
    if verdict == "wire":
        w = bench["wire"]
        return w["resending_pairs"], set(w["resending_hosts"]), w["max_resends_per_msg"]
    return [], set(), None


# Up to this many ranks each cell shows its value and each rank its label; beyond, the cells are
# too small: flagged hosts are outlined across their whole row and column (so that one bad host
# among 1024 still shows at any size) and labelled, with a few other ranks for orientation.
ANNOTATED_UP_TO = 24
LABELLED_UP_TO = 32
BOXED_PAIRS = 64  # slow pairs boxed one by one, at most; their hosts are outlined anyway


# Beyond this many ranks a map draws blocks of ranks, each the worst of its pairs (so that one
# slow pair or host still shows among 16,384), reading the matrix a block of rows at a time.
DRAWN_CELLS = 256


def as_array(rows):
    """A matrix as NumPy has it: the report's JSON rows (None where no pair: NaN), or the
    mapped NumPy file as it is."""
    import numpy as np

    if hasattr(rows, "dtype"):
        return rows
    return np.array([[np.nan if v is None else v for v in r] for r in rows], dtype=float)


def cell_values(counter, rows, higher_is_better):
    """The map's cells (blocks of k x k pairs beyond DRAWN_CELLS ranks, each its worst value)
    and k."""
    import numpy as np

    rows = as_array(rows)
    n = len(rows)
    k = -(-n // DRAWN_CELLS)
    if k == 1:
        return scaled(counter, np.asarray(rows, dtype=float)), 1
    worst = np.nanmin if higher_is_better else np.nanmax
    m = -(-n // k)
    cells = np.full((m, m), np.nan)
    padded = np.full((k, m * k), np.nan)
    for i in range(m):
        block = np.asarray(rows[i * k:(i + 1) * k], dtype=float)
        padded[:] = np.nan
        padded[:len(block), :n] = block
        with warnings.catch_warnings():  # a block of no pairs is NaN, as intended
            warnings.simplefilter("ignore", RuntimeWarning)
            cells[i] = worst(padded.reshape(k, m, k), axis=(0, 2))
    return scaled(counter, cells), k


def sampled_median(counter, rows):
    """The median of a map's pairs (of every k-th row beyond DRAWN_CELLS ranks)."""
    import numpy as np

    rows = as_array(rows)
    k = -(-len(rows) // DRAWN_CELLS)
    values = np.asarray(rows[::k], dtype=float)
    finite = values[np.isfinite(values)]
    return float(scaled(counter, np.median(finite))) if finite.size else None


def mark_hosts(ax, n, hosts, pairs):
    """Flagged pairs boxed (the first BOXED_PAIRS), flagged hosts outlined row and column wide."""
    from matplotlib.patches import Rectangle

    width = 2.5 if n <= LABELLED_UP_TO else 0.8
    outlined = hosts if n > LABELLED_UP_TO else set()
    # A pair of an outlined host shows already: the others are boxed first.
    pairs = sorted(pairs, key=lambda p: p[0] in outlined or p[1] in outlined)
    for c, s in pairs[:BOXED_PAIRS]:
        ax.add_patch(Rectangle((s - 0.5, c - 0.5), 1, 1, fill=False, edgecolor="red", lw=width))
    for h in outlined:
        ax.add_patch(Rectangle((-0.5, h - 0.5), n, 1, fill=False, edgecolor="red", lw=width))
        ax.add_patch(Rectangle((h - 0.5, -0.5), 1, n, fill=False, edgecolor="red", lw=width))


def label_ranks(ax, doc, n, hosts):
    if n <= LABELLED_UP_TO:
        ticks = list(range(n))
        labels = [f"{h['rank']} {h.get('device', '')}" for h in doc["hosts"]]
    else:  # every flagged host, and a few others for orientation
        ticks = sorted(set(range(0, n, max(1, n // 8))) | set(hosts))
        labels = [str(t) for t in ticks]
    ax.set_xticks(ticks, labels, rotation=45, ha="right", fontsize=8)
    ax.set_yticks(ticks, labels, fontsize=8)
    for tick in ax.get_xticklabels() + ax.get_yticklabels():
        if int(tick.get_text().split()[0]) in hosts:
            tick.set_color("red")


def draw_heatmap(ax, doc, bench, heatmap):
    import numpy as np

    counter, better_high = heatmap["counter"], heatmap["higher_is_better"]
    pairs, hosts, limit = flagged(bench, heatmap)
    matrix = bench["matrices"][counter]
    data, block = cell_values(counter, matrix, better_high)
    n = len(matrix)
    # Red for worse where a verdict judges the map; one neutral hue (darker for more) where
    # none does, so that a passed mesh shows no red for what nobody judged (each side's CPU).
    judged = verdict_of(bench, heatmap) is not None
    cmap = ("RdYlGn" if better_high else "RdYlGn_r") if judged else "Blues"
    finite = data[np.isfinite(data)]
    # The judged figure's median is the report's own (of an even count the better middle
    # value, as the verdict uses); any other map's is its plain median.
    if counter == bench["figure"]:
        median = scaled(counter, bench["outliers"]["median"])
    else:
        median = sampled_median(counter, matrix) or 0.0
    # Colours span COLOUR_SPAN around the median, so that a few percent between healthy pairs
    # stays one colour and a slow pair stands out, whatever the counter's unit.
    low, high = (median * (1 - COLOUR_SPAN), median * (1 + COLOUR_SPAN)) if median else (None, None)
    if limit is not None:  # an absolute limit: green at none, red from twice the limit
        low, high = 0.0, 2 * limit if limit > 0 else None
    # Drawn in rank coordinates whatever the block, so outlines and labels name ranks.
    image = ax.imshow(np.ma.masked_invalid(data), cmap=cmap, vmin=low, vmax=high,
                      extent=(-0.5, len(data) * block - 0.5, len(data) * block - 0.5, -0.5),
                      interpolation="nearest")
    ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    if n <= ANNOTATED_UP_TO:
        for c in range(n):
            for s in range(n):
                if np.isfinite(data[c, s]):
                    ax.text(s, c, f"{data[c, s]:.4g}", ha="center", va="center", fontsize=8,
                            color=text_colour_on(image.cmap(image.norm(data[c, s]))))
                else:
                    ax.text(s, c, "-", ha="center", va="center", color="gray")
    mark_hosts(ax, n, hosts, pairs)
    label_ranks(ax, doc, n, hosts)
    ax.set_xlabel("server rank")
    ax.set_ylabel("client rank")
    note = f" (median {median:.4g})" if finite.size else ""
    if limit is not None:
        note += f", limit {limit:.4g}"
    if len(pairs) > BOXED_PAIRS:
        note += f"; {len(pairs)} pairs flagged"
    if block > 1:
        note += f"; each cell the worst of {block} x {block} pairs"
    if not judged:
        note += ", not judged"
    ax.set_title(f"{bench['name']}\n{title_of(counter)}{note}", fontsize=9)


def text_colour_on(rgba):
    """White on a dark cell, black on a light one (by the colour's luminance)."""
    r, g, b = rgba[:3]
    return "white" if 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.45 else "black"


def guest_line(hosts):
    """The title's line on where the ranks ran, from each host's acceleration: the
    deterministic guest or a software-emulated one; nothing for others, or where none is said."""
    accelerations = {host.get("acceleration") for host in hosts}
    if "tcg-icount" in accelerations:
        return "\n" + figure_text.deterministic_guest_note()
    if "tcg" in accelerations:
        return "\n" + figure_text.SOFTWARE_EMULATED_NOTE
    return ""


def host_list(hosts, most=10):
    """Hosts for a title: all of up to `most`, else the first and how many more."""
    if not hosts:
        return "none"
    shown = ", ".join(str(h) for h in hosts[:most])
    return shown if len(hosts) <= most else f"{shown} and {len(hosts) - most} more"


def mesh_figure(plt, doc):
    """One row per benchmark, one column per heatmap; None when there is nothing to draw."""
    benches = [b for b in doc["benchmarks"] if b["heatmaps"]]
    if not benches:
        return None
    cols = max(len(b["heatmaps"]) for b in benches)
    fig, axes = plt.subplots(len(benches), cols, figsize=(4.3 * cols, 4.0 * len(benches)),
                             squeeze=False, layout="constrained")
    for row, bench in zip(axes, benches):
        for ax, heatmap in zip(row, bench["heatmaps"]):
            draw_heatmap(ax, doc, bench, heatmap)
        for ax in row[len(bench["heatmaps"]):]:
            ax.set_visible(False)
    ctx, verdict = doc["context"], doc["verdict"]
    resending = verdict.get("resending_hosts", [])
    fig.suptitle(f"rdmabench mesh: {ctx.get('ranks')} ranks, schedule {ctx.get('schedule')}, "
                 f"{ctx.get('mpi', '')}; slow hosts: {host_list(verdict['slow_hosts'])}; "
                 f"slow pairs: {verdict['slow_pairs']}, failed: {verdict['failed_pairs']}"
                 + (f"; resending hosts: {host_list(resending)}" if resending else "")
                 + guest_line(doc["hosts"]), fontsize=10)
    return fig
