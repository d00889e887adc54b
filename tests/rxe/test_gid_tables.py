"""Issue 64's GID check: each side's GID index is its own. On RoCE hosts whose GID tables differ,
which is common, the same kind of GID sits at different indexes on the two hosts, and an
out-of-band run is set up as perftest's per-side -x sets it up: `run --gid-index A` against
`serve --gid-index B`, both recorded in the results' context. Here the two "hosts" of the veth
layout (rxe0 on veth0, the server's; rxe1 on veth1, the client's) get one more address each,
and the server's netdev one extra before it, so the RoCE v2 GIDs of the new pair sit at
different indexes."""
import contextlib
import ipaddress
import json
import pathlib
import subprocess

import pytest

from conftest import Server, free_port, run, wait_for

pytestmark = pytest.mark.layout("veth")

EXTRA = "10.99.3.1"  # on veth0 only: it takes the server's next GID indexes first
SERVER_ADDR, CLIENT_ADDR = "10.99.3.11", "10.99.3.12"  # the pair the run's QPs use


def ip(*args):
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True, timeout=30)


def roce_v2_gid_index(device, address):
    """The index of `address`'s RoCE v2 GID in `device`'s table (port 1), or None."""
    port = pathlib.Path("/sys/class/infiniband", device, "ports", "1")
    wanted = ipaddress.IPv6Address(f"::ffff:{address}")
    for entry in (port / "gids").iterdir():
        try:
            gid = ipaddress.IPv6Address((entry.read_text().strip()))
            kind = (port / "gid_attrs" / "types" / entry.name).read_text().strip()
        except (OSError, ValueError):  # an empty slot reads as EINVAL
            continue
        if gid == wanted and kind == "RoCE v2":
            return int(entry.name)
    return None


@contextlib.contextmanager
def differing_gid_tables():
    """The extra addresses, and routes that send the new pair's packets over the veth (both
    addresses are local, as the layout's own are: see tools/lib/rxe-vm-guest/stage2.sh); all
    taken back after."""
    undo = []
    try:
        for address, netdev in ((EXTRA, "veth0"), (SERVER_ADDR, "veth0"), (CLIENT_ADDR, "veth1")):
            ip("addr", "add", f"{address}/32", "dev", netdev)
            undo.append(("addr", "del", f"{address}/32", "dev", netdev))
        for table, to, netdev, source in ((103, SERVER_ADDR, "veth1", CLIENT_ADDR),
                                          (104, CLIENT_ADDR, "veth0", SERVER_ADDR)):
            ip("route", "add", to, "dev", netdev, "src", source, "table", str(table))
            undo.append(("route", "del", to, "table", str(table)))
            ip("rule", "add", "pref", "10", "iif", "lo", "to", to, "lookup", str(table))
            undo.append(("rule", "del", "pref", "10", "iif", "lo", "to", to, "lookup", str(table)))
        wait_for(lambda: roce_v2_gid_index("rxe0", SERVER_ADDR) is not None
                 and roce_v2_gid_index("rxe1", CLIENT_ADDR) is not None,
                 "the new addresses' RoCE v2 GIDs in rxe0's and rxe1's tables")
        yield roce_v2_gid_index("rxe1", CLIENT_ADDR), roce_v2_gid_index("rxe0", SERVER_ADDR)
    finally:
        for step in reversed(undo):
            subprocess.run(["ip", *step], capture_output=True, timeout=30)


def test_each_side_runs_on_the_gid_index_it_chose(rdmabench, tmp_path):
    with differing_gid_tables() as (client_index, server_index):
        assert client_index != server_index, (client_index, server_index)
        srv = Server(rdmabench, free_port(), tmp_path, "--device", "rxe0", "--gid-index",
                     str(server_index))
        try:
            proc = run([rdmabench, "run", "10.99.0.1", "--port", str(srv.port), "--cm", "oob",
                        "--device", "rxe1", "--gid-index", str(client_index), "--pattern", "write",
                        "--mode", "bw", "--cq", "busy", "--sizes", "4096", "--iters", "50",
                        "--counters", "off", "--json"], timeout=300)
        finally:
            srv.stop()
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:] + srv.text()[-3000:]
    ctx = json.loads(proc.stdout)["context"]
    assert ctx["bootstrap"] == "oob", ctx
    c, s = ctx["client"], ctx["server"]
    assert (c["device"], c["gid_index"], c["gid"]) == ("rxe1", client_index, f"::ffff:{CLIENT_ADDR}"), ctx
    assert (s["device"], s["gid_index"], s["gid"]) == ("rxe0", server_index, f"::ffff:{SERVER_ADDR}"), ctx
