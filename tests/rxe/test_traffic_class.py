"""--tclass and --sl on real rxe, two hosts: the traffic class each run asks for is the IP
header's TOS byte of every RoCE v2 packet on the veth, both ways, on every transport with each
bootstrap it can use (rc out of band and over rdma_cm, uc and ud out of band); the context
says what both sides' QPs really got. A service level is set out of band only."""
import contextlib
import json
import socket
import threading

import pytest

from conftest import ROCE_V2_PORT, counters_option, run, server_address
from rdmabench_tools.command_words import replacing

pytestmark = pytest.mark.layout("veth")

ETH_P_ALL = 0x0003  # a socket bound to one protocol sees only what arrives, not what is sent
ETH_P_IP = 0x0800
PACKET_OUTGOING = 4  # sll_pkttype of a frame this host sent


@contextlib.contextmanager
def roce_packets(dev):
    """The (sent, tos) of every RoCE v2 packet (UDP to port 4791) that `dev` sends or receives
    meanwhile, read from an AF_PACKET socket by a thread of its own."""
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    sock.bind((dev, 0))
    sock.settimeout(0.2)
    seen, stop = [], threading.Event()

    def read():
        while not stop.is_set():
            try:
                frame, address = sock.recvfrom(128)
            except socket.timeout:
                continue
            if int.from_bytes(frame[12:14], "big") != ETH_P_IP:
                continue
            ip = frame[14:]
            header = (ip[0] & 0x0F) * 4
            if ip[9] == socket.IPPROTO_UDP and int.from_bytes(ip[header + 2:header + 4], "big") == ROCE_V2_PORT:
                seen.append((address[2] == PACKET_OUTGOING, ip[1]))

    reader = threading.Thread(target=read)
    reader.start()
    try:
        yield seen
    finally:
        stop.set()
        reader.join()
        sock.close()


def client_run(rdmabench, server, tmp_path, *extra):
    out = tmp_path / "tclass.json"
    out.unlink(missing_ok=True)  # a refused run writes none
    host, _ = server_address("veth")
    proc = run([rdmabench, "run", host, *replacing(
        ["--port", server.port, "--out", out, "--pattern", "send", "--sizes", "64", "--iters",
         "100", "--cq", "event"], [*extra, *counters_option(extra, False)])], timeout=120)
    return proc, (json.loads(out.read_text()) if out.exists() else None)


# Each case its own class, so that no packet of another run can pass for this one's: DSCP 26
# (AF31) with ECN capable transport, DSCP 46 (EF), DSCP 10 (AF11), DSCP 34 (AF41).
CASES = [("rc", "oob", 106), ("rc", "rdmacm", 184), ("uc", "oob", 40), ("ud", "oob", 136)]


@pytest.mark.parametrize("transport, cm, tclass", CASES)
def test_the_traffic_class_asked_is_each_packets_tos_both_ways(rdmabench, server, tmp_path,
                                                               transport, cm, tclass):
    # Out of band the client opens the device on its own side of the veth (the first is the
    # server's), as rdma_cm does from the route.
    device = ("--device", "rxe1") if cm == "oob" else ()
    with roce_packets("veth1") as packets:  # the client's side: what it sends and receives
        proc, doc = client_run(rdmabench, server, tmp_path, "--transport", transport, "--cm", cm,
                               *device, "--mode", "lat", "--tclass", str(tclass))
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    ctx = doc["context"]
    assert ctx["bootstrap"] == cm and ctx["client"]["tclass"] == ctx["server"]["tclass"] == tclass, ctx
    assert doc["benchmarks"] and all(b["rdmabench_spec"]["tclass"] == tclass for b in doc["benchmarks"])
    sent = [tos for out, tos in packets if out]
    received = [tos for out, tos in packets if not out]
    # A ping-pong of 100 messages (and the warm-up's) each way, at least.
    assert len(sent) >= 100 and len(received) >= 100, (len(sent), len(received))
    assert set(sent) == {tclass} and set(received) == {tclass}, (set(sent), set(received))


def test_without_tclass_the_packets_keep_the_default_class(rdmabench, server, tmp_path):
    with roce_packets("veth1") as packets:
        proc, doc = client_run(rdmabench, server, tmp_path, "--cm", "oob", "--device", "rxe1",
                               "--mode", "lat")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert doc["context"]["client"]["tclass"] == doc["context"]["server"]["tclass"] == 0
    assert packets and {tos for _, tos in packets} == {0}


def test_a_service_level_is_set_out_of_band_and_refused_over_rdma_cm(rdmabench, server, tmp_path):
    """--cm auto with --sl takes the out-of-band bootstrap and says why, and the rows carry it;
    the context says what each QP really kept, which on rxe is 0: its address vector has no
    service level (struct rxe_av), and RoCE carries one nowhere on the wire without a VLAN
    tag. rdma_cm is refused."""
    proc, doc = client_run(rdmabench, server, tmp_path, "--mode", "bw", "--sl", "3",
                           "--device", "rxe1")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    ctx = doc["context"]
    assert ctx["bootstrap"] == "oob" and "--sl" in ctx["bootstrap_reason"], ctx
    assert doc["benchmarks"] and \
        all(b["rdmabench_spec"]["sl"] == 3 and "/sl:3" in b["name"] for b in doc["benchmarks"])
    assert ctx["client"]["sl"] == ctx["server"]["sl"] == 0, ctx  # what ibv_query_qp says rxe kept
    proc, doc = client_run(rdmabench, server, tmp_path, "--mode", "bw", "--sl", "3", "--cm", "rdmacm")
    assert proc.returncode == 2 and doc is None, proc.stderr
    assert "--sl is for the out-of-band bootstrap" in proc.stderr and "--cm oob" in proc.stderr
