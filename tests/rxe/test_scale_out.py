"""Scaling one pair of hosts out: many QPs (--qps), threads (--threads), both directions at
once (--bidir) and timed windows (--duration), on real rxe, every pattern, all with --verify.

What must hold: the per-QP figures add up to the aggregate; each direction of a --bidir run
and their sum are reported, and agree; a timed window's message count is what its window and
rate say; every receiver checked every message. (A client killed mid-run in a multi-threaded
benchmark: test_server_robustness.py, test_a_vanished_client_ends_the_run_promptly.)"""
import json
import math

import pytest

from conftest import client, patterns_at, rates_agree
from rdmabench_tools.command_words import replacing



def run_rows(rdmabench, layout, server, tmp_path, *options, timeout=600, console=None, cq="busy",
             pattern="all"):
    """(rows by name, context); the table printed goes into `console` when it is a list."""
    out = tmp_path / "scale.json"
    proc = client(rdmabench, layout, server, *replacing(
        ["--pattern", pattern, "--cq", cq, "--sizes", "4K", "--verify", "--out", out], options),
                  timeout=timeout)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    if console is not None:
        console.append(proc.stdout)
    doc = json.loads(out.read_text())
    return {b["name"].split("/iterations")[0]: b for b in doc["benchmarks"]}, doc["context"]


def per_qp(row, reverse=False):
    keys = sorted((int(k[2:].split("_")[0]), k) for k in row
                  if k.startswith("qp") and k.endswith("_reverse_bytes_per_second" if reverse
                                                         else "_bytes_per_second")
                  and ("reverse" in k) == reverse)
    return [row[k] for _, k in keys]


def check_counters_agree(row):
    """bytes = msgs x size, real_time = 1e6 / msgs_per_second, and every message verified."""
    rates_agree(row)
    assert row["verify_errors"] == 0 and row["verified_messages"] > 0, row


@pytest.mark.parametrize("threads", [1, 2])
def test_four_qps_add_up_to_the_aggregate(rdmabench, layout, server, tmp_path, threads):
    rows, _ = run_rows(rdmabench, layout, server, tmp_path, "--mode", "bw", "--qps", "4",
                       "--threads", str(threads), "--iters", "400")
    suffix = "/qps:4" + (f"/threads:{threads}" if threads > 1 else "")
    assert sorted(rows) == sorted(f"{p}/bw/busy/4096{suffix}" for p in patterns_at(4096))
    for name, row in rows.items():
        check_counters_agree(row)
        qps = per_qp(row)
        assert len(qps) == 4 and all(q > 0 for q in qps), (name, qps)
        assert math.isclose(sum(qps), row["bytes_per_second"], rel_tol=1e-9), name
        # By iterations every QP moves the same messages; the window is the whole run.
        assert [row[f"qp{i}_msgs"] for i in range(4)] == [400] * 4, name
        assert row["msgs"] == 1600 and row["verified_messages"] == 4 * 400, name
        # ... and each says when its last message completed, within the window.
        assert all(0 < row[f"qp{i}_finish_s"] <= row["window_s"] for i in range(4)), name
        if threads > 1:  # CPU per message for each thread of each side
            for side in ("client", "server"):
                for t in range(threads):
                    assert row[f"{side}_thread{t}_msgs"] == 800, (name, side, t)
                    assert f"{side}_thread{t}_cpu_us_per_msg" in row, (name, side, t)
            assert row["client_thread0_cpu_us_per_msg"] > 0 and row["client_thread1_cpu_us_per_msg"] > 0


def test_cq_per_qp_gives_each_qp_its_own_cq(rdmabench, layout, server, tmp_path):
    rows, _ = run_rows(rdmabench, layout, server, tmp_path, "--mode", "bw", "--qps", "4",
                       "--threads", "2", "--cq-per-qp", "--cq", "event", "--iters", "300")
    assert len(rows) == len(patterns_at(4096)), sorted(rows)
    for name, row in rows.items():
        assert name.endswith("/qps:4/threads:2/cq-per-qp"), name
        check_counters_agree(row)
        assert math.isclose(sum(per_qp(row)), row["bytes_per_second"], rel_tol=1e-9), name


