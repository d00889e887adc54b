"""--hugepages on real rxe: every buffer of both sides in 2 MiB huge pages, each message still
checked (--verify), the context saying what each side's buffers got; and a clear refusal
(exit 3, what to do) when the guest has none free."""
import json
from contextlib import contextmanager
from pathlib import Path

import pytest

from conftest import client, patterns_at

pytestmark = pytest.mark.layout("lo")

NR_HUGEPAGES = Path("/proc/sys/vm/nr_hugepages")


@contextmanager
def reserved_huge_pages(count):
    before = NR_HUGEPAGES.read_text().strip()
    NR_HUGEPAGES.write_text(f"{count}\n")
    try:
        yield
    finally:
        NR_HUGEPAGES.write_text(f"{before}\n")


def test_every_pattern_runs_verified_from_huge_pages(rdmabench, layout, server, tmp_path):
    out = tmp_path / "huge.json"
    with reserved_huge_pages(128):  # 256 MiB of this 2 GiB guest
        proc = client(rdmabench, layout, server, "--hugepages", "--sizes", "2,64K", "--mode",
                      "bw,lat", "--cq", "event", "--iters", "50", "--verify", "--out", str(out))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    doc = json.loads(out.read_text())
    ctx = doc["context"]
    assert ctx["client"]["page_size"] == ctx["server"]["page_size"] == 2 << 20, ctx
    # every pattern that takes the size, both modes, at both sizes
    assert len(doc["benchmarks"]) == 2 * sum(len(patterns_at(s)) for s in (2, 65536)), \
        [b["name"] for b in doc["benchmarks"]]
    for row in doc["benchmarks"]:
        assert row["rdmabench_spec"]["hugepages"] is True and "/hugepages" in row["name"], row["name"]
        assert not row.get("error_occurred") and row["verify_errors"] == 0, row["name"]


def test_without_free_huge_pages_the_run_is_refused_saying_how_to_reserve_them(rdmabench, layout,
                                                                               server):
    with reserved_huge_pages(0):
        proc = client(rdmabench, layout, server, "--hugepages", "--pattern", "write", "--sizes",
                      "4096", "--iters", "10")
    assert proc.returncode == 3, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "--hugepages: no" in proc.stderr and "sysctl vm.nr_hugepages=N" in proc.stderr, proc.stderr
    assert server.proc.poll() is None, server.text()
