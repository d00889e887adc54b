"""The two hosts' wire in the veth layout (tools/rxe-vm -m veth, stage2.sh): nothing on it
changes state with guest time.

Each host's neighbour entry for the other was learnt by ARP and aged like any: REACHABLE for a
random 15-45 s, then STALE, DELAY and PROBE until an ARP reply confirmed it again (rxe's UDP
never confirms one). A row whose timed window met a neighbour out of REACHABLE sent every packet
by the slower path: in the deterministic guest (2026-12-04, fetch_add bw busy, 8 B, 2000
messages, eight runs of five repetitions each after a boot) the first run read 0.010950 Mpps and
the later ones 0.011140, 1.7 % apart, and with the entries made permanent every run read
0.011109-0.011142. Which row met which state changed from boot to boot with the random ageing,
and the gate's slowdown test once saw fetch_add bw busy 2.05 % off its prediction so."""
import subprocess

import pytest

pytestmark = pytest.mark.layout("veth", "veth-icount", "siw", "siw-icount")

HOSTS = {"veth0": ("10.99.0.1", "veth1"), "veth1": ("10.99.0.2", "veth0")}


def link_address(dev):
    with open(f"/sys/class/net/{dev}/address") as f:
        return f.read().strip()


def neighbours(dev):
    """{address: (link address, state)} of `dev`'s neighbour table."""
    out = subprocess.run(["ip", "neigh", "show", "dev", dev], capture_output=True, text=True,
                         timeout=30, check=True).stdout
    table = {}
    for line in out.splitlines():
        words = line.split()
        if "lladdr" in words:
            table[words[0]] = (words[words.index("lladdr") + 1], words[-1])
    return table


@pytest.mark.parametrize("dev", sorted(HOSTS))
def test_each_host_knows_the_other_by_a_permanent_neighbour_entry(dev):
    peer_dev = HOSTS[dev][1]
    peer_address = HOSTS[peer_dev][0]
    table = neighbours(dev)
    assert table.get(peer_address) == (link_address(peer_dev), "PERMANENT"), table
