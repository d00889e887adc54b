"""`rdmabench doctor` and the default placement on real rxe: every rxe port is ACTIVE at its
maximum MTU, none is a PCI device, so nothing is pinned (and a run's context says the same as
the doctor); a netdev MTU lowered below what the port can carry is a warning (exit 10) naming
the netdev; --numa 0 pins the run to node 0's CPUs and prefers its memory, and the row says so."""
import json
from pathlib import Path

import jsonschema
import pytest

from conftest import ROOT, kernel_devices, run, server_address

SCHEMA = json.loads((ROOT / "docs" / "doctor.schema.json").read_text())


def doctor_json(rdmabench):
    proc = run([rdmabench, "doctor", "--json"])
    report = json.loads(proc.stdout)
    jsonschema.validate(report, SCHEMA)
    assert report["exit_status"] == proc.returncode, report
    return report


def finding(report, subject, check):
    return next(f for f in report["findings"] if f["subject"] == subject and f["check"] == check)


def test_a_healthy_guest_is_ok_and_no_rxe_device_is_pci(rdmabench, devices_json):
    report = doctor_json(rdmabench)
    assert report["worst"] == "ok" and report["exit_status"] == 0, report
    assert sorted(d["name"] for d in devices_json["devices"]) == kernel_devices(), devices_json
    for device in devices_json["devices"]:
        name = device["name"]
        assert finding(report, f"{name} port 1", "state")["detail"] == "ACTIVE"
        assert finding(report, name, "PCIe link")["value"] == "none"
        assert "reports no NUMA node: not pinned" in finding(report, name, "NUMA")["detail"]


@pytest.mark.layout("veth")
def test_a_netdev_mtu_below_the_ports_maximum_warns_naming_it(rdmabench):
    mtu = Path("/sys/class/net/veth0/mtu").read_text().strip()
    run(["ip", "link", "set", "veth0", "mtu", "1500"], check=True)
    try:
        report = doctor_json(rdmabench)
    finally:
        run(["ip", "link", "set", "veth0", "mtu", mtu], check=True)
    found = finding(report, "rxe0 port 1", "MTU")
    assert found["level"] == "warn" and found["value"] == "1024", found
    assert "ip link set veth0 mtu 9000" in found["advice"], found
    assert report["exit_status"] == 10, report


@pytest.mark.layout("lo")
def test_numa_zero_pins_the_run_and_the_context_says_so(rdmabench, server):
    host, _ = server_address("lo")
    proc = run([rdmabench, "run", host, "--port", str(server.port), "--pattern", "write",
                "--mode", "bw", "--sizes", "4096", "--iters", "200", "--threads", "2", "--qps", "2",
                "--verify", "--counters", "off", "--numa", "0", "--json"], timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    context = json.loads(proc.stdout)["context"]
    node0 = Path("/sys/devices/system/node/node0/cpulist").read_text().strip()
    client = context["client"]
    assert client["cpu_choice"] == f"--numa 0: its CPUs {client['cpus']}", client["cpu_choice"]
    assert client["memory_node"] == 0 and client["numa_node"] is None
    assert node0 in ("0-1", "0") and client["cpus"] == ("0,1" if node0 == "0-1" else "0")
    # The server chose for itself: rxe has no node, so it is not pinned.
    assert context["server"]["cpus"] == "" and "not pinned" in context["server"]["cpu_choice"]