def test_bidir_reports_each_direction_and_their_sum(rdmabench, layout, server, tmp_path):
    console = []
    rows, _ = run_rows(rdmabench, layout, server, tmp_path, "--mode", "bw", "--bidir",
                       "--qps", "2", "--iters", "400", console=console)
    # the table said "(unidirectional stream)" over bidir rows too
    assert "(both directions at once: each figure is their sum" in console[0], console[0]
    assert "(one direction" not in console[0], console[0]
    assert sorted(rows) == sorted(f"{p}/bw/busy/4096/qps:2/bidir" for p in patterns_at(4096))
    for name, row in rows.items():
        check_counters_agree(row)
        fwd, rev = row["forward_bytes_per_second"], row["reverse_bytes_per_second"]
        assert fwd > 0 and rev > 0, name
        assert math.isclose(fwd + rev, row["bytes_per_second"], rel_tol=1e-9), name
        assert math.isclose(sum(per_qp(row)), fwd, rel_tol=1e-9), name
        assert math.isclose(sum(per_qp(row, reverse=True)), rev, rel_tol=1e-9), name
        assert row["msgs"] == 2 * 2 * 400 and row["verified_messages"] == 2 * 2 * 400, name
        assert "sum of both directions" in row["label"] and "overlapping" in row["label"], name
        # Both sides send and receive: both spend CPU on it.
        assert row["server_cpu_us_per_msg"] > 0, name


# In the two-host layout only: the window is the engine's clock, the same over either link or
# bootstrap, and ten 2-second windows with their margins took 28 s of each layout's run. 1 s
# windows, and a pattern of each loop that keeps one: send (an active target; in lat, half a
# round trip on completions), write (a passive target; in lat, on markers in memory) and read
# (a whole round trip); the immediate-data patterns run these loops too.
WINDOW, MARGIN = 1, 0.25  # seconds


@pytest.mark.layout("veth")
def test_a_timed_window_counts_what_completes_inside_it(rdmabench, layout, server, tmp_path):
    rows, ctx = run_rows(rdmabench, layout, server, tmp_path, "--mode", "all",
                         "--duration", str(WINDOW), "--margin", str(MARGIN), timeout=900,
                         pattern="send,write,read")
    params = ctx["rdmabench_params"]
    assert params["duration_s"] == WINDOW and params["margin_s"] == MARGIN
    assert sorted(rows) == sorted(f"{p}/{m}/busy/4096" for p in ("send", "write", "read")
                                  for m in ("bw", "lat"))
    for name, row in rows.items():
        check_counters_agree(row)
        assert row["iterations"] == 1, name  # one window per benchmark
        if "/bw/" in name:
            # The window is the duration, and the count is the rate over it.
            assert row["window_s"] == WINDOW, name
            assert math.isclose(row["msgs"], row["msgs_per_second"] * WINDOW, rel_tol=1e-9), name
            assert row["msgs"] > 100, name
        else:
            # Only samples inside the window are kept (their sum is no more than it), and the
            # table's count of round trips is theirs.
            per_trip = 2 if row["half_round_trip"] else 1
            assert row["round_trips"] * per_trip == row["msgs"], name
            busy = row["round_trips"] * row["lat_mean_us"] * per_trip * 1e-6
            assert 0 < busy <= WINDOW, (name, row["round_trips"], row["lat_mean_us"])
            assert row["lat_p50_us"] <= row["lat_p99_us"] <= row["lat_max_us"], name


# Threads of ping-pongs between two hosts (one layout: the threads are the engine's). With
# events: two busy threads a side are four spinners on the guest's two vCPUs, and the run took
# 5-13 s by how QEMU happened to schedule them.
@pytest.mark.layout("veth")
def test_lat_threads_each_run_their_own_ping_pong(rdmabench, layout, server, tmp_path):
    rows, _ = run_rows(rdmabench, layout, server, tmp_path, "--mode", "lat", "--qps", "2",
                       "--threads", "2", "--iters", "300", cq="event")
    assert len(rows) == len(patterns_at(4096)), sorted(rows)
    for name, row in rows.items():
        check_counters_agree(row)
        per_trip = 2 if row["half_round_trip"] else 1
        assert row["msgs"] == 2 * 300 * per_trip, name
