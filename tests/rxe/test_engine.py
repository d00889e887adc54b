"""The benchmark engine on real rxe: every pattern x mode x cq at 2 B, 4 KiB and 1 MiB, over
rdma_cm on the two-host layout and out-of-band on loopback, plus robustness."""
import json
import math
import re
import shlex
import socket
import subprocess

import jsonschema
import pytest

from conftest import (COUNTERS_OFF, PATTERNS, PROTOCOL, REGISTRY, ROOT, Server, client, free_port,
                      patterns_at, rates_agree, roce_netem, run, server_address, wait_for)

from rdmabench_tools import rdmabench_results as rr  # (the tools' own reading of the catalogue)
from rdmabench_tools.command_words import replacing


# A row's own fields (Google Benchmark's, and the spec); everything else is a counter.
GOOGLE_BENCHMARK_FIELDS = {"name", "family_index", "per_family_instance_index", "run_name", "run_type",
                           "repetitions", "repetition_index", "threads", "iterations", "real_time",
                           "cpu_time", "time_unit", "label", "error_occurred", "error_message",
                           "aggregate_name", "aggregate_unit", "rdmabench_spec"}


SCHEMA = jsonschema.Draft202012Validator(json.loads((ROOT / "docs" / "results.schema.json").read_text()))


def catalogued(counter):
    """Is `counter` in the engine's catalogue? ({qp} and {thread} stand for an index.)"""
    return rr.catalogue_entry(REGISTRY["counters"], counter) is not None


def wire_carried_the_payload(name, row, path_mtu, layout):
    """What both sides' ports saw over the run accounts for at least the payload the row
    claims: rxe counts every packet it sends (hw_sent_pkts), and every message took at least
    one packet per path MTU of payload. Bytes only where they cross a netdev: over veth the
    RoCE netdev counts them; on lo one rxe device talks to itself, which rxe loops back inside
    the driver (rxe_loopback), so the netdev sees only the control channel's TCP (measured:
    1.6 % of the payload of send bw 4 KiB) and its bytes say nothing of the payload.
    On lo both sides read that one device's port, each reading counting both sides' packets:
    the row says so (wire_one_port) and counts the client's reading alone, not both (which
    was twice the wire); over veth each side has a device of its own."""
    size = row["rdmabench_spec"]["size"]
    sides = ("client",) if layout == "lo" else ("client", "server")
    assert row.get("wire_one_port") == (1 if layout == "lo" else None), (name, layout)
    server_readings = [k for k in row if k.startswith("server_dev_")]
    assert bool(server_readings) == (layout != "lo"), (name, layout, server_readings)
    sent = {side: row[f"{side}_dev_hw_sent_pkts"] for side in sides}
    assert len(sent) == (1 if layout == "lo" else 2), sent
    for side in sent:
        assert f"{side}_dev_netdev_tx_bytes" in row, (name, side)
        # per message is over the same messages as the wire's packets per message
        assert row[f"{side}_dev_hw_sent_pkts_per_msg"] * sum(sent.values()) == pytest.approx(
            sent[side] * row["wire_packets_per_msg"]), (name, side)
    assert row["wire_packets_per_msg"] >= math.ceil(size / path_mtu), (name, row["wire_packets_per_msg"])
    if layout == "veth":
        assert row["wire_bytes_per_payload_byte"] >= 1, (name, row["wire_bytes_per_payload_byte"])


# The sizes each layout runs the matrix at. Loopback takes the full range, to a 1 MiB message
# of 256 packets; veth (rdma_cm, two devices) each pattern, mode and CQ again at one packet and
# at 64 KiB, many packets: the 1 MiB rows, 20 of them and each sent twice (--verify's own run),
# took 25 of this test's 47 s there, and how a message is cut into packets is rxe's, not the
# bootstrap's.
MATRIX_SIZES = {"lo": (2, 4096, 1048576), "veth": (2, 65536)}
# Messages a row: each row's claims hold at any count (20 took 47 s on lo, most of it the 1 MiB
# rows' data, twice over with --verify's run).
MATRIX_ITERS = 10


def context_says_what_ran_where(ctx, layout, devices_json, sizes):
    """The matrix run's context: each side's facts under the same keys, the path both QPs
    really use, and every parameter typed."""
    c, s = ctx["client"], ctx["server"]
    assert ctx["rdmabench_schema"] == REGISTRY["results_schema"] == 5
    assert set(c) == set(s), set(c) ^ set(s)
    assert ctx["rdmabench_counters"] == REGISTRY["counters"]
    assert ctx["executable"] == "rdmabench-run"
    assert c["driver"] == "rxe" and c["link_layer"] == "Ethernet"
    # What the device says of itself, on both sides (rxe: firmware 0.0.0 and the netdev's speed)
    assert c["firmware"] == s["firmware"] == devices_json["devices"][0]["firmware"]
    assert c["link_speed_gbps"] > 0 and c["link_width"].endswith("X")
    assert s["link_speed_gbps"] == c["link_speed_gbps"]
    assert ctx["rdmabench_revision"] and ctx["rdmabench_build_type"] == "release"
    # Both sides name the rdma-core that dpkg says is installed (read from its database).
    installed = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "rdma-core"],
                               capture_output=True, text=True, check=True).stdout
    assert installed and c["rdma_core"] == s["rdma_core"] == installed, ctx
    assert c["gid_type"] == s["gid_type"] == "RoCE v2"
    # The path both QPs really use, queried from the QPs (rdma_cm chooses its own GID).
    client_addr, server_addr = (("10.99.0.2", "10.99.0.1") if layout == "veth"
                                else ("127.0.0.1", "127.0.0.1"))
    assert c["gid"] == f"::ffff:{client_addr}", ctx
    assert s["gid"] == f"::ffff:{server_addr}", ctx
    assert c["port"] == 1 and s["port"] == 1  # typed: numbers are numbers
    assert c["path_mtu"] == s["path_mtu"] and c["path_mtu"] in (1024, 2048, 4096)
    assert ctx["path_error"] == ""
    # Without --qp-timeout: perftest's 14 out of band, rdma_cm's own choice (the same both sides).
    assert c["qp_timeout"] == s["qp_timeout"], ctx
    assert c["qp_timeout"] == 14 if ctx["bootstrap"] == "oob" else 0 < c["qp_timeout"] < 32
    assert ctx["bootstrap"] == server_address(layout)[1]
    params = ctx["rdmabench_params"]
    assert params["verify"] is True and params["iters"] == MATRIX_ITERS
    # Typed: lists are arrays of what they list.
    assert params["sizes"] == list(sizes) and params["qps"] == [1] and params["modes"] == ["bw", "lat"]
    assert params["cq"] == ["busy", "event"] and params["profile"] == "full"
    # What was asked, here the bootstrap used (it read "oob" over rdma_cm before).
    assert params["cm"] == server_address(layout)[1] == ctx["bootstrap"]


