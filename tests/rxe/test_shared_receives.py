"""--srq on real rxe: the receiving side's QPs take their receives from one shared receive
queue, for every pattern whose target takes receives, bw and lat, on one QP and on four over
two threads (whose messages must each reach the stream of the QP they arrived on), with
--verify, on lo; and a datagram transport's GRH room in the shared slots, in lo and veth."""
import json

import jsonschema
import pytest

from conftest import COUNTERS_OFF, REGISTRY, ROOT, client, run, server_address

SCHEMA = jsonschema.Draft202012Validator(json.loads((ROOT / "docs" / "results.schema.json").read_text()))
RECEIVING = [p["name"] for p in REGISTRY["patterns"] if p["target_receives"] and "rc" in p["transports"]]
ITERS = 300


def rows_of(out):
    doc = json.loads(out.read_text())
    SCHEMA.validate(doc)
    return {b["name"].split("/iterations")[0]: b for b in doc["benchmarks"]}


# The receiver's queue, whatever the link (one layout).
@pytest.mark.layout("lo")
@pytest.mark.parametrize("qps, threads, mode", [(1, 1, "bw,lat"), (4, 2, "bw")])
def test_every_receiving_pattern_runs_verified_from_a_shared_receive_queue(
        rdmabench, layout, server, tmp_path, qps, threads, mode):
    out = tmp_path / "srq.json"
    proc = client(rdmabench, layout, server, "--srq", "--pattern", ",".join(RECEIVING), "--mode", mode,
                  "--cq", "busy,event", "--sizes", "64,16384", "--iters", str(ITERS), "--qps", str(qps),
                  "--threads", str(threads), "--verify", "--out", str(out), timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    rows = rows_of(out)
    # What the QPs really use (ibv_query_qp, on the first benchmark, a bw one): the server's
    # receives from the shared queue; the client only sends there.
    ctx = json.loads(out.read_text())["context"]
    assert ctx["server"]["srq"] is True and ctx["client"]["srq"] is False, ctx
    scale = f"/qps:{qps}/threads:{threads}" if qps > 1 else ""
    expected = {f"{p}/{m}/{c}/{s}{scale}/srq" for p in RECEIVING for m in mode.split(",")
                for c in ("busy", "event") for s in (64, 16384)}
    assert set(rows) == expected, set(rows) ^ expected
    for name, row in rows.items():
        assert not row.get("error_occurred"), (name, row.get("error_message"))
        assert row["rdmabench_spec"]["srq"] is True and row["verify_errors"] == 0, (name, row)
        if row["rdmabench_spec"]["mode"] == "bw":
            # Each QP's own messages, though any QP's message may take any shared receive.
            for i in range(qps):
                assert row[f"qp{i}_msgs"] == ITERS, (name, i, row)


@pytest.mark.layout("lo", "veth")  # out of band on lo, rdma_cm on veth
@pytest.mark.parametrize("transport", [t["name"] for t in REGISTRY["transports"] if t["receive_header_bytes"]])
def test_a_shared_slot_keeps_the_datagram_header_room(rdmabench, layout, server, tmp_path, transport):
    """ud over a shared receive queue: each slot starts with the GRH room, so --verify finds
    the payload after it (a slot without the room would put the GRH where the payload is)."""
    out = tmp_path / "srq-ud.json"
    host, _ = server_address(layout)  # --cm auto: the bootstrap the transport can use
    proc = run([rdmabench, "run", host, "--port", str(server.port), "--srq", "--transport", transport,
                "--pattern", "send,send_imm", "--mode", "bw,lat", "--cq", "event", "--sizes", "64,4096",
                "--iters", str(ITERS), "--qps", "2", "--threads", "2", "--verify", "--out", str(out),
                *COUNTERS_OFF],
               timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    rows = rows_of(out)
    assert len(rows) == 8 and all(n.endswith(f"/{transport}/qps:2/threads:2/srq") for n in rows), set(rows)
    for name, row in rows.items():
        assert not row.get("error_occurred") and row["verify_errors"] == 0, (name, row)
