"""The text of a figure, as drawn: every title, label, tick label, legend entry and point label
inside the canvas, none on another, and a point's label inside its panel. tools/plot fits its
titles and places its point labels so (fit_text, once the layout is known); the host tests
check every figure kind with text_problems."""
import textwrap

# Where a point's label may go, in points from the point, nearest first: (dx, dy, ha, va).
_OFFSETS = [(5, 4, "left", "bottom"), (5, -4, "left", "top"), (-5, 4, "right", "bottom"),
            (-5, -4, "right", "top"), (0, 9, "center", "bottom"), (0, -9, "center", "top")]
LABEL_PLACES = [(dx * ring, dy * ring, ha, va) for ring in (1, 2, 3, 4) for dx, dy, ha, va in _OFFSETS]


def drawn_texts(fig):
    """Every text a render of `fig` shows, each once: the figure's, each visible panel's
    titles, axis labels, point labels, legends and the tick labels within its view."""
    found = list(fig.texts) + ([fig._suptitle] if fig._suptitle is not None else [])
    for legend in fig.legends:
        found += list(legend.get_texts()) + [legend.get_title()]
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        found += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label]
        found += list(ax.texts)
        if ax.get_legend() is not None:
            found += list(ax.get_legend().get_texts()) + [ax.get_legend().get_title()]
        for axis in (ax.xaxis, ax.yaxis):
            for tick in axis._update_ticks():  # the ticks within the view: the ones drawn
                found += [tick.label1, tick.label2]
    unique = []
    for text in found:
        if text is not None and text.get_visible() and text.get_text().strip() and \
                all(text is not seen for seen in unique):
            unique.append(text)
    return unique


def _overlap(a, b, slack=1.0):
    return min(a.x1, b.x1) - max(a.x0, b.x0) > slack and min(a.y1, b.y1) - max(a.y0, b.y0) > slack


def _inside(box, frame, slack=0.5):
    return (box.x0 >= frame.x0 - slack and box.y0 >= frame.y0 - slack and
            box.x1 <= frame.x1 + slack and box.y1 <= frame.y1 + slack)


# The gid of a bar's value label: it stands centred on its own bar, never moved.
BAR_VALUE = "bar-value"


def _point_labels(ax):
    """The labels of points placed apart by fit_text (a bar's value label is not one)."""
    return [t for t in ax.texts if hasattr(t, "xyann") and t.get_gid() != BAR_VALUE]


def _labels(ax):
    """Every label of a point or a bar in `ax`."""
    return [t for t in ax.texts if hasattr(t, "xyann")]


def _bars(ax, renderer):
    """Where the bars of `ax` are drawn (a value label stands on none of them)."""
    return [p.get_window_extent(renderer) for p in ax.patches
            if hasattr(p, "get_height") and p.get_height() != 0]


def _wider_than_panel(ax, frame, renderer, slack=2.0):
    """A panel's own title or x label wider than the panel: it is too narrow for its labels
    (they spill over a neighbour or the margin). A legend beside the panel has room of its own."""
    if not ax.get_visible():
        return []
    problems = []
    for text in (ax.title, ax._left_title, ax._right_title, ax.xaxis.label):
        if not (text.get_visible() and text.get_text().strip()):
            continue
        width = text.get_window_extent(renderer).width
        if width > frame.width + slack:
            problems.append(f"wider than its panel ({width:.0f} > {frame.width:.0f} px): "
                            f"{text.get_text()[:40]!r}")
    return problems


def text_problems(fig):
    """What a reader of `fig` cannot read: text cut at the canvas' edge, two texts on each
    other, a point's label outside its panel, a label on a bar, a panel narrower than its own
    title or x label. [] when there is none."""
    renderer = fig.canvas.get_renderer()
    fig.canvas.draw()
    boxes = [(t, t.get_window_extent(renderer)) for t in drawn_texts(fig)]
    problems = [f"cut at the edge: {t.get_text()[:50]!r}" for t, box in boxes
                if not _inside(box, fig.bbox)]
    for i, (first, a) in enumerate(boxes):
        problems += [f"on each other: {first.get_text()[:40]!r} and {second.get_text()[:40]!r}"
                     for second, b in boxes[i + 1:] if _overlap(a, b)]
    for ax in fig.axes:
        frame = ax.get_window_extent(renderer)
        problems += [f"outside its panel: {t.get_text()[:40]!r}" for t in _labels(ax)
                     if ax.get_visible() and not _inside(t.get_window_extent(renderer), frame)]
        problems += _wider_than_panel(ax, frame, renderer)
        bars = _bars(ax, renderer) if ax.get_visible() else []
        problems += [f"on a bar: {t.get_text()[:40]!r}" for t in _labels(ax)
                     if any(_overlap(t.get_window_extent(renderer), bar) for bar in bars)]
    return problems


def _wrap_to(text, renderer, width):
    """`text` broken into lines no wider than `width` pixels (by the measured width of its
    longest line); whether it was."""
    drawn = text.get_window_extent(renderer).width
    if drawn <= width:
        return False
    lines = text.get_text().split("\n")
    longest = max(len(line) for line in lines)
    chars = max(10, int(longest * width / drawn * 0.95))
    text.set_text("\n".join(textwrap.fill(line, chars) for line in lines))
    return True


def _place_point_labels(ax, renderer, taken):
    """Each point label of `ax` at the nearest place (LABEL_PLACES) inside the panel and on no
    text placed before it."""
    frame = ax.get_window_extent(renderer)
    for label in _point_labels(ax):
        for dx, dy, ha, va in LABEL_PLACES:
            label.xyann = (dx, dy)
            label.set_horizontalalignment(ha)
            label.set_verticalalignment(va)
            box = label.get_window_extent(renderer)
            if _inside(box, frame) and not any(_overlap(box, other) for other in taken):
                break
        taken.append(label.get_window_extent(renderer))


def fit_text(fig):
    """Titles wrapped to their room (the figure's title to the canvas, a panel's to its
    panel), then, with the layout settled, point labels placed apart."""
    renderer = fig.canvas.get_renderer()
    fig.canvas.draw()
    wrapped = fig._suptitle is not None and _wrap_to(fig._suptitle, renderer, fig.bbox.width * 0.98)
    for ax in fig.axes:
        if ax.get_visible():
            wrapped = _wrap_to(ax.title, renderer, ax.get_window_extent(renderer).width) or wrapped
    if wrapped:  # the layout settled again around the wrapped titles (a draw is most of a figure's time)
        fig.canvas.draw()
    for ax in fig.axes:
        if ax.get_visible() and _point_labels(ax):
            taken = [t.get_window_extent(renderer) for t in drawn_texts(fig)
                     if not hasattr(t, "xyann")] + _bars(ax, renderer)
            _place_point_labels(ax, renderer, taken)
    return fig


def deterministic_guest_note(icount_shift=""):
    """A figure's line for times counted in the deterministic guest (QEMU -icount)."""
    each = f" (2^{icount_shift} ns each)" if icount_shift else ""
    return f"deterministic guest: times count guest instructions{each}, not wall-clock time"


# A figure's line for wall-clock times taken in a guest QEMU emulated in software (no KVM).
SOFTWARE_EMULATED_NOTE = ("software-emulated guest (QEMU TCG, no KVM): wall-clock times of the "
                          "emulator, busy polling most of all")