def never_sleeps_of_its_own_accord(name, row, side):
    """`side` made no blocking call in its window: a voluntary switch there comes only with a
    page fault (the kernel's sleep: a fault waits, say, for the mm's lock that khugepaged holds
    while it collapses a range; send/bw/busy/65536 once counted one switch in 10 messages)."""
    vcsw, faults = row[f"{side}_vcsw_per_msg"], row[f"{side}_faults_per_msg"]
    assert vcsw == 0 or faults > 0, (name, side, "voluntary switches without a fault", vcsw, faults)


def counters_agree(name, row, layout):
    """The rates say the same count (rates_agree), a latency row's mean is its real_time; busy
    polling never sleeps of its own accord in the server's window, which covers its pattern run
    alone (--verify's checks come after it). The last on the two hosts, where the server has a
    CPU of its own."""
    rates_agree(row)
    if "/lat/" in name:
        assert row["lat_mean_us"] == pytest.approx(row["real_time"], rel=1e-6), name
    if "/busy/" in name and layout == "veth":
        never_sleeps_of_its_own_accord(name, row, "server")


def row_says_what_it_ran(name, row, path_mtu, layout):
    """One row of the matrix: its spec, its counters (all catalogued, counts integers), the
    wire's counters against its payload, and a lat row's statistics in order."""
    assert not row.get("error_occurred"), (name, row.get("error_message"))
    spec = row["rdmabench_spec"]
    assert spec["name"] == name and f"{spec['pattern']}/{spec['mode']}/{spec['cq']}/{spec['size']}" == name
    assert spec["verify"] is True and spec["qps"] == 1 and spec["bidir"] is False
    counters = set(row) - GOOGLE_BENCHMARK_FIELDS
    assert counters and all(catalogued(k) for k in counters), sorted(k for k in counters if not catalogued(k))
    assert row["iterations"] == MATRIX_ITERS
    assert row["verify_errors"] == 0 and row["verified_messages"] == MATRIX_ITERS
    assert row["bytes_per_second"] > 0 and row["msgs_per_second"] > 0 and row["real_time"] > 0
    # That the client's CPU covers its window alone is checked in the deterministic guest
    # (test_bw_rate.py): here, beside a loaded host, the guest's thread CPU clock and its wall
    # clock disagreed by more than a tick (write/bw/busy/2: 5752 us of CPU in a 1006 us window).
    counters_agree(name, row, layout)
    wire_carried_the_payload(name, row, path_mtu, layout)
    # Counts are integers; a lat row's msgs counts its one-way messages, round_trips what the
    # table's #iters counts.
    assert isinstance(row["msgs"], int) and isinstance(row["size"], int), name
    if "/lat/" in name:
        assert row["round_trips"] == MATRIX_ITERS, name
        assert row["msgs"] == MATRIX_ITERS * (1 + row["half_round_trip"]), name
        assert row["lat_min_us"] > 0
        assert row["lat_min_us"] <= row["lat_p50_us"] <= row["lat_p99_us"] <= row["lat_max_us"], name
        assert row["lat_p50_us"] <= row["lat_p90_us"] <= row["lat_p99_us"] <= row["lat_p999_us"]
        assert row["half_round_trip"] == (0 if name.startswith("read/") else 1)
        assert "round trip" in row["label"]


