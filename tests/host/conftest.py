"""Shared helpers for the host-side tests of tools/compare and tools/plot.

fixtures/rxe-sweep.json is real output: `rdmabench run 10.99.0.1 --sizes 2,4K,64K --iters 100
--benchmark_repetitions=3` in the tools/rxe-vm veth guest (rxe over rdma_cm), kept as is except
that the aggregate rows of all but the send benchmarks were dropped to keep the file small.

fixtures/rxe-deterministic.json is real output of `tools/gate run --deterministic` (the gate's
deterministic suite, 3 repetitions, in the icount guest), kept as is.

The results fixtures were written in schema 1 and converted to schema 2 (each row's spec from
its name, the context typed, the counter catalogue of this tree's rdmabench added) when the
engine began to write schema 2, and to schema 5 by tools/rdmabench_tools/upgrade_results.py; their figures
are unchanged. fixtures/old-schemas/ keeps two as they were (schemas 2 and 4), which the tools
must still read.
"""
import copy
import importlib.machinery
import importlib.util
import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).parent / "fixtures" / "rxe-sweep.json"
# The same run as written then (schema 2), and a schema 4 one: the tools still read them.
OLD_SWEEP = Path(__file__).parent / "fixtures" / "old-schemas" / "rxe-sweep-schema-2.json"
OLD_JSON_VETH = Path(__file__).parent / "fixtures" / "old-schemas" / "rxe-json-veth-schema-4.json"
DETERMINISTIC = Path(__file__).parent / "fixtures" / "rxe-deterministic.json"
# The build's rdmabench, as the tests of its command line run it.
RDMABENCH_EXE = Path(os.environ.get("RDMABENCH_BUILD", ROOT / "build")) / "rdmabench"


def run_rdmabench(*args, timeout=30, cwd=None):
    """`rdmabench ARGS...`'s CompletedProcess, its output as text."""
    return subprocess.run([str(RDMABENCH_EXE), *args], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd)


def tool_command(name, *args):
    """The command line of tools/NAME, or of the tools' module NAME, a package's module such as
    rdmabench_gate.spread (tools/lib/run-module), with `args`, on the system Python."""
    if "." in name:
        return [str(ROOT / "tools" / "lib" / "run-module"), name, *map(str, args)]
    return ["/usr/bin/python3", str(ROOT / "tools" / name), *map(str, args)]


def tool_module(name):
    """tools/NAME, a script without a .py ending, imported as a module (its functions tested)."""
    module_name = name.replace("-", "_") + "_tool"
    loader = importlib.machinery.SourceFileLoader(module_name, str(ROOT / "tools" / name))
    spec = importlib.util.spec_from_loader(module_name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def data_pixels(path):
    """How much of a figure is data: in a PNG, the pixels of colour (the palette's lines, bars,
    maps; axes, ticks and text are black or grey, and a figure with nothing drawn has none); in
    an SVG, the strokes and fills of colour. A file's size said nothing of what it shows."""
    import re

    import numpy
    from matplotlib import image
    if str(path).endswith(".svg"):
        colours = re.findall(r"#([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})",
                             Path(path).read_text())
        return sum(1 for rgb in colours if len(set(rgb)) > 1)
    assert Path(path).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    rgb = image.imread(path)[..., :3]
    spread = rgb.max(axis=-1) - rgb.min(axis=-1)
    return int(numpy.count_nonzero(spread > 0.15))


def run_tool(name, *args):
    """Runs tools/NAME (or the tools' module NAME) with the system Python."""
    return subprocess.run(tool_command(name, *args), capture_output=True, text=True, timeout=120)


def run_tool_into_closed_pipe(name, *args):
    """Runs a tool whose standard output is a pipe nobody reads any more (`tool | head` once
    head has gone): the pipe's read end is closed before the tool starts, so its first write
    fails, every time."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(tool_command(name, *args), stdout=write_end, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    finally:
        os.close(write_end)


@pytest.fixture
def sweep():
    """A fresh, writable copy of the fixture document."""
    return json.loads(FIXTURE.read_text())


@pytest.fixture
def write_json(tmp_path):
    def write(doc, name):
        path = tmp_path / name
        path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
        return path
    return write


def scaled(doc, predicate, counters, factor):
    """A copy of doc with `counters` multiplied by factor in the rows predicate(name) selects."""
    out = copy.deepcopy(doc)
    for row in out["benchmarks"]:
        if predicate(row["name"]):
            for key in counters:
                if key in row:
                    row[key] *= factor
    return out


@pytest.fixture
def two_transports(sweep):
    """The sweep as schema 3 over rc, plus one ud row (send bw busy at 4 KiB): a file that holds
    rows of two transports."""
    doc = copy.deepcopy(sweep)
    doc["context"]["rdmabench_schema"] = 3
    extra = []
    for row in doc["benchmarks"]:
        row["rdmabench_spec"]["transport"] = "rc"
        if row["rdmabench_spec"]["name"] == "send/bw/busy/4096":
            ud = copy.deepcopy(row)
            ud["name"] = ud["rdmabench_spec"]["name"] = "send/bw/busy/4096/ud"
            ud["rdmabench_spec"]["transport"] = "ud"
            extra.append(ud)
    assert extra
    doc["benchmarks"] += extra
    return doc


def registered_in_source(header, alias):
    """How many entries the registration list `using ALIAS = ...List<...>;` of a header holds (one
    a line, as the registries keep them): a count of what the engine registers, read from the
    source rather than from the engine's own report, for the loops over that report."""
    text = (ROOT / header).read_text()
    body = text.split(f"using {alias} = ", 1)[1].split(">;", 1)[0].split("<", 1)[1]
    return len([entry for entry in body.split(",") if entry.strip()])


def commands_in_help(top):
    """The commands `rdmabench --help` lists, in its order: the lines between "Commands:" and
    the blank line after them, each a name and, in a column after it, what it does."""
    listed = top.split("Commands:\n", 1)[1].split("\n\n", 1)[0]
    return [line.split()[0] for line in listed.splitlines()]
