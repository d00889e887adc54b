"""Open-loop latency over many connections (issue 68) on real rxe: lat with more QPs than
threads, each QP at its own --rate, its replies harvested from its thread's one CQ.

What must hold, decided by the code and not by the guest's speed: every QP reports its own
round trips and percentiles, and they add up to the run's; no QP counts more round trips than
its schedule starts in the window (fixed spacing: rate x window; by iterations: exactly that
many); the offered load is every QP's; Poisson arrivals give each QP its own seeded schedule;
and the same holds over rdma_cm between two hosts, and over ud."""
import json
import math

import pytest

from conftest import client, run, server_address

DEPTHS = ["--tx-depth", "32", "--rx-depth", "32", "--signal-every", "8", "--sizes", "8"]


def open_loop_rows(rdmabench, layout, server, tmp_path, *options):
    out = tmp_path / "open-loop.json"
    proc = client(rdmabench, layout, server, "--mode", "lat", *DEPTHS, *options, "--out", out)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return {b["name"].split("/iterations")[0]: b for b in json.loads(out.read_text())["benchmarks"]}


def check_connections(name, row, qps, most_each):
    """Each QP's round trips and percentiles, adding up to the run's."""
    counts = [row[f"qp{i}_round_trips"] for i in range(qps)]
    assert sum(counts) == row["round_trips"], (name, counts)
    assert all(0 < c <= most_each for c in counts), (name, counts, most_each)
    assert f"qp{qps}_round_trips" not in row, name
    for i in range(qps):
        p50, p99 = row[f"qp{i}_lat_p50_us"], row[f"qp{i}_lat_p99_us"]
        assert row["lat_min_us"] <= p50 <= p99 <= row["lat_max_us"], (name, i, p50, p99)
    assert math.isfinite(row["offered_rate"]) and math.isfinite(row["achieved_rate"]), name
    return counts


@pytest.mark.layout("lo", "veth")
def test_each_connection_keeps_its_schedule_and_its_own_percentiles(rdmabench, layout, server,
                                                                    tmp_path):
    rows = open_loop_rows(rdmabench, layout, server, tmp_path, "--pattern", "send,write_imm,read",
                          "--qps", "16", "--rate", "200", "--cq", "client=busy,server=event",
                          "--duration", "1", "--margin", "0.2")
    assert sorted(rows) == sorted(f"{p}/lat/client=busy,server=event/8/rate:200/qps:16"
                                  for p in ("send", "write_imm", "read"))
    for name, row in rows.items():
        # 200 round trips a second, 1 s window: 200 meant to start in it, each QP.
        check_connections(name, row, 16, 200)
        assert row["offered_rate"] == 16 * 200, name
        assert row["half_round_trip"] == (0 if name.startswith("read") else 1), name
    # The server answered with its strategy's waits: event wakes up on its channel.
    assert rows["send/lat/client=busy,server=event/8/rate:200/qps:16"]["server_wakeups_per_msg"] > 0


@pytest.mark.layout("lo", "veth")
def test_by_iterations_every_connection_runs_exactly_its_count_on_every_thread(
        rdmabench, layout, server, tmp_path):
    rows = open_loop_rows(rdmabench, layout, server, tmp_path, "--pattern", "send_imm", "--qps",
                          "6", "--threads", "2", "--rate", "500", "--iters", "40", "--cq",
                          "client=busy,server=epoll")
    (name, row), = rows.items()
    assert name == "send_imm/lat/client=busy,server=epoll/8/rate:500/qps:6/threads:2"
    assert check_connections(name, row, 6, 40) == [40] * 6
    for side in ("client", "server"):
        assert row[f"{side}_thread0_msgs"] == row[f"{side}_thread1_msgs"] == 3 * 40 * 2, side


