"""The layer map of docs/layout.md, read from meson.build's `layers` table (the one the build
enforces): each layer's folders, how many files they hold, and the layers it names. Written by
update_docs; the documentation test fails when the page and meson.build differ."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OPEN, CLOSE = "[(", "])"


class LayerTableError(ValueError):
    """meson.build's layers table is not where or what this reader expects."""


def top_level_items(text):
    """The comma-separated items of a bracketed list's body, nested brackets and quotes kept."""
    items, depth, quote, start = [], 0, None, 0
    for i, c in enumerate(text):
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c in OPEN:
            depth += 1
        elif c in CLOSE:
            depth -= 1
        elif c == "," and depth == 0:
            items.append(text[start:i].strip())
            start = i + 1
    last = text[start:].strip()
    return items + ([last] if last else [])


def table_body(meson_text):
    """The text between `layers = [` and its closing bracket, comments dropped."""
    text = "\n".join(line.split("#", 1)[0] for line in meson_text.splitlines())
    m = re.search(r"^layers = \[", text, re.M)
    if not m:
        raise LayerTableError("meson.build has no 'layers = [' table")
    depth = 1
    for i in range(m.end(), len(text)):
        if text[i] == "[":
            depth += 1
        elif text[i] == "]":
            depth -= 1
        if depth == 0:
            return text[m.end():i]
    raise LayerTableError("meson.build's layers table is not closed")


def strings(item):
    return re.findall(r"'([^']*)'", item)


def layers(meson_text):
    """[(name, folders, uses)] lowest first, as meson.build lists them."""
    found = []
    for entry in top_level_items(table_body(meson_text)):
        parts = top_level_items(entry.strip()[1:-1])
        if len(parts) != 5:
            raise LayerTableError(f"a layer entry has {len(parts)} parts, not 5: {entry[:60]}")
        found.append((strings(parts[0])[0], strings(parts[1]), strings(parts[3])))
    return found


def file_count(folders):
    return sum(1 for folder in folders for f in (ROOT / folder).iterdir()
               if f.suffix in (".h", ".cpp"))


def markdown(meson_text):
    rows = layers(meson_text)
    lines = [f"{len(rows)} layers, lowest first, as `meson.build` names them (made from it by "
             "`tools/lib/run-module rdmabench_dev.update_docs`):", "",
             "| layer | folders | files | uses |", "|---|---|---|---|"]
    for name, folders, uses in rows:
        lines.append(f"| **{name}** | {', '.join(f'`{f}/`' for f in folders)} | "
                     f"{file_count(folders)} | {', '.join(uses) or '-'} |")
    return "\n".join(lines) + "\n"