@pytest.mark.layout("lo", "veth")  # out of band on lo, rdma_cm on veth
def test_every_pattern_mode_cq_and_size_verified(rdmabench, layout, server, tmp_path, devices_json):
    out = tmp_path / "matrix.json"
    sizes = MATRIX_SIZES[layout]
    proc = client(rdmabench, layout, server, "--sizes", ",".join(map(str, sizes)),
                  "--iters", str(MATRIX_ITERS),
                  "--verify", "--out", str(out), port_counters=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    doc = json.loads(out.read_text())
    SCHEMA.validate(doc)  # docs/results.schema.json, which the JSON reference describes
    context_says_what_ran_where(doc["context"], layout, devices_json, sizes)
    # Every row says its transport: the default, as the engine names it.
    default = [t["name"] for t in REGISTRY["transports"] if t["default"]]
    assert default == ["rc"] and {r["rdmabench_spec"]["transport"] for r in doc["benchmarks"]} == {"rc"}
    assert {r["rdmabench_spec"]["cm"] for r in doc["benchmarks"]} == {doc["context"]["bootstrap"]}
    rows = {b["name"].split("/iterations")[0]: b for b in doc["benchmarks"]}
    expected = {f"{p}/{m}/{c}/{s}" for s in sizes for p in patterns_at(s)
                for m in ("bw", "lat") for c in ("busy", "event")}
    assert expected == set(rows), set(rows) ^ expected
    for name, row in rows.items():
        row_says_what_it_ran(name, row, doc["context"]["client"]["path_mtu"], layout)
    # The client spends CPU on every row, but one row's 20 small messages can take less than a
    # scheduler tick, and this guest's per-thread CPU clock can stand still that long: its TSC
    # is marked unstable, so each CPU's scheduler clock is held to at most one tick past the
    # last tick, and a late tick (a loaded host) stops it until the tick comes (a clean-clone
    # run under load read 0 on one row). Over the whole matrix it must have moved.
    assert sum(row["client_cpu_us_per_msg"] for row in rows.values()) > 0
    # the console shows perftest-like tables with units
    assert "BW avg[MiB/s]" in proc.stdout and "t_p99" in proc.stdout
    assert "(one direction;" in proc.stdout and "MiB = 2^20 bytes" in proc.stdout
    assert "vcsw_cli/msg" in proc.stdout


@pytest.mark.layout("lo", "veth")  # out of band on lo, rdma_cm on veth
@pytest.mark.parametrize("exponent", ["0", "20"])
def test_qp_timeout_reaches_both_qps(rdmabench, layout, server, tmp_path, exponent):
    """--qp-timeout is the local ACK timeout of the client's QPs and, through the spec, the
    server's: the context reports what ibv_query_qp says each QP has (rdma_cm on veth, out of
    band on loopback). 0 turns rxe's retransmission timer off."""
    out = tmp_path / "timeout.json"
    proc = client(rdmabench, layout, server, "--pattern", "write,read", "--mode", "bw,lat",
                  "--sizes", "4096", "--iters", "50", "--qps", "2", "--threads", "2", "--verify",
                  "--qp-timeout", exponent, "--out", str(out))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    doc = json.loads(out.read_text())
    assert doc["context"]["client"]["qp_timeout"] == doc["context"]["server"]["qp_timeout"] == int(exponent)
    assert doc["context"]["rdmabench_params"]["qp_timeout"] == int(exponent)
    # 2 patterns, 2 modes, 2 CQ modes (busy and event, the default)
    assert len(doc["benchmarks"]) == 8, [b["name"] for b in doc["benchmarks"]]
    assert all(not b.get("error_occurred") for b in doc["benchmarks"]), proc.stdout[-3000:]


ATOMICS = [p["name"] for p in REGISTRY["patterns"] if p["min_size"] == p["max_size"] == 8]


def test_atomics_fetch_exactly_what_the_counter_held(rdmabench, layout, server, tmp_path):
    """fetch_add and compare_swap, bw and lat, busy and event, then scaled out both ways with
    --outs: a check run checks every fetched value (each fetch_add the count before it, each
    compare_swap the chain's value, so that every swap succeeds), and reads each counter back;
    the QPs keep the --outs asked for in flight."""
    assert sorted(ATOMICS) == ["compare_swap", "fetch_add"]
    out = tmp_path / "atomics.json"
    proc = client(rdmabench, layout, server, "--pattern", ",".join(ATOMICS), "--sizes", "8",
                  "--iters", "300", "--verify", "--out", str(out))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    doc = json.loads(out.read_text())
    SCHEMA.validate(doc)
    rows = {b["name"].split("/iterations")[0]: b for b in doc["benchmarks"]}
    assert set(rows) == {f"{p}/{m}/{c}/8" for p in ATOMICS for m in ("bw", "lat")
                         for c in ("busy", "event")}, sorted(rows)
    for name, row in rows.items():
        assert not row.get("error_occurred"), (name, row.get("error_message"))
        assert row["verified_messages"] == 300 and row["verify_errors"] == 0, name
        assert row["bytes_per_second"] == pytest.approx(row["msgs_per_second"] * 8, rel=1e-9)
    # The default: as many as the device allows, at most 16 (rxe allows 128).
    assert doc["context"]["client"]["outs"] == doc["context"]["server"]["outs"] == 16
    assert doc["context"]["rdmabench_params"]["outs"] is None

    out = tmp_path / "atomics-scaled.json"
    proc = client(rdmabench, layout, server, "--pattern", ",".join(ATOMICS), "--sizes", "8",
                  "--mode", "bw", "--qps", "4", "--threads", "2", "--bidir", "--outs", "4",
                  "--iters", "300", "--verify", "--out", str(out))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    doc = json.loads(out.read_text())
    assert doc["context"]["client"]["outs"] == doc["context"]["server"]["outs"] == 4
    rows = {b["name"].split("/iterations")[0]: b for b in doc["benchmarks"]}
    assert set(rows) == {f"{p}/bw/{c}/8/qps:4/threads:2/bidir/outs:4" for p in ATOMICS
                         for c in ("busy", "event")}
    for name, row in rows.items():
        assert not row.get("error_occurred"), (name, row.get("error_message"))
        assert row["rdmabench_spec"]["outs"] == 4
        # 4 QPs each way; each side checked its own fetched values and its peer's counters
        assert row["verified_messages"] == 2 * 4 * 300 and row["verify_errors"] == 0, name


# Both sides send at once: on the two hosts, each with its own device (one layout: it
# checks the engine's ending, which the bootstrap does not touch).
@pytest.mark.layout("veth")
def test_a_bidir_check_run_ends_only_once_both_sides_have_sent(rdmabench, layout, server, tmp_path):
    """With --bidir the server's sends may outlast the client's (here on four QPs over two
    threads, a busy server against an event client, which in the guest ends first). The client
    used to refill its buffers at once, putting back the atomic counter the server's atomics
    were still moving (their fetched values then failed the server's checks: 4 of 20 such
    atomic check runs, none the other way round, and now and then in ./tools/test); and the
    other patterns' targets were checked before the server had finished writing them. A race:
    each benchmark checks once, so the run is repeated, 12 x 2 atomic check runs (the old code
    failed about one in ten of them, which this finds with a chance of about 90 %)."""
    for attempt in range(12):
        out = tmp_path / f"bidir-check-{attempt}.json"
        proc = client(rdmabench, layout, server, "--pattern", ",".join(ATOMICS),
                      "--sizes", "8", "--mode", "bw", "--cq", "client=event,server=busy", "--bidir",
                      "--qps", "4", "--threads", "2", "--outs", "4", "--iters", "300", "--verify",
                      "--out", str(out))
        assert proc.returncode == 0, (attempt, proc.stdout[-3000:] + proc.stderr[-3000:])
        rows = json.loads(out.read_text())["benchmarks"]
        assert len(rows) == len(ATOMICS)
        for row in rows:
            assert not row.get("error_occurred") and row["verify_errors"] == 0, (row["name"], row)


@pytest.mark.layout("lo")
def test_a_wrong_atomic_operand_is_caught_on_either_side(rdmabench, layout, server, tmp_path):
    """--verify must be able to fail for atomics: from the middle of the check run on, one
    fetch_add adds 2 and one compare_swap compares with the wrong value. The fetched values
    after it and the counter read back show it, on every row; with --bidir the server's own
    atomics are checked by the server."""
    host, cm = server_address(layout)
    out = tmp_path / "corrupt-atomics.json"
    proc = run([rdmabench, "run", host, "--port", str(server.port), "--cm", cm, "--pattern",
                ",".join(ATOMICS), "--sizes", "8", "--iters", "20", "--verify", "--debug-corrupt",
                "--out", str(out), *COUNTERS_OFF], timeout=300)
    assert proc.returncode == 6, proc.stdout[-2000:] + proc.stderr[-2000:]
    rows = {b["name"]: b for b in json.loads(out.read_text())["benchmarks"]}
    assert len(rows) == 8 and all(r.get("error_occurred") for r in rows.values()), sorted(rows)
    # fetch_add: the 10 after the wrong add fetch one too many, and so does the counter;
    # compare_swap: the 9 after the failed compare fail too, and the counter stays behind.
    for name, row in rows.items():
        assert "--verify found 10 corrupt" in row["error_message"], (name, row["error_message"])

    corrupting = Server(rdmabench, free_port(), tmp_path, "--debug-corrupt")
    try:
        proc = run([rdmabench, "run", host, "--port", str(corrupting.port), "--cm", cm,
                    "--pattern", ",".join(ATOMICS), "--sizes", "8", "--mode", "bw", "--bidir",
                    "--iters", "20", "--verify", "--out", str(out), *COUNTERS_OFF], timeout=300)
    finally:
        assert corrupting.stop() == 0
    assert proc.returncode == 6, proc.stdout[-2000:] + proc.stderr[-2000:]
    rows = json.loads(out.read_text())["benchmarks"]
    assert len(rows) == 4 and all("--verify found 10 corrupt" in r["error_message"] for r in rows)


# Which rows carry data each way: the server receives (and checks) what the client sends in
# every pattern whose data goes to the target (send, write, ...); the client receives in every
# lat ping-pong and where data comes back to the initiator (read).
# (At 2 B and 4 KiB: the atomics, which take 8 B only, have tests of their own.)
CORRUPTED = patterns_at(2, 4096)
TO_TARGET = [p["name"] for p in REGISTRY["patterns"] if p["data_to"] == "target"]
CLIENT_CHECKS = ({f"{p}/lat" for p in CORRUPTED}
                 | {f"{p}/bw" for p in CORRUPTED if p not in TO_TARGET})
SERVER_CHECKS = {f"{p}/{m}" for p in TO_TARGET for m in ("bw", "lat")}


def corrupted_rows(rdmabench, port, host, cm, tmp_path, *extra):
    out = tmp_path / "corrupt.json"
    # One CQ choice: the checks run after the pattern's run, whichever way it polled.
    proc = run([rdmabench, "run", host, *replacing(
        ["--port", port, "--cm", cm, "--sizes", "2,4096", "--cq", "busy", "--iters", "20",
         "--verify", "--out", out, *COUNTERS_OFF], extra)], timeout=300)
    rows = {b["name"].split("/iterations")[0]: b for b in json.loads(out.read_text())["benchmarks"]}
    assert len(rows) == 4 * len(CORRUPTED), sorted(rows)  # 2 modes, 2 sizes
    failed = {name for name, row in rows.items() if row.get("error_occurred")}  # counted by the callers
    return proc, failed, rows


def said_verify_found(rows, failed):
    """Every failed row's error is --verify's (after its caller counted the failed rows)."""
    return {name: rows[name]["error_message"] for name in failed
            if "--verify found" not in rows[name]["error_message"]}


def pattern_mode(name):
    return "/".join(name.split("/")[:2])


@pytest.mark.layout("lo")
def test_corruption_by_either_sender_is_caught_by_the_receivers_checks(rdmabench, layout, server,
                                                                       tmp_path):
    """--verify must be able to fail, in both directions: a sender that damages one byte of
    its payload from the middle message of the check run on is caught, on every row where
    data flows that way; rows where it does not still pass."""
    host, cm = server_address(layout)
    proc, failed, rows = corrupted_rows(rdmabench, server.port, host, cm, tmp_path, "--debug-corrupt")
    assert proc.returncode == 6, proc.stderr[-2000:]
    assert {pattern_mode(n) for n in failed} == SERVER_CHECKS, sorted(failed)
    assert all(pattern_mode(n) in SERVER_CHECKS for n in failed)
    assert len(failed) == 2 * len(SERVER_CHECKS)  # every size
    assert not said_verify_found(rows, failed), said_verify_found(rows, failed)
    assert len(rows) == 4 * len(CORRUPTED), sorted(rows)
    for name, row in rows.items():
        if name not in failed:
            assert row["verified_messages"] == 20 and row["verify_errors"] == 0, name

    corrupting = Server(rdmabench, free_port(), tmp_path, "--debug-corrupt")
    try:
        proc, failed, rows = corrupted_rows(rdmabench, corrupting.port, host, cm, tmp_path)
    finally:
        assert corrupting.stop() == 0
    assert proc.returncode == 6, proc.stderr[-2000:]
    assert {pattern_mode(n) for n in failed} == CLIENT_CHECKS, sorted(failed)
    assert len(failed) == 2 * len(CLIENT_CHECKS), sorted(failed)
    assert not said_verify_found(rows, failed), said_verify_found(rows, failed)


# --validate checks each message as it completes: every bw pattern but those whose target sees
# no message arrive (arrival by marker: write bw, refused), at 4 KiB (the atomics have their own).
VALIDATED_BW = [p["name"] for p in REGISTRY["patterns"] if p["name"] in patterns_at(4096)]


def validated_rows(rdmabench, port, host, cm, tmp_path, *extra):
    out = tmp_path / "validated.json"
    proc = run([rdmabench, "run", host, "--port", str(port), "--cm", cm, "--pattern",
                ",".join(VALIDATED_BW), "--mode", "bw", "--sizes", "4096", "--cq", "busy",
                "--duration", "1", "--margin", "0.2", "--validate", "--out", str(out),
                *COUNTERS_OFF, *extra], timeout=300)
    rows = {b["name"].split("/")[0]: b for b in json.loads(out.read_text())["benchmarks"]}
    assert sorted(rows) == sorted(VALIDATED_BW), (sorted(rows), proc.stderr[-2000:])
    return proc, rows


@pytest.mark.layout("lo")
def test_validate_checks_every_message_inside_the_timed_window(rdmabench, layout, server, tmp_path):
    """--validate: the timed window itself checks every message as it completes. A clean run
    passes with every message of it counted as checked; a sender that damages its payload from
    the first message of the window on (--debug-corrupt, either side) fails each row it
    reaches with exit 6, naming the first bad message and the side that found it (write bw's
    target checks each write as it lands in its ring); write bw over uc, where a write may never
    land, is refused before anything runs."""
    host, cm = server_address(layout)
    proc, rows = validated_rows(rdmabench, server.port, host, cm, tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert len(rows) == len(VALIDATED_BW) >= 4, sorted(rows)
    for name, row in rows.items():
        assert not row.get("error_occurred"), (name, row.get("error_message"))
        assert row["validated_messages"] >= row["msgs"] > 0, (name, row)

    proc, rows = validated_rows(rdmabench, server.port, host, cm, tmp_path, "--debug-corrupt")
    assert proc.returncode == 6, proc.stderr[-3000:]
    assert len(rows) == len(VALIDATED_BW), sorted(rows)
    checked_by_server = {p["name"] for p in REGISTRY["patterns"] if p["data_to"] == "target"}
    for name, row in rows.items():
        side = "server" if name in checked_by_server else "client"
        if side == "client":  # the client's own damage reaches only what it sends
            assert not row.get("error_occurred"), (name, row.get("error_message"))
            continue
        message = row.get("error_message", "")
        assert re.search(r"--validate found \d+ corrupt bytes/messages in a timed run; the first: "
                         r"message \d+ of QP 0 .* checked by the server", message), (name, message)

    corrupting = Server(rdmabench, free_port(), tmp_path, "--debug-corrupt")
    try:
        proc, rows = validated_rows(rdmabench, corrupting.port, host, cm, tmp_path)
    finally:
        assert corrupting.stop() == 0
    assert proc.returncode == 6, proc.stderr[-3000:]
    assert len(rows) == len(VALIDATED_BW), sorted(rows)
    for name, row in rows.items():
        if name in checked_by_server:
            assert not row.get("error_occurred"), (name, row.get("error_message"))
        else:  # what the client read from the damaged server
            assert "checked by the client" in row.get("error_message", ""), (name, row)

    refused = run([rdmabench, "run", host, "--port", str(server.port), "--cm", "oob",
                   "--transport", "uc", "--pattern", "write", "--mode", "bw", "--validate",
                   *COUNTERS_OFF], timeout=60)
    assert refused.returncode == 2, refused.stderr[-2000:]
    assert "--validate is set for write bw over uc" in refused.stderr, refused.stderr[-2000:]


def test_sigkilled_client_is_survived_and_next_client_runs(rdmabench, layout, server, tmp_path):
    host, cm = server_address(layout)
    progress = tmp_path / "victim.err"
    with open(progress, "w") as err:
        victim = subprocess.Popen([rdmabench, "run", host, "--port", str(server.port), "--cm", cm,
                                   "--pattern", "send", "--mode", "bw", "--cq", "busy", "--sizes",
                                   "65536", "--iters", "1000000", "--report-every", "0.2"],
                                  stdout=subprocess.DEVNULL, stderr=err)
    # Mid-run: the client's first interval line, not a sleep.
    wait_for(lambda: "msgs" in progress.read_text() or victim.poll() is not None,
             lambda: "no interval line: " + progress.read_text()[-2000:])
    assert victim.poll() is None, "client finished before it could be killed"
    victim.kill()
    victim.wait()
    proc = client(rdmabench, layout, server, "--pattern", "write", "--mode", "lat", "--cq", "busy",
                  "--sizes", "64", "--iters", "50")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "dropped" in server.text()
    assert server.proc.poll() is None


def test_no_server_fails_fast_with_connection_exit_code(rdmabench, layout):
    """A refused connection ends the run at once: with a --timeout of 10 minutes, a client that
    waited for it would outlast run()'s 60 s."""
    host, cm = server_address(layout)
    proc = run([rdmabench, "run", host, "--port", "1", "--cm", cm, "--sizes", "2", "--iters", "1",
                "--timeout", "600"], timeout=60)
    assert proc.returncode == 4, proc.stderr
    assert "Connection refused" in proc.stderr and "rdmabench serve" in proc.stderr, proc.stderr


def test_server_refuses_another_protocol_version(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        s.sendall(b'{"type":"hello","protocol":999,"version":"9.9.9"}\n')
        reply = json.loads(s.makefile().readline())
    assert reply["type"] == "error"
    assert "999" in reply["message"] and f"server speaks {PROTOCOL}" in reply["message"]


def test_size_beyond_device_limit_is_a_usage_error(rdmabench, layout, server):
    proc = client(rdmabench, layout, server, "--sizes", "4G", "--iters", "1")
    assert proc.returncode == 2, proc.stderr
    assert "max_msg_sz" in proc.stderr


@pytest.mark.layout("lo")
def test_bad_gid_index_and_missing_device(rdmabench, layout, server):
    proc = client(rdmabench, layout, server, "--gid-index", "77", "--pattern", "write", "--mode", "bw",
                  "--cq", "busy", "--sizes", "64", "--iters", "5")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "gid-index 77" in proc.stderr
    proc = client(rdmabench, layout, server, "--device", "nosuch0", "--sizes", "64", "--iters", "5")
    assert proc.returncode == 3, proc.stderr


def test_benchmark_filter_and_repetitions_pass_through(rdmabench, layout, server, tmp_path):
    out = tmp_path / "f.json"
    proc = client(rdmabench, layout, server, "--sizes", "64", "--iters", "30",
                  "--benchmark_filter=^write/lat/busy", "--benchmark_repetitions=3", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(out.read_text())
    names = {b["name"] for b in doc["benchmarks"]}
    assert names and all(n.startswith("write/lat/busy/64") for n in names), names
    assert sum(1 for b in doc["benchmarks"] if b["run_type"] == "iteration") == 3
    assert any(b.get("aggregate_name") == "median" for b in doc["benchmarks"])


@pytest.mark.layout("lo")
def test_the_server_prints_each_clients_result(rdmabench, layout, server, tmp_path):
    """perftest's server prints the run's figures; ours printed what was set up and nothing
    of what it measured (issue 66). Each timed run's figures, as the client made them, are now
    a line of the server's log: the same numbers as the client's results."""
    out = tmp_path / "r.json"
    proc = client(rdmabench, layout, server, "--pattern", "write", "--mode", "bw,lat", "--cq",
                  "busy", "--sizes", "4K", "--iters", "200", "--out", str(out))
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = {r["rdmabench_spec"]["mode"]: r for r in json.loads(out.read_text())["benchmarks"]}
    assert sorted(rows) == ["bw", "lat"], rows.keys()
    log = server.text()
    bw, lat = rows["bw"], rows["lat"]
    assert (f"  write/bw/busy/4096: {bw['bytes_per_second'] / 2**20:.2f} MiB/s, "
            f"{bw['msgs_per_second'] / 1e6:.6f} Mpps, {bw['msgs']} messages (the client's figures)"
            in log), log
    assert (f"  write/lat/busy/4096: t_p50 {lat['lat_p50_us']:.2f} us, t_p99 {lat['lat_p99_us']:.2f} "
            f"us, {lat['msgs']} messages (the client's figures)" in log), log


def rendered(transcript):
    """The lines a terminal shows for `transcript`: a carriage return goes back to the start of
    the line, ESC [ K erases from there to its end."""
    lines = []
    for raw in transcript.replace("\r\n", "\n").split("\n"):
        shown = ""
        for k, piece in enumerate(raw.split("\r")):
            if k > 0 and piece.startswith("\x1b[K"):
                shown, piece = "", piece[3:]
            shown = piece + shown[len(piece):]
        lines.append(shown)
    return lines


@pytest.mark.layout("lo")
def test_progress_shows_on_a_terminal_only_and_never_inside_the_table(rdmabench, layout, server):
    """On a terminal the progress line was printed without a newline and the rows over it; in
    a log every benchmark left a progress line among the rows, numbered among all benchmarks
    rather than those the filter selected ([21/320] first)."""
    host, cm = server_address(layout)
    command = [rdmabench, "run", host, "--port", str(server.port), "--cm", cm, "--sizes", "64,4K",
               "--iters", "20", "--mode", "bw", "--benchmark_filter=^(read|write)/bw/busy/"]
    log = run(command)
    assert log.returncode == 0, log.stderr
    assert "[1/" not in log.stderr and "[1/" not in log.stdout, log.stderr
    rows = [l for l in log.stdout.splitlines() if l.startswith(" 64 ") or l.startswith(" 4096 ")]
    assert len(rows) == 4, log.stdout
    # `script` gives the command a terminal and records what it writes there
    # (as bytes: text mode would turn each lone carriage return into a newline)
    tty = subprocess.run(["script", "-qec", shlex.join(map(str, command)), "/dev/null"],
                         capture_output=True, timeout=120)
    transcript = tty.stdout.decode()
    assert tty.returncode == 0, transcript[-3000:]
    assert "[1/4] write/bw/busy/64" in transcript and "[4/4] read/bw/busy/4096" in transcript, \
        transcript
    screen = rendered(transcript)
    assert sum(1 for l in screen if l.startswith((" 64 ", " 4096 "))) == 4, screen
    assert not any(l.startswith("[") or "] read/" in l or "] write/" in l for l in screen), screen


# On the two hosts, where each side has a port of its own (one layout: the windows are the
# engine's; on loopback both sides share one port). That the counters agree, and busy polling
# never sleeps of its own accord, the engine matrix checks on its every row (counters_agree).
@pytest.mark.layout("veth")
def test_a_passive_target_neither_polls_nor_sleeps_in_its_window(rdmabench, layout, server, tmp_path):
    """The server's CPU and context-switch window covers its pattern run alone: a passive
    target (write bw, read) neither polls its CQ nor waits for an event in it, and never
    sleeps of its own accord. (Its CPU time is the guest's: an interrupt that lands in that
    window is charged to it, on a machine as loaded as it happens to be; what the window holds
    is the code's.)"""
    out = tmp_path / "passive.json"
    proc = client(rdmabench, layout, server, "--sizes", "2,64K", "--iters", "200",
                  "--benchmark_filter=^(read/|write/bw/)", "--out", str(out), port_counters=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    rows = {b["name"].split("/iterations")[0]: b for b in json.loads(out.read_text())["benchmarks"]}
    assert sorted(rows) == sorted(f"{p}/{m}/{cq}/{size}" for p, m in
                                  (("read", "bw"), ("read", "lat"), ("write", "bw"))
                                  for cq in ("busy", "event") for size in (2, 65536)), sorted(rows)
    for name, row in rows.items():
        never_sleeps_of_its_own_accord(name, row, "server")
        assert row["server_empty_polls_per_msg"] == 0 and row["server_wakeups_per_msg"] == 0, name


def test_write_lat_runs_with_a_two_entry_send_queue(rdmabench, layout, server):
    """write lat counts sends not yet covered by a reaped completion and never posts into a
    send queue that could be full (SendQueueCredits; unit-tested). rxe frees send-queue slots
    in the kernel, so here this shows the accounting keeps the loop going at the limit, in both
    CQ modes, with every message checked."""
    proc = client(rdmabench, layout, server, "--pattern", "write", "--mode", "lat", "--sizes", "2",
                  "--iters", "500", "--tx-depth", "2", "--signal-every", "1", "--verify",
                  timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]


def test_json_goes_to_standard_output_and_validates(rdmabench, layout, server, tmp_path):
    """--json did not exist: scripts had to go through a file. The results take standard output,
    the table goes to standard error, and both match the schema and --out."""
    out = tmp_path / "out.json"
    proc = client(rdmabench, layout, server, "--pattern", "write", "--sizes", "4096", "--iters", "50",
                  "--cq", "busy", "--json", "--out", str(out))
    assert proc.returncode == 0, proc.stderr[-3000:]
    doc = json.loads(proc.stdout)
    SCHEMA.validate(doc)
    assert doc["benchmarks"] == json.loads(out.read_text())["benchmarks"]
    assert {r["rdmabench_spec"]["name"] for r in doc["benchmarks"]} == {"write/bw/busy/4096",
                                                                          "write/lat/busy/4096"}
    assert "BW avg[Gb/s]" in proc.stderr and "t_p99" in proc.stderr
    # The registries by name, as `version --json` lists them: what the figures' looks go by.
    assert doc["context"]["rdmabench_registry"] == {
        "patterns": PATTERNS, "cq_strategies": [s["name"] for s in REGISTRY["strategies"]]}, doc["context"]


def test_limits_judge_each_run_and_say_which_missed(rdmabench, layout, server):
    """--min-bw and --max-lat (perftest -w and -y) did not exist. A limit no rxe run can meet
    must fail with exit 8 naming the run and its figure; one every run meets must pass."""
    common = ("--pattern", "write", "--sizes", "4096", "--iters", "50", "--cq", "busy")
    proc = client(rdmabench, layout, server, *common, "--min-bw", "1000000", "--max-lat", "p99:0.001")
    assert proc.returncode == 8, proc.stderr[-3000:]
    verdict = proc.stdout  # after the table, where it was printed
    assert "rdmabench: FAIL write/bw/busy/4096: " in verdict and "below --min-bw 1000000" in verdict
    assert "rdmabench: FAIL write/lat/busy/4096: p99 " in verdict
    assert "above --max-lat p99:0.001" in verdict and "2 of 2 judged runs missed" in verdict
    proc = client(rdmabench, layout, server, *common, "--min-bw", "0.000001", "--max-lat", "max:1e9")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "rdmabench: PASS: all 2 judged runs within the limits given" in proc.stdout


@pytest.mark.layout("lo", "veth")  # out of band on lo, rdma_cm on veth
def test_ib_port_is_used_and_recorded(rdmabench, layout, server, tmp_path):
    """--ib-port did not exist (out of band always used port 1). Given, --cm auto picks the
    out-of-band bootstrap, which honours it; a port the device lacks is refused by name."""
    host, _ = server_address(layout)
    out = tmp_path / "port.json"
    base = [rdmabench, "run", host, "--port", str(server.port), "--pattern", "write", "--mode", "bw",
            "--sizes", "4096", "--iters", "20", "--cq", "busy"]
    proc = run(base + ["--ib-port", "1", "--out", str(out)], timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    ctx = json.loads(out.read_text())["context"]
    assert ctx["bootstrap"] == "oob" and "--ib-port given" in ctx["bootstrap_reason"]
    assert ctx["rdmabench_params"]["ib_port"] == 1 and ctx["client"]["port"] == 1
    # What ran the guest, as tools/rxe-vm booted it (kvm, tcg or tcg-icount): recorded, so that
    # figures of software emulation say so (issue 66).
    booted = re.search(r"rdmabench\.accel=(\S+)", open("/proc/cmdline").read()).group(1)
    assert ctx["client"]["acceleration"] == booted, (ctx["client"]["acceleration"], booted)
    # The kernel command line's tuning words, both sides' (the server's from its hello): none in a
    # guest booted plainly, idle=poll in one booted with tools/rxe-vm --append idle=poll.
    tuning = [w for w in open("/proc/cmdline").read().split()
              if w.split("=")[0] in ("idle", "nosmt", "isolcpus", "nohz_full", "mitigations")]
    assert ctx["client"]["kernel_tuning"] == tuning and ctx["server"]["kernel_tuning"] == tuning, ctx
    proc = run(base + ["--ib-port", "2"], timeout=60)
    assert proc.returncode == 2 and "--ib-port 2: rxe" in proc.stderr and "has 1 port(s)" in proc.stderr


# The client's own reporting, whatever the link (one layout).
@pytest.mark.layout("lo")
def test_a_timed_window_that_counted_nothing_is_an_error(rdmabench, layout, server, tmp_path):
    """Four QPs of 64 KiB writes 256 deep post 64 MiB before the client first polls: on rxe, which
    moves a QP's posted messages inside the call that posts them, no completion can be read in
    a 1 ms window (64 MiB in 1 ms is 67 GB/s, past any memory copy of this guest). The window
    counted nothing, and the run printed 0.00 MiB/s and exited 0 (issue 67); now it is exit 5
    saying why, its row kept as an error in the results file, and the server serves on."""
    out = tmp_path / "empty.json"
    proc = client(rdmabench, layout, server, "--pattern", "write", "--mode", "bw", "--cq", "busy",
                  "--sizes", "64K", "--qps", "4", "--tx-depth", "256", "--duration", "1ms",
                  "--margin", "0", "--out", str(out))
    assert proc.returncode == 5, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert ("write/bw/busy/65536/qps:4: nothing measured: no message completed inside the 1 ms "
            "timed window (0 s to 1 ms into the run): the client first read a completion ") in proc.stderr, proc.stderr
    assert "256 messages it posted on each of its 4 QPs (64 MiB) before its first poll" in proc.stderr
    (row,) = json.loads(out.read_text())["benchmarks"]
    assert row["error_occurred"] and "nothing measured" in row["error_message"], row
    assert "0.00" not in proc.stdout + proc.stderr, proc.stdout + proc.stderr
    again = client(rdmabench, layout, server, "--pattern", "write", "--mode", "bw", "--sizes", "64K",
                   "--iters", "100", "--json")
    assert again.returncode == 0, again.stderr[-3000:]


@pytest.mark.layout("lo")
def test_report_every_prints_each_interval_of_a_long_run(rdmabench, layout, server):
    """--report-every did not exist: a long run said nothing until its row. Each interval line
    counts the client's sends in it; together they are at most what the run sent."""
    proc = client(rdmabench, layout, server, "--pattern", "write", "--mode", "bw", "--sizes", "4096",
                  "--cq", "busy", "--duration", "3", "--margin", "0.2", "--report-every", "1", "--json")
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = [line for line in proc.stderr.splitlines() if line.startswith("rdmabench: [")]
    assert len(lines) >= 2, proc.stderr[-3000:]
    assert lines[0].startswith("rdmabench: [   0.0-   1.0 s] write/bw/busy/4096 "), lines
    assert lines[1].startswith("rdmabench: [   1.0-   2.0 s] write/bw/busy/4096 "), lines
    msgs = [int(line.split()[-6]) for line in lines]
    assert len(msgs) >= 2 and all(m > 0 for m in msgs), lines
    (row,) = json.loads(proc.stdout)["benchmarks"]
    assert sum(msgs) <= row["msgs"] + row["msgs_per_second"] * 0.4 + 1  # + the margins' sends
    # perftest's BW peak: the best interval, in the row and as the table's last column.
    assert row["bw_peak_bytes_per_second"] > 0, row
    assert "BW peak[MiB/s]" in proc.stderr, proc.stderr[-3000:]


# How the sender chains its work requests, whatever the link (one layout).
@pytest.mark.layout("lo")
def test_a_post_list_chains_every_bw_pattern_verified(rdmabench, layout, server, tmp_path):
    """--post-list 8: every pattern's bw, on one QP and on three (so the chains of several
    streams share a CQ), each message checked; then a timed window, which must close with
    its chains (and the end marker) as by iterations."""
    out = tmp_path / "chained.json"
    proc = client(rdmabench, layout, server, "--mode", "bw", "--cq", "busy", "--sizes", "8",
                  "--iters", "400", "--post-list", "8", "--qps", "1,3", "--verify", "--out", str(out))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    rows = json.loads(out.read_text())["benchmarks"]
    assert {r["rdmabench_spec"]["pattern"] for r in rows} == set(patterns_at(8))
    for row in rows:
        spec = row["rdmabench_spec"]
        assert spec["post_list"] == 8 and "/post_list:8" in row["name"], row["name"]
        assert not row.get("error_occurred"), (row["name"], row.get("error_message"))
        assert row["verify_errors"] == 0 and row["verified_messages"] == 400 * spec["qps"], row
        assert row["msgs"] == 400 * spec["qps"], row
    timed = tmp_path / "chained-timed.json"
    proc = client(rdmabench, layout, server, "--pattern", "send,write", "--mode", "bw", "--cq",
                  "busy", "--sizes", "64", "--duration", "1", "--margin", "0.2", "--post-list",
                  "1,16", "--verify", "--out", str(timed))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    rows = json.loads(timed.read_text())["benchmarks"]
    assert sorted(r["rdmabench_spec"]["post_list"] for r in rows) == [1, 1, 16, 16]
    for row in rows:
        assert not row.get("error_occurred") and row["verify_errors"] == 0, row
        assert row["msgs"] > 0 and row["bytes_per_second"] == pytest.approx(row["msgs"] * 64 / row["window_s"])


@pytest.mark.layout("lo", "veth")  # out of band on lo, rdma_cm on veth
@pytest.mark.parametrize("inline", ["0", "64"])
def test_inline_on_and_off_moves_the_right_bytes(rdmabench, layout, server, tmp_path, inline):
    """--inline 0 never inlines; --inline 64 inlines payloads of at most 64 B (the threshold's
    rule is unit-tested: inline_threshold). Each row's
    payload is checked (rxe once copied inline data from the wrong address, fixed in 6.10),
    and the context says the threshold each side's QP used."""
    out = tmp_path / f"inline-{inline}.json"
    proc = client(rdmabench, layout, server, "--pattern", "send,write_imm,send_imm", "--cq", "busy",
                  "--sizes", "8,64,128", "--iters", "200", "--inline", inline, "--verify",
                  "--out", str(out))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    doc = json.loads(out.read_text())
    assert doc["context"]["client"]["inline"] == doc["context"]["server"]["inline"] == int(inline)
    assert doc["context"]["rdmabench_params"]["inline"] == int(inline)
    assert len(doc["benchmarks"]) == 3 * 2 * 3
    for row in doc["benchmarks"]:
        assert row["rdmabench_spec"]["inline"] == int(inline) and f"/inline:{inline}" in row["name"]
        assert not row.get("error_occurred") and row["verify_errors"] == 0, row


def test_inline_beyond_what_the_device_takes_falls_back_to_what_it_grants(rdmabench, layout, server,
                                                                          tmp_path):
    """--inline 4096 is more than rxe grants: each side's QP is asked again for less (each lower
    power of two) until the device takes it, and the context says what each side got (before,
    a usage error; an automatic request a NIC refused failed the run)."""
    out = tmp_path / "inline.json"
    proc = client(rdmabench, layout, server, "--pattern", "send", "--mode", "lat", "--cq", "busy",
                  "--sizes", "8", "--iters", "10", "--inline", "4096", "--verify", "--out", str(out))
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    doc = json.loads(out.read_text())
    ctx = doc["context"]
    assert 8 <= ctx["client"]["inline"] < 4096 and ctx["client"]["inline"] == ctx["server"]["inline"], ctx
    assert doc["benchmarks"][0]["rdmabench_spec"]["inline"] == 4096  # what was asked


def test_the_sample_clock_is_the_tsc_where_invariant_or_asked_for(rdmabench, layout, server, tmp_path):
    """--clock auto takes the TSC only where CPUID says it is invariant (this guest's kernel
    shows that as nonstop_tsc), and the context names the clock and why; --clock tsc takes it
    regardless, checked against CLOCK_MONOTONIC after every run; --clock bogus is a usage error."""
    invariant = " nonstop_tsc " in next(line for line in open("/proc/cpuinfo")
                                         if line.startswith("flags")) + " "
    for clock, tsc in (("auto", invariant), ("tsc", True), ("monotonic", False)):
        out = tmp_path / f"clock-{clock}.json"
        proc = client(rdmabench, layout, server, "--pattern", "send,write", "--mode", "lat",
                      "--cq", "busy", "--sizes", "2", "--iters", "500", "--clock", clock,
                      "--out", str(out))
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        doc = json.loads(out.read_text())
        ctx = doc["context"]
        assert ctx["sample_clock"] == ("tsc" if tsc else "monotonic"), ctx["sample_clock_detail"]
        assert ctx["rdmabench_params"]["clock"] == clock
        if clock == "auto" and not invariant:
            assert "not invariant" in ctx["sample_clock_detail"], ctx["sample_clock_detail"]
        assert len(doc["benchmarks"]) == 2, [b["name"] for b in doc["benchmarks"]]  # send, write
        for row in doc["benchmarks"]:
            assert not row.get("error_occurred") and row["lat_p50_us"] > 0, row
    bad = run([rdmabench, "run", "127.0.0.1", "--port", "1", "--clock", "hpet"], timeout=60)
    assert bad.returncode == 2 and "--clock" in bad.stderr, bad.stderr


def test_each_side_reads_its_port_anew_around_even_a_short_run(rdmabench, layout, server, tmp_path):
    """The kernel answers hw_counters reads from what it read within the last lifespan (rxe:
    12 ms here), and a 20-message ping-pong takes less than that: each reading must wait it out.
    Before it did, this run's rows read 0 on one side in 6 of 8 repetitions (lo), and CI's
    matrix test saw write/lat/busy/2 with no packet at all."""
    out = tmp_path / "short.json"
    proc = client(rdmabench, layout, server, "--pattern", "write", "--mode", "lat", "--cq", "busy",
                  "--sizes", "2", "--iters", "20", "--benchmark_repetitions=8", "--out", str(out),
                  port_counters=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = [b for b in json.loads(out.read_text())["benchmarks"] if b["run_type"] == "iteration"]
    assert len(rows) == 8
    for row in rows:
        if layout == "lo":  # one device: the client's reading counts both sides' 20 writes
            assert row["wire_one_port"] == 1 and "server_dev_hw_sent_pkts" not in row, row
            assert row["client_dev_hw_sent_pkts"] >= 40, row["client_dev_hw_sent_pkts"]
            continue
        sent = {side: row[f"{side}_dev_hw_sent_pkts"] for side in ("client", "server")}
        assert min(sent.values()) >= 20, sent  # each side sent its 20 writes at least


@pytest.mark.layout("veth")
def test_a_lossy_wire_shows_in_the_row_and_the_table_and_off_reads_nothing(rdmabench, layout,
                                                                          tmp_path):
    """A 2 % netem loss on the client's veth: RC still delivers every message (verified), but
    only because rxe resent some, which the ports' counters show on the row and the table flags
    under it; --counters off reads no counter at all. The lossy run takes perftest's 67 ms ACK
    timeout (--qp-timeout 14: a lost last packet has nothing after it to show the gap) and a
    longer --timeout. (A run without the loss is not asserted
    clean: rxe 6.1 in this guest retransmits now and then without cause, which is what these
    counters are there to show.) The server waits as long as the client: rdma_cm's own messages
    cross the lossy wire too (over RoCE, in the same UDP packets), and one lost is resent by the
    CM only after about 4 s, past the fixture server's 3 s (seen in a full run: 'server: rdma_cm:
    timed out after 3000 ms waiting for RDMA_CM_EVENT_CONNECT_REQUEST')."""
    server = Server(rdmabench, free_port(), tmp_path, "--timeout", "30")
    try:
        lossy_wire_shows_and_off_reads_nothing(rdmabench, layout, server, tmp_path)
    finally:
        assert server.stop() == 0, server.text()


def lossy_wire_shows_and_off_reads_nothing(rdmabench, layout, server, tmp_path):
    lossy = tmp_path / "lossy.json"
    with roce_netem("veth1", "loss", "2%"):  # the RoCE packets only, not the control channel
        proc = client(rdmabench, layout, server, "--pattern", "write", "--mode", "bw", "--cq", "busy",
                      "--sizes", "64K", "--iters", "300", "--verify", "--qp-timeout", "14",
                      "--timeout", "30", "--out", str(lossy), port_counters=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    row = json.loads(lossy.read_text())["benchmarks"][0]
    assert row["verify_errors"] == 0
    # 300 x 16 packets at 2 %: none lost would be a chance of about 1e-42. A lost packet is
    # seen out of sequence by the responder (or times out at the requester), then resent.
    trouble = sum(row.get(f"{side}_dev_{c['counter']}", 0) for side in ("client", "server")
                  for c in REGISTRY["device_alarms"] if c["flags_row"])
    assert trouble > 0, {k: v for k, v in row.items() if "_dev_hw_" in k}
    assert "^ the wire saw (port-wide): " in proc.stdout, proc.stdout
    assert row["wire_bytes_per_payload_byte"] >= 1
    off = tmp_path / "off.json"
    proc = client(rdmabench, layout, server, "--pattern", "write", "--mode", "bw", "--cq", "busy",
                  "--sizes", "64K", "--iters", "50", "--counters", "off", "--out", str(off))
    assert proc.returncode == 0, proc.stderr[-3000:]
    doc = json.loads(off.read_text())
    assert doc["context"]["rdmabench_params"]["counters"] is False
    row = doc["benchmarks"][0]
    assert not [k for k in row if "_dev_" in k or k.startswith("wire_")], row


@pytest.mark.layout("lo")
@pytest.mark.parametrize("transport, pattern, sizes", [("rc", "write", [2, 4096, 65536]),
                                                       ("ud", "send", [2, 4096])])
def test_a_bare_run_runs_the_quick_profile_and_says_so(rdmabench, layout, server, tmp_path,
                                                        transport, pattern, sizes):
    """`run HOST` alone planned 468 benchmarks; now write bw and lat at 2 B, 4 KiB and 64 KiB
    with a busy CQ (send over ud, which carries no write, and only to the path MTU). --iters
    only shortens it here."""
    out = tmp_path / "bare.json"
    proc = client(rdmabench, layout, server, "--transport", transport, "--iters", "50",
                  "--out", str(out))
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "a short default run (--profile quick)" in proc.stderr, proc.stderr
    doc = json.loads(out.read_text())
    names = [b["rdmabench_spec"]["name"].split("/")[:4] for b in doc["benchmarks"]]
    assert sorted(names) == sorted([pattern, mode, "busy", str(size)] for mode in ("bw", "lat")
                                   for size in sizes), names
    assert doc["context"]["rdmabench_params"]["profile"] == "quick"


@pytest.mark.layout("lo")
def test_output_prints_one_number_per_row_matching_the_results(rdmabench, layout, server,
                                                               tmp_path):
    """perftest's --output for scripts: standard output holds the figure of each row and nothing
    else (the table went to standard error), the same number the results file holds."""
    out = tmp_path / "rows.json"
    for figure, mode, key, scale, digits in (
            ("bandwidth", "bw", "bytes_per_second", 8 / 1e9, 3),
            ("message_rate", "bw", "msgs_per_second", 1 / 1e6, 6),
            ("latency", "lat", "lat_p50_us", 1, 2)):
        proc = client(rdmabench, layout, server, "--pattern", "write", "--mode", mode, "--cq",
                      "busy", "--sizes", "8,4096", "--iters", "200", "--output", figure,
                      "--out", str(out))
        assert proc.returncode == 0, proc.stderr[-3000:]
        rows = json.loads(out.read_text())["benchmarks"]
        printed = proc.stdout.split()
        assert printed == [f"{row[key] * scale:.{digits}f}" for row in rows], (printed, figure)
        assert "#bytes" in proc.stderr  # the table, beside
