"""Figures of an `rdmabench search` report: one per finding, the line it lies on (every point
the search measured along the rule's option through it, each with its median and the band of
its repetitions), the finding's two points ringed in red, titled by the rule's sentence. A
rule of one point (resends) is drawn as that point's band. What is drawn is what the report
holds; no rule or option is named here."""
from rdmabench_tools import exit_codes, json_input, validate_results

SCHEMA = "rdmabench-search/1"


class SearchError(Exception):
    """A search report that cannot be drawn; exit_code as for a results file (13: it breaks
    docs/search.schema.json; 2: it cannot be read as one)."""

    def __init__(self, message, exit_code=exit_codes.USAGE):
        super().__init__(message)
        self.exit_code = exit_code


def is_search_report(doc):
    return isinstance(doc, dict) and doc.get("schema") == SCHEMA


def _band(b, where):
    try:
        low, median, high = float(b["low"]), float(b["median"]), float(b["high"])
    except (KeyError, TypeError, ValueError):
        raise SearchError(f"{where}: a band needs numbers low, median and high")
    if not low <= median <= high:
        raise SearchError(f"{where}: a band's low, median and high are out of order")
    return low, median, high


def load_search(path):
    """The report's findings, each checked for what a figure needs; SearchError says what is
    missing."""
    try:
        doc = json_input.read_json(path)
    except json_input.JsonInputError as e:
        raise SearchError(str(e)) from None
    if not is_search_report(doc) or not isinstance(doc.get("findings"), list):
        raise SearchError(f"{path}: not an {SCHEMA} report")
    schema = validate_results.validator(validate_results.SEARCH_SCHEMA_PATH)
    if found := validate_results.problems(doc, schema):
        raise SearchError(f"{path}: does not follow docs/search.schema.json ({len(found)} "
                          f"problems; first: {found[0]})", exit_codes.INVALID_FILE)
    for i, f in enumerate(doc["findings"]):
        where = f"{path}: finding {i + 1}"
        if not isinstance(f, dict) or not all(k in f for k in ("rule", "says", "counter", "line", "low")):
            raise SearchError(f"{where}: needs rule, says, counter, line and low")
        if not isinstance(f["line"], list) or not f["line"]:
            raise SearchError(f"{where}: its line holds no point")
        for p in f["line"]:
            if not isinstance(p, dict) or not isinstance(p.get("value"), str):
                raise SearchError(f"{where}: a line point needs its value")
            _band(p.get("band"), where)
    return doc


def _shown(f):
    along = f.get("along") or ""
    points = [f["low"]] + ([f["high"]] if "high" in f else [])
    return {p["point"].get(along, "") if along else "" for p in points}


def wants_log_scale(bands):
    """A line spanning more than two decades (latency from 2 B to 1 MiB) is drawn on a log
    scale, else its small values lie flat on the axis, the finding's among them."""
    lows = [b[0] for b in bands]
    highs = [b[2] for b in bands]
    return bool(bands) and min(lows) > 0 and max(highs) / min(lows) > 100


def search_figure(plt, f, number):
    """The figure of finding `number` (1-based)."""
    line = f["line"]
    xs = list(range(len(line)))
    bands = [_band(p["band"], f["rule"]) for p in line]
    fig, ax = plt.subplots(figsize=(7, 4.2))
    ax.fill_between(xs, [b[0] for b in bands], [b[2] for b in bands], alpha=0.25,
                    color="tab:blue", label="repetitions (lowest to highest)")
    ax.plot(xs, [b[1] for b in bands], "o-", color="tab:blue", label="median")
    shown = _shown(f)
    marked = [x for x, p in zip(xs, line) if p["value"] in shown]
    ax.plot(marked, [bands[x][1] for x in marked], "o", markersize=13, markerfacecolor="none",
            markeredgecolor="tab:red", markeredgewidth=2, label="the finding's points")
    ax.set_xlim(-0.5, len(xs) - 0.5)  # every point, ringed, inside the frame
    ax.margins(y=0.15)
    ax.set_xticks(xs)
    ax.set_xticklabels([p["value"] or "the point" for p in line], rotation=45 if len(xs) > 8 else 0)
    ax.set_xlabel(f"--{f['along']}" if f.get("along") else "")
    log = wants_log_scale(bands)
    if log:
        ax.set_yscale("log")
    ax.set_ylabel(f["counter"] + (" (log scale)" if log else ""))
    options = " ".join(f"--{k} {v}" for k, v in sorted(f.get("options", {}).items()))
    ax.set_title(f"{number}. {f['rule']}: {f['says']}" + (f"\n(with {options})" if options else ""),
                 fontsize=9)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig
