"""A device's asynchronous events on real rxe, two hosts: a link taken down in the middle of a
bw run ends it at once with the event named and exit status 9 (before, the run went on until a
completion failed or --timeout passed, and said nothing of why), and the server serves the
next client once the link is back.

Out of band: after a link flap under a live rdma_cm connection, rdma_cm on this guest's rxe
(kernel 6.1) connects no more, in the old server or a new one (every attempt ends with the
server waiting for RDMA_CM_EVENT_ESTABLISHED, measured), while the out-of-band bootstrap
connects at once; the client opens the device on its own side of the veth (rxe1)."""
import subprocess
from pathlib import Path

import pytest

from conftest import VETH_WIRE, run, server_address, wait_for, wait_for_line

pytestmark = pytest.mark.layout("veth")


def port_state(device):
    return Path(f"/sys/class/infiniband/{device}/ports/1/state").read_text().split(":")[-1].strip()


def wait_until_active(devices):
    wait_for(lambda: all(port_state(d) == "ACTIVE" for d in devices),
             lambda: str({d: port_state(d) for d in devices}), seconds=20)


def test_a_link_taken_down_mid_run_ends_it_at_once_naming_the_event(rdmabench, server):
    host, _ = server_address("veth")
    victim = subprocess.Popen(
        [rdmabench, "run", host, "--port", str(server.port), "--cm", "oob", "--device", "rxe1",
         "--pattern", "write",
         "--mode", "bw", "--cq", "event", "--sizes", "65536", "--duration", "30",
         "--report-every", "0.5", "--counters", "off"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # Into the timed run: its first interval line.
        _, before = wait_for_line(victim.stderr, lambda l: "write/bw/event/65536" in l and "msgs" in l,
                                  "first interval line of the run")
        run(["ip", "link", "set", "veth1", "down"], check=True)
        # Its 30 s window is far from an end at once: a run that went on fails here.
        out, err = victim.communicate(timeout=20)
        err = before + err
    finally:
        if victim.poll() is None:
            victim.kill()
        run(["ip", "link", "set", "veth1", "up"], check=True)
        # Taking the link down deleted the route of the two-host layout that sends this host's
        # traffic through veth1, and its permanent neighbour entry; put the wire back as
        # tools/lib/rxe-vm-guest/stage2.sh made it.
        run([VETH_WIRE], check=True)
    assert victim.returncode == 9, out[-2000:] + err[-2000:]
    assert "IBV_EVENT_PORT_ERR (port 1)" in err and "rxe1" in err, err[-2000:]
    assert "during write/bw/event/65536" in err, err[-2000:]
    # Ended by the port's event, before any send could fail on the dead link (no work
    # completion error), its row an error of that event rather than a window's figures.
    assert "IBV_WC_" not in out + err, out[-2000:] + err[-2000:]
    assert "ERROR: rxe1: IBV_EVENT_PORT_ERR (port 1)" in out, out[-2000:]
    # The server saw its own port go down too, said so, and serves the next client.
    wait_until_active(["rxe0", "rxe1"])
    proc = run([rdmabench, "run", host, "--port", str(server.port), "--cm", "oob", "--device",
                "rxe1", "--pattern", "write", "--mode", "bw", "--sizes", "4096", "--iters", "200",
                "--counters", "off"], timeout=120)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert server.proc.poll() is None, server.text()
