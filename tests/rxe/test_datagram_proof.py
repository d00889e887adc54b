"""A datagram peer proves the address it names (issue 65): the out-of-band exchange's QP number
and GID were used as sent, so a client that named a third party's QP had the server's UD
replies sent there, and a server that did the same had a client's whole run sent there. Now
neither side sends to its peer's address before a datagram from that address came; the client
risks one per stream to ask. A relay between a real client and a real server forges one side's
"oob" messages (the QP number, on the same GID: a QP of the same host, which nobody opened), and
a capture on the server's veth counts the datagrams sent to the forged QP."""
import json
import socket
import struct
import subprocess
import threading

import pytest

from conftest import free_port, run, Server, wait_for_line

HOST = "10.99.0.1"  # veth: the server's rxe0; the client runs on rxe1 (10.99.0.2)
FORGED_OFFSET = 0x100  # a forged QP number: the named one plus this, which no QP of the test has
ROCE_V2_PORT = 4791
# The client waits longer than the server (whose harness gives --timeout 3), so that the
# server's reason, not the client's own timeout, is what ends a forged setup.
CLIENT_TIMEOUT_S = 5
# The client asks again every 200 ms while unanswered (kAskAgain), never past its --timeout:
# at most this many datagrams per stream and setup.
MOST_ASKS = 1 + CLIENT_TIMEOUT_S * 1000 // 200


class OobForger:
    """A TCP relay for the client's control connections (a client whose setup failed comes back
    for the next benchmark): lines pass through unchanged, but for "oob" messages from the side
    `forge_from` ("client" or "server"), whose QP number it moves by FORGED_OFFSET. `forged`
    holds the QP numbers it put in."""

    def __init__(self, server_port, forge_from):
        self.server_port = server_port
        self.forge_from = forge_from
        self.forged = []
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.listener.settimeout(60)
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed, or nobody came within 60 s
            threading.Thread(target=self._relay, args=(client,), daemon=True).start()

    def close(self):
        self.listener.close()

    def _relay(self, client):
        server = socket.create_connection((HOST, self.server_port), timeout=60)
        pumps = [threading.Thread(target=self._pump, args=(client, server, "client"), daemon=True),
                 threading.Thread(target=self._pump, args=(server, client, "server"), daemon=True)]
        for p in pumps:
            p.start()
        for p in pumps:
            p.join(120)
        client.close()
        server.close()

    def _pump(self, source, sink, side):
        reader = source.makefile("rb")
        try:
            for line in reader:
                message = json.loads(line) if side == self.forge_from else {}
                if message.get("type") == "oob":
                    message["qpn"] = (message["qpn"] + FORGED_OFFSET) & 0xffffff
                    self.forged.append(message["qpn"])
                    line = json.dumps(message).encode() + b"\n"
                sink.sendall(line)
        except OSError:
            pass
        try:
            sink.shutdown(socket.SHUT_WR)
        except OSError:
            pass


def roce_destination_qps(capture):
    """The destination QP number of every RoCE v2 packet in a pcap file (Ethernet link type):
    the 24 bits at bytes 5..7 of the BTH, after the IPv4 and UDP headers."""
    data = capture.read_bytes()
    magic, = struct.unpack_from("<I", data, 0)
    assert magic == 0xa1b2c3d4, hex(magic)
    link_type, = struct.unpack_from("<I", data, 20)
    assert link_type == 1, link_type  # Ethernet: tcpdump -i veth0
    qps = []
    at = 24
    while at + 16 <= len(data):
        captured, = struct.unpack_from("<I", data, at + 8)
        packet = data[at + 16:at + 16 + captured]
        at += 16 + captured
        if len(packet) < 14 + 20 or packet[12:14] != b"\x08\x00":
            continue  # not IPv4
        ip = packet[14:]
        udp = ip[(ip[0] & 0x0f) * 4:]
        if ip[9] != 17 or len(udp) < 8 + 12:
            continue
        if struct.unpack_from(">H", udp, 2)[0] != ROCE_V2_PORT:
            continue
        bth = udp[8:]
        qps.append(int.from_bytes(bth[5:8], "big"))
    return qps


