"""Transports other than rc on real rxe: every pattern each one can run, with --verify, in lo
and veth, and the loss accounting of an unreliable transport (a netem loss on the veth must
show as messages sent and not received)."""
import json
import math

import jsonschema
import pytest

from conftest import (REGISTRY, ROOT, backlog_drops, counters_option, netem_dropped, netem_packets,
                      roce_netem, run)
from rdmabench_tools.command_words import replacing

SCHEMA = jsonschema.Draft202012Validator(json.loads((ROOT / "docs" / "results.schema.json").read_text()))

UNRELIABLE = [t["name"] for t in REGISTRY["transports"] if not t["reliable"]]
ONE_PACKET = [t["name"] for t in REGISTRY["transports"] if t["one_packet_messages"]]
PATTERNS = {p["name"]: p for p in REGISTRY["patterns"]}


def over(transport, size):
    return [p for p, info in PATTERNS.items() if transport in info["transports"]
            and info["min_size"] <= size and (info["max_size"] is None or size <= info["max_size"])]


def host_of(layout):
    return "10.99.0.1" if layout.startswith("veth") else "127.0.0.1"


def sizes_over(transport):
    """64 B, and several packets where a message may span them (16 KiB: 4 at the guest's 4096
    MTU), else one full packet (4096 B: a datagram's most, with its 40-byte GRH room ahead)."""
    return (64, 4096) if transport in ONE_PACKET else (64, 16384)


def run_over(rdmabench, layout, server, transport, *extra, timeout=600):
    """`rdmabench run` with --cm auto: it picks the bootstrap the transport can use."""
    return run([rdmabench, "run", host_of(layout), *replacing(
        ["--port", server.port, "--transport", transport],
        [*extra, *counters_option(extra, False)])], timeout=timeout)


def check_arrivals(name, row, spec):
    """A bw row to a target that takes receives counts what arrived, and its figures agree."""
    sent, received = row["sent_msgs"], row["received_msgs"]
    assert 0 < received <= sent and row["lost_msgs"] == sent - received, (name, row)
    assert row["loss_fraction"] == pytest.approx((sent - received) / sent), name
    # By iterations one QP sends exactly --iters; what arrived is what the window counts.
    assert sent == row["iterations"] and row["msgs"] == pytest.approx(received), (name, row)
    assert row["bytes_per_second"] == pytest.approx(row["msgs_per_second"] * spec["size"]), name
    assert "what arrived" in row["label"], row["label"]
    assert row["verified_messages"] == received, (name, row)


@pytest.mark.layout("lo", "veth")  # out of band on lo, rdma_cm on veth
@pytest.mark.parametrize("transport", UNRELIABLE)
def test_every_pattern_a_transport_can_run_is_verified(rdmabench, layout, server, tmp_path,
                                                       transport):
    """Each pattern the registry says runs over the transport, bw and lat, busy and event, at
    the sizes of sizes_over, with --verify; the bootstrap is out of band even in veth, from the
    device the route takes."""
    out = tmp_path / f"{transport}.json"
    sizes = sizes_over(transport)
    proc = run_over(rdmabench, layout, server, transport, "--sizes", ",".join(map(str, sizes)),
                    "--iters", "200", "--verify", "--out", str(out))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    doc = json.loads(out.read_text())
    SCHEMA.validate(doc)
    ctx = doc["context"]
    assert ctx["bootstrap"] == "oob", ctx
    if layout == "veth":  # from the route's device, so the traffic crosses the veth
        assert transport in ctx["bootstrap_reason"], ctx["bootstrap_reason"]
        assert ctx["client"]["device"] == "rxe1" and ctx["client"]["gid"] == "::ffff:10.99.0.2", ctx
    rows = {b["name"].split("/iterations")[0]: b for b in doc["benchmarks"]}
    expected = {f"{p}/{m}/{c}/{s}/{transport}" for s in sizes for p in over(transport, s)
                for m in ("bw", "lat") for c in ("busy", "event")}
    assert expected == set(rows), set(rows) ^ expected
    for name, row in rows.items():
        assert not row.get("error_occurred"), (name, row.get("error_message"))
        spec = row["rdmabench_spec"]
        assert spec["transport"] == transport and spec["verify"] is True
        assert row["verify_errors"] == 0, (name, row)
        arrivals = spec["mode"] == "bw" and PATTERNS[spec["pattern"]]["target_receives"]
        assert ("sent_msgs" in row) == arrivals, name
        if arrivals:
            check_arrivals(name, row, spec)
        elif spec["mode"] == "bw":
            assert "as sent" in row["label"], row["label"]  # a passive target counts nothing
    assert "loss[%]" in proc.stdout
    passive = [n for n, r in rows.items() if not PATTERNS[r["rdmabench_spec"]["pattern"]]["target_receives"]]
    assert ("a loss would not show" in proc.stdout) == bool(passive), passive


