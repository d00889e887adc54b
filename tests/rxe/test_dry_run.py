"""Issue 64: `run --dry-run` is the run's own plan. On a real device, the benchmarks a dry run
lists are the ones the run then measures, by name and in order."""
import json

import pytest

from conftest import client

pytestmark = pytest.mark.layout("lo")

ASKED = ("--pattern", "write,send", "--mode", "bw,lat", "--cq", "busy,event", "--sizes", "2,4K",
         "--iters", "20", "--benchmark_filter=-^send/lat/event")


def test_the_dry_run_lists_what_the_run_measures(rdmabench, layout, server):
    planned = client(rdmabench, layout, server, *ASKED, "--dry-run")
    assert planned.returncode == 0, planned.stderr
    listed = [line.strip() for line in planned.stdout.splitlines() if line.startswith("  ")]
    assert len(listed) == 14, planned.stdout  # 16 asked, the filter leaves two out
    ran = client(rdmabench, layout, server, *ASKED, "--json")
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    assert [row["name"] for row in json.loads(ran.stdout)["benchmarks"]] == listed
