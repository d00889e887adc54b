"""The words every ratio the tools print carries, the same everywhere: what is divided by what,
and which way is better ("above 1 is better" or "below 1 is better"). The README and docs quote
ratios in these words too (tests/host/test_ratio_words.py holds them to it)."""

ABOVE = "above 1 is better"
BELOW = "below 1 is better"
DIRECTIONS = (ABOVE, BELOW)


def better(higher_is_better):
    """The direction of a ratio of figures where more is better (a rate) or less (a time)."""
    return ABOVE if higher_is_better else BELOW


def label(what, higher_is_better, of="rdmabench/perftest"):
    """A ratio's label: 'rdmabench/perftest p50 latency (below 1 is better)'."""
    return f"{of} {what} ({better(higher_is_better)})"


def slowdown_label():
    """tools/compare's and the gate's ratio: NEW against BASE as time, so less is better."""
    return f"slowdown ({BELOW})"
