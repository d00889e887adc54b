"""rdmabench mesh --traffic among the four rxe "hosts" of tools/rxe-vm -m mesh:4: every pattern
runs its flows of a round at once and judges each host on its NIC's best round; with host 2's
link slower than the others', every pattern names host 2 and no other, and a clean ring names
none.

A NIC bounds a real host's flows; here the guest's two vCPUs would, and unfairly: in a first
run with the links unshaped, a clean ring's four flows measured 0.017 to 0.048 Gb/s, and the
one-round patterns named healthy hosts. So every host's link is shaped with tc netem to 20
Mbit/s each way (the slow one to 5), well below what the vCPUs carry for every flow at once,
and the links decide each flow's rate, as a fabric's do.

Short flows: 4 KiB messages, 16 of them outstanding (a shaped link queues what a flow keeps
outstanding: with perftest's 128, an all-to-all's three flows kept 1.5 MB in a 20 Mbit/s queue,
0.6 s, and most windows saw almost no completion), a 1 s window with 0.5 s of traffic either
side. The queues are deep enough for the concurrent flows (netem's 10,000 packets, an input backlog of 100,000) so
that the guest drops nothing, and the guest's wire keeps each flow's order (tools/rxe-vm steers
every host's received packets to one CPU's backlog): with --qp-timeout 0, as every mesh test
here runs, a dropped or overtaken packet is resent only on a NAK, and a CI run's all-to-all
stalled a flow for good (exit 5 after --timeout) while the guest dropped nothing. Before the
steering each all-to-all run here had 6-28 requests out of sequence and as many retries
(twelve runs, no packet lost); with it, none in twelve."""
import json

import pytest

from conftest import MPIRUN, backlog_drops, out_of_order_requests, run
from test_mesh import ADDRESSES, DEVICES, HOSTS
from rdmabench_tools.command_words import replacing

pytestmark = pytest.mark.layout("mesh")

TRAFFIC = ["--address", ADDRESSES, "--pattern", "send", "--cq", "event", "--timeout", "30",
           "--qp-timeout", "0", "--size", "4096", "--tx-depth", "16", "--duration", "1",
           "--margin", "0.5"]
# Rounds and flows of each pattern among four ranks (its default fan: every other rank).
PATTERNS = {"incast": (4, 12), "fan-out": (4, 12), "all-to-all": (1, 12), "bisection": (2, 8),
            "ring": (2, 8)}


def traffic(rdmabench, tmp_path, pattern, *extra):
    out = tmp_path / f"{pattern}.json"
    proc = run([*MPIRUN, "-np", str(HOSTS), rdmabench, "mesh", *replacing(
        ["--device", DEVICES, *TRAFFIC, "--traffic", pattern, "--out", out], extra)], timeout=300)
    report = json.loads(out.read_text()) if out.exists() else None
    return proc, report


def expect_plan(report, pattern):
    rounds, flows = PATTERNS[pattern]
    t = report["traffic"]
    assert (t["pattern"], t["rounds"], t["flows"]) == (pattern, rounds, flows), t
    assert report["benchmarks"] == [] and report["context"]["schedule"] == f"traffic:{pattern}"
    assert [h["rank"] for h in t["hosts"]] == list(range(HOSTS)), t["hosts"]
    if pattern in ("incast", "all-to-all"):  # three flows into a rank at once: three servers,
        # the four ranks of this one guest taking ports port + slot * 4 + rank
        assert [h.get("slot_stride") for h in report["hosts"]] == [HOSTS] * HOSTS, report["hosts"]


@pytest.mark.parametrize("pattern", sorted(PATTERNS))
def test_every_pattern_names_the_slowed_host_alone(rdmabench, tmp_path, pattern, deep_backlog,
                                                    host_2_at_5_mbit):
    drops, overtaken = backlog_drops(), out_of_order_requests()
    proc, report = traffic(rdmabench, tmp_path, pattern)
    assert report is not None, proc.stdout + proc.stderr
    expect_plan(report, pattern)
    t = report["traffic"]
    assert t["failed_flows"] == 0 and t["errors"] == [], (t["errors"], backlog_drops() - drops)
    assert out_of_order_requests() - overtaken == 0, "the guest's wire reordered a flow"
    assert proc.returncode == 7, proc.stdout + proc.stderr
    assert report["verdict"]["slow_hosts"] == [host_2_at_5_mbit], proc.stdout
    assert [h["rank"] for h in t["hosts"] if h["slow"]] == [host_2_at_5_mbit], proc.stdout
    assert "1 slow hosts: 2 (exit 7)" in proc.stdout


def test_a_clean_ring_names_no_host_and_each_flow_has_two_streams(rdmabench, tmp_path,
                                                                   deep_backlog, even_links):
    overtaken = out_of_order_requests()
    proc, report = traffic(rdmabench, tmp_path, "ring", "--streams", "2")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert out_of_order_requests() - overtaken == 0, "the guest's wire reordered a flow"
    expect_plan(report, "ring")
    t = report["traffic"]
    assert t["streams"] == 2 and t["failed_flows"] == 0 and report["verdict"]["slow_hosts"] == []
    assert len(t["hosts"]) == HOSTS and len(report["hosts"]) == HOSTS
    for h in t["hosts"]:  # in each ring each host sends one flow and takes one
        assert h["flows"] == 4 and h["sent_at_best"] > 0 and h["received_at_best"] > 0, h
    assert all("slot_stride" not in h for h in report["hosts"]), "a ring needs one server a rank"
