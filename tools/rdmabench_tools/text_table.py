"""The tools' one way to print a table: aligned text (a line of dashes under the head) or
Markdown (for a CI job summary). Cells are strings; a row may be shorter than the head."""


def render(head, body, markdown=False):
    """The table of `head` (column titles) over `body` (rows of cells) as one string."""
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in body])
    rows = [list(head), ["-" * len(h) for h in head], *map(list, body)]
    widths = [max(len(r[i]) for r in rows if i < len(r)) for i in range(len(head))]
    rows[1] = ["-" * w for w in widths]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)
