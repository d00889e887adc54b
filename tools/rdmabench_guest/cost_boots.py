"""tools/vs-perftest --cost --boots B, on the host after the boots: the counts per message each
boot saved (rdmabench_guest.cost_guest --save), as one table of medians over the boots with
their spread. A tool's count moves between boots (perftest's own by 15-20 %), so a ratio is
taken in each boot, of counts made in the same guest, and its median and range printed; a boot
whose count failed (2N below N) is left out of that cell, and the cell says how many counted.

Usage: tools/lib/run-module rdmabench_guest.cost_boots FILE...
"""
import argparse
import statistics
import sys

from rdmabench_guest.cost_guest import (COUNTERS, SIDES, TOOL_NAMES, count_text, ratio_text,
                                          table_head)
from rdmabench_tools import exit_codes, ratio_words, text_table
from rdmabench_tools.json_input import JsonInputError, read_json
from rdmabench_tools.printable_text import excerpt

MAX_BOOTS = 100


def counted(value):
    """A saved count per message, or None where that boot's measurement failed (or is absent)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def spread(values, show, boots):
    """'median (lowest-highest)' of the values that counted, each as show(value) prints it (a
    count: count_text; a ratio: ratio_text), saying how many of `boots` did."""
    got = [v for v in values if v is not None]
    if not got:
        return f"failed in all {boots} boots"
    text = f"{show(statistics.median(got))} ({show(min(got))}-{show(max(got))})"
    return text if len(got) == boots else f"{text}, {len(got)} of {boots} boots"


def ratios(mine, theirs):
    """Per boot: mine/theirs where both counted and theirs is not 0, else None."""
    return [m / t if m is not None and t is not None and t != 0 else None
            for m, t in zip(mine, theirs)]


def rows(boots):
    """The table's rows: each case, counter and side in the first boot's order."""
    body = []
    first = boots[0]["cases"]
    for label, by_counter in first.items():
        for counter, unit in ((c.name, c.unit) for c in COUNTERS):
            if counter not in by_counter:
                continue
            for side in SIDES:
                per_tool = {tool: [counted(b["cases"].get(label, {}).get(counter, {})
                                           .get(tool, {}).get(side)) for b in boots]
                            for tool in TOOL_NAMES}
                n = len(boots)
                body.append([excerpt(label), side, unit,
                             *(spread(per_tool[t], count_text, n) for t in TOOL_NAMES),
                             spread(ratios(per_tool["rdmabench"], per_tool["perftest"]),
                                    ratio_text, n),
                             spread(ratios(per_tool["rdmabench"], per_tool["rdmabench classic"]),
                                    ratio_text, n)])
    return body


def table(boots):
    return text_table.render(table_head(TOOL_NAMES), rows(boots))


def read_boot(path):
    """One boot's saved counts; JsonInputError when it is not what cost_guest saves."""
    doc = read_json(path)
    if not isinstance(doc, dict) or not isinstance(doc.get("cases"), dict):
        raise JsonInputError(f"{path}: not a saved cost count (no 'cases' object)")
    for label, by_counter in doc["cases"].items():
        if not isinstance(by_counter, dict) or not all(
                isinstance(t, dict) and all(isinstance(s, dict) for s in t.values())
                for t in by_counter.values()):
            raise JsonInputError(f"{path}: case {excerpt(label)} is not counter -> tool -> side")
    return doc


def main(argv=None):
    p = argparse.ArgumentParser(prog="cost_boots", description=__doc__.split("\n\n")[0])
    p.add_argument("files", nargs="+", help="each boot's --save file")
    args = p.parse_args(argv)
    if len(args.files) > MAX_BOOTS:
        p.error(f"at most {MAX_BOOTS} boots")
    try:
        boots = [read_boot(f) for f in args.files]
    except JsonInputError as e:
        print(f"cost_boots: {e}", file=sys.stderr)
        return exit_codes.USAGE
    print(table(boots))
    print(f"\nMedians over {len(boots)} boots (lowest-highest); each ratio is taken within a "
          f"boot, then its median: rdmabench/perftest and rdmabench/rdmabench classic, "
          f"{ratio_words.BELOW}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