@pytest.mark.layout("veth")
@pytest.mark.parametrize("transport", UNRELIABLE)
def test_a_lost_message_shows_as_sent_and_not_received(rdmabench, layout, server, tmp_path,
                                                       transport):
    """A 10 % netem loss on the client's veth: over an unreliable transport messages are gone,
    and the row says how many, spread over several QPs and threads too; bandwidth counts only
    what arrived. The run still ends (the end-of-stream marker may itself be lost)."""
    out = tmp_path / "lossy.json"
    with roce_netem("veth1", "loss", "10%"):  # the RoCE packets only, not the control channel
        dropped_before, backlog_before = netem_dropped("veth1"), backlog_drops()
        # --rx-depth above the messages a QP receives: no message finds its receiver without a
        # posted receive (which an unreliable transport drops too: the likeliest cause of the
        # 19.9 % a uc row lost at 10 % netem in a guest starved by its host's load).
        proc = run_over(rdmabench, layout, server, transport, "--pattern", "send,send_imm",
                        "--mode", "bw", "--cq", "busy", "--sizes", "64", "--iters", "3000",
                        "--rx-depth", "4096", "--qps", "1,4", "--threads", "2", "--verify",
                        "--out", str(out))
        netem_lost = netem_dropped("veth1") - dropped_before
        backlog_lost = backlog_drops() - backlog_before
        # A ping-pong waits for a lost message until --timeout, and says why it may be lost
        # (6000 messages at 10 %: none lost would be a chance of about 1e-275).
        lat = run_over(rdmabench, layout, server, transport, "--pattern", "send", "--mode", "lat",
                       "--cq", "busy", "--sizes", "64", "--iters", "3000", "--timeout", "2")
        assert netem_packets("veth1") >= 4 * 3000, "the RoCE packets did not go through netem"
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert lat.returncode == 5 and "a lost message is never resent" in lat.stderr, lat.stderr
    rows = json.loads(out.read_text())["benchmarks"]
    assert len(rows) == 4
    # Every message a row counts lost was dropped on the way: by netem, or by a full backlog of
    # the guest's network stack (counted apart, and a few at most on a quiet host).
    total_lost = sum(row["lost_msgs"] for row in rows)
    assert total_lost <= netem_lost + backlog_lost, (total_lost, netem_lost, backlog_lost)
    for row in rows:
        name, spec = row["name"], row["rdmabench_spec"]
        sent, received = row["sent_msgs"], row["received_msgs"]
        assert sent == row["iterations"] * spec["qps"], (name, row)
        # 10 % of the packets dropped, each 64-byte message one packet lost on its own: the
        # count lost is binomial, n = sent, p = 0.1. Six standard deviations either side (a
        # chance of 2e-9 a row of falling outside by chance) is 1.6-3.3 points at these n;
        # above it, what the backlog dropped may add.
        spread = 6 * math.sqrt(0.1 * 0.9 / sent)
        assert 0.1 - spread < row["loss_fraction"] < 0.1 + spread + backlog_lost / sent, \
            (name, row["loss_fraction"], spread, backlog_lost)
        assert row["lost_msgs"] == sent - received and row["verify_errors"] == 0, (name, row)
        assert row["msgs"] == pytest.approx(received), (name, row)
        per_qp = sum(row[f"qp{i}_msgs"] for i in range(spec["qps"]))
        assert per_qp == pytest.approx(received), (name, row)


@pytest.mark.layout("lo", "veth")  # out of band on lo, rdma_cm on veth
@pytest.mark.parametrize("transport", ONE_PACKET)
def test_a_datagram_beyond_the_path_mtu_is_refused_and_the_default_sizes_stop_there(
        rdmabench, layout, server, tmp_path, transport):
    """The device's limit is known once it is open, before anything connects: a size beyond
    the path MTU (here --mtu 1024, below the guest's 4096) exits 2 naming it even with no
    server; the default sweep stops at it and says so, and the context names the MTU used."""
    refused = run([rdmabench, "run", host_of(layout), "--port", "1", "--timeout", "2",
                   "--transport", transport, "--pattern", "send", "--sizes", "2048", "--mtu",
                   "1024"], timeout=60)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert "path MTU, 1024 bytes (--mtu)" in refused.stderr, refused.stderr
    out = tmp_path / "default-sizes.json"
    proc = run_over(rdmabench, layout, server, transport, "--pattern", "send", "--mode", "bw",
                    "--cq", "busy", "--iters", "50", "--mtu", "1024", "--verify", "--out", str(out))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "the default sizes stop at" in proc.stderr and "path MTU, 1024 B" in proc.stderr
    doc = json.loads(out.read_text())
    sizes = [b["rdmabench_spec"]["size"] for b in doc["benchmarks"]]
    assert sizes == [2 ** k for k in range(1, 11)], sizes  # 2 .. 1024
    assert doc["context"]["client"]["path_mtu"] == 1024 and doc["context"]["server"]["path_mtu"] == 1024
    assert len(doc["benchmarks"]) == 10 and all(b["verify_errors"] == 0 for b in doc["benchmarks"]), \
        doc["benchmarks"]
