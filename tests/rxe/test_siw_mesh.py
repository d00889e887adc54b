"""rdmabench mesh on the second fabric: four software iWARP hosts (tools/rxe-vm -m mesh:4
--fabric siw --deterministic) under Open MPI's mpirun, as test_mesh runs rxe's. iWARP connects
through rdma_cm only, so the mesh takes it (--cm auto) from each rank's own address and device;
a clean mesh measures every pair and flags nothing; under --traffic incast and ring, a host whose
link is slower than the others' is named alone (test_mesh_traffic.py's rates, every link at 20
Mbit/s and host 2's at 5, under the short, fair queues a TCP fabric's flows are judged on:
conftest.fair_link)."""
import json

import pytest

from conftest import MESH_ADDRESSES, MESH_HOSTS, MPIRUN, ON_CPU_0, run

pytestmark = pytest.mark.layout("siw-mesh")

HOSTS = MESH_HOSTS
PAIRS = [(c, s) for c in range(HOSTS) for s in range(HOSTS) if c != s]  # every ordered pair
DEVICES = [f"siw{i}" for i in range(HOSTS)]
ADDRESSES = MESH_ADDRESSES


def test_a_clean_iwarp_mesh_measures_every_pair_and_flags_nothing(rdmabench, tmp_path):
    """Every rank on vCPU 0, as test_mesh's verdicts (conftest.ON_CPU_0). Measured so, two runs:
    bw 0.341-0.365 Gb/s, p50 latency 103.9-104.6 us."""
    out = tmp_path / "mesh.json"
    proc = run([*MPIRUN, "-np", str(HOSTS), *ON_CPU_0, rdmabench, "mesh", "--device",
                ",".join(DEVICES), "--address", ADDRESSES, "--pattern", "send", "--cq", "event",
                "--timeout", "30", "--schedule", "isolated", "--iters", "300", "--lat-iters",
                "300", "--out", str(out)], timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    report = json.loads(out.read_text())
    assert report["context"]["bootstrap"] == "rdmacm", report["context"]
    assert [h["device"] for h in report["hosts"]] == DEVICES
    assert [b["name"] for b in report["benchmarks"]] == ["send/bw/event/65536", "send/lat/event/2"]
    for b in report["benchmarks"]:
        m = b["matrices"][b["figure"]]
        assert all(m[c][s] > 0 for c, s in PAIRS), (b["name"], m)
        assert b["outliers"]["slow_pairs"] == [] and b["errors"] == [], (b["name"], proc.stdout)
    assert report["verdict"]["exit_code"] == 0 and report["verdict"]["failed_pairs"] == 0, report["verdict"]
    assert report["verdict"]["slow_hosts"] == [] and report["host_differences"] == []


@pytest.mark.parametrize("pattern", ["incast", "ring"])
def test_traffic_on_iwarp_names_the_slowed_host_alone(rdmabench, tmp_path, pattern, deep_backlog,
                                                      host_2_at_5_mbit):
    out = tmp_path / f"{pattern}.json"
    proc = run([*MPIRUN, "-np", str(HOSTS), rdmabench, "mesh", "--device", ",".join(DEVICES),
                "--address", ADDRESSES, "--pattern", "send", "--cq", "event", "--timeout", "30",
                "--size", "4096", "--tx-depth", "16", "--duration", "1", "--margin", "0.5",
                "--traffic", pattern, "--out", str(out)], timeout=300)
    report = json.loads(out.read_text()) if out.exists() else None
    assert report is not None, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert report["context"]["bootstrap"] == "rdmacm", report["context"]
    t = report["traffic"]
    assert t["failed_flows"] == 0 and t["errors"] == [], t["errors"]
    assert proc.returncode == 7, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert report["verdict"]["slow_hosts"] == [host_2_at_5_mbit], proc.stdout