class Capture:
    """tcpdump of RoCE v2 on veth0 (the server's side: each packet between the two devices
    once) into `path`, for the duration of the with-block."""

    def __init__(self, path):
        self.path = path

    def __enter__(self):
        self.dump = subprocess.Popen(["tcpdump", "-i", "veth0", "-U", "-s", "128", "-w",
                                      str(self.path), f"udp port {ROCE_V2_PORT}"],
                                     stderr=subprocess.PIPE, text=True)
        wait_for_line(self.dump.stderr, lambda line: "listening on" in line, "tcpdump listening")
        return self

    def __exit__(self, *exc):
        self.dump.terminate()  # -U: every packet was written as it came
        self.dump.wait(timeout=10)


def forged_run(rdmabench, server, forge_from, *spec):
    forger = OobForger(server.port, forge_from)
    proc = run([rdmabench, "run", "127.0.0.1", "--port", str(forger.port), "--device", "rxe1",
                "--transport", "ud", "--pattern", "send", "--cq", "busy", "--sizes", "64",
                "--counters", "off", "--timeout", str(CLIENT_TIMEOUT_S), "--no-wait", *spec], timeout=120)
    forger.close()
    return proc, forger.forged


@pytest.mark.layout("veth")
def test_a_client_naming_another_qp_gets_no_reply_sent_there(rdmabench, tmp_path):
    """Before: the server answered each ping of a UD lat run to the QP the client named, a QP
    of the client's host that the client did not own; the client's pings came from its own."""
    with Server(rdmabench, free_port(), tmp_path, "--device", "rxe0") as srv:
        with Capture(tmp_path / "wire.pcap"):
            proc, forged = forged_run(rdmabench, srv, "client", "--mode", "lat", "--iters", "200")
        sent_to_forged = [qp for qp in roce_destination_qps(tmp_path / "wire.pcap") if qp in forged]
        assert forged and sent_to_forged == [], (forged, len(sent_to_forged), proc.stderr[-2000:])
        said = proc.stdout[-2000:] + proc.stderr[-2000:] + srv.text()[-2000:]
        assert proc.returncode == 4, said
        # The row's ERROR, in the table, says why.
        assert any("datagram proof: no datagram came from QP 0x%06x" % qp in proc.stdout
                   for qp in forged), said
        assert " came from elsewhere, the first from QP " in proc.stdout, said
        # The server goes on serving: an honest client's run.
        honest = run([rdmabench, "run", HOST, "--port", str(srv.port), "--device", "rxe1",
                      "--transport", "ud", "--pattern", "send", "--mode", "lat", "--cq", "busy",
                      "--sizes", "64", "--iters", "200", "--counters", "off", "--no-wait"],
                     timeout=120)
        assert honest.returncode == 0, honest.stderr[-2000:]


@pytest.mark.layout("veth")
def test_a_server_naming_another_qp_gets_only_the_asks_sent_there_not_a_run(rdmabench, tmp_path):
    """Before: a UD bw client sent its whole run (2000 datagrams; 1213 seen) to the QP the server
    named. Now it sends only its asks, and nothing more comes of them."""
    with Server(rdmabench, free_port(), tmp_path, "--device", "rxe0") as srv:
        with Capture(tmp_path / "wire.pcap"):
            proc, forged = forged_run(rdmabench, srv, "server", "--mode", "bw", "--iters", "2000")
        sent_to_forged = [qp for qp in roce_destination_qps(tmp_path / "wire.pcap") if qp in forged]
        assert forged and 0 < len(sent_to_forged) <= MOST_ASKS * len(forged), (
            forged, len(sent_to_forged), proc.stderr[-2000:])
        said = proc.stdout[-2000:] + proc.stderr[-2000:] + srv.text()[-2000:]
        assert proc.returncode == 4, said
        assert "datagram proof: no datagram came from QP" in proc.stdout, said
