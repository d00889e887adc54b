"""What every figure of tools/plot does to its axes once drawn, so that it tells the truth at a
glance: an axis never magnifies noise (a linear axis of a quantity that cannot be negative
starts at zero; a log axis spans at least a factor of four), tick labels are plain numbers (190,
not 1.9x10^2), and a legend sits beside the data, never on it, and only where something is
labelled (matplotlib warns otherwise)."""
import math

from rdmabench_tools import figure_text
from rdmabench_tools.number_text import PRECISE_WHOLE

# A log axis spans at least this factor, so that a few per cent look like a few per cent.
MIN_LOG_RATIO = 4.0


def plain_number(value, _position=None):
    """190, 0.25, 12000: what a tick shows, with no powers of ten."""
    if value == 0 or not math.isfinite(value):
        return "0"
    if abs(value) >= PRECISE_WHOLE:
        return f"{value:.3g}"
    if abs(value) >= 1:
        return f"{value:,.0f}".replace(",", " ") if abs(value) >= 10000 else f"{value:g}"
    return f"{value:.3g}"


def bar_number(value):
    """A bar's value label: whole from 10 up (1150, 96), two significant digits below (0.034):
    short enough to stand over its own bar."""
    return f"{value:.0f}" if 10 <= abs(value) < PRECISE_WHOLE else f"{value:.2g}"


def log_where_bars_span_decades(ax):
    """A log y axis for `ax` where its bars are more than a factor of ten apart (40 us beside
    8,065 us on a linear axis leaves the 40 unreadable)."""
    heights = [p.get_height() for p in ax.patches if p.get_height() > 0]
    if len(heights) >= 2 and max(heights) / min(heights) > 10:
        ax.set_yscale("log")


def room_for_bar_values(ax):
    """Room above the tallest bar of `ax` for its value label, upright or turned: a quarter of
    the axis' span above it (of a log axis, a quarter of its decades)."""
    heights = [p.get_height() for p in ax.patches if p.get_height() > 0]
    if not heights:
        return
    top, low = max(heights), min(heights)
    if ax.get_yscale() == "log":
        ax.set_ylim(top=top * max(top / low, MIN_LOG_RATIO) ** 0.25)
    else:
        ax.set_ylim(top=top * 1.25)


def _data_limits(ax, axis):
    """(low, high) of what is drawn on `axis` ('x' or 'y') of `ax`, or None when nothing is."""
    values = []
    for line in ax.get_lines():
        data = line.get_xdata() if axis == "x" else line.get_ydata()
        values += [float(v) for v in data if v is not None and math.isfinite(float(v))]
    for patch in ax.patches:
        box = patch.get_bbox()
        values += [box.x0, box.x1] if axis == "x" else [box.y0, box.y1]
    for collection in ax.collections:
        for path in collection.get_paths():
            column = 0 if axis == "x" else 1
            values += [float(v) for v in path.vertices[:, column] if math.isfinite(float(v))]
    return (min(values), max(values)) if values else None


def honest_axis(ax, axis):
    """Widen `axis` so that it cannot magnify noise."""
    limits = _data_limits(ax, axis)
    if limits is None:
        return
    low, high = limits
    get, set_ = (ax.get_xlim, ax.set_xlim) if axis == "x" else (ax.get_ylim, ax.set_ylim)
    scale = ax.get_xscale() if axis == "x" else ax.get_yscale()
    if scale == "log":
        if low <= 0 or high / low >= MIN_LOG_RATIO:
            return
        centre, half = math.sqrt(low * high), math.sqrt(MIN_LOG_RATIO)
        now = get()
        set_(min(now[0], centre / half), max(now[1], centre * half))
    elif scale == "linear" and low >= 0:
        set_(0, max(get()[1], high * 1.05))


def ticks_within_a_decade(ax, axis):
    """A log axis whose view holds fewer than two powers of ten labelled 1, 2 and 5 of each
    decade too (a message rate between 300 and 3000 showed one tick label, "1000"): a view of a
    factor of four, the least honest_axis leaves, holds two of them at least."""
    from matplotlib.ticker import LogLocator

    low, high = sorted(ax.get_xlim() if axis is ax.xaxis else ax.get_ylim())
    if low <= 0:
        return
    powers = math.floor(math.log10(high) + 1e-9) - math.ceil(math.log10(low) - 1e-9) + 1
    if powers < 2:
        axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))


def plain_ticks(ax):
    """Plain numbers on every numeric axis, log ones included, and no "1e7" above a linear
    one (80 000 000, not 8 and an offset)."""
    from matplotlib.ticker import FuncFormatter, NullFormatter, ScalarFormatter

    for axis, scale in ((ax.xaxis, ax.get_xscale()), (ax.yaxis, ax.get_yscale())):
        if scale == "log" and not isinstance(axis.get_major_formatter(), FuncFormatter):
            ticks_within_a_decade(ax, axis)
            axis.set_major_formatter(FuncFormatter(plain_number))
            axis.set_minor_formatter(NullFormatter())
        elif scale == "linear" and isinstance(axis.get_major_formatter(), ScalarFormatter):
            axis.set_major_formatter(FuncFormatter(plain_number))


def legend_beside(ax, **kwargs):
    """A legend to the right of the axes, where it covers no data; none when nothing is
    labelled."""
    handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return None
    kwargs.setdefault("fontsize", "x-small")
    return ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0,
                     **kwargs)


def finish(fig, honest=("x", "y")):
    """Every visible axes of `fig` made honest and plain, the ones with nothing drawn hidden, and
    its text fitted (figure_text)."""
    for ax in fig.axes:
        if not ax.get_visible() or ax.get_label() == "<colorbar>":
            continue
        if _data_limits(ax, "y") is None and not ax.images:
            ax.set_visible(False)
            continue
        for axis in honest:
            honest_axis(ax, axis)
        plain_ticks(ax)
    return figure_text.fit_text(fig)