@pytest.mark.layout("lo", "veth")
def test_with_cq_per_qp_a_server_waits_on_every_connections_cq_as_one(rdmabench, layout, server,
                                                                      tmp_path):
    """--cq-per-qp: each connection its own CQ, a lane's CQs on one completion channel that
    the server's event, epoll or hybrid wait blocks on, so a request on any of them wakes it;
    every connection runs exactly its count on both threads and the server woke up to do it."""
    rows = open_loop_rows(rdmabench, layout, server, tmp_path, "--pattern", "send,read", "--qps",
                          "12", "--threads", "2", "--rate", "300", "--iters", "30", "--cq-per-qp",
                          "--cq", "client=busy,server=event;client=busy,server=epoll;"
                          "client=busy,server=hybrid:20")
    assert len(rows) == 6, sorted(rows)
    for name, row in rows.items():
        assert name.endswith("/rate:300/qps:12/threads:2/cq-per-qp"), name
        assert check_connections(name, row, 12, 30) == [30] * 12
        # The server receives each request from its own CQ; event and epoll block for each
        # (hybrid's spin may find them: how often is the guest's speed).
        if name.startswith("send") and "hybrid" not in name:
            assert row["server_wakeups_per_msg"] > 0, name


@pytest.mark.layout("lo")
def test_min_time_batches_are_messages_not_per_connection_counts(rdmabench, layout, server,
                                                                  tmp_path):
    """Google Benchmark's --benchmark_min_time grows a batch of n until n messages' time
    reaches it: a run makes the fewest round trips a connection that give at least n messages
    (16 connections, two messages a round trip: fewer than n + 32), never n on every
    connection, which took 16 x 2 times the time asked for and grew past it by as much."""
    rows = open_loop_rows(rdmabench, layout, server, tmp_path, "--pattern", "send", "--qps",
                          "16", "--rate", "100", "--cq", "client=busy,server=event",
                          "--benchmark_min_time=0.2")
    (row,) = rows.values()
    assert row["iterations"] <= row["msgs"] < row["iterations"] + 2 * 16, row
    assert row["msgs"] == 2 * row["round_trips"], row


@pytest.mark.layout("lo", "veth")
def test_poisson_arrivals_give_each_connection_its_own_seeded_schedule(rdmabench, layout, server,
                                                                       tmp_path):
    rows = open_loop_rows(rdmabench, layout, server, tmp_path, "--pattern", "send", "--qps", "8",
                          "--rate", "300", "--arrivals", "poisson", "--cq",
                          "client=busy,server=busy", "--duration", "1", "--margin", "0.2")
    (name, row), = rows.items()
    assert name == "send/lat/busy/8/rate:300/arrivals:poisson/qps:8"
    # Exponential gaps: a QP may start more than rate x window in the window, never many more.
    counts = check_connections(name, row, 8, 2 * 300)
    assert len(set(counts)) > 1, counts


def test_datagrams_run_open_loop_too(rdmabench, layout, server, tmp_path):
    rows = open_loop_rows(rdmabench, layout, server, tmp_path, "--pattern", "send", "--transport",
                          "ud", "--cm", "oob", "--qps", "8", "--rate", "200", "--cq",
                          "client=busy,server=event", "--duration", "1", "--margin", "0.2")
    (name, row), = rows.items()
    assert name == "send/lat/client=busy,server=event/8/ud/rate:200/qps:8"
    check_connections(name, row, 8, 200)


def test_the_polling_study_along_connections_runs_each_count_at_each_load(rdmabench, layout,
                                                                         server, tmp_path):
    """`study polling --connections`: the server's strategies over those counts at two loads
    every count divides (here 1 and 4: 40 and 160 round trips a second over all)."""
    out = tmp_path / "connections.json"
    host, _ = server_address(layout)
    proc = run([rdmabench, "study", "polling", host, "--port", str(server.port), "--connections",
                "1,4", "--cq", "client=busy,server=event;busy", "--duration", "0.3", "--margin",
                "0.1", "--benchmark_repetitions=1", "--counters", "off", "--out", str(out)],
               timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    rows = [b for b in json.loads(out.read_text())["benchmarks"]]
    seen = {(b["rdmabench_spec"]["server_cq"], b["rdmabench_spec"]["qps"],
             b["rdmabench_spec"]["rate"] * b["rdmabench_spec"]["qps"]) for b in rows}
    assert seen == {(cq, n, load) for cq in ("event", "busy") for n in (1, 4)
                    for load in (40, 160)}, seen
    assert not any(b.get("error_occurred") for b in rows), rows
