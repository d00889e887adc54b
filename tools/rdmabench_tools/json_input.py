"""JSON files from outside (a results file, a mesh or search report, a peer's copy of one), read
within bounds before anything is parsed: their length, their text (UTF-8), and how deep their
arrays and objects nest. Python's json module recurses once a level, so a file nested deep
enough ends a tool with a RecursionError traceback; one that is not UTF-8 ended tools/compare
with a UnicodeDecodeError. Each problem is a JsonInputError with a one-line reason."""
import json
import re
import sys
from pathlib import Path

MAX_BYTES = 1 << 30  # a results file of 500 benchmarks with 5 repetitions is a few MB
MAX_DEPTH = 64  # rdmabench's deepest file nests 8 levels

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)
_BRACKET = re.compile(rb"[\[\]{}]")


class JsonInputError(ValueError):
    """A file that cannot be read as bounded JSON; str() is one line."""


def depth_problem(data, max_depth=MAX_DEPTH):
    """What makes `data` (bytes) nest deeper than `max_depth`, or None; strings are skipped,
    nothing recurses."""
    depth = 0
    for bracket in _BRACKET.finditer(_STRING.sub(b'""', data)):
        depth += 1 if bracket.group() in (b"[", b"{") else -1
        if depth > max_depth:
            return f"nests deeper than {max_depth} levels"
    return None


def loads(data, where, max_depth=MAX_DEPTH):
    """`data` (bytes) parsed, within the bounds; JsonInputError naming `where` otherwise."""
    if len(data) > MAX_BYTES:
        raise JsonInputError(f"{where}: longer than {MAX_BYTES} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise JsonInputError(f"{where}: not UTF-8 text (byte {e.start}: {data[e.start:e.start + 1]!r})") \
            from None
    if why := depth_problem(data, max_depth):
        raise JsonInputError(f"{where}: {why}")
    try:
        return json.loads(text)  # NaN stays: Google Benchmark writes it for a counter with no value
    except ValueError as e:
        raise JsonInputError(f"{where}: not valid JSON ({str(e)[:200]})") from None


def read_json(path, where=None, max_depth=MAX_DEPTH):
    """The JSON in the file at `path` (- is standard input), read within the bounds."""
    where = where or str(path)
    try:
        if str(path) == "-":
            data = sys.stdin.buffer.read(MAX_BYTES + 1)
        else:
            size = Path(path).stat().st_size
            if size > MAX_BYTES:
                raise JsonInputError(f"{where}: longer than {MAX_BYTES} bytes")
            data = Path(path).read_bytes()
    except OSError as e:
        raise JsonInputError(f"{where}: cannot read: {e.strerror}") from None
    return loads(data, where, max_depth)
