"""-d over rdma_cm (veth layout: rxe0 on veth0 at 10.99.0.1, the server's; rxe1 on veth1 at
10.99.0.2, the client's by its route). rdma_cm takes the device of the route's local address, so
-d was ignored there (issue 64): the client now resolves from the named device's own address,
and a side whose connection came through another device than its -d says so and stops."""
import json

from conftest import Server, client, free_port


def test_the_clients_device_is_the_one_it_names(rdmabench, layout, server):
    proc = client(rdmabench, layout, server, "--device", "rxe0", "--pattern", "write", "--mode",
                  "bw", "--cq", "busy", "--sizes", "4096", "--iters", "50", "--json")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    ctx = json.loads(proc.stdout)["context"]
    assert ctx["bootstrap"] == "rdmacm", ctx
    assert ctx["client"]["device"] == "rxe0" and ctx["server"]["device"] == "rxe0", ctx


def test_a_server_reached_through_another_device_than_its_own_says_so(rdmabench, layout, tmp_path):
    srv = Server(rdmabench, free_port(), tmp_path, "--device", "rxe1")
    try:
        proc = client(rdmabench, layout, srv, "--pattern", "write", "--mode", "bw", "--cq", "busy",
                      "--sizes", "4096", "--iters", "50")
    finally:
        srv.stop()
    said = proc.stdout + proc.stderr
    assert proc.returncode == 3, said[-3000:]
    assert "serve -d rxe1: the client's connection arrived through rxe0" in said, said[-3000:]
    assert "give an address that rxe1 routes, or use --cm oob" in said, said[-3000:]
